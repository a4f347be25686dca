"""Issue 29 item 1: Ctrl-C on a real terminal while vendorgen reads an MCP server over stdio stops it:
exit 130, `interrupted`, nothing written, no server process left, no server started after it.

The servers are tests/servers/mcp_stalling.py: one that never answers, and one that, like
server-everything, asks a client with capabilities for its roots and then keeps it waiting.
Before the fix the first Ctrl-C became a cancellation the listing swallowed: `add` wrote the module
and exited 0, `update` read the next source, and a plain hang ended as `aborted`, exit 1.
"""

from __future__ import annotations

import fcntl
import os
import pty
import subprocess
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO, Project, Result
from tests.test_first_ten_minutes import plain_project

STALLING = REPO / "tests" / "servers" / "mcp_stalling.py"


def wait_for(condition: Callable[[], bool], what: str, bound: float = 120) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def interrupted(project: Project, args: tuple[str, ...], ready: Callable[[], bool]) -> Result:
    """`vendorgen *args` on a pseudo-terminal that is its controlling terminal; once `ready()`, Ctrl-C is typed."""
    master, slave = pty.openpty()

    def controlling_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    command = project._command(args, None)
    process = subprocess.Popen(**command, stdin=slave, stdout=slave, stderr=slave, preexec_fn=controlling_terminal)
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        wait_for(lambda: ready() or process.poll() is not None, "the server to start")
        assert process.poll() is None, b"".join(chunks).decode(errors="replace")
        os.write(master, b"\x03")  # the terminal sends SIGINT to its foreground process group
        process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
        reader.join(10)
        os.close(master)
    output = b"".join(chunks).decode(errors="replace")
    return Result(process.returncode, output, output)


def started(directory: Path) -> list[int]:
    return [int(path.name) for path in directory.iterdir() if path.name.isdigit()]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def stopped_cleanly(result: Result, before: dict[str, bytes], project: Project, servers: Path) -> None:
    assert result.exit_code == 130, result.stdout
    assert "interrupted" in result.stdout and "Traceback" not in result.stdout, result.stdout
    assert "never retrieved" not in result.stdout, result.stdout
    assert project.snapshot() == before  # nothing written
    for pid in started(servers):
        wait_for(lambda pid=pid: gone(pid), f"server {pid} to end", bound=30)


@pytest.mark.parametrize("mode", ["sleep", "roots"])
def test_ctrl_c_during_add_stops_it_writing_nothing(mode: str, tmp_path: Path) -> None:
    project = plain_project(tmp_path / "project")
    servers = tmp_path / "servers"
    servers.mkdir()
    before = project.snapshot()
    uri = f"mcp:stdio:python {STALLING} {mode} {servers}"
    # `sleep`: as soon as the server runs; `roots`: once the second listing has been asked for roots.
    ready = (lambda: bool(started(servers))) if mode == "sleep" else (lambda: any(servers.glob("*.asked")))
    (servers / "stall").touch()
    result = interrupted(project, ("add", uri, "--trust", "--name", "stall"), ready)
    stopped_cleanly(result, before, project, servers)
    assert "stalling server" not in result.stdout  # the server's stderr is shown only when its listing fails


@pytest.fixture(scope="module")
def two_modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Path]:
    """Two modules of one stalling server (read in turn by update), added while it answered everyone."""
    project = plain_project(tmp_path_factory.mktemp("interrupts") / "project")
    servers = project.root.parent / "servers"
    servers.mkdir()
    uri = f"mcp:stdio:python {STALLING} roots {servers}"
    for name in ("first", "second"):
        added = project.run("add", uri, "--trust", "--name", name, "--prefix", name)
        assert added.exit_code == 0, added.stderr
    return project, servers


@pytest.mark.parametrize("command", [("update",), ("check", "--remote"), ("diff",)])
def test_ctrl_c_while_re_reading_stops_at_once_and_reads_no_further(
    command: tuple[str, ...], two_modules: tuple[Project, Path]
) -> None:
    project, servers = two_modules
    for path in servers.iterdir():
        path.unlink()
    (servers / "stall").touch()
    before = project.snapshot()
    result = interrupted(project, command, lambda: any(servers.glob("*.asked")))
    stopped_cleanly(result, before, project, servers)
    assert len(started(servers)) == 2, "a server started after Ctrl-C"  # the first module's two listings only
