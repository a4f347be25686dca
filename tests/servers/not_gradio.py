"""A plain HTTP server that is not Gradio: every GET/HEAD/POST answers 200 with an HTML page.

Run with ``python tests/servers/not_gradio.py --port N`` (127.0.0.1 only). A Gradio client that
asks it for ``/config`` or ``/gradio_api/info`` gets HTML, not JSON. Standard library only.
"""

from __future__ import annotations

import argparse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>Not Gradio</title></head>"
    b"<body><h1>Hello</h1><p>This is not a Gradio app.</p></body></html>\n"
)


class Handler(BaseHTTPRequestHandler):
    def _answer(self, body: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        if body:
            self.wfile.write(PAGE)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self._answer(body=True)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass  # quiet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="HTTP server that answers HTML to every path")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    with ThreadingHTTPServer(("127.0.0.1", args.port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
