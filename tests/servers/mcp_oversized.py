"""An MCP server whose listing asks for unbounded work, for the limit tests (tests/test_limits.py).

    python -m tests.servers.mcp_oversized stdio --doubling N     # a $defs chain where each entry refers
                                                                 # to the next twice: 4*2^N nodes inlined
    python -m tests.servers.mcp_oversized stdio --description N  # a tool description of N characters
    python -m tests.servers.mcp_oversized stdio --tools N ...    # N such tools (big0, big1, ...)
"""

from __future__ import annotations

from typing import Any

import mcp.types as types

from tests.servers.mcp_lowlevel import build_server, echo_text, make_parser, serve


def doubling_schema(links: int) -> dict[str, Any]:
    """~100 bytes per link, 2^links copies of the last entry once every $ref is inlined."""
    defs: dict[str, Any] = {
        f"D{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/D{i + 1}"}, "b": {"$ref": f"#/$defs/D{i + 1}"}}}
        for i in range(links)
    }
    defs[f"D{links}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}


def main(argv: list[str] | None = None) -> None:
    parser = make_parser(__doc__.splitlines()[0])
    parser.add_argument("--doubling", type=int, default=0)
    parser.add_argument("--description", type=int, default=0)
    parser.add_argument("--tools", type=int, default=1)
    args = parser.parse_args(argv)
    schema = doubling_schema(args.doubling) if args.doubling else {"type": "object", "properties": {}}
    description = "d" * args.description if args.description else "A tool."
    names = ["big"] if args.tools == 1 else [f"big{index}" for index in range(args.tools)]
    tools = [types.Tool(name=name, description=description, inputSchema=schema) for name in names]

    async def call(name: str, arguments: dict[str, Any]) -> Any:
        return [types.TextContent(type="text", text=echo_text(name, arguments))]

    serve(build_server("vendorgen-oversized", tools, 0, call), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
