"""The runtime module: one per output directory, owned by the lock, and the move to it from the old layout."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen import __version__, runtime
from vendorgen.project.config import GENERATOR

OLD_LAYOUT = REPO / "tests" / "data" / "layout_0_1"  # generated_example/ before the runtime module
RUNTIME = f"tools/{runtime.FILE_NAME}"
EDIT = ('description = "Convert a length from one unit to another (mm, cm, m, km, in, ft)."',
        'description = "Convert a length between units (edited here)."')  # fmt: skip


def git(project: Project, *args: str) -> None:
    subprocess.run(["git", "-C", str(project.root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)  # fmt: skip


def lock(project: Project) -> dict:
    return tomllib.loads((project.root / "vendorgen.lock").read_text())


def call_from_root(project: Project, code: str) -> subprocess.CompletedProcess[str]:
    """`python -c code` from the project root, as the README tells users to run their tools."""
    return subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, timeout=120)


@pytest.fixture
def old_project(project: Project) -> Project:
    """A copy of the old layout, committed to git, then edited by its user."""
    shutil.copytree(OLD_LAYOUT, project.root, dirs_exist_ok=True)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "vendored")
    project.edit("tools/convert.py", *EDIT)
    return project


def test_the_runtime_ships_with_its_version_in_the_header() -> None:
    header = runtime.text().splitlines()[:3]
    assert header[1].startswith(f"# Written by vendorgen {__version__}:"), "bump the runtime header with the version"
    assert "`vendorgen update` replaces it" in header[2]
    assert len(runtime.tool_bases()) >= 3  # SpaceTool, MCPTool, LangChainTool and their base


def test_update_moves_the_old_layout_to_the_runtime_keeping_the_edit(old_project: Project) -> None:
    before = (old_project.root / "tools/text_tools.py").read_text()
    assert "class _Session" in before and not (old_project.root / RUNTIME).exists()
    result = old_project.run("update", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "merged tools/convert.py, your edits kept" in result.stdout
    assert f"wrote {RUNTIME}" in result.stdout
    assert (old_project.root / RUNTIME).read_text() == runtime.text()
    convert = (old_project.root / "tools/convert.py").read_text()
    assert EDIT[1] in convert and "from ._vendored_runtime import SpaceTool" in convert
    assert "class _Session" not in (old_project.root / "tools/text_tools.py").read_text()
    assert lock(old_project)["runtime"] == [{"path": RUNTIME, "sha256": runtime.sha256(), "generator": GENERATOR}]
    check = old_project.run("check", "--allow-edits")
    assert check.exit_code == 0, check.stdout + check.stderr
    # The user's way of importing it works, with and without tools/__init__.py.
    code = "from tools.convert import ConvertTool; print(ConvertTool().description)"
    for package_marker in (False, True):
        if package_marker:
            (old_project.root / "tools/__init__.py").write_text("")
        done = call_from_root(old_project, code)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "Convert a length between units (edited here)."


def test_check_compares_the_runtime_by_hash(old_project: Project) -> None:
    assert old_project.run("update", "--offline").exit_code == 0
    git(old_project, "add", "-A")
    git(old_project, "commit", "-qm", "runtime")
    (old_project.root / RUNTIME).write_text(runtime.text().replace("reconnect once", "reconnect twice", 1))
    check = old_project.run("check", "--allow-edits")
    assert check.exit_code == 0
    check = old_project.run("check")
    assert check.exit_code == 1
    assert f"runtime: {RUNTIME} has local edits" in check.stdout
    (old_project.root / RUNTIME).unlink()
    check = old_project.run("check", "--allow-edits")
    assert check.exit_code == 1 and f"runtime: {RUNTIME} is missing" in check.stdout
    assert old_project.run("update", "--offline").exit_code == 0
    assert (old_project.root / RUNTIME).read_text() == runtime.text()


def test_update_merges_an_edited_runtime_that_another_vendorgen_wrote(old_project: Project) -> None:
    """The runtime as an older vendorgen wrote it is in git; the user's edit and this vendorgen's change both land."""
    assert old_project.run("update", "--offline").exit_code == 0
    older = runtime.text().replace("reconnect once", "reconnect one time", 1)
    (old_project.root / RUNTIME).write_text(older)
    lock_path = old_project.root / "vendorgen.lock"
    modules, _, runtimes = lock_path.read_text().partition("[[runtime]]")
    runtimes = runtimes.replace(runtime.sha256(), hashlib.sha256(older.encode()).hexdigest())
    lock_path.write_text(modules + "[[runtime]]" + runtimes.replace(GENERATOR, "vendorgen 0.0.9"))
    git(old_project, "add", "-A")
    git(old_project, "commit", "-qm", "older runtime")
    edited = older.replace("# What each part needs, as pip would install it.", "# What each part needs (my note).")
    (old_project.root / RUNTIME).write_text(edited)
    check = old_project.run("check", "--allow-edits")
    assert check.exit_code == 1 and "was written by" in check.stdout
    result = old_project.run("update", "--offline")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"merged {RUNTIME}, your edits kept" in result.stdout
    merged = (old_project.root / RUNTIME).read_text()
    assert "(my note)" in merged and "reconnect once" in merged and "reconnect one time" not in merged
    assert lock(old_project)["runtime"][0]["sha256"] == runtime.sha256()


def test_removing_the_last_module_that_needs_it_removes_it(gradio_app: str, project: Project) -> None:
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/stats").exit_code == 0
    assert (project.root / RUNTIME).read_text() == runtime.text()
    assert project.run("remove", "convert").exit_code == 0
    assert (project.root / RUNTIME).exists() and len(lock(project)["runtime"]) == 1
    result = project.run("remove", "stats")
    assert result.exit_code == 0, result.stderr
    assert not (project.root / RUNTIME).exists()
    assert "runtime" not in lock(project)
    assert sorted(path.name for path in (project.root / "tools").iterdir()) == []


def test_add_refuses_a_runtime_file_it_did_not_write(gradio_app: str, project: Project) -> None:
    (project.root / "tools").mkdir()
    (project.root / RUNTIME).write_text("print('mine')\n")
    result = project.run("add", f"space:{gradio_app}", "--api-name", "/convert")
    assert result.exit_code == 2
    assert f"{RUNTIME} exists and was not written by vendorgen" in result.stderr
    assert not (project.root / "tools/convert.py").exists()
