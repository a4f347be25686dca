"""Keeping vendored tools in sync with a changing upstream: check --remote, update, diff.

The upstream is tests/servers/gradio_versions.py, restarted on the same port as version 1 or 2
(see its docstring for what changes). A sample project is vendored once from version 1; every
test copies it, edits it as a user would and runs the CLI.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.conftest import Project
from tests.servers import SERVERS_DIR, free_port, server_process

MODULES = ["convert", "greet", "wave"]


class Upstream:
    """The versioned app on one fixed port; `serve(v)` restarts it only when the version changes."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.version: int | None = None
        self.stack = ExitStack()

    def serve(self, version: int) -> None:
        if version == self.version:
            return
        self.stack.close()
        script = str(SERVERS_DIR / "gradio_versions.py")
        args = [script, "--port", str(self.port), "--version", str(version)]
        self.stack.enter_context(server_process(args, f"{self.url}config"))
        self.version = version


@pytest.fixture(scope="module")
def upstream() -> Iterator[Upstream]:
    server = Upstream()
    with server.stack:
        yield server


@pytest.fixture(scope="module")
def sample(upstream: Upstream, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of a project that vendored every endpoint of version 1."""
    upstream.serve(1)
    root = tmp_path_factory.mktemp("sample") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    result = project.run("add", f"space:{upstream.url}", "--all-endpoints")
    assert result.exit_code == 0, result.stderr
    return project.snapshot()


@pytest.fixture
def copy(project: Project, sample: dict[str, bytes]) -> Project:
    project.restore(sample)
    return project


def lock(project: Project) -> dict[str, dict]:
    return parse_lock((project.root / "vendorgen.lock").read_bytes())


def parse_lock(content: bytes) -> dict[str, dict]:
    return {entry["name"]: entry for entry in tomllib.loads(content.decode())["module"]}


# A user's edits that touch none of the lines version 2 changes.
SETUP_LINE = '    output_type = "number"\n'
MY_SETUP_LINE = '    output_type = "number"  # audited\n'
MY_METHOD = '''
    def describe_units(self) -> str:
        """Added by hand: the units this tool knows."""
        return ", ".join(self.inputs["unit"]["enum"])
'''


NEW_SIGNATURE = '+        self, value: float = 2, unit: Literal["m", "ft", "km"] = "m", precision: int = 3\n'


def add_my_edits(project: Project) -> None:
    project.edit("tools/convert.py", SETUP_LINE, MY_SETUP_LINE)
    project.edit("tools/convert.py", '    """\n\n    name = "convert"\n', '    """\n' + MY_METHOD + '\n    name = "convert"\n')


# -- version 1: nothing changed upstream ------------------------------------------------------------


def test_snapshots_record_how_to_inspect_again(sample: dict[str, bytes]) -> None:
    for module in MODULES:
        snapshot = json.loads(sample[f".vendorgen/schemas/{module}.json"])
        assert snapshot["options"] == {"api_name": f"/{module}", "name": module}


def test_check_remote_is_clean_while_upstream_is_unchanged(upstream: Upstream, copy: Project) -> None:
    upstream.serve(1)
    before = copy.snapshot()
    result = copy.run("check", "--remote")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "no upstream changes in 3 vendored modules" in result.stdout
    update = copy.run("update")
    assert update.exit_code == 0 and update.stdout == "3 modules up to date\n"
    assert copy.snapshot() == before


# -- version 2 -------------------------------------------------------------------------------------


def test_check_remote_reports_a_readable_schema_diff(upstream: Upstream, copy: Project) -> None:
    upstream.serve(2)
    before = copy.snapshot()
    result = copy.run("check", "--remote")
    assert result.exit_code == 1, result.stderr
    out = result.stdout
    assert "convert (space:" in out and "changed upstream" in out
    assert (
        "~ description 'Convert metres to another unit.' -> 'Convert a length in metres to m, ft or km, rounded.'"
        in out
    )
    assert "~ parameter 'value': default 1 -> 2" in out
    assert "~ parameter 'unit': enum ['m', 'ft'] -> ['m', 'ft', 'km']" in out
    assert "+ parameter 'precision': integer, default 3" in out
    assert "- module wave: " in out and "/wave" in out
    assert "greet (space:" not in out  # unchanged modules are not listed
    assert "2 of 3 vendored modules changed upstream" in out
    assert copy.snapshot() == before  # check never writes

    report = json.loads(copy.run("check", "--remote", "--json").stdout)
    assert not report["ok"]
    assert {module["name"]: module["changed"] for module in report["modules"]} == {
        "convert": True, "greet": False, "wave": True}  # fmt: skip


def test_update_merges_local_edits_with_the_upstream_change(upstream: Upstream, copy: Project) -> None:
    upstream.serve(2)
    add_my_edits(copy)
    result = copy.run("update", "convert")
    assert result.exit_code == 0, result.stderr
    assert "merged tools/convert.py, your edits kept" in result.stdout
    assert "~ parameter 'value': default 1 -> 2" in result.stdout
    code = (copy.root / "tools/convert.py").read_text()
    assert MY_SETUP_LINE in code and "def describe_units(self) -> str:" in code  # the edits survived
    assert "precision: int = 3" in code and "value: float = 2" in code  # and the upstream change came in
    assert '"enum": ["m", "ft", "km"]' in code
    assert "<<<<<<<" not in code

    tool = copy.import_module("tools/convert.py").ConvertTool()  # smolagents validates it
    assert tool.describe_units() == "m, ft, km"
    assert tool(value=1500, unit="km", precision=1) == 1.5  # against version 2

    entry = lock(copy)["convert"]
    snapshot = json.loads((copy.root / entry["schema"]).read_text())
    assert [p["parameter_name"] for p in snapshot["endpoint"]["parameters"]] == ["value", "unit", "precision"]
    # The file still carries the edits, so it is "edited" against the new lock entry, not outdated.
    listed = {row["name"]: row["status"] for row in json.loads(copy.run("list", "--json").stdout)["modules"]}
    assert listed == {"convert": "edited", "greet": "clean", "wave": "clean"}
    assert copy.run("check", "--allow-edits").exit_code == 0
    # A second update finds nothing new and keeps the edits.
    again = copy.run("update", "convert")
    assert (again.exit_code, again.stdout) == (0, "1 module up to date\n")
    assert (copy.root / "tools/convert.py").read_text() == code


def test_a_conflicting_edit_gets_markers_and_exit_1(upstream: Upstream, copy: Project, sample: dict) -> None:
    upstream.serve(2)
    mine = '"value": {"type": "number", "description": "Length in metres", "default": 1, "nullable": True},'
    copy.edit(
        "tools/convert.py",
        '"value": {"type": "number", "description": "Value", "default": 1, "nullable": True},',
        mine,
    )
    before = copy.snapshot()
    dry = copy.run("update", "convert", "--dry-run")
    assert dry.exit_code == 1 and "would conflict in tools/convert.py" in dry.stdout
    assert dry.stderr == "error: updating would leave merge conflicts in tools/convert.py\n"
    assert copy.snapshot() == before
    result = copy.run("update", "convert")
    assert result.exit_code == 1
    assert "conflict in tools/convert.py: 1 conflict block to resolve" in result.stdout
    assert result.stderr.strip().startswith("error: merge conflicts in tools/convert.py")
    code = (copy.root / "tools/convert.py").read_text()
    ours, rest = code.split("<<<<<<< tools/convert.py (your edits)\n")[1].split("||||||| as vendorgen wrote it\n")
    base, rest = rest.split("=======\n")
    theirs = rest.split(">>>>>>> upstream now\n")[0]
    assert mine in ours
    assert '"description": "Value", "default": 1,' in base
    assert '"description": "Value", "default": 2,' in theirs
    # The rest of the upstream change merged cleanly around the conflict.
    assert '"enum": ["m", "ft", "km"]' in code
    # Written, so locked: the lock describes version 2, and check points at the markers.
    assert lock(copy)["convert"]["schema_sha256"] != parse_lock(sample["vendorgen.lock"])["convert"]["schema_sha256"]
    check = copy.run("check", "--allow-edits")
    assert check.exit_code == 1 and "convert (tools/convert.py): conflict" in check.stdout
    assert "unresolved merge conflict markers" in check.stdout


def test_untouched_files_are_replaced_and_check_passes_after_update(upstream: Upstream, copy: Project) -> None:
    upstream.serve(2)
    assert copy.run("check").exit_code == 0  # offline: the files match their (old) snapshots
    result = copy.run("update", "convert", "greet")
    assert result.exit_code == 0, result.stderr
    assert "updated tools/convert.py" in result.stdout and "1 module up to date" in result.stdout
    greet = copy.snapshot()["tools/greet.py"]
    assert "value: float = 2" in (copy.root / "tools/convert.py").read_text()
    check = copy.run("check")
    assert check.exit_code == 0, check.stdout
    assert copy.snapshot()["tools/greet.py"] == greet


def test_update_writes_what_it_can_and_names_the_module_upstream_dropped(
    upstream: Upstream, copy: Project, sample: dict
) -> None:
    upstream.serve(2)
    wave_before = {key: value for key, value in copy.snapshot().items() if "wave" in key}
    result = copy.run("update")
    assert result.exit_code == 1
    assert "updated tools/convert.py" in result.stdout
    assert "could not update wave:" in result.stderr and "`vendorgen remove wave`" in result.stderr
    assert {key: value for key, value in copy.snapshot().items() if "wave" in key} == wave_before
    assert lock(copy)["wave"] == parse_lock(sample["vendorgen.lock"])["wave"]
    assert lock(copy)["convert"] != parse_lock(sample["vendorgen.lock"])["convert"]
    removed = copy.run("remove", "wave")
    assert removed.exit_code == 0, removed.stderr
    assert copy.run("check").exit_code == 0
    assert copy.run("check", "--remote").exit_code == 0


def test_dry_run_and_diff_show_the_change_and_write_nothing(upstream: Upstream, copy: Project) -> None:
    upstream.serve(2)
    add_my_edits(copy)
    before = copy.snapshot()
    dry = copy.run("update", "convert", "greet", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "would merge tools/convert.py, keeping your edits" in dry.stdout
    assert "1 module up to date" in dry.stdout
    shown = copy.run("update", "convert", "--diff")
    assert shown.exit_code == 0, shown.stderr
    assert "--- a/tools/convert.py\n+++ b/tools/convert.py\n" in shown.stdout
    assert NEW_SIGNATURE in shown.stdout
    assert f"+{MY_SETUP_LINE}" not in shown.stdout and f"-{MY_SETUP_LINE}" not in shown.stdout  # kept as is
    assert copy.snapshot() == before


def test_diff_shows_upstream_changes_and_local_edits_apart(upstream: Upstream, copy: Project) -> None:
    upstream.serve(2)
    add_my_edits(copy)
    result = copy.run("diff", "convert")
    assert result.exit_code == 0, result.stderr
    upstream_part, local_part = result.stdout.split("\nlocal edits in tools/convert.py")
    assert upstream_part.startswith("upstream changes to convert since it was locked")
    assert "~ parameter 'value': default 1 -> 2" in upstream_part
    assert NEW_SIGNATURE in upstream_part
    assert "audited" not in upstream_part and "describe_units" not in upstream_part
    assert f"+{MY_SETUP_LINE}" in local_part and "+    def describe_units(self) -> str:\n" in local_part
    assert "precision" not in local_part

    offline = copy.run("diff", "convert", "--offline")
    assert offline.exit_code == 0 and "upstream" not in offline.stdout and "describe_units" in offline.stdout


def test_an_unreachable_source_is_exit_2_and_writes_nothing(copy: Project) -> None:
    # Point the lock at a closed port: the module still regenerates offline from its snapshot. The lock
    # no longer says what the snapshot does (vendorgen.sync.binding), so each run is told to go anyway.
    lock_path = copy.root / "vendorgen.lock"
    text = lock_path.read_text()
    source = lock(copy)["greet"]["source"]
    lock_path.write_text(text.replace(f'source = "{source}"', 'source = "space:http://127.0.0.1:9/"'))
    before = copy.snapshot()
    check = copy.run("check", "--remote", "--trust", "greet")
    assert check.exit_code == 2
    assert "space:http://127.0.0.1:9/: cannot check greet: cannot read the Gradio API" in check.stdout
    update = copy.run("update", "--trust", "greet")
    assert update.exit_code == 2 and update.stderr.startswith("error: could not update greet: cannot read")
    diff = copy.run("diff", "--trust", "greet")
    assert diff.exit_code == 2 and "cannot tell" in diff.stdout and "local edits in tools/greet.py" in diff.stdout
    assert copy.snapshot() == before
    offline = copy.run("check")  # the module regenerates from its snapshot, which names another source
    assert offline.exit_code == 1 and "the lock's source is 'space:http://127.0.0.1:9/', not " in offline.stdout
