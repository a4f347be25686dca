"""An MCP server answering hundreds of MB (issue 27 item 8), through the real CLI and the generated code.

The SDK reads a message whole before parsing it (256 MiB of text took the caller to 1.8 GB); the vendored
tools read one no further than the session's bound and raise one error naming it, over stdio and streamable
HTTP (a JSON body, an event stream). The bound is set low here: the server's answer is 300 MB either way.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from tests.servers.mcp_raw import serving, write_spec

ANSWER_BYTES = 300 << 20
TOOLS = [{"name": "dump", "description": "Answers a lot.",
          "inputSchema": {"type": "object", "properties": {"what": {"type": "string"}}}}]  # fmt: skip


def call_bounded(project: Project) -> None:
    module = project.import_module("tools/huge.py")
    module._ServerTool.session.max_message_bytes = 2_000_000
    [dump] = module.tools()
    try:
        for _ in range(2):  # the session goes on after a refusal
            with pytest.raises(
                module.MCPToolError, match=r"^dump: the MCP server's answer is over 2,000,000 bytes: refused"
            ):
                dump(what="all")
    finally:
        dump.close()


@pytest.mark.parametrize("events", [False, True], ids=["json-body", "event-stream"])
def test_an_answer_over_the_bound_over_http(tmp_path: Path, project: Project, events: bool) -> None:
    with serving(tmp_path, TOOLS, answer_bytes=ANSWER_BYTES, events=events) as url:
        assert project.run("add", f"mcp:{url}", "--name", "huge").exit_code == 0
        call_bounded(project)


def test_an_answer_over_the_bound_over_stdio(tmp_path: Path, project: Project) -> None:
    spec = write_spec(tmp_path, TOOLS, answer_bytes=ANSWER_BYTES)
    server = f"mcp:stdio:{sys.executable} {REPO / 'tests' / 'servers' / 'mcp_raw.py'} {spec} --stdio"
    added = project.run("add", server, "--name", "huge", "--trust")
    assert added.exit_code == 0, added.stderr
    call_bounded(project)
