"""How the vendored MCP server (`_vendored_server.py` beside this file) meets its clients: stdio, or
streamable HTTP behind a Host/Origin guard and a token check. Shipped with the server and owned with it by
the lock; needs the mcp SDK (with uvicorn and starlette for streamable-http), not vendorgen.
"""

from __future__ import annotations

import hmac
import io
import os
import sys
from typing import Any


def run_stdio(server: Any) -> None:
    """Serve on stdin/stdout; anything else writing to stdout (a tool's print) goes to stderr instead,
    and a tool reading stdin reads nothing (the protocol's input is not its)."""
    import anyio
    from mcp.server.stdio import stdio_server

    protocol_in, protocol_out = os.dup(0), os.dup(1)
    with open(os.devnull, "rb") as nothing:
        os.dup2(nothing.fileno(), 0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    async def serve() -> None:
        streams = await _pipes(protocol_in, protocol_out)
        if streams is None:  # not pipes: the SDK's streams, which read and write in worker threads
            text_in = io.TextIOWrapper(os.fdopen(protocol_in, "rb", buffering=0), encoding="utf-8", errors="replace")
            text_out = io.TextIOWrapper(
                os.fdopen(protocol_out, "wb", buffering=0), encoding="utf-8", write_through=True
            )
            streams = (anyio.wrap_file(text_in), anyio.wrap_file(text_out))
        async with stdio_server(stdin=streams[0], stdout=streams[1]) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


async def _pipes(read_fd: int, write_fd: int) -> tuple[Any, Any] | None:
    """The protocol's input and output, read and written by the event loop itself; None unless they are
    two pipes or two distinct sockets on POSIX (how MCP clients start a server). The SDK's own streams
    hand each line to a worker thread and back: three thread hops per call. Not for a terminal or
    /dev/null (the loop cannot watch them), nor for one socket as both (asyncio's write transport
    takes the socket turning readable for the other side closing)."""
    import asyncio
    import stat

    if os.name != "posix":
        return None
    read, write = os.fstat(read_fd), os.fstat(write_fd)
    same = (read.st_dev, read.st_ino) == (write.st_dev, write.st_ino)
    if same or not all(stat.S_ISFIFO(s.st_mode) or stat.S_ISSOCK(s.st_mode) for s in (read, write)):
        return None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 30)  # a line is one message, images included
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", 0))
    transport, flow = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), os.fdopen(write_fd, "wb", 0)
    )
    return _Lines(reader), _Writer(asyncio.StreamWriter(transport, flow, None, loop))


class _Lines:
    """The input as the SDK's stdio_server iterates it: one str per line."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return str(line.decode("utf-8", errors="replace"))


class _Writer:
    """The output as the SDK's stdio_server writes it: write then flush, each awaited."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))
        await self.writer.drain()  # waits only while the client does not read

    async def flush(self) -> None:
        pass


def run_http(
    server: Any, host: str, port: int, allowed_hosts: set[str], token: str | None, stateless: bool, shown: bool
) -> None:
    """Serve streamable HTTP at http://host:port/mcp, behind the Host/Origin guard and, given a `token`, the
    token check; the URL printed carries the token where `shown` (one made for this run, as Jupyter prints its own).

    Stateful unless `stateless`: a client's session keeps its own upstream connections, so an upstream's log
    messages, elicitation and sampling requests reach it (and its answers reach the upstream). `stateless`: every
    request stands alone (no Mcp-Session-Id), so any of several replicas answers it; what needs a session is lost.
    """
    import contextlib
    import logging
    import socket

    import anyio
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Route

    manager = StreamableHTTPSessionManager(app=server, json_response=False, stateless=stateless)
    # The SDK logs every client's disconnect as an error with a traceback (the stream it was
    # writing to closed): a disconnect is not an error, so it goes unsaid.
    logging.getLogger("mcp.server.streamable_http").addFilter(
        lambda record: not (record.exc_info and isinstance(record.exc_info[1], anyio.ClosedResourceError))
    )

    class Endpoint:
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async with manager.run():
            yield

    app = Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    port = sock.getsockname()[1]
    names = {f"{name}:{port}" for name in allowed_hosts}
    address = f"[{host}]" if ":" in host else host
    query = f"?{TOKEN_PARAMETER}={token}" if token and shown else ""
    print(f"serving MCP at http://{address}:{port}/mcp{query}", flush=True)
    guarded = Guard(TokenRequired(app, token) if token else app, names)
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


async def _refuse(send: Any, status: int, text: str, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain"), *headers]})  # fmt: skip
    await send({"type": "http.response.body", "body": text.encode()})


class Guard:
    """Refuses a request whose Host or Origin is not this server (DNS rebinding)."""

    def __init__(self, app: Any, hosts: set[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
            if headers.get("host", "").lower() not in self.hosts:
                return await _refuse(send, 421, "this server does not answer to that Host", [])
            origin = headers.get("origin")
            if origin is not None and origin.lower().partition("://")[2] not in self.hosts:
                return await _refuse(send, 403, "requests from that Origin are refused", [])
        await self.app(scope, receive, send)


# The query parameter that may carry the token, for clients configured by a URL alone (as Jupyter's ?token=).
TOKEN_PARAMETER = "token"


class TokenRequired:
    """Where a request is authenticated, and the only place: it must carry the token, as `Authorization: Bearer
    <token>` or in the URL's `?token=`. Loopback is shared by every local user: without it, any could call a tool."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self.carries_token(scope):
            return await _refuse(send, 401, "a bearer token is required", [(b"www-authenticate", b"Bearer")])
        await self.app(scope, receive, send)

    def carries_token(self, scope: Any) -> bool:
        from urllib.parse import parse_qs

        given = [value.partition(b" ")[2] for key, value in scope["headers"]
                 if key.lower() == b"authorization" and value[:7].lower() == b"bearer "]  # fmt: skip
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(TOKEN_PARAMETER, [])
        given += [value.encode("latin-1") for value in query]
        return any(hmac.compare_digest(value, self.token) for value in given)


def token_of(args: Any, fail: Any) -> tuple[str | None, bool]:
    """The token streamable HTTP requires, and whether it was made now (then the printed URL carries it):
    $--token-env, else a new one unless --no-token. Another local user can reach a loopback port too."""
    if args.token_env and args.no_token:
        fail("--token-env and --no-token exclude each other")
    if args.transport != "streamable-http":
        return None, False
    if args.token_env:
        if not (token := os.environ.get(args.token_env)):
            fail(f"--token-env {args.token_env}: that environment variable is not set")
        return token, False
    if args.no_token:
        print(
            "warning: --no-token: any local user (and with --allow-remote anyone) can call these tools", file=sys.stderr
        )
        return None, False
    import secrets

    return secrets.token_urlsafe(32), True
