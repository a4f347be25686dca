"""Remote text reaches the terminal escaped: no control character from a file name, a requirements.txt or a
server's error message is printed raw (ESC[1A ESC[2K would erase the review's flagged lines)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import vendorgen.cli
from tests.conftest import Project
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import SPACE, add, tool_space
from vendorgen.text.literals import terminal_text

ERASE = "\x1b[1A\x1b[2K"  # cursor up one line, erase it
SHOWN = "\\x1b[1A\\x1b[2K"


def assert_escaped(stdout: str, stderr: str) -> None:
    for stream in (stdout, stderr):
        assert not any(char in stream for char in "\x1b\x07\x08\r\x9b"), repr(stream)
    assert SHOWN in stdout + stderr


def test_a_file_name(fakehub: FakeHub, project: Project) -> None:
    fakehub.add_space(SPACE, {"app.py": b"x = 1\n", f"{ERASE}notes.py": b""})
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 1
    assert "has no tool.py" in result.stderr
    assert_escaped(result.stdout, result.stderr)


def test_requirements(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub, **{"requirements.txt": f"requests{ERASE}\n"})
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 0, result.stderr
    assert f"  requirements: requests{SHOWN}\n" in result.stdout
    assert_escaped(result.stdout, result.stderr)


def test_a_server_error(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    fakehub.fail_next("/api/spaces/", 400, message=f"bad request{ERASE}\x07")
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 1
    assert f"bad request{SHOWN}\\x07" in result.stderr
    assert_escaped(result.stdout, result.stderr)


def test_what_is_kept_and_what_is_escaped() -> None:
    assert terminal_text("line\n\tindented \\ \u00e9\u4e2d") == "line\n\tindented \\ \u00e9\u4e2d"
    assert terminal_text("\x1b[2K\r\x9b\u202e\u200b\ud800") == "\\x1b[2K\\r\\x9b\\u202e\\u200b\\ud800"


CLI_MODULES = sorted(Path(str(vendorgen.cli.__file__)).parent.glob("*.py"))


@pytest.mark.parametrize("path", CLI_MODULES, ids=[path.name for path in CLI_MODULES])
def test_the_cli_prints_only_through_its_escaping_echo(path: Path) -> None:
    """One place: a new print path that bypasses `_echo` (vendorgen/cli/output.py) would print remote text raw."""
    tree = ast.parse(path.read_text())
    printers = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) in ("click.echo", "click.secho", "print", "sys.stdout.write", "sys.stderr.write")
    ]
    echoes = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "_echo"]
    assert [line for line in printers if not any(echo.lineno <= line <= (echo.end_lineno or 0) for echo in echoes)] == []



def test_a_warning(project: Project) -> None:
    """What a library warns goes through the same escaping (here the vendored module's own, at import)."""
    (project.root / "warning_tools.py").write_text(
        "import warnings\n\nfrom langchain_core.tools import tool\n\n"
        f"warnings.warn({'deprecated' + ERASE!r})\n\n\n"
        "@tool\ndef echo(text: str) -> str:\n    'Echo the text.'\n    return text\n"
    )
    result = project.run("add", "langchain:warning_tools:echo", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"UserWarning: deprecated{SHOWN}" in result.stderr
    assert_escaped(result.stdout, result.stderr)
