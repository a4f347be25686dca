"""Bounded work: a listing that asks for too much is one error line naming the limit and its variable.

Issue 10 item 15 measured on the old code: a ~3 KB `$defs` chain whose entries each refer to the next
twice (N=12) took 109 s and 6 GB, a 300 MB description 515 s, 20,000 tools 175 s. Each limit is
checked through the real CLI against a real source; the node limit also directly, where it must stop
the expansion itself (the chain below would need 4*2^18 nodes).
"""

from __future__ import annotations

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process
from tests.servers.fakehub import FakeHub
from tests.servers.mcp_oversized import doubling_schema
from tests.test_hub_source import SPACE, TOOL_PY, env, tool_space
from vendorgen.errors import SchemaError, UsageError
from vendorgen.text.limits import listing_budget
from vendorgen.text.schema import inputs_from_object

OVERSIZED = "mcp:stdio:python -m tests.servers.mcp_oversized stdio"
MANY = "mcp:stdio:python -m tests.servers.mcp_many stdio"
FAULTY_HTTP = str(REPO / "tests" / "servers" / "faulty_http.py")


def one_error_line(project: Project, args: list[str], env: dict[str, str], *expected: str) -> str:
    before = project.snapshot()
    # A guard against a hang only: each of these ends in about a second when the limit works.
    result = project.run(*args, env=env, timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    assert project.snapshot() == before
    return lines[0]


def test_the_node_limit_stops_a_doubling_chain_while_it_expands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VENDORGEN_MAX_SCHEMA_NODES", raising=False)
    with pytest.raises(SchemaError, match="over vendorgen's limit of 10,000 .*VENDORGEN_MAX_SCHEMA_NODES"):
        inputs_from_object(doubling_schema(18))


def test_the_node_limit_can_be_raised_and_lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    small = doubling_schema(8)  # 2,044 nodes inlined
    assert [spec.name for spec in inputs_from_object(small)] == ["x"]
    monkeypatch.setenv("VENDORGEN_MAX_SCHEMA_NODES", "500")
    with pytest.raises(SchemaError, match="limit of 500 "):
        inputs_from_object(small)
    monkeypatch.setenv("VENDORGEN_MAX_SCHEMA_NODES", "many")
    with pytest.raises(UsageError, match="VENDORGEN_MAX_SCHEMA_NODES must be a positive whole number"):
        inputs_from_object(small)


def test_a_doubling_schema_from_an_mcp_server(project: Project) -> None:
    one_error_line(project, ["add", f"{OVERSIZED} --doubling 18", "--trust", "--env", "PYTHONPATH"], {},
                   "nodes", "VENDORGEN_MAX_SCHEMA_NODES")  # fmt: skip


def test_many_tools_each_under_the_node_limit_are_bounded_as_one_listing(project: Project) -> None:
    # 10 tools of 8,188 nodes each: every one under the 10,000 of a tool, together over the 50,000 of a listing.
    line = one_error_line(project, ["add", f"{OVERSIZED} --tools 10 --doubling 10", "--trust", "--env", "PYTHONPATH"],
                          {}, "the listing of the MCP server `python -m tests.servers.mcp_oversized",
                          "over vendorgen's limit of 50,000", "VENDORGEN_MAX_LISTING_SCHEMA_NODES")  # fmt: skip
    assert "VENDORGEN_MAX_SCHEMA_NODES" not in line


def test_the_listing_node_limit_sums_over_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    small = doubling_schema(8)  # 2,044 nodes inlined
    monkeypatch.setenv("VENDORGEN_MAX_LISTING_SCHEMA_NODES", "5000")
    listing = listing_budget("a test listing")
    inputs_from_object(small, listing)
    inputs_from_object(small, listing)
    with pytest.raises(SchemaError, match="the listing of a test listing .*limit of 5,000 .*LISTING_SCHEMA_NODES"):
        inputs_from_object(small, listing)


def test_the_endpoints_of_a_gradio_app_are_bounded_as_one_listing(project: Project, gradio_app: str) -> None:
    one_error_line(project, ["add", f"space:{gradio_app}", "--all-endpoints"], {"VENDORGEN_MAX_LISTING_SCHEMA_NODES": "5"},
                   "the listing of the Gradio app at", "VENDORGEN_MAX_LISTING_SCHEMA_NODES")  # fmt: skip


def test_a_long_description_from_an_mcp_server(project: Project) -> None:
    line = one_error_line(project, ["add", f"{OVERSIZED} --description 150000", "--trust", "--env", "PYTHONPATH"], {},
                          "150,000 characters", "limit of 100,000", "VENDORGEN_MAX_DESCRIPTION_CHARS")  # fmt: skip
    assert "ddddd" not in line
    one_error_line(project, ["add", f"{OVERSIZED} --description 2000", "--trust", "--env", "PYTHONPATH"],
                   {"VENDORGEN_MAX_DESCRIPTION_CHARS": "1000"}, "2,000 characters", "limit of 1,000")  # fmt: skip
    assert project.run("add", f"{OVERSIZED} --description 2000", "--trust", "--env", "PYTHONPATH").exit_code == 0


def test_a_listing_over_the_byte_limit(project: Project) -> None:
    one_error_line(project, ["add", f"{OVERSIZED} --description 50000", "--trust", "--env", "PYTHONPATH"],
                   {"VENDORGEN_MAX_LISTING_BYTES": "10000"}, "bytes", "VENDORGEN_MAX_LISTING_BYTES")  # fmt: skip


@pytest.mark.parametrize("uri, mode", [("mcp:http://{address}/mcp", "endless"), ("mcp:sse:http://{address}/sse", "endless-events")])
def test_an_endless_mcp_answer_is_cut_while_it_arrives(project: Project, uri: str, mode: str) -> None:
    """Data that never stops never times out either: only counting it as it arrives ends it (in under a second)."""
    port = free_port()
    with server_process([FAULTY_HTTP, "--mode", mode, "--port", str(port)], f"http://127.0.0.1:{port}/__ready__"):
        one_error_line(project, ["add", uri.format(address=f"127.0.0.1:{port}")],
                       {"VENDORGEN_MCP_TIMEOUT": "60", "VENDORGEN_MAX_LISTING_BYTES": "1000000"},
                       f"what the MCP server http://127.0.0.1:{port}/", "sent has more than 1,000,000 bytes",
                       "VENDORGEN_MAX_LISTING_BYTES")  # fmt: skip


def test_an_endless_gradio_config_is_cut_while_it_arrives(project: Project) -> None:
    port = free_port()
    with server_process([FAULTY_HTTP, "--mode", "endless", "--port", str(port)], f"http://127.0.0.1:{port}/__ready__"):
        one_error_line(project, ["add", f"space:http://127.0.0.1:{port}/"],
                       {"VENDORGEN_HUB_TIMEOUT": "100", "VENDORGEN_MAX_LISTING_BYTES": "1000000"},
                       f"what the Gradio app at http://127.0.0.1:{port}/ sent has more than 1,000,000 bytes",
                       "VENDORGEN_MAX_LISTING_BYTES")  # fmt: skip


def test_too_many_tools_are_refused_page_by_page(project: Project) -> None:
    one_error_line(project, ["add", f"{MANY} --count 40 --page-size 5", "--trust", "--env", "PYTHONPATH"], {"VENDORGEN_MAX_TOOLS": "10"},
                   "VENDORGEN_MAX_TOOLS", "over vendorgen's limit of 10 ")  # fmt: skip


def test_too_many_endpoints_of_a_gradio_app(project: Project, gradio_app: str) -> None:
    one_error_line(project, ["add", f"space:{gradio_app}", "--all-endpoints"], {"VENDORGEN_MAX_TOOLS": "1"},
                   "the Gradio app at", "VENDORGEN_MAX_TOOLS")  # fmt: skip


def test_too_many_langchain_tools_and_a_long_parameter_description(project: Project) -> None:
    (project.root / "lc_many.py").write_text(
        "from langchain_core.tools import StructuredTool\n\n"
        "def echo(text: str) -> str:\n    return text\n\n"
        "TOOLS = [StructuredTool.from_function(echo, name=f'echo_{i}', description='Echo.') for i in range(5)]\n"
        "LONG = StructuredTool.from_function(echo, name='long', description='Echo.', args_schema={\n"
        "    'type': 'object', 'properties': {'text': {'type': 'string', 'description': 'x' * 5000}},"
        " 'required': ['text']})\n"
    )
    one_error_line(project, ["add", "langchain:lc_many:TOOLS"], {"VENDORGEN_MAX_TOOLS": "3"},
                   "lc_many:TOOLS has 5 tools", "VENDORGEN_MAX_TOOLS")  # fmt: skip
    one_error_line(project, ["add", "langchain:lc_many:TOOLS"], {"VENDORGEN_MAX_LISTING_SCHEMA_NODES": "10"},
                   "the listing of lc_many:TOOLS", "VENDORGEN_MAX_LISTING_SCHEMA_NODES")  # fmt: skip
    one_error_line(project, ["add", "langchain:lc_many:LONG"], {"VENDORGEN_MAX_DESCRIPTION_CHARS": "1000"},
                   "parameter 'text'", "5,000 characters", "VENDORGEN_MAX_DESCRIPTION_CHARS")  # fmt: skip


def test_a_hub_tool_file_over_the_byte_limit_is_not_read_to_the_end(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub, TOOL_PY + "\n# padding " + "x" * 200_000 + "\n")
    one_error_line(project, ["add", f"hub:{SPACE}", "--trust"],
                   {**env(fakehub, project), "VENDORGEN_MAX_LISTING_BYTES": "100000"},
                   f"tool.py of {SPACE} has ", "over vendorgen's limit of 100,000", "VENDORGEN_MAX_LISTING_BYTES")  # fmt: skip
