"""Issue 29, what a new user found: a module file that is not Python, a deleted one, and what the reports say.

The project vendors two modules of a hand-written stdio server (tests/servers/mcp_stalling.py, `roots`
mode, which answers everyone); each test changes a copy of it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import Project
from tests.test_first_ten_minutes import copy_of, plain_project
from tests.test_interrupts import STALLING


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("servers")


@pytest.fixture(scope="module")
def two_modules(servers: Path, tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = plain_project(tmp_path_factory.mktemp("new-user") / "project")
    for name in ("one", "two"):
        added = project.run("add", f"mcp:stdio:python {STALLING} roots {servers}", "--trust", "--name", name,
                            "--prefix", name)  # fmt: skip
        assert added.exit_code == 0, added.stderr
    return project


@pytest.mark.parametrize(
    ("broken", "said"),
    [("<<<<<<< yours\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n", "tools/one.py holds merge conflict markers: resolve the <<<<<<< markers"),
     ("def (:\n", "tools/one.py is not valid Python (line ")],
)  # fmt: skip
def test_update_does_not_call_a_module_file_that_is_not_python_up_to_date(
    broken: str, said: str, two_modules: Project, tmp_path: Path
) -> None:
    """Item 6: before, `update one` said `1 module up to date` and exited 0."""
    project = copy_of(two_modules, tmp_path / "project")
    path = project.root / "tools" / "one.py"
    path.write_text(path.read_text() + broken)
    result = project.run("update", "one")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "up to date" not in result.stdout and "nothing to update" not in result.stdout
    assert f"error: could not update one: {said}" in result.stderr
    assert path.read_text().endswith(broken)  # left as it is


def test_serve_and_catalog_go_on_without_a_broken_module_and_name_it(two_modules: Project, tmp_path: Path) -> None:
    """Item 6: before, both refused to run at all, pointing at `vendorgen check`."""
    project = copy_of(two_modules, tmp_path / "project")
    path = project.root / "tools" / "one.py"
    path.write_text(path.read_text() + "<<<<<<< yours\n")
    note = "tools/one.py holds merge conflict markers: resolve the <<<<<<< markers"
    listed = project.run("serve", "--list")
    assert listed.exit_code == 0, listed.stderr
    assert "two_ping" in listed.stdout and "one_ping" not in listed.stdout
    assert f"note: not served: {note}" in listed.stderr
    cataloged = project.run("catalog")
    assert cataloged.exit_code == 0, cataloged.stderr
    assert "wrote tools/catalog.py (1 tools)" in cataloged.stdout
    assert f"note: not in the catalog: {note}" in cataloged.stderr
    assert "two_ping" in (project.root / "tools" / "catalog.py").read_text()


def test_a_deleted_module_file_names_the_update_that_writes_it_again(two_modules: Project, tmp_path: Path) -> None:
    """Item 7: before, `update two` said `nothing to update` and asked for --trust."""
    project = copy_of(two_modules, tmp_path / "project")
    (project.root / "tools" / "two.py").unlink()
    result = project.run("update", "two")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "nothing to update" not in result.stdout
    assert "`vendorgen update --offline two` writes it again from the snapshot" in result.stderr
    restored = project.run("update", "--offline", "two")
    assert restored.exit_code == 0 and "restored tools/two.py" in restored.stdout
    assert project.run("check").exit_code == 0


def test_check_remote_says_what_differs_inside_a_changed_value(
    servers: Path, two_modules: Project, tmp_path: Path
) -> None:
    """Item 2: the summary cut both sides of a long value to the same text (`{'name': ...} -> {'name': ...}`)."""
    project = copy_of(two_modules, tmp_path / "project")
    (servers / "version").write_text("2")
    try:
        result = project.run("check", "--remote", "one")
    finally:
        (servers / "version").unlink()
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "~ module constant SERVER.version: '1' -> '2'" in result.stdout


def test_a_langchain_tool_requires_the_distribution_it_is_imported_from(tmp_path: Path) -> None:
    """Item 8: `requirements` listed langchain-core alone for langchain-community's ReadFileTool, which `forward`
    imports from langchain-community at call time."""
    pytest.importorskip("langchain_community")
    project = plain_project(tmp_path / "project")
    added = project.run("add", "langchain:langchain_community.tools:ReadFileTool")
    assert added.exit_code == 0, added.stderr
    listed = project.run("requirements")
    assert listed.exit_code == 0, listed.stderr
    assert "langchain-community" in listed.stdout.splitlines()


def test_the_example_app_says_when_it_is_ready() -> None:
    """Item 10: it printed nothing (quiet), so a new user could not tell when to run `vendorgen add`."""
    import subprocess
    import sys
    import urllib.request

    from tests.conftest import REPO
    from tests.servers import OFFLINE_ENV, free_port

    port = free_port()
    env = {**os.environ, **OFFLINE_ENV}
    app = subprocess.Popen([sys.executable, str(REPO / "examples" / "gradio_app.py"), "--port", str(port)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)  # fmt: skip
    try:
        assert app.stdout is not None
        line = app.stdout.readline()  # blocks until the app says something, or exits
        assert line == f"serving the vendorgen example app on http://127.0.0.1:{port}/ (Ctrl-C stops it)\n"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/config", timeout=60) as answer:  # ready when said
            assert answer.status == 200
    finally:
        app.terminate()
        app.wait(timeout=60)


# -------------------------------------------------------------------------------- item 11, the small ones


def test_a_hand_edited_lock_hash_is_named_as_such(two_modules: Project, tmp_path: Path) -> None:
    """It read as local edits, `its snapshot now generates different code`, and update --offline said git held no copy."""
    import re

    project = copy_of(two_modules, tmp_path / "project")
    lock = project.root / "vendorgen.lock"
    text = lock.read_text()
    found = re.search(r'\nsha256 = "([0-9a-f]{64})"', text)
    assert found is not None
    lock.write_text(text.replace(found.group(1), "0" * 64, 1))
    checked = project.run("check")
    assert checked.exit_code == 1
    assert ("vendorgen.lock records another sha256 for tools/one.py, which is exactly what its snapshot generates:"
            " the lock was edited") in checked.stdout  # fmt: skip
    assert "local edits" not in checked.stdout
    updated = project.run("update", "--offline", "one")
    assert updated.exit_code == 0 and "refreshed the lock entry of one" in updated.stdout
    assert "git" not in updated.stdout + updated.stderr
    assert project.run("check").exit_code == 0


def test_an_unquoted_stdio_command_line_is_told_to_be_quoted(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "project")
    result = project.run("add", "mcp:stdio:npx", "-y", "@scope/server", "--trust")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: No such option '-y'; quote the server's command line as one argument:"
        ' vendorgen add "mcp:stdio:npx -y ..." --trust (see `vendorgen add --help`)\n'
    )


def test_a_lock_that_is_not_toml_says_how_to_get_it_back(two_modules: Project, tmp_path: Path) -> None:
    project = copy_of(two_modules, tmp_path / "project")
    with (project.root / "vendorgen.lock").open("a") as lock:
        lock.write("<<<<<<< ours\n")
    result = project.run("check")
    assert result.exit_code == 1
    assert "vendorgen.lock is not valid TOML" in result.stderr
    assert "`git diff vendorgen.lock` shows what changed since the last commit, `git checkout vendorgen.lock`" in result.stderr


def test_help_lists_every_command_whole() -> None:
    result = Project(Path.cwd()).run("--help")
    commands = result.stdout.split("Commands:")[1]
    assert "..." not in commands and "Publish a vendored tool as a Hub tool Space that smolagents'" in commands


def test_a_json_error_names_the_projects_root(two_modules: Project) -> None:
    import json

    result = two_modules.run("check", "--json", "nosuch")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["root"] == str(two_modules.root)


def test_add_outside_any_project_says_it_made_one_and_serve_lists_in_columns(servers: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    project = Project(bare)
    long_prefix = "a_prefix_long_enough_to_overflow_the_old_columns"
    added = project.run("add", f"mcp:stdio:python {STALLING} roots {servers}", "--trust", "--name", "x",
                        "--prefix", long_prefix)  # fmt: skip
    assert added.exit_code == 0, added.stderr
    assert "is one now, marked by its vendorgen.lock" in added.stderr and str(bare) in added.stderr
    assert project.run("add", f"mcp:stdio:python {STALLING} roots {servers}", "--trust", "--name", "y").exit_code == 0
    listed = project.run("serve", "--list")
    assert listed.exit_code == 0, listed.stderr
    rows = listed.stdout.splitlines()
    assert len(rows) == 2 and len({row.index(" x ") if " x " in row else row.index(" y ") for row in rows}) == 1, rows
