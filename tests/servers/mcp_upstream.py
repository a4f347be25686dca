"""An MCP server (low-level API) whose name and listing a test picks, for `vendorgen serve`'s hostile upstreams.

    python -m tests.servers.mcp_upstream stdio --name json    # serverInfo.name "json"

Two tools: `echo` (text back) and `measure` (structured content, with an output schema). How it
answers `tools/list` comes from the environment variable UPSTREAM_LISTING, read when it starts
(a vendored module passes it with `add --env`, so one vendored server can turn hostile later):
`plain` (or unset), it lists its tools on one page; `endless` answers every page with no tools and another
cursor; `growing` answers every page with a 1 MB tool and another cursor; `silent` never answers.
"""

from __future__ import annotations

import os

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server

from tests.servers.mcp_lowlevel import make_parser, serve

TOOLS = [
    types.Tool(
        name="echo",
        description="Says the text back.",
        inputSchema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    ),
    types.Tool(
        name="measure",
        description="The length of a text.",
        inputSchema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        outputSchema={"type": "object", "properties": {"length": {"type": "integer"}}, "required": ["length"]},
    ),
]
LARGE = types.Tool(name="large", description="x" * 1_000_000, inputSchema={"type": "object", "properties": {}})


def build_server(name: str, listing: str) -> Server:
    server: Server = Server(name)

    @server.list_tools()
    async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
        cursor = request.params.cursor if request is not None and request.params else None
        if listing == "silent":
            await anyio.sleep_forever()
        if listing in ("endless", "growing"):
            page = int(cursor or 0)
            return types.ListToolsResult(tools=[LARGE] if listing == "growing" else [], nextCursor=str(page + 1))
        return types.ListToolsResult(tools=TOOLS)

    @server.call_tool(validate_input=False)
    async def call_tool(tool: str, arguments: dict) -> list[types.TextContent] | dict:
        if tool == "measure":
            return {"length": len(arguments["text"])}
        return [types.TextContent(type="text", text=arguments["text"])]

    return server


def main(argv: list[str] | None = None) -> None:
    parser = make_parser(__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    args = parser.parse_args(argv)
    serve(build_server(args.name, os.environ.get("UPSTREAM_LISTING", "")), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
