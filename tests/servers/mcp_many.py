"""Benchmark server: N (default 200) tools with varied, deterministic schemas.

    python -m tests.servers.mcp_many stdio --count 200 [--page-size 0]
    python -m tests.servers.mcp_many http --port N --count 200

Tool i is named `tool_{i:04d}_{kind}` where kind cycles through KINDS; every
call answers one TextContent `json.dumps({"tool": name, "args": args}, sort_keys=True)`.
"""

from __future__ import annotations

from typing import Any

import mcp.types as types

from tests.servers.mcp_lowlevel import build_server, echo_text, make_parser, serve

SERVER_NAME = "vendorgen-many"


def _kind_schemas(i: int) -> dict[str, dict[str, Any]]:
    """One input schema per kind; `i` varies defaults and descriptions."""
    return {
        "str": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": f"Text #{i}"}},
            "required": ["text"],
        },
        "defaults": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Name"},
                "count": {"type": "integer", "default": i % 7, "description": "Count"},
                "ratio": {"type": "number", "default": i / 10, "description": "Ratio"},
                "flag": {"type": "boolean", "default": i % 2 == 0, "description": "Flag"},
            },
            "required": ["name"],
        },
        "enum": {
            "$defs": {"Mode": {"type": "string", "enum": ["a", "b", "c"], "title": "Mode"}},
            "type": "object",
            "properties": {
                "mode": {"$ref": "#/$defs/Mode", "default": "abc"[i % 3]},
                "level": {"type": "string", "enum": ["low", "high"], "description": "Literal-like"},
            },
            "required": ["level"],
        },
        "arrays": {
            "type": "object",
            "properties": {
                "words": {"type": "array", "items": {"type": "string"}, "description": "Words"},
                "values": {"type": "array", "items": {"type": "number"}, "default": [], "description": "Values"},
            },
            "required": ["words"],
        },
        "optional": {
            "type": "object",
            "properties": {
                "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "Limit"},
            },
        },
        "nested": {
            "$defs": {
                "Address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                    "required": ["street", "city"],
                },
                "Person": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "address": {"$ref": "#/$defs/Address"},
                    },
                    "required": ["name", "address"],
                },
            },
            "type": "object",
            "properties": {"person": {"$ref": "#/$defs/Person", "description": "A person"}},
            "required": ["person"],
        },
        "noparams": {"type": "object", "properties": {}},
        "keywords": {
            "type": "object",
            "properties": {
                "from": {"type": "string", "description": "keyword"},
                "max-results": {"type": "integer", "default": 5, "description": "hyphenated"},
            },
            "required": ["from"],
        },
    }


KINDS = list(_kind_schemas(0))


def make_tools(count: int) -> list[types.Tool]:
    tools = []
    for i in range(count):
        kind = KINDS[i % len(KINDS)]
        name = f"tool_{i:04d}_{kind}"
        if kind == "keywords":
            name = name.replace("_", "-")  # a non-identifier tool name now and then
        tools.append(
            types.Tool(
                name=name,
                description=f"Benchmark tool {i} ({kind}). Echoes its arguments as JSON.",
                inputSchema=_kind_schemas(i)[kind],
            )
        )
    return tools


def main(argv: list[str] | None = None) -> None:
    parser = make_parser(__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--page-size", type=int, default=0, help="tools per tools/list page; 0 = no pagination")
    args = parser.parse_args(argv)
    tools = make_tools(args.count)
    names = {tool.name for tool in tools}

    async def call(name: str, arguments: dict[str, Any]) -> Any:
        if name not in names:
            raise ValueError(f"unknown tool {name!r}")
        return [types.TextContent(type="text", text=echo_text(name, arguments))]

    serve(build_server(SERVER_NAME, tools, args.page_size, call), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
