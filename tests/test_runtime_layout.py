"""The run-time files: one copy of each per output directory, owned by the lock, and the moves to them.

Two older layouts migrate with `update --offline`: turn 1 (tests/data/layout_0_1, generated_example
before any runtime module: each module carried its own helpers) and turn 2 (tests/data/layout_0_2,
generated_example with the single `_vendored_runtime.py` that held every source kind's code).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen.package import files
from vendorgen.project.config import GENERATOR

RUNTIME_FILES = tuple(files.runtime_files())  # the core, then each built-in kind's

TURN_1 = REPO / "tests" / "data" / "layout_0_1"  # generated_example/ before the runtime module
TURN_2 = REPO / "tests" / "data" / "layout_0_2"  # generated_example/ with one runtime module for every kind
CORE = "tools/_vendored_runtime.py"
MCP = "tools/_vendored_mcp.py"
GRADIO = "tools/_vendored_gradio.py"
EDIT = ('description = "Convert a length from one unit to another (mm, cm, m, km, in, ft)."',
        'description = "Convert a length between units (edited here)."')  # fmt: skip
EVERY_FILE = [
    {"path": f"tools/{name}", "sha256": files.sha256(name), "generator": GENERATOR} for name in sorted(RUNTIME_FILES)
]


def git(project: Project, *args: str) -> None:
    subprocess.run(["git", "-C", str(project.root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)  # fmt: skip


def lock(project: Project) -> dict:
    return tomllib.loads((project.root / "vendorgen.lock").read_text())


def call_from_root(project: Project, code: str) -> subprocess.CompletedProcess[str]:
    """`python -c code` from the project root, as the README tells users to run their tools."""
    return subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, timeout=120)


def copy_of(layout: Path, project: Project) -> Project:
    """A copy of an older layout, committed to git (where update finds the files as vendorgen wrote them)."""
    shutil.copytree(layout, project.root, dirs_exist_ok=True)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "vendored")
    return project


@pytest.fixture
def old_project(project: Project) -> Project:
    """Turn 1, edited by its user."""
    copy_of(TURN_1, project).edit("tools/convert.py", *EDIT)
    return project


@pytest.fixture
def turn_2(project: Project) -> Project:
    return copy_of(TURN_2, project)


def assert_migrated(project: Project) -> str:
    """Every run-time file written and owned, `check` clean but for edits; what a module imported from them prints."""
    assert lock(project)["runtime"] == EVERY_FILE
    for name in RUNTIME_FILES:
        assert (project.root / "tools" / name).exists()
    check = project.run("check", "--allow-edits")
    assert check.exit_code == 0, check.stdout + check.stderr
    code = "from tools.convert import ConvertTool; from tools.text_tools import tools; print(ConvertTool().description)"
    done = call_from_root(project, code)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_update_moves_the_turn_1_layout_to_the_run_time_files_keeping_the_edit(old_project: Project) -> None:
    before = (old_project.root / "tools/text_tools.py").read_text()
    assert "class _Session" in before and not (old_project.root / CORE).exists()
    result = old_project.run("update", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "merged tools/convert.py, your edits kept" in result.stdout
    for name in RUNTIME_FILES:
        assert f"wrote tools/{name}" in result.stdout
        assert (old_project.root / "tools" / name).read_text() == files.text(name)
    convert = (old_project.root / "tools/convert.py").read_text()
    assert EDIT[1] in convert and "from ._vendored_gradio import SpaceTool" in convert
    assert "class _Session" not in (old_project.root / "tools/text_tools.py").read_text()
    assert assert_migrated(old_project) == "Convert a length between units (edited here)."
    # The user's way of importing it works with tools/__init__.py too.
    (old_project.root / "tools/__init__.py").write_text("")
    done = call_from_root(old_project, "from tools.convert import ConvertTool; print(ConvertTool().name)")
    assert done.returncode == 0 and done.stdout.strip() == "convert", done.stderr


def test_update_moves_the_turn_2_layout_to_the_run_time_files(turn_2: Project) -> None:
    result = turn_2.run("update", "--offline")
    assert result.exit_code == 0, result.stderr
    assert f"updated {CORE}" in result.stdout and f"wrote {MCP}" in result.stdout
    for name in RUNTIME_FILES:
        assert (turn_2.root / "tools" / name).read_text() == files.text(name)
    assert "from ._vendored_mcp import MCPSession" in (turn_2.root / "tools/text_tools.py").read_text()
    assert assert_migrated(turn_2).startswith("Convert a length")
    assert turn_2.run("check").exit_code == 0


def test_turn_2_edits_of_the_single_runtime_follow_their_code(turn_2: Project) -> None:
    """An edit of the old single runtime lands in the file its code moved to, merged there three ways."""
    turn_2.edit(CORE, "The live connection, opened now if there is none.", "The live connection (my note).")
    endpoints = "    endpoints = client.endpoints.values() if isinstance(client.endpoints, dict) else client.endpoints"
    turn_2.edit(CORE, endpoints + "\n", endpoints + "  # mine\n")
    result = turn_2.run("update", "--offline")
    assert result.exit_code == 1, result.stdout + result.stderr  # a conflict to resolve, as for any merge
    assert f"merged {MCP}, your edits (from {CORE}) kept" in result.stdout
    assert "conflict in tools/_vendored_gradio.py (from tools/_vendored_runtime.py): 1 conflict blocks" in result.stdout
    assert "(my note)" in (turn_2.root / MCP).read_text()
    gradio = (turn_2.root / GRADIO).read_text()  # vendorgen rewrote those lines: both sides, marked
    assert "else client.endpoints  # mine" in gradio and "<<<<<<< tools/_vendored_runtime.py (your edits)" in gradio
    assert (turn_2.root / CORE).read_text() == files.text("_vendored_runtime.py")  # no edit landed there
    assert lock(turn_2)["runtime"] == EVERY_FILE


def test_a_turn_2_edit_with_no_place_left_stops_update(turn_2: Project) -> None:
    """handing_back() moved into the server module, which is not a run-time file: the edit is named, nothing written."""
    turn_2.edit(CORE, '    """Inside, an MCP tool called returns', '    """(mine) Inside, an MCP tool called returns')
    before = {path: path.read_bytes() for path in turn_2.root.rglob("*") if path.is_file() and ".git" not in path.parts}
    result = turn_2.run("update", "--offline")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {CORE} has local edits that have no place in the run-time files")
    assert "handing_back" in result.stderr and "save them, delete the file, then update again" in result.stderr
    after = {path: path.read_bytes() for path in turn_2.root.rglob("*") if path.is_file() and ".git" not in path.parts}
    assert after == before


@pytest.mark.parametrize(
    "command", [["add", "space:{app}", "--api-name", "/convert", "--name", "again"], ["remove", "stats"]]
)
def test_add_and_remove_refuse_to_leave_turn_2_modules_without_their_imports(
    turn_2: Project, gradio_app: str, command: list[str]
) -> None:
    """Replacing the single runtime under modules that import from it would break them: update first."""
    before = (turn_2.root / CORE).read_text()
    result = turn_2.run(*[part.format(app=gradio_app) for part in command])
    assert result.exit_code == 2
    assert "written by an older vendorgen" in result.stderr and "`vendorgen update --offline`" in result.stderr
    assert (turn_2.root / CORE).read_text() == before and not (turn_2.root / GRADIO).exists()


def test_check_compares_each_run_time_file_by_hash(turn_2: Project) -> None:
    assert turn_2.run("update", "--offline").exit_code == 0
    git(turn_2, "add", "-A")
    git(turn_2, "commit", "-qm", "runtime")
    (turn_2.root / MCP).write_text(files.text("_vendored_mcp.py").replace("reconnect once", "reconnect twice", 1))
    check = turn_2.run("check", "--allow-edits")
    assert check.exit_code == 0
    check = turn_2.run("check")
    assert check.exit_code == 1
    assert f"runtime: {MCP} has local edits" in check.stdout
    (turn_2.root / MCP).unlink()
    check = turn_2.run("check", "--allow-edits")
    assert check.exit_code == 1 and f"runtime: {MCP} is missing" in check.stdout
    assert turn_2.run("update", "--offline").exit_code == 0
    assert (turn_2.root / MCP).read_text() == files.text("_vendored_mcp.py")


def test_update_merges_an_edited_run_time_file_that_another_vendorgen_wrote(turn_2: Project) -> None:
    """The file as an older vendorgen wrote it is in git; the user's edit and this vendorgen's change both land."""
    assert turn_2.run("update", "--offline").exit_code == 0
    older = files.text("_vendored_mcp.py").replace("reconnect once", "reconnect one time", 1)
    (turn_2.root / MCP).write_text(older)
    lock_path = turn_2.root / "vendorgen.lock"
    modules, _, runtimes = lock_path.read_text().partition("[[runtime]]")
    runtimes = runtimes.replace(files.sha256("_vendored_mcp.py"), hashlib.sha256(older.encode()).hexdigest())
    lock_path.write_text(modules + "[[runtime]]" + runtimes)
    git(turn_2, "add", "-A")
    git(turn_2, "commit", "-qm", "older runtime")
    edited = older.replace('    mcp_name = ""\n', '    mcp_name = ""  # (my note)\n', 1)
    assert edited != older
    (turn_2.root / MCP).write_text(edited)
    check = turn_2.run("check", "--allow-edits")
    assert check.exit_code == 1 and "was written by" in check.stdout
    result = turn_2.run("update", "--offline")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"merged {MCP}, your edits kept" in result.stdout
    merged = (turn_2.root / MCP).read_text()
    assert "(my note)" in merged and "reconnect once" in merged and "reconnect one time" not in merged
    assert {entry["path"]: entry["sha256"] for entry in lock(turn_2)["runtime"]}[MCP] == files.sha256(
        "_vendored_mcp.py"
    )


def test_removing_the_last_module_that_needs_it_removes_it(gradio_app: str, project: Project) -> None:
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/stats").exit_code == 0
    assert (project.root / CORE).read_text() == files.text("_vendored_runtime.py")
    assert project.run("remove", "convert").exit_code == 0
    assert (project.root / GRADIO).exists() and len(lock(project)["runtime"]) == 2
    result = project.run("remove", "stats")
    assert result.exit_code == 0, result.stderr
    assert not (project.root / CORE).exists() and not (project.root / GRADIO).exists()
    assert "runtime" not in lock(project)
    assert sorted(path.name for path in (project.root / "tools").iterdir()) == []


def test_add_refuses_a_runtime_file_it_did_not_write(gradio_app: str, project: Project) -> None:
    (project.root / "tools").mkdir()
    (project.root / GRADIO).write_text("print('mine')\n")
    result = project.run("add", f"space:{gradio_app}", "--api-name", "/convert")
    assert result.exit_code == 2
    assert f"{GRADIO} exists and was not written by vendorgen" in result.stderr
    assert not (project.root / "tools/convert.py").exists()
