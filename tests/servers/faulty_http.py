"""An HTTP server that misbehaves on purpose, for fault tests of every HTTP source.

python tests/servers/faulty_http.py --port N --mode MODE

Modes: `status:CODE` (every request answers CODE with a JSON error), `hang` (accepts,
then never answers), `truncated` (promises a JSON body and sends half of it),
`malformed` (200 with invalid JSON), `reset` (closes the connection without answering),
`trickle` (answers one byte a second, headers included, and never finishes: no read ever times out),
`endless` (200 with a JSON body that never ends, sent as fast as it is read), `endless-events` (the
same as an event stream of comments, which an SSE reader skips).
"""

from __future__ import annotations

import argparse
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def handler_for(mode: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def answer(self) -> None:
            if self.path == "/__ready__":  # lets the test fixture know we are up
                self.send_response(204)
                self.end_headers()
                return
            if mode.startswith("status:"):
                body = b'{"error": "injected failure"}'
                self.send_response(int(mode.split(":", 1)[1]))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif mode == "hang":
                time.sleep(3600)
            elif mode == "truncated":
                body = b'{"mode": "blocks", "components": [{"id": 1, "props": {"label": "cut here'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body) * 2))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            elif mode == "malformed":
                body = b"{'not': json,,"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif mode == "trickle":
                head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
                for byte in head + b'{"padding": "' + b"x" * 1_000_000:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            elif mode in ("endless", "endless-events"):
                events = mode == "endless-events"
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream" if events else "application/json")
                self.end_headers()
                chunk = b": padding\n" * 6000 if events else b"x" * 60_000
                try:
                    self.wfile.write(b"" if events else b'{"jsonrpc": "2.0", "id": 0, "result": {"padding": "')
                    while True:
                        self.wfile.write(chunk)
                except OSError:  # the client hung up: what it should do
                    pass
            elif mode == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                self.connection.close()
            else:
                raise ValueError(f"unknown mode {mode}")

        do_GET = do_POST = do_HEAD = answer

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(args.mode))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
