"""Low-level (`mcp.server.lowlevel.Server`) test server: pagination and hostile schemas.

FastMCP never paginates `tools/list`; this server returns tools in pages of
`--page-size` (default 2) with an opaque `nextCursor`. It also serves what
FastMCP cannot express: a recursive schema, hostile tool names, parameter
names and descriptions, schemas without `properties`, odd result shapes.

    python -m tests.servers.mcp_lowlevel stdio [--page-size 2]
    python -m tests.servers.mcp_lowlevel http --port N   # http://127.0.0.1:N/mcp
    python -m tests.servers.mcp_lowlevel sse --port N    # http://127.0.0.1:N/sse

Unless a tool says otherwise it answers with one TextContent holding
`json.dumps({"tool": <name>, "args": <arguments>}, sort_keys=True)` (ASCII only,
so hostile characters come back escaped): see `echo_text()`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError

SERVER_NAME = "vendorgen-lowlevel"

# Every character a naive code generator gets wrong inside a string, a
# docstring or a comment.
HOSTILE = (
    "double \"quotes\", single 'quotes', triple \"\"\"double\"\"\" and '''single''', "
    "a backslash \\ and \\n (not a newline), a real\nnewline, a tab\t, CRLF\r\n, "
    "bidi override \u202e<-reversed, NUL \x00, line separator \u2028, paragraph separator \u2029, "
    "jinja {{ braces }} {% tag %} {# comment #}, ${shell} `backticks` </script> # not a comment"
)

HOSTILE_DEFAULT = 'he said "hi" \\ \'\'\' """ \u202e \x00 \u2028 end'


def echo_text(name: str, args: dict[str, Any]) -> str:
    return json.dumps({"tool": name, "args": args}, sort_keys=True)


def _obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema.update(extra)
    return schema


TREE_SCHEMA: dict[str, Any] = {
    "$defs": {
        "TreeNode": {
            "type": "object",
            "title": "TreeNode",
            "description": "A node; children are TreeNodes too (recursive $ref).",
            "properties": {
                "value": {"type": "integer", "description": "Value of this node"},
                "children": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/TreeNode"},
                    "default": [],
                },
            },
            "required": ["value"],
        }
    },
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/TreeNode", "description": "Root of the tree"}},
    "required": ["tree"],
}


def _tree_sum(node: dict[str, Any]) -> int:
    return int(node["value"]) + sum(_tree_sum(child) for child in node.get("children", []))


TOOLS: list[types.Tool] = [
    types.Tool(
        name="tree_sum",
        title="Tree sum",
        description="Recursive schema (TreeNode.children -> TreeNode). Returns the sum of all values as text.",
        inputSchema=TREE_SCHEMA,
        annotations=types.ToolAnnotations(readOnlyHint=True, idempotentHint=True),
    ),
    types.Tool(
        name="hostile_text",
        description=HOSTILE,
        inputSchema=_obj(
            {
                "text": {"type": "string", "description": HOSTILE},
                "note": {"type": "string", "description": "Default is hostile too", "default": HOSTILE_DEFAULT},
            },
            ["text"],
            title=HOSTILE,
        ),
    ),
    types.Tool(
        name="weird_params",
        description="Parameter names that are keywords, builtins or not identifiers.",
        inputSchema=_obj(
            {
                "from": {"type": "string", "description": "keyword"},
                "lambda": {"type": "number", "description": "keyword", "default": 1.5},
                "class": {"type": "string", "description": "keyword", "default": "c"},
                "max-results": {"type": "integer", "description": "hyphen", "default": 3},
                "max_results": {
                    "type": "integer",
                    "description": "collides with max-results once sanitized",
                    "default": 4,
                },
                "with space": {"type": "string", "description": "space", "default": "s p"},
                "1st": {"type": "boolean", "description": "leading digit", "default": True},
                "self": {"type": "string", "description": "would clash with the method's self", "default": "me"},
                "kwargs": {"type": "string", "description": "would clash with **kwargs", "default": "kw"},
                "None": {"type": "string", "description": "keyword constant", "default": "n"},
                "café": {"type": "string", "description": "non-ASCII identifier", "default": "é"},
                "a.b": {"type": "string", "description": "dot", "default": "ab"},
            },
            ["from"],
        ),
    ),
    types.Tool(
        name="no_properties",
        description='inputSchema is just {"type": "object"} (no "properties" key). Returns "ok".',
        inputSchema={"type": "object"},
    ),
    types.Tool(
        name="no_description",
        title="Has a title but no description",
        description=None,
        inputSchema=_obj({"x": {"type": "integer"}, "y": {"type": "string"}}, ["x"]),
    ),
    types.Tool(
        name="odd_types",
        description="Schema shapes beyond one plain 'type' per property.",
        inputSchema=_obj(
            {
                "untyped": {"description": "no type at all"},
                "empty": {},
                "multi": {"type": ["integer", "string"], "description": "type list"},
                "nullable_str": {"type": ["string", "null"], "default": None, "description": "type list with null"},
                "one_of": {"oneOf": [{"type": "integer"}, {"type": "boolean"}], "description": "oneOf"},
                "all_of": {
                    "allOf": [{"type": "object", "properties": {"k": {"type": "string"}}}],
                    "description": "allOf",
                },
                "mapping": {
                    "type": "object",
                    "additionalProperties": {"type": "integer"},
                    "description": "dict[str, int]",
                },
                "const": {"const": "fixed", "description": "const"},
                "fmt": {"type": "string", "format": "uri", "description": "format uri"},
                "tuple": {
                    "type": "array",
                    "prefixItems": [{"type": "string"}, {"type": "integer"}],
                    "description": "tuple[str, int]",
                },
                "matrix": {
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "number"}},
                    "description": "list[list[float]]",
                },
                "int_enum": {"type": "integer", "enum": [1, 2, 3], "default": 2, "description": "integer enum"},
            },
        ),
    ),
    types.Tool(
        name="structured",
        description="outputSchema with nested object; returns structuredContent (text is the JSON).",
        inputSchema=_obj({"n": {"type": "integer"}}, ["n"]),
        outputSchema=_obj(
            {
                "n": {"type": "integer"},
                "squares": {"type": "array", "items": {"type": "integer"}},
                "meta": _obj({"even": {"type": "boolean"}}, ["even"]),
            },
            ["n", "squares", "meta"],
        ),
    ),
    types.Tool(
        name="empty_result",
        description="Returns an empty content list.",
        inputSchema=_obj({}),
    ),
    types.Tool(
        name="error_result",
        description='Returns isError=True with text "custom failure: <reason>" (no exception).',
        inputSchema=_obj({"reason": {"type": "string", "default": "nope"}}),
    ),
    types.Tool(
        name="resources",
        description="Returns a TextContent, an EmbeddedResource and a ResourceLink.",
        inputSchema=_obj({}),
    ),
    # Hostile tool names. Each echoes (see echo_text).
    *[
        types.Tool(name=name, description=f"Hostile tool name {name!r}.", inputSchema=_obj({"v": {"type": "string"}}))
        for name in [
            "get-data",
            "get_data",  # collides with get-data once '-' -> '_'
            "1st-tool",
            "dotted.name",
            "import",
            "self",
            'say "hi" it\'s',
            "back\\slash",
            "café",
            "bidi\u202eexe.txt",
            "line\u2028sep",
            "nul\x00name",
        ]
    ],
]

TOOL_NAMES = [tool.name for tool in TOOLS]


async def _call(name: str, args: dict[str, Any]) -> Any:
    if name == "tree_sum":
        return [types.TextContent(type="text", text=str(_tree_sum(args["tree"])))]
    if name == "no_properties":
        return [types.TextContent(type="text", text="ok")]
    if name == "structured":
        n = int(args["n"])
        return {"n": n, "squares": [i * i for i in range(n)], "meta": {"even": n % 2 == 0}}
    if name == "empty_result":
        return []
    if name == "error_result":
        text = f"custom failure: {args.get('reason', 'nope')}"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=True)
    if name == "resources":
        return [
            types.TextContent(type="text", text="see resources"),
            types.EmbeddedResource(
                type="resource",
                resource=types.TextResourceContents(uri="memo://one", mimeType="text/plain", text="resource text"),
            ),
            types.ResourceLink(type="resource_link", uri="memo://two", name="two", mimeType="text/plain"),
        ]
    if name in TOOL_NAMES:
        return [types.TextContent(type="text", text=echo_text(name, args))]
    raise ValueError(f"unknown tool {name!r}")


def build_server(
    name: str,
    tools: list[types.Tool],
    page_size: int,
    call: Callable[[str, dict[str, Any]], Awaitable[Any]],
) -> Server:
    """A low-level server listing `tools` in pages of `page_size` (0 = no pagination)."""
    server: Server = Server(name)

    def offset_of(cursor: str | None) -> int:
        if cursor is None:
            return 0
        try:
            prefix, value = cursor.split(":", 1)
            offset = int(value)
            if prefix != "offset" or not 0 <= offset <= len(tools):
                raise ValueError(cursor)
            return offset
        except ValueError:
            raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=f"invalid cursor {cursor!r}")) from None

    @server.list_tools()
    async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
        # The server calls this with request=None to refresh its own cache (used
        # for input validation): give it everything.
        if request is None or page_size <= 0:
            return types.ListToolsResult(tools=tools)
        start = offset_of(request.params.cursor if request.params else None)
        end = start + page_size
        return types.ListToolsResult(tools=tools[start:end], nextCursor=f"offset:{end}" if end < len(tools) else None)

    @server.call_tool()
    async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
        return await call(name, arguments)

    return server


# ---------------------------------------------------------------------------
# Transports (shared with mcp_many)
# ---------------------------------------------------------------------------


class _ASGIHandler:
    """Starlette treats a non-function endpoint as a raw ASGI app."""

    def __init__(self, handle: Callable[..., Awaitable[None]]):
        self.handle = handle

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.handle(scope, receive, send)


def serve(server: Server, transport: str, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run `server` over stdio, streamable-http (`/mcp`) or legacy SSE (`/sse`)."""
    logging.basicConfig(level=logging.WARNING)
    # Hostile names are served on purpose: silence the SEP-986 name warnings.
    logging.getLogger("mcp.shared.tool_name_validation").setLevel(logging.ERROR)

    if transport == "stdio":
        from mcp.server.stdio import stdio_server

        async def run_stdio() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(run_stdio)
        return

    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    if transport == "http":
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        manager = StreamableHTTPSessionManager(app=server)

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            async with manager.run():
                yield

        app = Starlette(routes=[Route("/mcp", endpoint=_ASGIHandler(manager.handle_request))], lifespan=lifespan)
    elif transport == "sse":
        from mcp.server.sse import SseServerTransport

        sse = SseServerTransport("/messages/")

        async def handle_sse(request: Request) -> Response:
            async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
                await server.run(read, write, server.create_initialization_options())
            return Response()

        app = Starlette(
            routes=[
                Route("/sse", endpoint=handle_sse, methods=["GET"]),
                Mount("/messages/", app=sse.handle_post_message),
            ]
        )
    else:
        raise ValueError(f"unknown transport {transport!r}")

    uvicorn.run(app, host=host, port=port, log_level="warning")


def make_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("transport", choices=["stdio", "http", "sse"], nargs="?", default="stdio")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = make_parser(__doc__.splitlines()[0])
    parser.add_argument("--page-size", type=int, default=2, help="tools per tools/list page; 0 = no pagination")
    args = parser.parse_args(argv)
    serve(build_server(SERVER_NAME, TOOLS, args.page_size, _call), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
