"""Issue 19 finding 1: one line of the lock must not choose what runs.

A pull request that changes an entry's `source` (or the snapshot's `source` with the lock's hash
to match) used to pass `check`, and `check --remote`, `update` and `diff` then ran the new command
line or imported the new module with the trust the snapshot recorded. Each test changes the files of
a copy of generated_example/ as such a pull request would, runs the real CLI, and looks for a
marker file that the command or module writes when it runs.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import Project, Result
from tests.test_hostile_repo import error_line, example, read_lock  # noqa: F401 - a fixture
from vendorgen.project.hashing import snapshot_sha256
from vendorgen.project.lockfile import RuntimeEntry
from vendorgen.project.workspace import LOCK_NAME, LockEntry, dump_lock

MARKER = "ran.txt"
# A module and a script that leave MARKER in the working directory (the project) when they run.
PAYLOAD = f"open({MARKER!r}, 'w').write('ran')\n"

REINSPECTING = [("check", "--remote"), ("update",), ("diff",)]


def write_lock(project: Project, name: str, **fields: str) -> None:
    """The lock with `fields` of module `name` changed, everything else (its [[runtime]] too) as it was."""
    lock = read_lock(project)
    entries = [LockEntry.from_toml({**table, **fields} if table["name"] == name else table) for table in lock["module"]]
    runtimes = [RuntimeEntry(**table) for table in lock.get("runtime", [])]
    (project.root / LOCK_NAME).write_text(dump_lock(entries, runtimes))


def refusal(result: Result) -> str:
    """What a re-inspecting command that refused says: check --remote reports a source's error on stdout
    (exit 2), update and diff end with one `error:` line."""
    assert result.exit_code == 2, result
    return result.stdout if "could not be checked" in result.stdout else error_line(result)


def plant(project: Project) -> None:
    (project.root / "evil_tools.py").write_text(PAYLOAD + "toolkit = None\n")
    (project.root / "evil_server.py").write_text(PAYLOAD)


HOSTILE_SOURCES = {
    "langchain_tools": "langchain:evil_tools:toolkit",  # an import
    "text_tools": f"mcp:stdio:{sys.executable} evil_server.py",  # a command line
}


@pytest.mark.parametrize("name", ["langchain_tools", "text_tools"])
def test_a_lock_source_that_is_not_its_snapshots_fails_check_and_runs_nothing(
    example: Project, name: str
) -> None:  # noqa: F811
    plant(example)
    source = HOSTILE_SOURCES[name]
    write_lock(example, name, source=source)

    result = example.run("check")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "1 of 13 vendored modules differ\n" in result.stdout  # that one, and nothing else
    assert f"the lock's source is '{source}', not " in result.stdout

    for command in REINSPECTING:
        line = refusal(example.run(*command, name))
        assert "not re-inspected: the lock's source is" in line and "pass --trust" in line, line
        assert not (example.root / MARKER).exists(), command
    # update wrote nothing: the lock still names the hostile source
    assert {table["name"]: table["source"] for table in read_lock(example)["module"]}[name] == source


def test_a_snapshot_whose_source_is_not_what_it_runs_is_drift_and_is_not_run(example: Project) -> None:  # noqa: F811
    """The lock and the snapshot changed together, the lock's hash to match: the snapshot's own server
    (what the generated code connects to) is not what its source says, and the file names another hash."""
    plant(example)
    snapshot_path = example.root / ".vendorgen/schemas/text_tools.json"
    snapshot = json.loads(snapshot_path.read_text())
    snapshot["source"] = f"mcp:stdio:{sys.executable} evil_server.py"
    snapshot_path.write_text(json.dumps(snapshot, indent=1) + "\n")
    write_lock(example, "text_tools", source=snapshot["source"], schema_sha256=snapshot_sha256(snapshot))

    result = example.run("check")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "the snapshot's server.transport is 'streamable-http', not 'stdio'" in result.stdout
    for command in REINSPECTING:
        line = refusal(example.run(*command, "text_tools"))
        assert "the snapshot's server.transport is 'streamable-http', not 'stdio'" in line, line
        assert not (example.root / MARKER).exists(), command


def test_trust_on_the_run_re_inspects_what_the_lock_says(example: Project) -> None:  # noqa: F811
    plant(example)
    write_lock(example, "langchain_tools", source="langchain:evil_tools:toolkit")
    result = example.run("check", "--remote", "--trust", "langchain_tools")
    assert (example.root / MARKER).read_text() == "ran"  # the user said so, on this run
    assert result.exit_code != 0  # evil_tools' toolkit is no tool

    line = error_line(example.run("check", "--trust"))
    assert line == "error: --trust applies to --remote: an offline check asks no source"


def test_a_clean_project_is_re_inspected_without_trust(example: Project) -> None:  # noqa: F811
    result = example.run("diff", "langchain_tools")
    assert result.exit_code == 0, result.stdout + result.stderr
