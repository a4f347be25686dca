"""`vendorgen add mcp:` against third-party servers over stdio, as a user would run them.

- `mcp-server-time` from PyPI (a release that works with mcp<2), as `python -m mcp_server_time`;
- `@modelcontextprotocol/server-everything` from npm, installed by `make test` under .cache/npm
  (`npm install --prefix .cache/npm @modelcontextprotocol/server-everything@2026.8.31`); the
  tests are skipped, saying so, when it is not there.

Each is vendored through the CLI, imported, built with smolagents, called for real, and its
inputs compared with what mcpadapt's SmolAgentsAdapter builds (`check_against_mcpadapt`).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from datetime import datetime
from types import ModuleType

import pytest

from tests.conftest import REPO
from tests.test_mcp_source import by_name, check_against_mcpadapt, close, mcpadapt_tools, new_project, vendor

EVERYTHING = REPO / ".cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
NPM_COMMAND = "npm install --prefix .cache/npm @modelcontextprotocol/server-everything@2026.8.31"


# ---------------------------------------------------------------------------
# mcp-server-time (PyPI)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def time_module(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    pytest.importorskip("mcp_server_time", reason="pip install 'mcp-server-time<=2026.10.10'")
    module = vendor(new_project(tmp_path_factory, "mcp-time"), "mcp:stdio:python -m mcp_server_time --local-timezone UTC",
                    "--trust")  # fmt: skip
    yield module
    close(module)


def test_time_server_is_vendored_whole(time_module: ModuleType) -> None:
    tools = by_name(time_module)
    assert sorted(tools) == ["convert_time", "get_current_time"]
    assert time_module.SERVER["name"] == "mcp-time"
    assert time_module.SERVER["command"] == "python"
    assert time_module.SERVER["args"] == ["-m", "mcp_server_time", "--local-timezone", "UTC"]
    assert tools["convert_time"].inputs["time"]["type"] == "string"
    assert all("nullable" not in spec for spec in tools["convert_time"].inputs.values())  # all three are required


def test_time_server_calls(time_module: ModuleType) -> None:
    tools = by_name(time_module)
    now = json.loads(tools["get_current_time"](timezone="UTC"))
    assert now["timezone"] == "UTC" and abs(datetime.fromisoformat(now["datetime"]).timestamp() - datetime.now().timestamp()) < 120
    converted = json.loads(tools["convert_time"](source_timezone="UTC", time="12:00", target_timezone="Asia/Tokyo"))
    assert converted["target"]["datetime"].endswith("21:00:00+09:00")
    with pytest.raises(time_module.MCPToolError, match="Invalid timezone"):
        tools["get_current_time"](timezone="Nowhere/Bad")


def test_time_server_matches_mcpadapt(time_module: ModuleType) -> None:
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "mcp_server_time", "--local-timezone", "UTC"])
    theirs, raw = mcpadapt_tools(params)
    check_against_mcpadapt(time_module.tools(), theirs, raw)


def test_time_server_errors_raise_where_mcpadapt_returns_text(time_module: ModuleType) -> None:
    from mcp import StdioServerParameters
    from mcpadapt.core import MCPAdapt
    from mcpadapt.smolagents_adapter import SmolAgentsAdapter

    params = StdioServerParameters(command=sys.executable, args=["-m", "mcp_server_time", "--local-timezone", "UTC"])
    with MCPAdapt(params, SmolAgentsAdapter(), client_session_timeout_seconds=20.0) as theirs:
        answer = {tool.name: tool for tool in theirs}["get_current_time"](timezone="Nowhere/Bad")
    assert isinstance(answer, str) and "Invalid timezone" in answer
    with pytest.raises(time_module.MCPToolError, match="Invalid timezone"):
        by_name(time_module)["get_current_time"](timezone="Nowhere/Bad")


# ---------------------------------------------------------------------------
# @modelcontextprotocol/server-everything (npm)
# ---------------------------------------------------------------------------

needs_everything = pytest.mark.skipif(
    not EVERYTHING.is_file() or shutil.which("node") is None,
    reason=f"server-everything not installed (needs node; `make test` runs `{NPM_COMMAND}`)",
)


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    module = vendor(new_project(tmp_path_factory, "mcp-everything"), f"mcp:stdio:node {EVERYTHING} stdio", "--trust",
                    "--name", "everything")  # fmt: skip
    yield module
    close(module)


@needs_everything
def test_everything_is_vendored_whole(everything: ModuleType) -> None:
    tools = by_name(everything)
    assert {"echo", "get_sum", "get_tiny_image", "get_structured_content", "get_resource_links"} <= set(tools)
    assert everything.SERVER["name"] == "mcp-servers/everything"
    assert tools["get_sum"].mcp_name == "get-sum"
    assert tools["get_structured_content"].output_type == "object"
    assert tools["get_structured_content"].output_schema["required"] == ["temperature", "conditions", "humidity"]


@needs_everything
def test_what_everything_offers_only_to_capable_clients_or_as_tasks_is_left_out_and_said(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Issue 21 item 4: vendored tools declare no client capabilities and do not run calls as tasks."""
    project = new_project(tmp_path_factory, "mcp-everything-withheld")
    uri = f"mcp:stdio:node {EVERYTHING} stdio"
    added = project.run("add", uri, "--trust", "--name", "everything")
    assert added.exit_code == 0, added.stderr
    capabilities = "offered only to clients that declare roots, sampling or elicitation, which vendored tools do not"
    tasks = "execution.taskSupport is required: every call must run as an MCP task, which vendored tools do not"
    assert (
        f"note: everything leaves out what {uri} lists: get-roots-list, trigger-elicitation-request,"
        f" trigger-sampling-request, trigger-url-elicitation ({capabilities}); simulate-research-query ({tasks})"
    ) in added.stderr
    listed = {tool.name for tool in project.import_module("tools/everything.py").tools()}
    assert not listed & {"get_roots_list", "trigger_sampling_request", "simulate_research_query"}
    assert "echo" in listed
    asked = project.run("add", uri, "--trust", "--name", "tasks", "--tool", "simulate_research_query")
    assert asked.exit_code == 2 and f"error: cannot vendor simulate-research-query: {tasks}" in asked.stderr
    assert project.run("check", "--remote").exit_code == 0  # what is left out is read the same way again


@needs_everything
def test_everything_calls(everything: ModuleType) -> None:
    tools = by_name(everything)
    assert tools["echo"](message="hi") == "Echo: hi"
    assert tools["get_sum"](a=2, b=3.5) == "The sum of 2 and 3.5 is 5.5."
    weather = tools["get_structured_content"](location="New York")
    assert isinstance(weather, dict) and set(weather) == {"temperature", "conditions", "humidity"}
    links = tools["get_resource_links"](count=2)
    assert isinstance(links, list) and len(links) == 3 and links[1].startswith("demo://resource/")


@needs_everything
def test_everything_image_with_a_bad_checksum_comes_back_as_an_image(everything: ModuleType) -> None:
    # The server's tiny PNG has a broken checksum in its colour profile (iCCP), which PIL alone refuses:
    # decoded as browsers do, without that chunk, it is an image of the server's pixels.
    import base64
    import re

    from PIL import Image

    before, image, after = by_name(everything)["get_tiny_image"]()
    assert before == "Here's the image you requested:" and after == "The image above is the MCP logo."
    source = (EVERYTHING.parent / "tools/get-tiny-image.js").read_text()
    data = base64.b64decode(re.search(r'MCP_TINY_IMAGE = "([^"]+)"', source).group(1))
    assert isinstance(image, Image.Image) and image.format == "PNG"
    assert image.size == (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))  # as IHDR says


@needs_everything
def test_everything_matches_mcpadapt(everything: ModuleType) -> None:
    from mcp import StdioServerParameters

    params = StdioServerParameters(command="node", args=[str(EVERYTHING), "stdio"])
    theirs, raw = mcpadapt_tools(params)
    # A tool whose calls must run as tasks is left out (see the test above); mcpadapt adapts it anyway.
    callable_ones = [tool for tool in raw if getattr(tool.execution, "taskSupport", None) != "required"]
    assert len(callable_ones) == len(raw) - 1
    check_against_mcpadapt(everything.tools(), theirs, callable_ones)


@needs_everything
def test_everything_in_a_code_agent(everything: ModuleType) -> None:
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, Model

    class ScriptedModel(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = "total = get_sum(a=20, b=22)\nfinal_answer(total)"
            return ChatMessage(role="assistant", content=f"Thought: add.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=everything.tools(), model=ScriptedModel(), max_steps=2)
    assert agent.run("20 + 22?") == "The sum of 20 and 22 is 42."
