"""A reverse proxy that writes down the headers of every request it forwards, for tests of where tokens go.

python tests/servers/logging_proxy.py --port N --upstream http://127.0.0.1:M/ --log FILE

Every request is forwarded to the upstream (a real app, e.g. the example Gradio app) and answered with
its response, streamed; before forwarding, one JSON line {"method", "path", "headers"} is appended to
FILE. `/__ready__` answers 204 without forwarding.
"""

from __future__ import annotations

import argparse
import http.client
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


def handler_for(upstream: str, log_path: str) -> type[BaseHTTPRequestHandler]:
    target = urlsplit(upstream)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def forward(self) -> None:
            if self.path == "/__ready__":
                self.send_response(204)
                self.end_headers()
                return
            with lock, open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "headers": dict(self.headers)}) + "\n")
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP and k.lower() != "host"}
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                # HTTP/1.0 answer: the body ends when the connection closes, so no length is needed.
                self.send_response(response.status, response.reason)
                for key, value in response.getheaders():
                    if key.lower() not in _HOP_BY_HOP and key.lower() != "content-length":
                        self.send_header(key, value)
                self.end_headers()
                while chunk := response.read1(65536):
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except OSError:
                pass  # the client went away (a heartbeat stream it no longer wants)
            finally:
                connection.close()

        do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = forward

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(args.upstream, args.log))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
