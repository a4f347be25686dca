"""A vendorgen killed with SIGKILL leaves no process behind: not its MCP server, not a worker of its own.

vendorgen runs in a session of its own here, so every process it starts, even one
orphaned when it dies, is found by its session id in /proc (Linux).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.servers import OFFLINE_ENV

REPO = Path(__file__).resolve().parents[1]
SERVER = f"mcp:stdio:{sys.executable} -m tests.servers.mcp_many stdio --count 200"
BOUND = 60.0  # seconds: how long a phase or the clean-up may take on a loaded machine, never asserted as a time

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


def session_members(session: int) -> set[int]:
    """The processes whose session id is `session`, zombies not counted (they hold nothing)."""
    members = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # exited meanwhile
        state, _ppid, _pgrp, sid = stat.rsplit(")", 1)[1].split()[:4]
        if int(sid) == session and state != "Z":
            members.add(int(entry))
    return members


def children_of(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def wait_until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


def start_add(project: Path) -> subprocess.Popen[bytes]:
    (project / "pyproject.toml").write_text('[project]\nname = "killed"\n')
    return subprocess.Popen(
        [sys.executable, "-m", "vendorgen", "add", "--trust", "--env", "PYTHONPATH", "--name", "many", SERVER],
        cwd=project,
        env={**os.environ, **OFFLINE_ENV, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def kill_and_expect_nothing_left(process: subprocess.Popen[bytes]) -> None:
    assert process.poll() is None, "vendorgen finished before it could be killed: the test proved nothing"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=BOUND)
    try:
        wait_until(lambda: not session_members(process.pid), "the processes vendorgen started to exit")
    finally:
        for pid in session_members(process.pid):  # never leave them running, whatever the verdict
            os.kill(pid, signal.SIGKILL)


def test_killed_while_formatting_a_200_tool_module(tmp_path: Path) -> None:
    process = start_add(tmp_path)
    try:
        wait_until(lambda: children_of(process.pid) or process.poll() is not None, "the MCP server to start")
        # The server is gone once inspection is over: vendorgen renders, then formats (its longest phase).
        wait_until(lambda: not children_of(process.pid) or process.poll() is not None, "inspection to end")
        time.sleep(0.5)
        kill_and_expect_nothing_left(process)
    finally:
        process.kill()
        process.wait()


def test_killed_while_its_mcp_server_runs(tmp_path: Path) -> None:
    process = start_add(tmp_path)
    try:
        wait_until(lambda: children_of(process.pid) or process.poll() is not None, "the MCP server to start")
        kill_and_expect_nothing_left(process)
    finally:
        process.kill()
        process.wait()
