"""`[tool.vendorgen]`: validation that names the key, overrides and filters applied to a spec, fingerprints."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen import __version__, templates_version
from vendorgen.errors import Excluded, SchemaError, UsageError
from vendorgen.project.config import Config, init_table, load_config
from vendorgen.project.fingerprint import Fingerprint
from vendorgen.sources import space

API = json.loads((Path(__file__).resolve().parent / "data" / "gradio_view_api.json").read_text())
SOURCE = "space:http://127.0.0.1:7860/"


def module(api_name: str = "/keyword"):
    return space.build({"kind": "space", "source": SOURCE, "src": SOURCE[6:], "name": api_name.strip("/"),
                        "revision": "", "api_name": api_name, "endpoint": API["named_endpoints"][api_name]})  # fmt: skip


def load(tmp_path: Path, toml: str) -> Config:
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "demo"\n\n{toml}')
    return load_config(tmp_path)


def test_defaults_without_a_table(tmp_path: Path) -> None:
    config = load(tmp_path, "")
    assert (config.output_dir, config.line_length, config.templates_dir) == ("tools", 99, None)
    assert config.apply(module()) == module()
    assert config.fingerprint("space", SOURCE, ["keyword"]) == Fingerprint(templates_version())


def test_a_full_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "tpl").mkdir()
    config = load(tmp_path, f"""[tool.vendorgen]
output_dir = "agent/tools"
line_length = 120
templates = "tpl"

[tool.vendorgen.overrides.keyword]
name = "trip"
params = {{ from = "origin" }}

[tool.vendorgen.sources."{SOURCE}"]
include = ["key*"]
exclude = ["/stats"]
""")  # fmt: skip
    assert (config.output_dir, config.line_length, config.templates_dir) == ("agent/tools", 120, tmp_path / "tpl")
    assert config.overrides["keyword"].params == {"from": "origin"}
    assert config.sources[SOURCE].include == ("key*",)


ERRORS = [
    ('[tool.vendorgen]\noutptu_dir = "x"\n',
     "tool.vendorgen.outptu_dir is not a known key (known: output_dir, line_length, templates, overrides, sources, review, mcp_resources, mcp_prompts)"),
    ('[tool.vendorgen]\nline_length = "99"\n', "tool.vendorgen.line_length must be an integer, not a string"),
    ("[tool.vendorgen]\nline_length = true\n", "tool.vendorgen.line_length must be an integer, not a boolean"),
    ("[tool.vendorgen]\nline_length = 0\n", "tool.vendorgen.line_length must be a positive integer, got 0"),
    ('[tool.vendorgen]\noutput_dir = ""\n', "tool.vendorgen.output_dir must not be empty"),
    ("[tool.vendorgen]\noutput_dir = 3\n", "tool.vendorgen.output_dir must be a string, not an integer"),
    ('[tool.vendorgen]\ntemplates = "nowhere"\n', "tool.vendorgen.templates: nowhere is not a directory"),
    ('[tool.vendorgen]\ntemplates = "../.."\n', "tool.vendorgen.templates: ../.. is outside the project"),
    ('[tool.vendorgen]\noverrides = ["x"]\n', "tool.vendorgen.overrides must be a table, not an array"),
    ("[tool.vendorgen.overrides]\nconvert = 1\n", "tool.vendorgen.overrides.convert must be a table, not an integer"),
    ('[tool.vendorgen.overrides.convert]\nclas_name = "X"\n',
     "tool.vendorgen.overrides.convert.clas_name is not a known key (known: name, class_name, description, params)"),
    ('[tool.vendorgen.overrides.convert]\nname = "class"\n',
     "tool.vendorgen.overrides.convert.name: 'class' is not a usable Python name (try 'class_')"),
    ('[tool.vendorgen.overrides.convert]\nclass_name = "My Tool"\n',
     "tool.vendorgen.overrides.convert.class_name: 'My Tool' is not a usable Python name (try 'My_Tool')"),
    ('[tool.vendorgen.overrides.convert]\ndescription = " "\n',
     "tool.vendorgen.overrides.convert.description must not be empty"),
    ("[tool.vendorgen.overrides.convert]\nparams = { from = 1 }\n",
     "tool.vendorgen.overrides.convert.params.from must be a string, not an integer"),
    ('[tool.vendorgen.overrides.convert]\nparams = { "max stops" = "self" }\n',
     "tool.vendorgen.overrides.convert.params.\"max stops\": 'self' is not a usable Python name (try 'self_')"),
    ('[tool.vendorgen.sources."ftp:x"]\ninclude = []\n', 'tool.vendorgen.sources."ftp:x": unknown source \'ftp:x\''),
    (f'[tool.vendorgen.sources."{SOURCE}"]\ninclude = "convert"\n',
     f'tool.vendorgen.sources."{SOURCE}".include must be an array, not a string'),
    (f'[tool.vendorgen.sources."{SOURCE}"]\nexclude = [1]\n',
     f'tool.vendorgen.sources."{SOURCE}".exclude must be a list of strings, not contain an integer'),
    (f'[tool.vendorgen.sources."{SOURCE}"]\nonly = []\n',
     f'tool.vendorgen.sources."{SOURCE}".only is not a known key (known: include, exclude)'),
]  # fmt: skip


@pytest.mark.parametrize(("toml", "message"), ERRORS, ids=[message.split(" ")[0] for _, message in ERRORS])
def test_bad_config_names_the_key(tmp_path: Path, toml: str, message: str) -> None:
    with pytest.raises(UsageError) as error:
        load(tmp_path, toml)
    assert str(error.value).startswith(message)


def test_a_bad_key_is_one_error_line_exit_2_and_nothing_written(project: Project) -> None:
    (project.root / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[tool.vendorgen]\nline_lenght = 80\n')
    before = project.snapshot()
    for command in (["list"], ["check"], ["update"], ["add", "space:http://127.0.0.1:9/"]):
        result = project.run(*command)
        assert result.exit_code == 2, command
        assert result.stderr == (
            "error: tool.vendorgen.line_lenght is not a known key"
            " (known: output_dir, line_length, templates, overrides, sources, review, mcp_resources, mcp_prompts)\n"
        )
    assert project.snapshot() == before


GOLDEN_TEMPLATE = (REPO / "golden" / "custom_templates" / "templates" / "langchain.py.j2").read_text()
BUILTIN_MACROS = REPO / "templates" / "_macros.py.j2"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        (  # written for an older vendorgen, whose context had module.uses_literal
            GOLDEN_TEMPLATE.replace(
                "{{ module.typing_imports }}", "Any{% if module.uses_literal %}, Literal{% endif %}"
            ),
            "{template}, line 9 does not render with vendorgen {version}:"
            " 'vendorgen.model.ModuleSpec object' has no attribute 'uses_literal'",
        ),
        ("{% if module.tools %}\n", "{template}, line 1 is not valid Jinja2: Unexpected end of template."),
        (
            '{% include "gone.py.j2" %}\n',
            "{template}, line 1 does not render with vendorgen {version}: no template gone.py.j2 to include",
        ),
        (
            '{% import "_macros.py.j2" as macros %}\n{{ macros.header(module) }}\n',
            f"{BUILTIN_MACROS}, line 12 (used by {{template}}, line 2) does not render with vendorgen {{version}}:"
            " parameter 'schema_sha256' was not provided",
        ),
    ],
)
def test_a_custom_template_that_does_not_fit_is_one_error_line_naming_it(
    project: Project, template: str, message: str
) -> None:
    """A project's template fails naming its file, line and what it lacks: never other code, never a traceback."""
    (project.root / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[tool.vendorgen]\ntemplates = "tpl"\n')
    (project.root / "tpl").mkdir()
    (project.root / "tpl" / "langchain.py.j2").write_text(template)
    before = project.snapshot()
    result = project.run("add", "langchain:tests.servers.langchain_tools:word_count")
    shown = message.format(template=project.root / "tpl" / "langchain.py.j2", version=__version__)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: the template {shown}"), result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert project.snapshot() == before


def test_overrides_rename_tool_class_and_parameters_by_wire_or_python_name(tmp_path: Path) -> None:
    config = load(tmp_path, """[tool.vendorgen.overrides.keyword]
name = "trip"
description = "Plan a trip."
params = { from_ = "origin", "max-stops" = "stops" }
""")  # fmt: skip
    [tool] = config.apply(module()).tools
    assert (tool.name, tool.class_name, tool.description) == ("trip", "TripTool", "Plan a trip.")
    assert [(spec.wire_name, spec.name) for spec in tool.inputs] == [
        ("from", "origin"), ("to", "to"), ("max-stops", "stops")]  # fmt: skip
    assert tool.endpoint == "/keyword" and dict(tool.constants)["api_name"] == "/keyword"


def test_a_class_name_the_source_chose_survives_a_tool_rename(tmp_path: Path) -> None:
    config = load(tmp_path, '[tool.vendorgen.overrides.keyword]\nname = "trip"\n')
    chosen = replace(module(), tools=(replace(module().tools[0], class_name="KeywordSearch"),))
    assert config.apply(chosen).tools[0].class_name == "KeywordSearch"


def test_renames_that_collide_are_refused(tmp_path: Path) -> None:
    config = load(tmp_path, '[tool.vendorgen.overrides.keyword]\nparams = { from = "to" }\n')
    with pytest.raises(SchemaError, match="parameters of keyword 'from' and 'to' both become 'to'"):
        config.apply(module())


def test_filters_match_tool_or_remote_names(tmp_path: Path) -> None:
    config = load(tmp_path, f'[tool.vendorgen.sources."{SOURCE}"]\ninclude = ["/key*", "stats"]\nexclude = ["stats"]\n')
    assert config.apply(module("/keyword")).tools
    for api_name in ("/stats", "/convert"):
        with pytest.raises(Excluded, match=f'sources."{SOURCE}" excludes every tool of {api_name[1:]}'):
            config.apply(module(api_name))
    other = replace(module("/convert"), source="space:http://elsewhere/")
    assert config.apply(other).tools  # filters are per source


def test_fingerprint_parts_concern_only_what_applies(tmp_path: Path) -> None:
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "mcp.py.j2").write_text("mcp only\n")
    config = load(
        tmp_path, '[tool.vendorgen]\ntemplates = "tpl"\n\n[tool.vendorgen.overrides.keyword]\nname = "trip"\n'
    )
    version = templates_version()
    assert config.fingerprint("space", SOURCE, ["convert"]) == Fingerprint(version)  # mcp.py.j2, keyword: not its own
    custom = config.fingerprint("mcp", SOURCE, ["convert"])
    assert custom.templates == version and custom.custom_templates and not custom.settings
    renamed = config.fingerprint("space", SOURCE, ["trip"])  # the override, found by its new name
    assert renamed.settings and not renamed.custom_templates
    assert renamed == config.fingerprint("space", SOURCE, ["keyword"])

    (tmp_path / "tpl" / "_macros.py.j2").write_text("shared\n")
    shared = load_config(tmp_path).fingerprint("space", SOURCE, ["convert"])
    assert shared.custom_templates and shared.templates == version
    (tmp_path / "tpl" / "_macros.py.j2").write_text("shared, edited\n")
    edited = load_config(tmp_path).fingerprint("space", SOURCE, ["convert"])
    assert edited.custom_templates not in ("", shared.custom_templates)


# -- vendorgen init ------------------------------------------------------------------------------


def test_init_adds_the_table_and_keeps_everything_else(tmp_path: Path) -> None:
    original = '[project]\nname = "demo"  # mine\n\n[tool.black]  # black\nline-length = 100\n'
    (tmp_path / "pyproject.toml").write_text(original)
    init_table(tmp_path, "agent/tools", 88)
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(original) and "\n[tool.vendorgen]\n" in text
    config = load_config(tmp_path)
    assert (config.output_dir, config.line_length) == ("agent/tools", 88)
    assert not list(tmp_path.glob(".pyproject.toml*"))  # no staging file left


@pytest.mark.parametrize(
    "existing",
    ['[tool.vendorgen]\noutput_dir = "x"\n', '[tool.vendorgen.overrides.convert]\nname = "c"\n'],
)
def test_init_refuses_an_existing_table(tmp_path: Path, existing: str) -> None:
    (tmp_path / "pyproject.toml").write_text(existing)
    with pytest.raises(UsageError, match=r"already has a \[tool.vendorgen\] table"):
        init_table(tmp_path)
    assert (tmp_path / "pyproject.toml").read_text() == existing


def test_init_refuses_a_pyproject_it_cannot_parse(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\n")
    with pytest.raises(UsageError, match="pyproject.toml: "):
        init_table(tmp_path)
    assert (tmp_path / "pyproject.toml").read_text() == "[project\n"
