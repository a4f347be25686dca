"""A stdio MCP server, written by hand, that keeps its client waiting; for the tests that press Ctrl-C.

    python tests/servers/mcp_stalling.py MODE DIR

Each copy leaves a file named after its process id in DIR, then by MODE:
- `sleep`: prints a line on stderr and never answers (a server that hangs starting up);
- `roots`: a server like server-everything: it says its tool list may change, asks a client that declares
  roots for them and lists one tool (its `serverInfo.version` is the text of DIR/version, else 1); while
  DIR holds a file `stall`, it never answers a client with capabilities (the second listing, which names
  what a server withholds, waits until it is interrupted).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

TOOL = {"name": "ping", "description": "Answers pong.", "inputSchema": {"type": "object", "properties": {}}}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def version(directory: Path) -> str:
    """What the server says its version is: DIR/version's text, else 1."""
    path = directory / "version"
    return path.read_text().strip() if path.exists() else "1"


def main() -> None:
    mode, directory = sys.argv[1], Path(sys.argv[2])
    (directory / str(os.getpid())).touch()
    print(f"stalling server {os.getpid()} started", file=sys.stderr, flush=True)
    if mode == "sleep":
        time.sleep(3600)
        return
    capable = False
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        if method == "initialize":
            capable = "roots" in message["params"].get("capabilities", {})
            info = {"name": "stalling", "version": version(directory)}
            send({"id": message["id"], "result": {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"tools": {"listChanged": True}}, "serverInfo": info}})  # fmt: skip
        elif method == "notifications/initialized" and capable:
            send({"id": "roots", "method": "roots/list"})
            (directory / f"{os.getpid()}.asked").touch()
        elif method == "tools/list" and not (capable and (directory / "stall").exists()):
            send({"id": message["id"], "result": {"tools": [TOOL]}})
        elif method == "ping":
            send({"id": message["id"], "result": {}})


if __name__ == "__main__":
    main()
