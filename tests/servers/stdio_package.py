"""A stdio MCP server with no dependencies, packaged by tests/test_pins.py as a wheel `tiny-mcp` that uvx runs.

It speaks JSON-RPC by hand (one message a line), so uvx can install it from a local directory with
no index. Its one tool, `version`, answers the package's version, which the wheel builder writes
into VERSION; version 1.1 adds a parameter, so an update shows a change.
"""

from __future__ import annotations

import json
import sys

VERSION = "0"


def tools() -> list[dict]:
    properties = {"note": {"type": "string"}} if VERSION >= "1.1" else {}
    return [{"name": "version", "description": "The package's version.",
             "inputSchema": {"type": "object", "properties": properties}}]  # fmt: skip


def result(message: dict) -> dict:
    method = message.get("method")
    if method == "initialize":
        return {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "tiny-mcp", "version": "9.9.9"}}  # fmt: skip
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": VERSION}], "isError": False}
    return {}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" in message:
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result(message)}), flush=True)


if __name__ == "__main__":
    main()
