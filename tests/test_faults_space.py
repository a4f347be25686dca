"""Faults of a Gradio source: every one ends in one error line, exit 2, nothing written."""

from __future__ import annotations

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process

MODES = ["status:500", "status:503", "status:404", "status:401", "status:403", "hang", "truncated", "malformed", "reset"]


@pytest.mark.parametrize("mode", MODES)
def test_a_misbehaving_server_fails_cleanly(project: Project, mode: str) -> None:
    port = free_port()
    script = str(REPO / "tests" / "servers" / "faulty_http.py")
    with server_process([script, "--port", str(port), "--mode", mode], f"http://127.0.0.1:{port}/__ready__"):
        before = project.snapshot()
        # A hang must be cut by the client's own time-out: run() raises if it takes 120 s.
        result = project.run("add", f"space:http://127.0.0.1:{port}/", timeout=120)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot read the Gradio API"), result.stderr
    assert project.snapshot() == before
