"""The official MCP conformance suite against `vendorgen serve` and against generated tools as a client.

tests/servers/conformance_server.py implements what the 32 server scenarios call; run directly, it passes
them. Vendored with `vendorgen add` and served by `vendorgen serve` over streamable HTTP, it is run again:
tests/conformance_baselines/serve.yml lists the scenarios serve does not pass yet, and the suite fails the
run on a scenario failing outside that list or passing inside it (a stale entry). The client scenario
elicitation-sep1034-client-defaults runs with a generated module as the client (tests/conformance_client.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator

import pytest

from tests.conformance import needs_conformance, run_client_scenario, run_server_suite
from tests.conftest import REPO, Project, new_project
from tests.servers import free_port, server_process
from tests.test_serve import _env, http_server

BASELINES = REPO / "tests" / "conformance_baselines"
UPSTREAM = "mcp:stdio:python -m tests.servers.conformance_server stdio"

pytestmark = needs_conformance


@pytest.fixture(scope="module")
def vendored(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """The reference server vendored into a new project (its tools, resources and prompts; over stdio)."""
    project = new_project(tmp_path_factory.mktemp("conformance"))
    added = project.run("add", UPSTREAM, "--trust", "--resources", "--prompts", env=_env())
    assert added.exit_code == 0, added.stderr
    return project


@pytest.fixture(scope="module")
def served(vendored: Project) -> Iterator[str]:
    """The vendored tools, resources and prompts served over streamable HTTP; the URL."""
    with http_server(vendored) as url:
        yield url


def test_the_reference_server_passes_the_suite_directly() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = ["-m", "tests.servers.conformance_server", "http", "--port", str(port)]
    with server_process(command, url, env={"PYTHONPATH": str(REPO)}):
        ran = run_server_suite(url, BASELINES / "reference_server.yml")
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]


def test_serve_passes_what_the_reference_server_passes(served: str) -> None:
    ran = run_server_suite(served, BASELINES / "serve.yml")
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]


def test_serve_lists_the_upstream_schemas_as_the_snapshot_holds_them(vendored: Project, served: str) -> None:
    """Byte for byte (keys in their order): `$schema`, `$defs`, `$ref`, `additionalProperties`, titles, defaults."""
    import httpx

    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}  # fmt: skip
    with httpx.Client(timeout=60) as http:
        started = http.post(served, json=init, headers=headers)
        headers["Mcp-Session-Id"] = started.headers["mcp-session-id"]
        http.post(served, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
        listed = http.post(served, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers)
    [data] = [line[5:] for line in listed.text.splitlines() if line.startswith("data:")]
    served_tools = {tool["name"]: tool for tool in json.loads(data)["result"]["tools"]}
    snapshot = json.loads((vendored.root / ".vendorgen/schemas/mcp_conformance_test_server.json").read_text())
    assert len(snapshot["tools"]) == len(served_tools) == 14
    for upstream in snapshot["tools"]:
        tool = served_tools[upstream["name"]]
        for part in ("inputSchema", "outputSchema"):
            assert json.dumps(tool.get(part)) == json.dumps(upstream.get(part)), (upstream["name"], part)


def test_generated_tools_apply_elicitation_defaults_as_a_client() -> None:
    command = ["env", f"PYTHONPATH={REPO}", sys.executable, "-m", "tests.conformance_client"]
    scenario = run_client_scenario(command, "elicitation-sep1034-client-defaults")
    assert scenario.passed, scenario.failures or scenario.output[-4000:]


def test_generated_tools_carry_logs_progress_elicitation_and_sampling(
    vendored: Project, caplog: pytest.LogCaptureFixture
) -> None:
    """In Python, a call's log messages and progress go to the module's logger and to the callbacks set; a request
    for input is declined (and the decline logged) until an elicitation handler answers; sampling is not declared
    until a sampling handler is set."""
    module = vendored.import_module("tools/mcp_conformance_test_server.py")
    progress: list[tuple[float, float | None, str | None]] = []
    logs: list[tuple[str, object, str | None]] = []
    with module.tools() as listed, caplog.at_level(logging.DEBUG, logger=module.__name__):
        tools = {tool.name: tool for tool in listed}
        tools["test_simple_text"].set_handlers(progress=lambda *update: progress.append(update),
                                               log=lambda *message: logs.append(message))  # fmt: skip
        assert tools["test_tool_with_logging"]() == "Tool with logging executed successfully"
        tools["test_tool_with_progress"]()
        assert tools["test_elicitation"](message="Your name?") == "User response: action=decline, content={}"
        assert "Sampling not supported" in tools["test_sampling"](prompt="Capital of France?")

        tools["test_simple_text"].set_handlers(
            elicitation=lambda params: {"action": "accept", "content": {"response": f"asked {params.message}"}},
            sampling=lambda params: {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"},
        )
        answered = tools["test_elicitation"](message="Your name?")
        assert answered == 'User response: action=accept, content={"response":"asked Your name?"}'
        assert tools["test_sampling"](prompt="Capital of France?") == "LLM response: Paris"
    assert [data for _, data, _ in logs] == [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    assert [update[0] for update in progress] == [0, 50, 100]
    records = [(record.name, record.levelname, record.getMessage()) for record in caplog.records]
    assert (module.__name__, "INFO", "Tool processing data") in records
    assert any(level == "DEBUG" and "progress 50" in message for _, level, message in records)
    assert any(
        level == "WARNING" and "declined" in message and "Your name?" in message for _, level, message in records
    )


def test_serve_routes_logs_and_elicitation_to_the_client_that_called(served: str) -> None:
    """Two clients at once: A set a log level and takes elicitation, B did neither. A's own upstream connection
    brings A its call's log messages and the request for input of its call; B, on the shared connection, gets
    no log message of A's, and its upstream was told of no elicitation."""
    from mcp import ClientSession, types
    from mcp.client.streamable_http import streamablehttp_client

    async def run() -> tuple[list[object], list[object], list[str]]:
        logs_a: list[object] = []
        logs_b: list[object] = []

        async def log_a(params: types.LoggingMessageNotificationParams) -> None:
            logs_a.append(params.data)

        async def log_b(params: types.LoggingMessageNotificationParams) -> None:
            logs_b.append(params.data)

        async def elicit_a(context: object, params: types.ElicitRequestParams) -> types.ElicitResult:
            return types.ElicitResult(action="accept", content={"response": f"A answers {params.message}"})

        async with (
            streamablehttp_client(served) as (read_a, write_a, _),
            ClientSession(read_a, write_a, logging_callback=log_a, elicitation_callback=elicit_a) as a,
            streamablehttp_client(served) as (read_b, write_b, _),
            ClientSession(read_b, write_b, logging_callback=log_b) as b,
        ):
            await a.initialize()
            await b.initialize()
            await a.set_logging_level("info")
            results = await asyncio.gather(
                a.call_tool("test_tool_with_logging", {}),
                b.call_tool("test_tool_with_logging", {}),
                a.call_tool("test_elicitation", {"message": "hi"}),
                b.call_tool("test_elicitation", {"message": "hi"}),
            )
        return logs_a, logs_b, [" ".join(item.text for item in result.content) for result in results]

    logs_a, logs_b, texts = asyncio.run(asyncio.wait_for(run(), 300))
    assert logs_a == ["Tool execution started", "Tool processing data", "Tool execution completed"]
    assert logs_b == []
    assert texts[:3] == ["Tool with logging executed successfully"] * 2 + [
        'User response: action=accept, content={"response":"A answers hi"}'
    ]
    assert texts[3].startswith("Elicitation not supported or error:"), texts[3]
