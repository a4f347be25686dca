"""A hostile MCP server that writes its JSON-RPC by hand: whatever `serverInfo` and `tools/list` a test gives it.

The SDK's servers validate and re-serialise what they send (NaN becomes null, names get warned
about); a hostile server does neither. This one answers streamable HTTP with plain JSON bodies,
and sends Python's JSON, so `NaN` and `Infinity` go over the wire as the bare tokens some
servers write. A tool call answers with one text item echoing the name and arguments.

    python tests/servers/mcp_raw.py SPEC.json --port N   # http://127.0.0.1:N/mcp
    python tests/servers/mcp_raw.py SPEC.json --stdio

SPEC.json: {"serverInfo": {"name": ..., "version": ...}, "tools": [<tools/list entries>]}, and optionally
"answer_bytes": N (a tool call answers a text of N bytes, written as it goes: hundreds of MB cost the server
nothing) and "events": true (HTTP answers as an event stream, not a JSON body).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = "2025-06-18"


def result_of(spec: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    method, params = message["method"], message.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": PROTOCOL_VERSION, "capabilities": {"tools": {}}, "serverInfo": spec["serverInfo"]}
    if method == "tools/list":
        return {"tools": spec["tools"]}
    if method == "tools/call":
        echo = json.dumps({"tool": params["name"], "args": params.get("arguments")}, sort_keys=True)
        return {"content": [{"type": "text", "text": echo}], "isError": False}
    return {}


def make_handler(spec: dict[str, Any]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if "id" not in message:  # a notification
                self.send_response(202)
                self.end_headers()
                return
            if message["method"] == "tools/call" and spec.get("answer_bytes"):
                return self.stream(huge(message["id"], spec["answer_bytes"], spec.get("events", False)))
            self.reply({"jsonrpc": "2.0", "id": message["id"], "result": result_of(spec, message)})

        def do_GET(self) -> None:  # noqa: N802 - no server-to-client stream
            self.send_response(405 if self.path == "/mcp" else 200)
            self.end_headers()

        def do_DELETE(self) -> None:  # noqa: N802
            self.send_response(200)
            self.end_headers()

        def reply(self, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()  # allow_nan: NaN and Infinity as bare tokens
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Mcp-Session-Id", "raw")
            self.end_headers()
            self.wfile.write(data)

        def stream(self, parts: tuple[bytes, int, bytes, str]) -> None:
            head, repeats, tail, kind = parts
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(head) + repeats * len(CHUNK) + len(tail)))
            self.send_header("Mcp-Session-Id", "raw")
            self.end_headers()
            try:
                self.wfile.write(head)
                for _ in range(repeats):
                    self.wfile.write(CHUNK)
                self.wfile.write(tail)
            except OSError:  # the client stopped reading: what a bound does
                pass

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


CHUNK = b"x" * (1 << 20)


def huge(request_id: Any, size: int, events: bool) -> tuple[bytes, int, bytes, str]:
    """A tool call's answer of a text of about `size` bytes, as (head, how many CHUNKs, tail, content type)."""
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": ""}]}})
    head, tail = head.split('""', 1)
    head, tail = (head + '"').encode(), ('"' + tail).encode()
    if events:
        return b"event: message\ndata: " + head, size >> 20, tail + b"\n\n", "text/event-stream"
    return head, size >> 20, tail, "application/json"


def serve_stdio(spec: dict[str, Any]) -> None:
    """The same answers over stdio: one JSON-RPC message a line."""
    import sys

    out = sys.stdout.buffer
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message["method"] == "tools/call" and spec.get("answer_bytes"):
            head, repeats, tail, _ = huge(message["id"], spec["answer_bytes"], False)
            try:
                out.write(head)
                for _ in range(repeats):
                    out.write(CHUNK)
                out.write(tail + b"\n")
                out.flush()
            except OSError:
                return
            continue
        out.write(
            json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result_of(spec, message)}).encode() + b"\n"
        )
        out.flush()


def write_spec(directory: Path, tools: list[Any], version: str = "1", name: str = "hostile", **options: Any) -> Path:
    spec = directory / "spec.json"
    spec.write_text(json.dumps({"serverInfo": {"name": name, "version": version}, "tools": tools, **options}))
    return spec


@contextmanager
def serving(
    directory: Path, tools: list[Any], version: str = "1", name: str = "hostile", **options: Any
) -> Iterator[str]:
    """This server, in a process of its own, listing `tools` (`options`: more of SPEC.json); yields its URL."""
    from tests.servers import free_port, server_process

    spec = write_spec(directory, tools, version, name, **options)
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with server_process([__file__, str(spec), "--port", str(port)], url):
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--port", type=int)
    parser.add_argument("--stdio", action="store_true")
    args = parser.parse_args()
    with open(args.spec, encoding="utf-8") as file:
        spec = json.load(file)
    if args.stdio:
        return serve_stdio(spec)
    ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(spec)).serve_forever()


if __name__ == "__main__":
    main()
