"""Issue 29 item 9: `add` of a stdio MCP server starts it once, unless the server says its tool list may
change (`tools.listChanged`, as server-everything, which offers tools by what a client declares: see
tests/test_mcp_thirdparty.py); its stderr is shown only when the listing fails."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Project
from tests.test_first_ten_minutes import on_terminal


def test_a_stdio_server_starts_once_and_its_stderr_stays_off_the_terminal(project: Project, tmp_path: Path) -> None:
    started = tmp_path / "started"
    started.mkdir()
    uri = f"mcp:stdio:python -m tests.servers.mcp_counted {started}"
    result = on_terminal(project, "add", uri, "--trust", "--env", "PYTHONPATH", "--name", "counted")
    assert result.exit_code == 0, result.stderr
    assert len(list(started.iterdir())) == 1  # the example server (FastMCP) does not declare listChanged
    assert (project.root / "tools" / "counted.py").is_file()
    assert "counted server" not in result.stderr


def test_a_failed_stdio_listing_shows_what_the_server_printed_once(project: Project, tmp_path: Path) -> None:
    script = tmp_path / "broken_server.py"
    script.write_text("import sys\nprint('\\x1b[2Jnpm error 404 Not Found: no-such-package', file=sys.stderr)\nsys.exit(1)\n")
    result = on_terminal(project, "add", f"mcp:stdio:python {script}", "--trust", "--name", "broken")
    assert result.exit_code == 2, result.stderr
    # What the terminal shows: each line as its last carriage return left it (the wait line is erased).
    lines = [line.split("\r")[-1].removeprefix("\x1b[K") for line in result.stderr.replace("\r\n", "\n").split("\n")]
    lines = [line for line in lines if line]
    assert len(lines) == 2, lines
    assert lines[0] == "\\x1b[2Jnpm error 404 Not Found: no-such-package"  # escaped, once
    assert result.stderr.count("npm error") == 1
    assert lines[-1].startswith("error: the MCP server") and "its stderr is above" in lines[-1]
