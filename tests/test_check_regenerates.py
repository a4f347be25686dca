"""Issue 27 findings 1-3 and 9: `check` trusts nothing a pull request writes.

Each test changes a copy of generated_example/ as a pull request could (the lock, a snapshot, a
module's header, the project's templates, files in the output package), runs the real CLI, and
checks the exit code, the line naming the problem, and a marker file that a payload writes if it
ever runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests.conftest import Project
from tests.test_hostile_repo import EXAMPLE, example  # noqa: F401 - a fixture
from tests.test_lock_binding import MARKER, PAYLOAD, REINSPECTING, plant, refusal, write_lock
from vendorgen.project.hashing import snapshot_sha256

MODULES = 13


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cache(project: Project) -> dict[str, str]:
    """A cache directory of this project's own (empty until a command regenerates)."""
    return {"VENDORGEN_CACHE_DIR": str(project.root.parent / "cache")}


# -- 1: the lock does not vouch for a file --------------------------------------------------------


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_a_payload_whose_hash_the_lock_records_fails_check(example: Project, warm: bool) -> None:  # noqa: F811
    env = cache(example)
    if warm:
        assert example.run("check", env=env).exit_code == 0  # the cache now knows every module
    module = example.root / "tools/text_tools.py"
    module.write_text(module.read_text() + PAYLOAD)
    write_lock(example, "text_tools", sha256=sha256(module))

    for flags in ((), ("--allow-edits",)):
        result = example.run("check", *flags, env=env)
        assert result.exit_code == 1, result.stdout + result.stderr
        assert f"check failed: 1 of {MODULES} vendored modules differ" in result.stdout
        assert "text_tools (tools/text_tools.py): outdated" in result.stdout
        assert "vendorgen.lock records the hash of code its snapshot does not generate" in result.stdout
        assert f"-{PAYLOAD.strip()}" in result.stdout  # the diff shows the line that is not generated


def test_a_corrupted_cache_costs_a_regeneration_not_a_verdict(example: Project) -> None:  # noqa: F811
    env = cache(example)
    assert example.run("check", env=env).exit_code == 0
    entries = sorted((Path(env["VENDORGEN_CACHE_DIR"]) / "generated").iterdir())
    assert len(entries) == MODULES
    texts = [entry.read_text() for entry in entries]
    module = example.root / "tools/text_tools.py"
    module.write_text(module.read_text() + PAYLOAD)
    write_lock(example, "text_tools", sha256=sha256(module))
    # Each entry's hash moved to another's name, then truncated or garbage: none is believed.
    for entry, text in zip(entries, texts[1:] + texts[:1]):
        entry.write_text(text)
    assert example.run("check", env=env).exit_code == 1
    for index, entry in enumerate(entries):
        entry.write_text(["", "garbage\n", texts[index][:70]][index % 3])
    result = example.run("check", env=env)
    assert result.exit_code == 1 and "text_tools (tools/text_tools.py): outdated" in result.stdout, result.stdout


def test_a_cache_inside_the_project_is_not_used(example: Project) -> None:  # noqa: F811
    inside = {"VENDORGEN_CACHE_DIR": str(example.root / ".cache")}
    assert example.run("check", env=inside).exit_code == 0
    assert not (example.root / ".cache").exists()


# -- 2: a header's hash does not bind a snapshot ----------------------------------------------------


def test_a_header_naming_a_new_snapshot_neither_passes_check_nor_runs_it(example: Project) -> None:  # noqa: F811
    """The lock and the snapshot now start a stdio command (bound to each other as vendorgen checks), and
    the module's header names the new snapshot's hash: nothing but regenerating tells the file is not it."""
    plant(example)
    path = example.root / ".vendorgen/schemas/text_tools.json"
    snapshot = json.loads(path.read_text())
    snapshot["source"] = f"mcp:stdio:{sys.executable} evil_server.py"
    snapshot["server"] = {"transport": "stdio", "command": sys.executable, "args": ["evil_server.py"], "env": []}
    path.write_text(json.dumps(snapshot, indent=1) + "\n")
    module = example.root / "tools/text_tools.py"
    module.write_text(re.sub(r"schema sha256 [0-9a-f]{64}", f"schema sha256 {snapshot_sha256(snapshot)}",
                             module.read_text()))  # fmt: skip
    write_lock(example, "text_tools", source=snapshot["source"], schema_sha256=snapshot_sha256(snapshot),
               sha256=sha256(module))  # fmt: skip

    result = example.run("check")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "text_tools (tools/text_tools.py): outdated" in result.stdout
    assert '+    "transport": "stdio",' in result.stdout  # what the snapshot generates, shown
    for command in REINSPECTING:
        line = refusal(example.run(*command, "text_tools"))
        assert "tools/text_tools.py does not run what .vendorgen/schemas/text_tools.json runs" in line, line
        assert not (example.root / MARKER).exists(), command


def test_an_edit_is_re_inspected_unless_it_changes_what_runs(example: Project) -> None:  # noqa: F811
    module = example.root / "tools/langchain_tools.py"
    text = module.read_text()
    module.write_text(text.replace('    name = "count_words"', '    # mine\n    name = "count_words"'))
    assert example.run("check").exit_code == 1
    assert example.run("check", "--allow-edits").exit_code == 0
    assert example.run("diff", "langchain_tools").exit_code == 0  # the edit is the user's code

    plant(example)
    module.write_text(text.replace('SOURCE_MODULE = "examples.langchain_tools"', 'SOURCE_MODULE = "evil_tools"'))
    line = refusal(example.run("diff", "langchain_tools"))
    assert "tools/langchain_tools.py does not run what .vendorgen/schemas/langchain_tools.json runs" in line
    assert not (example.root / MARKER).exists()


# -- 3: templates render in a sandbox -------------------------------------------------------------


def custom_macros(project: Project, line: str) -> None:
    """The project's `_macros.py.j2`: the built-in one with `line` first."""
    directory = project.root / "vendorgen_templates"
    directory.mkdir(exist_ok=True)
    builtin = Path(__file__).resolve().parent.parent / "templates" / "_macros.py.j2"
    (directory / "_macros.py.j2").write_text(line + "\n" + builtin.read_text())
    pyproject = project.root / "pyproject.toml"
    if "templates =" not in pyproject.read_text():
        pyproject.write_text(pyproject.read_text() + 'templates = "vendorgen_templates"\n')  # in [tool.vendorgen]


OFFLINE_RENDERING = [("check", "convert"), ("list", "--json"), ("diff", "--offline", "convert"),
                     ("update", "--offline", "--dry-run", "convert")]  # fmt: skip
NOT_RENDERED = "the custom templates differ from what vendorgen.lock records, so they are not rendered"


def test_a_template_cannot_run_code_even_when_rendered_on_request(example: Project) -> None:  # noqa: F811
    custom_macros(example, f"{{% set _ = cycler.__init__.__globals__.os.system('touch {MARKER}') %}}")
    for command in OFFLINE_RENDERING:
        result = example.run(*command)
        assert NOT_RENDERED in result.stdout + result.stderr, (command, result.stdout, result.stderr)
        rendered = example.run(*command, "--render-templates")
        assert "object is unsafe" in rendered.stdout + rendered.stderr, (command, rendered.stdout, rendered.stderr)
        assert not (example.root / MARKER).exists(), command


SANDBOX_ESCAPES = {
    "cycler": "{{ cycler.__init__.__globals__.os.system('touch ran.txt') }}",
    "self": "{{ self._TemplateReference__context.environment }}",
    "lipsum": "{{ lipsum.__globals__['os'].system('touch ran.txt') }}",
    "namespace": "{% set ns = namespace(x=1) %}{{ ns.__init__.__globals__ }}",
    "string": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "module": "{{ module.__class__.__init__.__globals__ }}",
    "format": "{{ '{0.__class__.__mro__}'.format(module) }}",
    "attr": "{{ module | attr('__class__') }}",
    "indirect format": "{% set f = 'x{0.__class__.__mro__}'.format %}{{ f(module) }}",
    "mutation": "{% set tools = [] %}{{ tools.append(1) }}",
    "range": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "loop": "{% set s = 'x' * 100000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}",
    "power": "{{ 9 ** 999999 }}",
    "powers": "{{ ((10 ** 60) ** 60) ** 60 }}",
    "repeat": "{{ 'x' * 10000000000 }}",
    "doubling": "{% macro d(s, n) %}{{ d(s ~ s, n - 1) if n else s }}{% endmacro %}{{ d('x', 60) }}",
    "recursion": "{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}",
    "widen": "{{ 'x'.center(1000000000) }}",
    "filter": "{{ [1] | batch(1000000000, 0) | list }}",
}


@pytest.mark.parametrize("payload", SANDBOX_ESCAPES.values(), ids=SANDBOX_ESCAPES.keys())
def test_a_template_escape_or_exhaustion_is_one_error(tmp_path: Path, payload: str) -> None:
    """In-process (cheap, each payload), the renderer `check` uses, with a real module as its context:
    one TemplateError, nothing run."""
    from vendorgen import sources
    from vendorgen.errors import TemplateError
    from vendorgen.generate.render import render_file

    snapshot = json.loads((EXAMPLE / ".vendorgen/schemas/convert.json").read_text())
    (tmp_path / "payload.j2").write_text(payload)
    before = set(os.listdir(tmp_path))
    with pytest.raises(TemplateError, match="payload.j2"):
        render_file("payload.j2", tmp_path, module=sources.load("space").build(snapshot))
    assert set(os.listdir(tmp_path)) == before and not Path(MARKER).exists()


# -- 9: code in the output package that the lock does not own ---------------------------------------


def test_code_in_the_output_package_that_vendorgen_did_not_write_fails_check(example: Project) -> None:  # noqa: F811
    tools = example.root / "tools"
    for harmless in ("", "# the tools\n", '"""Vendored tools."""\n'):
        (tools / "__init__.py").write_text(harmless)
        (tools / "notes.py").write_text(harmless)
        (tools / "README.md").write_text("notes\n")
        result = example.run("check")
        assert result.exit_code == 0, result.stdout
    found = {
        "__init__.py": (PAYLOAD, "tools/__init__.py runs on every import of tools/ and vendorgen did not write it"),
        "conftest.py": (PAYLOAD, "tools/conftest.py is code in tools/ that vendorgen did not write"),
        "__main__.py": (PAYLOAD, "tools/__main__.py is code in tools/ that vendorgen did not write"),
        "hook.pth": ("import os\n", "tools/hook.pth is code in tools/ that vendorgen did not write"),
        "helpers.py": ("import os\n", "tools/helpers.py is code in tools/ that vendorgen did not write"),
    }
    for name, (text, _) in found.items():
        (tools / name).write_text(text)
    (tools / "helpers").mkdir()
    result = example.run("check")
    assert result.exit_code == 1, result.stdout
    for _, line in found.values():
        assert f"unowned: {line}\n" in result.stdout, result.stdout
    assert "unowned: tools/helpers/ is a package in tools/ that vendorgen did not write\n" in result.stdout
    assert "6 files of code vendorgen did not write" in result.stdout


def test_an_init_hiding_code_in_a_comment_by_its_encoding_fails_check(example: Project) -> None:  # noqa: F811
    """`# coding: utf-7` makes Python read `+AAo-` as a newline: the 'comment' is code."""
    (example.root / "tools/__init__.py").write_bytes(b"# coding: utf-7\n# +AAo-open('ran.txt', 'w')\n")
    result = example.run("check")
    assert result.exit_code == 1
    assert "unowned: tools/__init__.py runs on every import of tools/" in result.stdout
