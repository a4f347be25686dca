"""The project's interpreter: found in the documented order, and langchain: inspection runs in it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import Project
from tests.matrix import venvs
from tests.matrix.rows import ROWS
from vendorgen.errors import UsageError
from vendorgen.project import interpreter as project_python


def fake_venv(root: Path) -> Path:
    (root / "bin").mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /usr/bin\n")
    python = root / "bin" / "python"
    python.symlink_to(sys.executable)
    return python


def test_the_order_is_python_option_then_virtualenv_then_dot_venv_then_vendorgens_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(project_python.ENV_VAR, raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    own = project_python.find(tmp_path)
    assert own.is_vendorgens_own and "vendorgen's own" in own.found_by
    dot_venv = fake_venv(tmp_path / ".venv")
    assert project_python.find(tmp_path).executable == str(dot_venv)
    active = fake_venv(tmp_path / "active")
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "active"))
    assert project_python.find(tmp_path).executable == str(active)
    given = fake_venv(tmp_path / "given")
    monkeypatch.setenv(project_python.ENV_VAR, str(given))
    assert project_python.find(tmp_path).executable == str(given)


def test_a_python_that_is_not_there_is_one_usage_error(project: Project) -> None:
    result = project.run("add", "langchain:examples.langchain_tools:toolkit", "--python", "/nowhere/python")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --python / VENDORGEN_PYTHON: /nowhere/python is not a Python interpreter"
    assert not (project.root / "vendorgen.lock").exists()


def test_langchain_inspection_uses_the_projects_own_langchain(project: Project) -> None:
    """The matrix row with langchain-core 0.3 reads a tool whose description says which langchain read it."""
    [row] = [row for row in ROWS if row.name == "last-of-old-majors"]
    if venvs.interpreter(row) is None:
        pytest.skip(f"python{row.python} is not installed here")
    python = venvs.build(row)
    (project.root / "mytools.py").write_text(
        "import langchain_core\nfrom langchain_core.tools import tool\n\n\n"
        "@tool(description=f'read with langchain-core {langchain_core.__version__}')\n"
        "def shout(text: str) -> str:\n    return text.upper()\n"
    )
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    result = project.run("add", "langchain:mytools:shout", "--python", str(python), env=env)
    assert result.exit_code == 0, result.stderr
    assert "read with langchain-core 0.3.86" in (project.root / "tools" / "shout.py").read_text()
    assert f"checked with {python}" in result.stdout
    assert "langchain-core<2,>=0.3: 0.3.86" in result.stdout
    missing = project.run("add", "langchain:mytools:nothing", "--python", str(python), env=env)
    assert missing.exit_code == 2 and missing.stderr.strip() == "error: mytools has no attribute nothing; it has shout"


def test_without_any_project_python_add_says_it_checked_vendorgens_own(project: Project) -> None:
    (project.root / "mytools.py").write_text(
        'from langchain_core.tools import tool\n\n\n@tool\ndef shout(text: str) -> str:\n    """Shout."""\n    return text\n'
    )
    result = project.run("add", "langchain:mytools:shout", env={"VIRTUAL_ENV": "", project_python.ENV_VAR: ""})
    assert result.exit_code == 0, result.stderr
    assert "vendorgen's own interpreter (no --python, no active virtualenv, no .venv)" in result.stdout
    assert f"checked with {sys.executable}" in result.stdout


def test_an_unusable_interpreter_is_refused(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project_python.ENV_VAR, str(project.root))
    with pytest.raises(UsageError):
        project_python.find(project.root)


def test_the_install_hint_is_for_the_interpreter_that_was_checked(gradio_app: str, project: Project) -> None:
    """Issue 21 item 10: a bare `pip` may be another interpreter's, and a `uv venv` has none."""
    import subprocess

    venv = project.root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    no_project_python = {"VIRTUAL_ENV": "", project_python.ENV_VAR: ""}
    without_uv = project.run("add", f"space:{gradio_app}", "--api-name", "/convert",
                             env={**no_project_python, "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert without_uv.exit_code == 0, without_uv.stderr
    assert f"checked with {python}" in without_uv.stdout
    assert (
        f"; pip install uv; uv pip install --python {python} -r requirements-vendored.txt\n" in without_uv.stdout
    ), without_uv.stdout
    uv_here = os.path.dirname(sys.executable)  # the test environment installs uv beside its python
    with_uv = project.run("add", f"space:{gradio_app}", "--api-name", "/stats",
                          env={**no_project_python, "PATH": f"{uv_here}:/usr/bin:/bin"})  # fmt: skip
    assert with_uv.exit_code == 0, with_uv.stderr
    assert f"; uv pip install --python {python} -r requirements-vendored.txt\n" in with_uv.stdout, with_uv.stdout

    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)  # with pip this time
    with_pip = project.run("add", f"space:{gradio_app}", "--api-name", "/convert", "--name", "again",
                           env=no_project_python)  # fmt: skip
    assert with_pip.exit_code == 0, with_pip.stderr
    assert f"; {python} -m pip install -r requirements-vendored.txt\n" in with_pip.stdout, with_pip.stdout


PROJECT_SERVER = """\
import sys

import only_in_the_project  # installed in the project's .venv alone
from mcp.server.fastmcp import FastMCP

server = FastMCP("project-python")


@server.tool()
def interpreter() -> str:
    \"\"\"The interpreter this server runs in.\"\"\"
    return sys.prefix


server.run("stdio")
"""


def project_venv(root: Path) -> Path:
    """root/.venv: a real virtualenv that sees vendorgen's packages (a .pth) and has one module of its own."""
    import subprocess
    import sysconfig

    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    [site] = list(venv.glob("lib/python3*/site-packages"))
    (site / "vendorgen_test.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (site / "only_in_the_project.py").write_text("")
    return venv


@pytest.mark.parametrize("command", ["python", ".venv/bin/python"])
def test_python_in_a_stdio_command_is_the_projects_interpreter(
    command: str, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29 item 5: `python` was vendorgen's interpreter at add (`No module named ...`), and the workaround
    `.venv/bin/python` was stored as a relative path that failed from any other directory."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv(project_python.ENV_VAR, raising=False)
    project_venv(project.root)
    (project.root / "my_server.py").write_text(PROJECT_SERVER)
    added = project.run("add", f"mcp:stdio:{command} my_server.py", "--trust", "--name", "own")
    assert added.exit_code == 0, added.stderr
    import tomllib

    [entry] = tomllib.loads((project.root / "vendorgen.lock").read_text())["module"]
    assert entry["source"] == "mcp:stdio:python my_server.py"  # portable: `python` is the project's, anywhere
    (project.root / "sub").mkdir()
    checked = Project(project.root / "sub").run("check", "--remote")  # from another directory
    assert checked.exit_code == 0, checked.stdout + checked.stderr
