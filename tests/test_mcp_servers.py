"""Smoke tests for the test MCP servers, driven by the raw mcp client (no mcpadapt)."""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError
from mcp.types import CallToolResult, ImageContent, TextContent, Tool

from tests.servers import OFFLINE_ENV, free_port, mcp_lowlevel, mcp_server, server_process

ROOT = Path(__file__).resolve().parents[1]
SERVER = "tests.servers.mcp_server"
LOWLEVEL = "tests.servers.mcp_lowlevel"
MANY = "tests.servers.mcp_many"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def server_env(**extra: str) -> dict[str, str]:
    """Environment for a server subprocess: offline, and able to import `tests`."""
    pythonpath = os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)
    return {**os.environ, **OFFLINE_ENV, "PYTHONPATH": pythonpath, **extra}


@asynccontextmanager
async def stdio_session(module: str, *args: str, **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", module, "stdio", *args], cwd=str(ROOT), env=server_env(**env)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(module: str, *args: str, transport: str = "http", **env: str) -> AsyncIterator[ClientSession]:
    port = free_port()
    path = "/mcp" if transport == "http" else "/sse"
    url = f"http://127.0.0.1:{port}{path}"
    argv = ["-m", module, transport, "--port", str(port), *args]
    with server_process(argv, url, env=server_env(**env)):
        client = streamable_http_client(url) if transport == "http" else sse_client(url)
        async with client as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def list_all_tools(session: ClientSession) -> tuple[list[Tool], int]:
    """Follow nextCursor to the end; return (tools, number of pages)."""
    tools: list[Tool] = []
    cursor: str | None = None
    pages = 0
    seen: set[str] = set()
    while True:
        result = await session.list_tools(cursor=cursor)
        pages += 1
        tools.extend(result.tools)
        cursor = result.nextCursor
        if not cursor:
            return tools, pages
        assert cursor not in seen, f"cursor loop at {cursor!r}"
        seen.add(cursor)


def text_of(result: CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, TextContent), result
    return first.text


def props(tool: Tool) -> dict[str, Any]:
    return tool.inputSchema.get("properties", {})


# ---------------------------------------------------------------------------
# FastMCP server
# ---------------------------------------------------------------------------


def check_fastmcp_schemas(tools: list[Tool]) -> None:
    by_name = {tool.name: tool for tool in tools}
    assert sorted(by_name) == sorted(mcp_server.TOOL_NAMES)

    defaults = by_name["defaults"]
    assert defaults.inputSchema["required"] == ["name"]
    assert {k: (v["type"], v.get("default")) for k, v in props(defaults).items()} == {
        "name": ("string", None),
        "count": ("integer", 2),
        "ratio": ("number", 0.5),
        "loud": ("boolean", False),
        "greeting": ("string", "Hello"),
    }
    assert props(by_name["optional_int"])["value"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    choose = by_name["choose"]
    assert props(choose)["mode"]["enum"] == ["fast", "slow"]
    assert props(choose)["color"]["$ref"] == "#/$defs/Color"
    assert choose.inputSchema["$defs"]["Color"]["enum"] == ["red", "green", "blue"]
    assert props(by_name["join_words"])["words"]["items"] == {"type": "string"}
    assert props(by_name["mean"])["values"]["items"] == {"type": "number"}
    person = by_name["describe_person"].inputSchema
    assert set(person["$defs"]) == {"Person", "Address"}
    assert person["$defs"]["Person"]["properties"]["address"] == {"$ref": "#/$defs/Address"}
    assert props(by_name["ping"]) == {}
    assert set(props(by_name["query"])) == {"from", "lambda", "max-results"}
    assert by_name["query"].inputSchema["required"] == ["from"]
    # Output schemas: the pydantic model, and FastMCP's {"result": ...} wrapping of primitives.
    out = by_name["lookup_user"].outputSchema
    assert out is not None and "Address" in out["$defs"] and "address" in out["required"]
    assert by_name["add"].outputSchema["properties"]["result"]["type"] == "integer"
    assert by_name["echo"].outputSchema is None
    assert by_name["echo"].description == "Echo the text back unchanged."


async def check_fastmcp_calls(session: ClientSession) -> None:
    for name, args, expected in mcp_server.EXPECTED:
        result = await session.call_tool(name, args)
        assert not result.isError, (name, result)
        assert text_of(result) == expected, (name, args)

    add = await session.call_tool("add", {"a": 40, "b": 2})
    assert add.structuredContent == {"result": 42}

    user = await session.call_tool("lookup_user", {"user_id": 4})
    assert user.structuredContent == {
        "id": 4,
        "name": "user4",
        "active": True,
        "score": 2.0,
        "tags": ["a", "b"],
        "address": {"street": "4 Main St", "city": "Springfield", "zip": None},
    }
    assert json.loads(text_of(user)) == user.structuredContent

    both = await session.call_tool("text_and_image", {"caption": "hello"})
    assert [c.type for c in both.content] == ["text", "image"]
    assert both.content[0].text == "hello"
    image = both.content[1]
    assert isinstance(image, ImageContent) and image.mimeType == "image/png"
    assert image.data == base64.b64encode(mcp_server.tiny_png((255, 0, 0))).decode()

    only_image = await session.call_tool("make_image", {"color": "green", "size": 3})
    assert [c.type for c in only_image.content] == ["image"]
    png = base64.b64decode(only_image.content[0].data)
    assert png.startswith(PNG_MAGIC)
    try:
        from PIL import Image as PILImage
    except ImportError:  # pragma: no cover
        pass
    else:
        with PILImage.open(io.BytesIO(png)) as img:
            assert img.size == (3, 3) and img.convert("RGB").getpixel((1, 1)) == (0, 255, 0)

    failed = await session.call_tool("fail", {"message": "kaput"})
    assert failed.isError and text_of(failed) == "Error executing tool fail: kaput"

    bad_args = await session.call_tool("add", {"a": "not a number"})
    assert bad_args.isError and "validation error" in text_of(bad_args).lower()

    first = json.loads(text_of(await session.call_tool("call_counter", {})))
    second = json.loads(text_of(await session.call_tool("call_counter", {})))
    assert second == {"count": first["count"] + 1, "pid": first["pid"]}
    assert first["pid"] != os.getpid()


@pytest.mark.anyio
async def test_fastmcp_stdio() -> None:
    async with stdio_session(SERVER, VENDORGEN_TEST_VAR="from the client") as session:
        tools, pages = await list_all_tools(session)
        assert pages == 1
        check_fastmcp_schemas(tools)
        await check_fastmcp_calls(session)
        env = await session.call_tool("get_env", {"name": "VENDORGEN_TEST_VAR"})
        assert text_of(env) == "from the client"


@pytest.mark.anyio
async def test_fastmcp_streamable_http() -> None:
    async with http_session(SERVER, VENDORGEN_TEST_VAR="http env") as session:
        tools, _ = await list_all_tools(session)
        check_fastmcp_schemas(tools)
        await check_fastmcp_calls(session)
        assert text_of(await session.call_tool("get_env", {"name": "VENDORGEN_TEST_VAR"})) == "http env"


@pytest.mark.anyio
async def test_fastmcp_sse() -> None:
    async with http_session(SERVER, transport="sse") as session:
        tools, _ = await list_all_tools(session)
        assert sorted(t.name for t in tools) == sorted(mcp_server.TOOL_NAMES)
        assert text_of(await session.call_tool("get-weather", {"city": "Rome", "days": 2})) == "Rome: 20C x2"
        first = json.loads(text_of(await session.call_tool("call_counter", {})))
        second = json.loads(text_of(await session.call_tool("call_counter", {})))
        assert second["pid"] == first["pid"] and second["count"] == first["count"] + 1


@pytest.mark.anyio
async def test_fastmcp_slow_tool_times_out() -> None:
    async with stdio_session(SERVER) as session:
        with pytest.raises(McpError, match="Timed out"):
            await session.call_tool("sleep", {"seconds": 30}, read_timeout_seconds=timedelta(seconds=0.5))
        # The session is still usable after a timed-out request.
        assert text_of(await session.call_tool("sleep", {"seconds": 0.1})) == "slept 0.1"


# ---------------------------------------------------------------------------
# Low-level server: pagination, recursive schema, hostile names
# ---------------------------------------------------------------------------


def check_lowlevel_tools(tools: list[Tool]) -> None:
    by_name = {tool.name: tool for tool in tools}
    assert [t.name for t in tools] == mcp_lowlevel.TOOL_NAMES
    assert len(by_name) == len(tools)
    for hostile in ["bidi\u202eexe.txt", "nul\x00name", "line\u2028sep", 'say "hi" it\'s', "back\\slash", "café"]:
        assert hostile in by_name
    assert by_name["hostile_text"].description == mcp_lowlevel.HOSTILE
    assert "\x00" in by_name["hostile_text"].description and "\u202e" in by_name["hostile_text"].description
    assert props(by_name["hostile_text"])["note"]["default"] == mcp_lowlevel.HOSTILE_DEFAULT
    tree = by_name["tree_sum"].inputSchema
    assert tree["$defs"]["TreeNode"]["properties"]["children"]["items"] == {"$ref": "#/$defs/TreeNode"}
    assert "properties" not in by_name["no_properties"].inputSchema
    assert by_name["no_description"].description is None
    assert {"from", "lambda", "max-results", "max_results", "with space", "1st", "self", "café"} <= set(
        props(by_name["weird_params"])
    )
    assert by_name["structured"].outputSchema is not None


async def check_lowlevel_calls(session: ClientSession) -> None:
    tree = {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}, {"value": 4}]}
    assert text_of(await session.call_tool("tree_sum", {"tree": tree})) == "10"
    invalid = await session.call_tool("tree_sum", {"tree": {"children": []}})
    assert invalid.isError and "Input validation error" in text_of(invalid)

    hostile = await session.call_tool("hostile_text", {"text": mcp_lowlevel.HOSTILE})
    assert json.loads(text_of(hostile)) == {"tool": "hostile_text", "args": {"text": mcp_lowlevel.HOSTILE}}

    args = {"from": "x", "max-results": 1, "with space": "y", "1st": False, "self": "s"}
    assert text_of(await session.call_tool("weird_params", args)) == mcp_lowlevel.echo_text("weird_params", args)
    for name in ["nul\x00name", "line\u2028sep", "bidi\u202eexe.txt", "get-data", "get_data"]:
        assert text_of(await session.call_tool(name, {"v": "q"})) == mcp_lowlevel.echo_text(name, {"v": "q"})

    assert text_of(await session.call_tool("no_properties", {})) == "ok"
    structured = await session.call_tool("structured", {"n": 3})
    assert structured.structuredContent == {"n": 3, "squares": [0, 1, 4], "meta": {"even": False}}
    assert (await session.call_tool("empty_result", {})).content == []
    error = await session.call_tool("error_result", {"reason": "why"})
    assert error.isError and text_of(error) == "custom failure: why"
    resources = await session.call_tool("resources", {})
    assert [c.type for c in resources.content] == ["text", "resource", "resource_link"]


@pytest.mark.anyio
async def test_lowlevel_stdio_paginates() -> None:
    async with stdio_session(LOWLEVEL) as session:
        first = await session.list_tools()
        assert [t.name for t in first.tools] == mcp_lowlevel.TOOL_NAMES[:2]
        assert first.nextCursor
        tools, pages = await list_all_tools(session)
        assert pages == -(-len(mcp_lowlevel.TOOL_NAMES) // 2)
        check_lowlevel_tools(tools)
        await check_lowlevel_calls(session)
        with pytest.raises(McpError, match="invalid cursor"):
            await session.list_tools(cursor="garbage")


@pytest.mark.anyio
async def test_lowlevel_page_size_option() -> None:
    async with stdio_session(LOWLEVEL, "--page-size", "0") as session:
        result = await session.list_tools()
        assert result.nextCursor is None and len(result.tools) == len(mcp_lowlevel.TOOL_NAMES)


@pytest.mark.anyio
async def test_lowlevel_streamable_http_paginates() -> None:
    async with http_session(LOWLEVEL, "--page-size", "5") as session:
        tools, pages = await list_all_tools(session)
        assert pages == -(-len(mcp_lowlevel.TOOL_NAMES) // 5)
        check_lowlevel_tools(tools)
        await check_lowlevel_calls(session)


@pytest.mark.anyio
async def test_lowlevel_sse() -> None:
    async with http_session(LOWLEVEL, transport="sse") as session:
        tools, _ = await list_all_tools(session)
        assert [t.name for t in tools] == mcp_lowlevel.TOOL_NAMES
        assert text_of(await session.call_tool("no_properties", {})) == "ok"


# ---------------------------------------------------------------------------
# Many-tools benchmark server
# ---------------------------------------------------------------------------


@pytest.mark.anyio
async def test_many_stdio() -> None:
    async with stdio_session(MANY, "--count", "200") as session:
        tools, pages = await list_all_tools(session)
        assert pages == 1 and len(tools) == 200
        assert len({t.name for t in tools}) == 200
        assert tools[0].name == "tool_0000_str" and tools[7].name == "tool-0007-keywords"
        kinds = {t.name.replace("-", "_").split("_", 2)[2] for t in tools}
        assert kinds == {"str", "defaults", "enum", "arrays", "optional", "nested", "noparams", "keywords"}
        args = {"person": {"name": "A", "address": {"street": "s", "city": "c"}}}
        result = await session.call_tool("tool_0005_nested", args)
        assert json.loads(text_of(result)) == {"tool": "tool_0005_nested", "args": args}


@pytest.mark.anyio
async def test_many_paginated() -> None:
    async with stdio_session(MANY, "--count", "50", "--page-size", "20") as session:
        tools, pages = await list_all_tools(session)
        assert pages == 3 and len(tools) == 50
