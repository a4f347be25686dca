"""A legacy-SSE MCP endpoint that breaks the protocol on purpose, for fault tests of `mcp:sse:` sources.

python tests/servers/faulty_sse.py --port N --mode MODE   # the endpoint is http://127.0.0.1:N/sse

The event stream and the POST endpoint behave as an MCP SSE server's do (an `endpoint` event,
then 202 for each POSTed message), but the answers on the stream do not: `malformed` answers
every request with a `message` event that is not JSON; `truncated` sends the first half of a
valid answer, then closes the stream.
"""

from __future__ import annotations

import argparse
import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def handler_for(mode: str) -> type[BaseHTTPRequestHandler]:
    requests: queue.Queue[dict] = queue.Queue()  # POSTed messages waiting for their (faulty) answer

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def do_GET(self) -> None:
            if self.path != "/sse":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.event("endpoint", "/messages/?session_id=0")
            while True:
                message = requests.get()
                if "id" not in message:
                    continue  # a notification needs no answer
                answer = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}})
                if mode == "malformed":
                    self.event("message", "{'jsonrpc': 2.0,, not json")
                elif mode == "truncated":
                    self.wfile.write(f"event: message\ndata: {answer[: len(answer) // 2]}".encode())
                    self.wfile.flush()
                    return  # the connection closes mid-event
                else:
                    raise ValueError(f"unknown mode {mode}")

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            requests.put(json.loads(body))

        def event(self, name: str, data: str) -> None:
            self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())
            self.wfile.flush()

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=["malformed", "truncated"], required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(args.mode))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
