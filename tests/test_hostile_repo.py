"""A hostile pull request: a changed vendorgen.lock, .vendorgen/ (snapshots, journal) or committed links.

A reviewer may merge such a change unread. Whatever it says, vendorgen writes and deletes only
what the lock may own (`<dir>/<name>.py` and `.vendorgen/schemas/<name>.json` of a bounded module
name, outside hidden directories and installed packages), never through a symbolic link, and runs
hub code only as the user reviewed it. Each test runs the real CLI on a copy of generated_example/
(or a project vendored from the loopback Hub) and checks the exit code, the one `error:` line and
that the file under attack is untouched.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO, Project, Result
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import SPACE, env, tool_space
from tests.test_hub_update import NEW_TOOL_PY
from vendorgen.project.hashing import canonical_json, sha256_text
from vendorgen.project.lockfile import LockEntry, RuntimeEntry, dump_lock
from vendorgen.project.workspace import JOURNAL_NAME, LOCK_NAME

APP = "# the user's application\nprint('hello')\n"
SECRET = "HF_TOKEN=hf_secret\n"
EXAMPLE = REPO / "generated_example"


def error_line(result: Result) -> str:
    """The one `error:` line of a failed command."""
    assert result.exit_code != 0, result
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "unexpected" not in errors[0], result.stderr
    return errors[0]


@pytest.fixture
def example(project: Project) -> Project:
    """A copy of generated_example/ (13 modules, offline) with an application file of the user's."""
    project.restore(Project(EXAMPLE).snapshot())
    (project.root / "src").mkdir()
    (project.root / "src" / "app.py").write_text(APP)
    return project


def read_lock(project: Project) -> dict:
    return tomllib.loads((project.root / LOCK_NAME).read_text())


def write_lock(project: Project, **changes: dict[str, object]) -> str:
    """Rewrite the lock with the fields `changes` gives per module name; returns its text."""
    modules = []
    for table in read_lock(project)["module"]:
        table.update(changes.get(table["name"], {}))
        modules.append(table)
    # As a hand-edited lock would read: vendorgen's own writer would refuse these entries.
    lines = ["version = 1"]
    for table in modules:
        lines += ["", "[[module]]", *(f"{key} = {json.dumps(value)}" for key, value in table.items())]
    text = "\n".join(lines) + "\n"
    (project.root / LOCK_NAME).write_text(text)
    return text


def outside(project: Project, text: str = "outside the project\n") -> Path:
    target = project.root.parent / "victim.txt"
    target.write_text(text)
    return target


# -- 3: a committed journal ---------------------------------------------------------------------


def test_a_committed_journal_cannot_make_check_delete_what_the_lock_names(example: Project) -> None:
    (example.root / ".git").mkdir()
    (example.root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (example.root / ".env").write_text(SECRET)
    lock = write_lock(example, convert={"path": ".git/HEAD", "schema": ".env"})
    journal = {"state": "committed", "renames": [], "removed": [".git/HEAD", ".env"], "lock": lock, "created": []}
    (example.root / JOURNAL_NAME).write_text(json.dumps(journal))
    before = example.snapshot()

    result = example.run("check")

    assert JOURNAL_NAME in error_line(result)
    assert (example.root / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (example.root / ".env").read_text() == SECRET
    assert example.snapshot() == before


def test_a_journal_cannot_rename_a_staged_file_over_a_file_vendorgen_did_not_write(example: Project) -> None:
    """Names shaped like a module (`src/app.py` of module `app`) still need vendorgen's header to be replaced."""
    lock = write_lock(example, convert={"name": "app", "path": "src/app.py", "schema": ".vendorgen/schemas/app.json",
                                        "sha256": sha256_text(APP)})  # fmt: skip
    (example.root / ".vendorgen" / "schemas" / "app.json").write_text("{}")
    (example.root / "src" / ".app.py.vendorgen-new").write_text("import os\nos.system('id')\n")
    journal = {"state": "committed", "renames": [["src/.app.py.vendorgen-new", "src/app.py"]], "removed": [],
               "lock": lock, "created": []}  # fmt: skip
    (example.root / JOURNAL_NAME).write_text(json.dumps(journal))

    result = example.run("list")

    assert JOURNAL_NAME in error_line(result)
    assert (example.root / "src" / "app.py").read_text() == APP


HEADER = b"# Vendored by vendorgen 0.1.0: review it as code you run.\n"
# A docstring whose escaped quotes become real ones under unicode_escape: other code than the gate read.
ESCAPED = b'def run():\n    """\\x22\\x22\\x22; import os; os.system("id") #"""\n'


@pytest.mark.parametrize(
    "staged",
    [HEADER + b"# -*- coding: unicode_escape -*-\n" + ESCAPED,  # PEP 263: Python obeys line 2
     b"\xef\xbb\xbf" + HEADER + ESCAPED,  # a byte order mark
     HEADER + b"# caf\xe9\n" + ESCAPED],  # not UTF-8
    ids=["coding", "bom", "latin-1"],
)  # fmt: skip
def test_a_replayed_journal_writes_only_what_the_gate_would_write(example: Project, staged: bytes) -> None:
    """A committed journal renaming a planted staged file over a module: its text is checked as a fresh write is."""
    module = example.root / "tools" / "convert.py"
    original = module.read_bytes()
    (example.root / "tools" / ".convert.py.vendorgen-new").write_bytes(staged)
    lock = (example.root / LOCK_NAME).read_text()
    journal = {"state": "committed", "renames": [["tools/.convert.py.vendorgen-new", "tools/convert.py"]],
               "removed": [], "lock": lock, "created": []}  # fmt: skip
    (example.root / JOURNAL_NAME).write_text(json.dumps(journal))
    before = example.snapshot()

    line = error_line(example.run("list"))

    assert JOURNAL_NAME in line and "tools/.convert.py.vendorgen-new" in line
    assert module.read_bytes() == original
    assert example.snapshot() == before


def test_a_replayed_journal_does_not_stop_halfway_on_a_lock_it_cannot_write(example: Project) -> None:
    (example.root / "tools" / ".convert.py.vendorgen-new").write_bytes((example.root / "tools" / "convert.py").read_bytes())
    lock = (example.root / LOCK_NAME).read_text() + "# \ud800\n"
    journal = {"state": "committed", "renames": [["tools/.convert.py.vendorgen-new", "tools/convert.py"]],
               "removed": [], "lock": lock, "created": []}  # fmt: skip
    (example.root / JOURNAL_NAME).write_text(json.dumps(journal))
    before = example.snapshot()

    assert JOURNAL_NAME in error_line(example.run("list"))
    assert example.snapshot() == before


# -- 4: a lock path into a virtual environment ---------------------------------------------------


@pytest.mark.parametrize("venv", [".venv", "venv"])
def test_a_lock_path_into_site_packages_is_refused(fakehub: FakeHub, project: Project, venv: str) -> None:
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    site = project.root / venv / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (project.root / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (project.root / "tools" / "shout.py").unlink()
    (project.root / ".vendorgen" / "schemas" / "shout.json").rename(
        project.root / ".vendorgen/schemas/sitecustomize.json"
    )
    write_lock(project, shout={"name": "sitecustomize", "schema": ".vendorgen/schemas/sitecustomize.json",
                               "path": f"{venv}/lib/python3.11/site-packages/sitecustomize.py"})  # fmt: skip
    before = project.snapshot()

    checked = project.run("check")
    updated = project.run("update", "--offline", env=env(fakehub, project))

    assert "site-packages" in error_line(checked) or venv in error_line(checked)
    assert "missing" not in checked.stdout
    assert error_line(updated) == error_line(checked)
    assert not (site / "sitecustomize.py").exists()
    assert project.snapshot() == before


def test_a_lock_path_into_any_virtual_environment_is_refused(example: Project) -> None:
    """A directory holding pyvenv.cfg is an environment whatever its name."""
    (example.root / "env" / "lib").mkdir(parents=True)
    (example.root / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    write_lock(example, convert={"path": "env/lib/convert.py"})
    before = example.snapshot()

    result = example.run("update", "--offline", "convert")

    assert "env is a virtual environment" in error_line(result)
    assert example.snapshot() == before


@pytest.mark.parametrize("field, value", [("path", 1), ("tools", "convert"), ("name", "../convert")])
def test_a_lock_field_of_the_wrong_shape_is_one_error_line(example: Project, field: str, value: object) -> None:
    write_lock(example, convert={field: value})
    before = example.snapshot()

    result = example.run("check")

    assert LOCK_NAME in error_line(result) and "convert" in error_line(result)
    assert example.snapshot() == before


# -- 5: remove deletes only what the lock may own -------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"schema": "src/app.py"},  # the snapshot field names the user's file
        {"name": "app", "path": "src/app.py", "schema": ".vendorgen/schemas/app.json", "sha256": sha256_text(APP)},
    ],
    ids=["schema", "module-shaped"],
)
def test_remove_deletes_nothing_the_lock_may_not_own(example: Project, changes: dict[str, str]) -> None:
    if "name" in changes:
        os.rename(example.root / ".vendorgen/schemas/convert.json", example.root / ".vendorgen/schemas/app.json")
    write_lock(example, convert=changes)
    before = example.snapshot()

    result = example.run("remove", changes.get("name", "convert"))

    assert "src/app.py" in error_line(result)
    assert (example.root / "src" / "app.py").read_text() == APP
    assert example.snapshot() == before


# -- 6: committed symbolic links -----------------------------------------------------------------


@pytest.mark.parametrize("command", [("remove", "convert"), ("update", "--offline", "convert")])
def test_a_committed_link_at_the_lock_temp_name_is_not_written_through(example: Project, command: tuple) -> None:
    victim = outside(example)
    (example.root / ".vendorgen.lock.tmp").symlink_to(victim)
    (example.root / "tools" / "convert.py").unlink()  # `update` has something to restore

    result = example.run(*command)

    assert result.exit_code == 0, result.stderr
    assert victim.read_text() == "outside the project\n"
    assert not os.path.lexists(example.root / ".vendorgen.lock.tmp")
    assert "describe" in {table["name"] for table in read_lock(example)["module"]}


@pytest.mark.parametrize("command", [("update", "--offline", "convert"), ("remove", "convert")])
def test_a_module_file_that_is_a_link_is_neither_written_nor_deleted_through(example: Project, command: tuple) -> None:
    module = example.root / "tools" / "convert.py"
    module.unlink()
    module.symlink_to(example.root / "src" / "app.py")
    write_lock(example, convert={"sha256": sha256_text(APP)})  # the link reads as the file vendorgen wrote
    before = example.snapshot()

    result = example.run(*command)

    assert "tools/convert.py is a symbolic link" in error_line(result)
    assert (example.root / "src" / "app.py").read_text() == APP
    assert module.is_symlink()
    assert example.snapshot() == before


def test_an_output_directory_reached_through_a_link_is_refused(example: Project) -> None:
    (example.root / "tools").rename(example.root / "src" / "tools")
    (example.root / "tools").symlink_to(example.root / "src" / "tools")
    (example.root / "src" / "tools" / "convert.py").unlink()  # `update` has something to restore
    before = example.snapshot()

    result = example.run("update", "--offline", "convert")

    assert "tools is a symbolic link" in error_line(result)
    assert example.snapshot() == before


@pytest.mark.parametrize("target", ["/nonexistent/anywhere.py", "../src"], ids=["dangling", "directory"])
def test_a_link_in_the_output_directory_does_not_break_check(example: Project, target: str) -> None:
    """Never followed; one leading somewhere is code vendorgen did not write (issue 27 finding 9)."""
    (example.root / "tools" / "linked.py").symlink_to(target)

    result = example.run("check")

    if target.startswith("/nonexistent"):  # imports nothing
        assert result.exit_code == 0, result.stderr
        assert "13 vendored modules in sync" in result.stdout
    else:
        assert result.exit_code == 1, result.stderr
        assert "unowned: tools/linked.py is a link in tools/; vendorgen writes none\n" in result.stdout


# -- 7: hub code runs only as reviewed ------------------------------------------------------------


def test_hub_code_changed_in_the_snapshot_is_not_in_sync_and_needs_trust(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    reviewed = (project.root / "tools" / "shout.py").read_text()
    snapshot_file = project.root / ".vendorgen" / "schemas" / "shout.json"
    snapshot = json.loads(snapshot_file.read_text())
    snapshot["tool_py"] = NEW_TOOL_PY
    snapshot_file.write_text(json.dumps(snapshot, indent=1) + "\n")
    write_lock(project, shout={"schema_sha256": sha256_text(canonical_json(snapshot))})  # hashes that match

    checked = project.run("check")
    assert checked.exit_code == 1, checked.stdout + checked.stderr
    assert "in sync" not in checked.stdout and "shout (tools/shout.py): outdated" in checked.stdout

    before = project.snapshot()
    updated = project.run("update", "--offline", env=env(fakehub, project))
    assert updated.exit_code == 2
    assert "not tools/shout.py as you reviewed it" in error_line(updated) and "--trust" in error_line(updated)
    assert (project.root / "tools" / "shout.py").read_text() == reviewed
    assert project.snapshot() == before


def test_a_missing_hub_module_is_restored_only_with_trust(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    (project.root / "tools" / "shout.py").unlink()

    refused = project.run("update", "--offline", env=env(fakehub, project))
    assert "--trust" in error_line(refused)
    assert not (project.root / "tools" / "shout.py").exists()

    restored = project.run("update", "--offline", "--trust", env=env(fakehub, project))
    assert restored.exit_code == 0, restored.stderr
    assert "review of the new tools/shout.py" in restored.stdout
    assert project.run("check").exit_code == 0


def test_a_runtime_copy_the_lock_owns_where_no_module_needs_it_fails_check(fakehub: FakeHub, project: Project) -> None:
    """Issue 19 finding 2: a hub module needs no runtime, yet a `[[runtime]]` entry may own one beside it
    (what an old layout or a pull request leaves); it is importable, so check verifies it too."""
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    edited = "import os  # a pull request's line\n"
    (project.root / "tools" / "_vendored_runtime.py").write_text(edited)
    runtime = RuntimeEntry("tools/_vendored_runtime.py", sha256_text(edited), "vendorgen 0.1.0")
    (project.root / LOCK_NAME).write_text(dump_lock(project_entries(project), [runtime]))

    result = project.run("check")
    assert result.exit_code == 1, result.stdout
    assert "tools/_vendored_runtime.py: no module beside it needs this run-time file" in result.stdout


def project_entries(project: Project) -> list[LockEntry]:
    return [LockEntry.from_toml(table) for table in read_lock(project)["module"]]


# -- 8: bounded names ---------------------------------------------------------------------------

LONG_TOOLS = '''
from langchain_core.tools import tool


@tool("{name}")
def long_named(text: str) -> str:
    """Echo the text."""
    return text


toolkit = [long_named]
'''


def test_a_remote_name_too_long_for_a_file_is_refused_and_nothing_is_left(project: Project) -> None:
    (project.root / "long_tools.py").write_text(LONG_TOOLS.format(name="n" * 245))
    before = project.snapshot()

    result = project.run("add", "langchain:long_tools:toolkit")

    assert "245 characters" in error_line(result) and "--name" in error_line(result)
    assert project.snapshot() == before
    assert not (project.root / ".vendorgen").exists()
    listed = project.run("list")  # the next command is not blocked by a journal
    assert listed.exit_code == 0, listed.stderr
    assert project.run("add", "langchain:long_tools:toolkit", "--name", "long_tools").exit_code == 0


# -- the rule, once more through the writer ----------------------------------------------------


def test_the_lock_is_written_as_vendorgen_reads_it(example: Project) -> None:
    """The lock written after a change parses back to the same entries (tomli-w writes it)."""
    lock = read_lock(example)
    entries = [LockEntry.from_toml(table) for table in lock["module"]]
    runtimes = [RuntimeEntry(**table) for table in lock.get("runtime", [])]
    assert example.run("remove", "convert").exit_code == 0
    text = (example.root / LOCK_NAME).read_text()
    assert text == dump_lock([entry for entry in entries if entry.name != "convert"], runtimes)
