# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""How vendored MCP tools (_vendored_mcp.py) reach their server: the mcp SDK's client for its transport, with
every message the server sends bounded in bytes. The SDK reads a message whole, then parses it, several copies
at once (256 MiB of text took 1.8 GB): here a message over the bound is read no further and answered, to the
request it answers, with one error. Imports the SDK and httpx on first use."""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import os
import re
import sys
from collections.abc import AsyncIterator
from typing import Any

from ._vendored_runtime import _project_root

# The most bytes one message from an MCP server may take (a tool's answer is one message). For one module's
# tools: `<module>._ServerTool.session.max_message_bytes = N` (they share one connection); for all: this line.
MAX_MESSAGE_BYTES = 100_000_000
_HEAD = 1_000  # of a message, where its id is looked for (the SDKs write it before the result)
_ID = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")')
_EVENT_END = re.compile(rb"\r?\n\r?\n")  # of an event in an event stream
_LINES_CODEC = "vendored_mcp_lines_"  # + the bound: how a stdio client's output is read (_Lines)


def sdk_client(server: dict[str, Any], connect_timeout: float, limit: int | None) -> Any:
    """The mcp SDK client for `server` (a module's SERVER), not yet connected; a message over `limit` bytes
    (None: MAX_MESSAGE_BYTES) is refused."""
    limit = limit or MAX_MESSAGE_BYTES
    if server["transport"] == "stdio":
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        missing = [name for name in server["env"] if name not in os.environ]
        if missing:
            where = " ".join([server["name"] or server["command"], "(stdio)"])
            raise RuntimeError(f"set {', '.join(missing)} in the environment: the MCP server {where} needs it")
        env = {name: os.environ[name] for name in server["env"]}
        argv = [server["command"], *server["args"]]
        if server.get("project_paths"):
            root = _project_root()
            for index in server["project_paths"]:
                if isinstance(index, int) and 0 <= index < len(argv):
                    argv[index] = str(root / argv[index])
        command = sys.executable if argv[0] in ("python", "python3") else argv[0]
        parameters = StdioServerParameters(command=command, args=argv[1:], env=env)
        if "encoding" in StdioServerParameters.model_fields:  # mcp 1.x; each line read within `limit`
            parameters.encoding = _lines_codec(limit)
        return stdio_client(parameters)
    factory = functools.partial(_http_client, limit)
    if server["transport"] == "sse":
        from mcp.client.sse import sse_client

        return sse_client(server["url"], timeout=connect_timeout, httpx_client_factory=factory)
    import mcp.client.streamable_http as streamable_http

    # mcp 1.24 renamed streamablehttp_client and gave it an httpx client (2.x only has the new name).
    if hasattr(streamable_http, "streamable_http_client"):
        return _streamable_http(server["url"], factory)
    return streamable_http.streamablehttp_client(server["url"], httpx_client_factory=factory)


@contextlib.asynccontextmanager
async def _streamable_http(url: str, factory: Any) -> AsyncIterator[Any]:
    from mcp.client.streamable_http import streamable_http_client

    async with factory() as http, streamable_http_client(url, http_client=http) as streams:
        yield streams


def _http_client(limit: int, headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
    """An httpx client as the SDK makes one (its factory's signature), reading every message within `limit`."""
    import httpx

    transport: Any = _BoundedTransport(httpx.AsyncHTTPTransport(), limit)
    timeout = timeout or httpx.Timeout(30.0, read=300.0)  # the SDK's own
    return httpx.AsyncClient(follow_redirects=True, headers=headers, timeout=timeout, auth=auth, transport=transport)


def _refusal(head: bytes, fallback: Any, limit: int) -> bytes:
    """The error answer a message over `limit` becomes, to the request whose id its `head` holds (else `fallback`)."""
    found = _ID.search(head)
    request_id = json.loads(found.group(1)) if found else fallback
    if request_id is None:
        raise ValueError(f"the MCP server sent a message over {limit:,} bytes")
    message = (
        f"the MCP server's answer is over {limit:,} bytes: refused (raise the bound with the session's"
        " max_message_bytes, or MAX_MESSAGE_BYTES in _vendored_mcp_transport.py)"
    )
    error = {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": message}}
    return json.dumps(error).encode()


class _BoundedTransport:
    """An httpx transport whose answers are cut at each message over `limit`: a JSON body whole, an event stream
    event by event, each held back until complete, and the one over the bound replaced by its refusal."""

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner = inner
        self.limit = limit

    async def handle_async_request(self, request: Any) -> Any:
        request.headers["accept-encoding"] = "identity"  # bytes counted are bytes kept: nothing inflates them
        response = await self.inner.handle_async_request(request)
        try:
            request_id = json.loads(request.content).get("id") if request.content else None
        except (ValueError, AttributeError):
            request_id = None
        kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
        encoded = response.headers.get("content-encoding", "identity").lower() not in ("", "identity")
        response.stream = _bounded_stream()(response.stream, kind, request_id, self.limit, encoded)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> _BoundedTransport:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.inner.__aexit__(*exc_info)


@functools.cache
def _bounded_stream() -> type:
    """The byte stream _BoundedTransport answers with (made on first use: httpx is imported then)."""
    import httpx

    class BoundedStream(httpx.AsyncByteStream):
        def __init__(self, inner: Any, kind: str, request_id: Any, limit: int, encoded: bool) -> None:
            self.inner, self.kind, self.request_id, self.limit, self.encoded = inner, kind, request_id, limit, encoded

        async def __aiter__(self) -> AsyncIterator[bytes]:
            if self.encoded:
                raise ValueError("the MCP server sent a compressed answer, whose size cannot be bounded: refused")
            held = bytearray()
            async for chunk in self.inner:
                searched = max(len(held) - 3, 0)
                held += chunk
                if self.kind == "text/event-stream":  # events end at a blank line
                    ends = [match.end() for match in _EVENT_END.finditer(held, searched)]
                    if ends:
                        yield bytes(held[: ends[-1]])
                        del held[: ends[-1]]
                if len(held) > self.limit:
                    refusal = _refusal(bytes(held[:_HEAD]), self.request_id, self.limit)
                    yield b"event: message\ndata: " + refusal + b"\n\n" if self.kind == "text/event-stream" else refusal
                    return
            yield bytes(held)

        async def aclose(self) -> None:
            await self.inner.aclose()

    return BoundedStream


def _lines_codec(limit: int) -> str:
    """The name of a codec that reads a stdio server's output as _Lines does (UTF-8 otherwise)."""
    global _registered
    if not _registered:
        codecs.register(_find_lines_codec)
        _registered = True
    return f"{_LINES_CODEC}{limit}"


_registered = False


def _find_lines_codec(name: str) -> codecs.CodecInfo | None:
    if not name.startswith(_LINES_CODEC) or not name[len(_LINES_CODEC) :].isdigit():
        return None
    utf8 = codecs.lookup("utf-8")
    decoder = functools.partial(_Lines, int(name[len(_LINES_CODEC) :]))
    return codecs.CodecInfo(utf8.encode, utf8.decode, incrementalencoder=utf8.incrementalencoder,
                            incrementaldecoder=decoder, name=name)  # fmt: skip


class _Lines(codecs.IncrementalDecoder):
    """A stdio server's output, decoded a whole line (one message) at a time; a line over `limit` bytes is read
    no further than that and becomes its refusal."""

    def __init__(self, limit: int, errors: str = "strict") -> None:
        super().__init__(errors)
        self.limit = limit
        self.reset()

    def reset(self) -> None:
        self.line = bytearray()
        self.dropping = False  # the rest of a line that was refused

    def decode(self, data: Any, final: bool = False) -> str:
        data, lines = bytes(data), []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end + 1
            piece, start = data[start:end], end
            if not self.dropping:
                self.line += piece
                if len(self.line) > self.limit:
                    lines.append(_refusal(bytes(self.line[:_HEAD]), None, self.limit).decode() + "\n")
                    self.line, self.dropping = bytearray(), True
            if piece.endswith(b"\n"):
                if not self.dropping:
                    lines.append(self.line.decode("utf-8", self.errors))
                self.line, self.dropping = bytearray(), False
        return "".join(lines)
