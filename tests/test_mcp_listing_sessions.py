"""`add` of a stdio MCP server starts it twice, side by side (issue 21 item 4's second listing, which
names what a server withholds from clients without roots, sampling or elicitation)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Project


def test_the_two_listings_of_a_stdio_server_run_at_once(project: Project, tmp_path: Path) -> None:
    started = tmp_path / "started"
    started.mkdir()
    uri = f"mcp:stdio:python -m tests.servers.mcp_side_by_side {started}"
    # A generous time-out: only a listing that waits for a second server that never starts reaches it.
    command = ("add", uri, "--trust", "--env", "PYTHONPATH", "--name", "pair")
    result = project.run(*command, env={"VENDORGEN_MCP_TIMEOUT": "60"})
    assert result.exit_code == 0, result.stderr
    assert len(list(started.iterdir())) == 2  # the server started twice, no more
    assert (project.root / "tools" / "pair.py").is_file()
