"""The floor of `bench_serve.py`: a bare mcp SDK stdio server with one tool that does nothing.

What any MCP server written in Python with the SDK pays per call over stdio, whatever it serves.
"""

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

server = Server("floor")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="noop", description="Does nothing.", inputSchema={"type": "object", "properties": {}})]


@server.call_tool(validate_input=False)
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text="ok")]


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
