"""`vendorgen check`, `list`, `update --offline`, `remove` and `[tool.vendorgen]` in temporary projects.

Everything here is offline but vendoring the sample (from the bundled example app): each kind of
drift makes `check` exit 1 and `update` brings it back to 0.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen import __version__, builtin_templates_dir, templates_version

HEADER_LINE = "# Update: vendorgen update {{ module.name }}"


@pytest.fixture(scope="module")
def sample(gradio_app: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    root = tmp_path_factory.mktemp("sample") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    for api_name in ("/convert", "/describe"):
        result = project.run("add", f"space:{gradio_app}", "--api-name", api_name)
        assert result.exit_code == 0, result.stderr
    return project.snapshot()


@pytest.fixture
def copy(project: Project, sample: dict[str, bytes]) -> Project:
    project.restore(sample)
    return project


@pytest.fixture
def project_factory(tmp_path: Path):
    counter = iter(range(100))

    def make() -> Project:
        root = tmp_path / f"fresh{next(counter)}"
        root.mkdir()
        (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
        return Project(root)

    return make


def configure(project: Project, toml: str) -> None:
    (project.root / "pyproject.toml").write_text(f'[project]\nname = "demo"\nversion = "0"\n\n{toml}')


def lock(project: Project) -> dict[str, dict]:
    return {entry["name"]: entry for entry in tomllib.loads((project.root / "vendorgen.lock").read_text())["module"]}


def check_fails_then_update_fixes(project: Project, *expected: str) -> str:
    """`check` exits 1 saying `expected`; `update --offline` makes it exit 0. Returns check's output."""
    result = project.run("check")
    assert result.exit_code == 1, result.stdout + result.stderr
    for text in expected:
        assert text in result.stdout, result.stdout
    assert (
        result.stdout.endswith((" vendored modules differ\n", "the runtime module differs\n"))
        or "extra file" in result.stdout
    )
    update = project.run("update", "--offline")
    assert update.exit_code == 0, update.stdout + update.stderr
    after = project.run("check")
    assert after.exit_code == 0, after.stdout
    return result.stdout


def test_a_fresh_project_is_in_sync(copy: Project) -> None:
    result = copy.run("check")
    assert (result.exit_code, result.stdout) == (0, "2 vendored modules in sync\n")
    report = json.loads(copy.run("check", "--json").stdout)
    assert report["ok"] and report["extra"] == []
    assert [(module["name"], module["status"], module["diff"]) for module in report["modules"]] == [
        ("convert", "clean", ""), ("describe", "clean", "")]  # fmt: skip


def test_a_local_edit_fails_with_its_diff_unless_edits_are_allowed(copy: Project) -> None:
    copy.edit(
        "tools/convert.py",
        "        return self._predict(",
        "        # reviewed\n        return self._predict(",
    )
    result = copy.run("check")
    assert result.exit_code == 1
    assert "convert (tools/convert.py): edited\n  - local edits: `vendorgen diff convert` shows them" in result.stdout
    assert "--- a/tools/convert.py\n+++ b/tools/convert.py\n" in result.stdout
    assert "+        # reviewed\n" in result.stdout
    assert result.stdout.endswith("check failed: 1 of 2 vendored modules differ\n")
    allowed = copy.run("check", "--allow-edits")
    assert (allowed.exit_code, allowed.stdout) == (0, "2 vendored modules in sync (1 with local edits, allowed)\n")
    module = json.loads(copy.run("check", "--json").stdout)["modules"][0]
    assert module["status"] == "edited" and "+        # reviewed\n" in module["diff"]
    # update keeps the edit: nothing upstream changed, so the merge is the file itself.
    before = copy.snapshot()
    assert copy.run("update", "--offline").exit_code == 0
    assert copy.snapshot() == before


def test_a_missing_file_fails_and_update_restores_it(copy: Project, sample: dict[str, bytes]) -> None:
    (copy.root / "tools/convert.py").unlink()
    check_fails_then_update_fixes(
        copy,
        "convert (tools/convert.py): missing",
        "`vendorgen update --offline convert` restores it from its snapshot",
    )
    assert (copy.root / "tools/convert.py").read_bytes() == sample["tools/convert.py"]


def test_an_extra_vendored_file_fails(copy: Project) -> None:
    (copy.root / "tools/old_convert.py").write_bytes((copy.root / "tools/convert.py").read_bytes())
    (copy.root / "tools/helpers.py").write_text("# my own code\n")
    result = copy.run("check")
    assert result.exit_code == 1
    assert "tools/old_convert.py: extra: it says it is vendored, but vendorgen.lock does not list it" in result.stdout
    assert "helpers" not in result.stdout
    assert result.stdout.endswith("check failed: 0 of 2 vendored modules differ, 1 extra file\n")
    assert json.loads(copy.run("check", "--json").stdout)["extra"] == ["tools/old_convert.py"]
    (copy.root / "tools/old_convert.py").unlink()
    assert copy.run("check").exit_code == 0


def test_vendorgen_version_drift_fails_until_update(copy: Project, sample: dict[str, bytes]) -> None:
    path = copy.root / "vendorgen.lock"
    path.write_text(path.read_text().replace(f'"vendorgen {__version__}"', '"vendorgen 0.0.9"'))
    output = check_fails_then_update_fixes(copy, f"written by vendorgen 0.0.9, this is vendorgen {__version__}")
    assert "convert (tools/convert.py): outdated" in output and "describe (tools/describe.py): outdated" in output
    assert lock(copy)["convert"]["generator"] == f"vendorgen {__version__}"
    assert copy.snapshot()["tools/convert.py"] == sample["tools/convert.py"]


def test_a_hand_edited_snapshot_fails_until_update(copy: Project) -> None:
    copy.edit(".vendorgen/schemas/convert.json", '"label": "Value"', '"label": "Length"')
    check_fails_then_update_fixes(copy, ".vendorgen/schemas/convert.json changed since vendorgen.lock was written")
    assert '"description": "Length"' in (copy.root / "tools/convert.py").read_text()


def test_a_custom_template_changes_the_output_and_check_knows(copy: Project) -> None:
    templates = copy.root / "my_templates"
    templates.mkdir()
    macros = (builtin_templates_dir() / "_macros.py.j2").read_text()
    assert HEADER_LINE in macros
    (templates / "_macros.py.j2").write_text(macros.replace(HEADER_LINE, "# Reviewed by ACME before use."))
    configure(copy, '[tool.vendorgen]\ntemplates = "my_templates"\n')
    # Templates the lock does not record are rendered only when asked (issue 27 finding 3).
    shown = copy.run("check", "--render-templates")
    assert (
        shown.exit_code == 1
        and "-# Update: vendorgen update convert\n+# Reviewed by ACME before use.\n" in shown.stdout
    )
    output = check_fails_then_update_fixes(copy, "custom templates now override the built-in ones")
    assert "the custom templates differ from what vendorgen.lock records, so they are not rendered" in output
    assert "# Reviewed by ACME" not in output
    assert "# Reviewed by ACME before use.\n" in (copy.root / "tools/convert.py").read_text()
    assert lock(copy)["convert"]["templates"] == templates_version() and lock(copy)["convert"]["custom_templates"]

    # Another kind's template does not concern space modules.
    (templates / "mcp.py.j2").write_text("{# not used by space modules #}\n")
    assert copy.run("check").exit_code == 0
    # Editing the override again is drift again; so is dropping it.
    (templates / "_macros.py.j2").write_text(macros.replace(HEADER_LINE, "# Reviewed by ACME, twice."))
    check_fails_then_update_fixes(copy, "custom templates changed")
    configure(copy, "")
    check_fails_then_update_fixes(copy, "custom templates no longer apply")
    assert lock(copy)["convert"]["templates"] == templates_version() and "custom_templates" not in lock(copy)["convert"]


def test_a_line_length_change_is_drift(copy: Project) -> None:
    configure(copy, "[tool.vendorgen]\nline_length = 60\n")
    output = check_fails_then_update_fixes(copy, "[tool.vendorgen] settings for it changed")
    assert "+        from_unit: Literal[\n" in output
    code_lines = [line for line in (copy.root / "tools/convert.py").read_text().splitlines() if line[:1] != "#"]
    assert max(len(line) for line in code_lines if '"' not in line) <= 60  # black leaves comments and strings


def test_overrides_rename_the_tool_its_class_and_a_parameter(copy: Project) -> None:
    configure(copy, """[tool.vendorgen.overrides.convert]
name = "convert_length"
class_name = "LengthTool"
description = "Convert a length between metric and imperial units."
params = { from_unit = "source_unit", to_unit = "target_unit" }
""")  # fmt: skip
    check_fails_then_update_fixes(
        copy, "convert (tools/convert.py): outdated", "[tool.vendorgen] settings for it changed"
    )
    assert lock(copy)["convert"]["tools"] == ["convert_length"]
    assert lock(copy)["describe"]["templates"] == templates_version()  # the override concerns convert only
    code = (copy.root / "tools/convert.py").read_text()
    assert "class LengthTool(SpaceTool):" in code and 'name = "convert_length"' in code
    assert "Renamed arguments: source_unit is sent as from_unit, target_unit is sent as to_unit." in code
    tool = copy.import_module("tools/convert.py").LengthTool()  # smolagents validates inputs == forward
    assert list(tool.inputs) == ["value", "source_unit", "target_unit"]
    assert tool.description == "Convert a length between metric and imperial units."
    assert tool(value=2, source_unit="km", target_unit="m") == 2000  # wire names still reach the app


def test_an_override_for_a_parameter_that_does_not_exist_names_the_key(copy: Project) -> None:
    configure(copy, '[tool.vendorgen.overrides.convert]\nparams = { unit = "u" }\n')
    before = copy.snapshot()
    result = copy.run("update", "--offline", "convert")
    assert result.exit_code == 2
    assert "tool.vendorgen.overrides.convert.params.unit: convert has no parameter 'unit'" in result.stderr
    assert "(its parameters: value, from_unit, to_unit)" in result.stderr
    assert copy.snapshot() == before


def test_exclude_skips_tools_at_add_and_flags_vendored_ones(copy: Project, project_factory, gradio_app: str) -> None:
    configure(copy, f'[tool.vendorgen.sources."space:{gradio_app}"]\nexclude = ["desc*"]\n')
    result = copy.run("check")
    assert result.exit_code == 1
    assert "describe (tools/describe.py): error" in result.stdout
    assert (
        f'tool.vendorgen.sources."space:{gradio_app}" excludes every tool of describe; `vendorgen remove describe`'
        in result.stdout
    )
    # The filter concerns every module of the source: convert's code stays, its lock entry is stale.
    assert "convert (tools/convert.py): outdated" in result.stdout
    assert "its code stays the same: `vendorgen update --offline convert` updates the lock" in result.stdout
    update = copy.run("update", "--offline")
    assert update.exit_code == 2 and "could not update describe: " in update.stderr
    assert "refreshed the lock entry of convert" in update.stdout
    assert copy.run("remove", "describe").exit_code == 0
    assert copy.run("check").exit_code == 0

    fresh = project_factory()
    configure(fresh, f'[tool.vendorgen.sources."space:{gradio_app}"]\ninclude = ["/convert", "stats"]\n')
    added = fresh.run("add", f"space:{gradio_app}", "--all-endpoints")
    assert added.exit_code == 0, added.stderr
    assert sorted(path.name for path in (fresh.root / "tools").iterdir()) == [
        "_vendored_gradio.py",
        "_vendored_runtime.py",
        "convert.py",
        "stats.py",
    ]
    assert fresh.run("check").exit_code == 0


def test_remove_deletes_only_what_the_lock_owns(copy: Project) -> None:
    (copy.root / "tools/helpers.py").write_text("# mine\n")
    result = copy.run("remove", "convert")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "deleted tools/convert.py\ndeleted .vendorgen/schemas/convert.json\nremoved convert from vendorgen.lock\n"
    )
    assert sorted(path.name for path in (copy.root / "tools").iterdir()) == [
        "_vendored_gradio.py",
        "_vendored_runtime.py",
        "describe.py",
        "helpers.py",
    ]
    assert not (copy.root / ".vendorgen/schemas/convert.json").exists()
    assert list(lock(copy)) == ["describe"]
    assert copy.run("check").exit_code == 0


def test_remove_refuses_an_edited_file_without_force(copy: Project) -> None:
    copy.edit(
        "tools/describe.py",
        "        return self._predict(",
        "        # mine now\n        return self._predict(",
    )
    before = copy.snapshot()
    refused = copy.run("remove", "convert", "describe")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "error: tools/describe.py has local edits (`vendorgen diff describe` shows them); --force deletes it anyway\n"
    )
    assert copy.snapshot() == before  # all or nothing: convert is still there too
    unknown = copy.run("remove", "nope")
    assert unknown.exit_code == 2 and "not vendored here: nope (vendored: convert, describe)" in unknown.stderr
    forced = copy.run("remove", "describe", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert not (copy.root / "tools/describe.py").exists() and list(lock(copy)) == ["convert"]


def test_list_shows_each_status(copy: Project) -> None:
    copy.edit(
        "tools/convert.py",
        "        return self._predict(",
        "        # mine\n        return self._predict(",
    )
    (copy.root / "tools/describe.py").unlink()
    rows = {row["name"]: row for row in json.loads(copy.run("list", "--json").stdout)["modules"]}
    assert {name: row["status"] for name, row in rows.items()} == {"convert": "edited", "describe": "missing"}
    missing = "tools/describe.py is missing: `vendorgen update --offline describe` restores it from its snapshot"
    assert rows["describe"]["problems"] == [missing]

    copy.edit("tools/convert.py", "        # mine\n", "<<<<<<< mine\n=======\n>>>>>>> theirs\n")
    assert copy.run("update", "--offline", "describe").exit_code == 0
    path = copy.root / "vendorgen.lock"
    path.write_text(path.read_text().replace(f'"vendorgen {__version__}"', '"vendorgen 0.0.9"'))
    rows = {row["name"]: row for row in json.loads(copy.run("list", "--json").stdout)["modules"]}
    assert {name: row["status"] for name, row in rows.items()} == {"convert": "conflict", "describe": "outdated"}
    text = copy.run("list").stdout
    assert "convert                  conflict tools/convert.py" in text
    assert "describe                 outdated tools/describe.py" in text


def test_a_warm_check_of_unchanged_modules_imports_no_code_generator(copy: Project) -> None:
    """The first check regenerates every module; the user's cache (outside the project) then spares the
    second one jinja2, black and libcst."""
    program = (
        "import sys\nfrom vendorgen.cli import main\nmain(['check'])\n"
        "print(sorted(name for name in ('jinja2', 'black', 'libcst', 'gradio_client') if name in sys.modules))"
    )
    env = {"PYTHONPATH": str(REPO), "PATH": "", "VENDORGEN_CACHE_DIR": str(copy.root.parent / "cache")}
    imported = []
    for _ in range(2):
        result = subprocess.run([sys.executable, "-c", program], cwd=copy.root, capture_output=True, text=True,
                                env=env)  # fmt: skip
        assert result.returncode == 0, result.stderr
        imported.append(result.stdout.splitlines()[-1])
    assert imported == ["['black', 'jinja2', 'libcst']", "[]"]


def test_the_committed_example_is_in_sync() -> None:
    result = Project(REPO / "generated_example").run("check")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_the_pre_commit_hook_runs_check(copy: Project) -> None:
    import yaml

    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "vendorgen-check" and hook["pass_filenames"] is False
    program, *args = hook["entry"].split()
    assert program == "vendorgen"
    assert copy.run(*args).exit_code == 0
    (copy.root / "tools/convert.py").write_text("# broken\n")
    assert copy.run(*args).exit_code == 1


def test_diff_offline_separates_local_edits_from_template_drift(copy: Project) -> None:
    templates = copy.root / "my_templates"
    templates.mkdir()
    macros = (builtin_templates_dir() / "_macros.py.j2").read_text()
    (templates / "_macros.py.j2").write_text(macros.replace(HEADER_LINE, "# Reviewed by ACME before use."))
    configure(copy, '[tool.vendorgen]\ntemplates = "my_templates"\n')
    result = copy.run("diff", "convert", "--offline", "--render-templates")
    assert result.exit_code == 0, result.stderr
    local, drift = result.stdout.split(
        "\n\ndrift: the lock no longer describes what this vendorgen writes for convert:\n"
    )
    assert local == "local edits in tools/convert.py (generated from the locked snapshot -> on disk):\n  none"
    assert drift.startswith("  - custom templates now override the built-in ones\n--- a/tools/convert.py\n")
    assert "+# Reviewed by ACME before use.\n" in drift


def edit_then_change_templates(project: Project) -> None:
    """The user edits convert.py, then overrides the template of the header every module has."""
    project.edit(
        "tools/convert.py",
        "        return self._predict(",
        "        # mine\n        return self._predict(",
    )
    templates = project.root / "my_templates"
    templates.mkdir()
    macros = (builtin_templates_dir() / "_macros.py.j2").read_text()
    (templates / "_macros.py.j2").write_text(macros.replace(HEADER_LINE, "# Reviewed by ACME before use."))
    configure(project, '[tool.vendorgen]\ntemplates = "my_templates"\n')


def git(project: Project, *args: str) -> None:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, *args], cwd=project.root, check=True, capture_output=True)


def test_an_edited_file_gets_new_template_lines_when_git_has_it_as_written(copy: Project) -> None:
    """The merge base is the committed file as vendorgen wrote it, so template changes merge like upstream ones."""
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-qm", "vendor convert and describe")
    edit_then_change_templates(copy)
    git(copy, "commit", "-qam", "my edit, new templates")  # the text as written is now only in history
    result = copy.run("update", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "merged tools/convert.py, your edits kept" in result.stdout and "note:" not in result.stdout
    code = (copy.root / "tools/convert.py").read_text()
    assert "# mine\n" in code and "# Reviewed by ACME before use.\n" in code
    assert "# Update: vendorgen update convert" not in code
    assert copy.run("check", "--allow-edits").exit_code == 0


def test_an_edited_file_keeps_its_old_generated_lines_and_update_says_so(copy: Project) -> None:
    """Without git's copy of the file as written, the new templates do not reach an edited file."""
    edit_then_change_templates(copy)
    result = copy.run("update", "--offline")
    assert result.exit_code == 0, result.stderr
    assert (
        "refreshed the lock entry of convert\n  note: tools/convert.py has local edits and was generated"
        in result.stdout
    )
    assert "updated tools/describe.py" in result.stdout
    code = (copy.root / "tools/convert.py").read_text()
    assert "# mine\n" in code and "ACME" not in code
    assert "# Reviewed by ACME before use.\n" in (copy.root / "tools/describe.py").read_text()
