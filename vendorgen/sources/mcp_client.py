"""How MCP inspection connects: the mcp SDK's public client API, the same on mcp 1.10+ and 2.x.

vendorgen used mcpadapt's `MCPAdapt` for this. It cannot stay: mcpadapt (0.1.19, its newest
release) does not import with mcp 2.x (it imports `streamablehttp_client` and
`mcp.client.websocket`, both gone), so depending on it pins vendorgen, and any project it is
pip-installed into, to mcp<2; and through its public API it neither keeps the server's
`InitializeResult` (vendorgen names the module after `serverInfo`) nor follows `tools/list`
pagination, nor closes its connections when listing fails (that took swapping its module's
`ClientSession` and its private `_ctxmanager`). The SDK does all of it in the few lines below.

The differences between the majors are feature checks, never version numbers.
"""

from __future__ import annotations

import contextvars
import importlib
import inspect
import os
import signal
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta
from typing import Any

from vendorgen.text.limits import ReadBudget


@asynccontextmanager
async def session(
    server: Mapping[str, Any], stdio_params: Any, timeout: float, received: ReadBudget, capable: bool = False,
    credentials: Any = None,
    errlog: Any = None,
) -> AsyncIterator[tuple[Any, dict]]:
    """An initialized `ClientSession` to `server` and the server's `serverInfo` (with the initialize result's
    `instructions` under that key, when the server gave any), closed on exit.

    `credentials`: what an HTTP server is sent (`_vendored_mcp_auth.Credentials`; None: nothing).
    `capable`: the session declares the roots, sampling and elicitation capabilities (answering
    every such request with an error), to see what a server offers only to clients that have them.
    `errlog`: a file (with a descriptor) for a stdio server's stderr, instead of vendorgen's.

    Every byte an HTTP server sends is spent from `received` as it arrives. Over stdio the SDK's
    `stdio_client` reads the process's output itself with no hook (see `_transport`).

    An error met while the connection was up (a request that timed out, a closed connection) is
    the one raised: closing the transport afterwards often fails too (a stdio reader finds its
    stream closed) and would otherwise replace it.
    """
    from mcp import ClientSession

    failure: Exception | None = None
    stack = AsyncExitStack()
    try:
        streams = await stack.enter_async_context(
            _transport(server, stdio_params, timeout, received, credentials, errlog)
        )
        client = await stack.enter_async_context(
            ClientSession(
                streams[0], streams[1], read_timeout_seconds=_request_timeout(timeout), **_capabilities(capable)
            )
        )
        result = await client.initialize()
        initialized = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        info = {key: value for key, value in initialized.get("serverInfo", {}).items() if key != "instructions"}
        if isinstance(initialized.get("instructions"), str):  # model-read text: the snapshot keeps it (mcp.inspect)
            info["instructions"] = initialized["instructions"]
        yield client, info
    except Exception as exc:
        failure = exc
    finally:
        try:
            await stack.aclose()
        except Exception:
            if failure is None:
                raise
    if failure is not None:
        raise failure


# What a ClientSession declares for each callback it is given (the same keywords on mcp 1.10+ and 2.x).
CAPABILITY_CALLBACKS = {"list_roots_callback": "roots", "sampling_callback": "sampling",
                        "elicitation_callback": "elicitation"}  # fmt: skip


def _capabilities(capable: bool) -> dict[str, Any]:
    """The ClientSession keywords that declare every capability this SDK's client has, or none."""
    from mcp import ClientSession, types

    async def refuse(*args: Any) -> Any:
        return types.ErrorData(code=types.INVALID_REQUEST, message="vendorgen only lists tools")

    taken = inspect.signature(ClientSession.__init__).parameters
    return {keyword: refuse for keyword in CAPABILITY_CALLBACKS if capable and keyword in taken}


def _transport(
    server: Mapping[str, Any], stdio_params: Any, timeout: float, received: ReadBudget, credentials: Any = None,
    errlog: Any = None,
) -> Any:
    if server["transport"] == "stdio":
        # Not bounded while reading: `stdio_client` reads the process's stdout with its own
        # `TextReceiveStream` and joins chunks until a newline, and neither it nor
        # `StdioServerParameters` takes a reader, a line limit or a stream. The listing is bounded
        # once received (limits.check_listing) and by the deadline.
        return _stdio(stdio_params, errlog)
    import mcp.client.streamable_http as streamable_http

    mcp_1 = hasattr(streamable_http, "streamablehttp_client")
    http: Any = importlib.import_module("httpx" if mcp_1 else "httpx2")  # mcp 2.x: httpx2, the same API

    def client(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
        """The SDK's `httpx_client_factory`: its own client (the same settings), reading through `received`,
        with the credentials (the same code as the generated tools': _vendored_mcp_auth.py)."""
        return http.AsyncClient(**_with_credentials({"headers": headers, "timeout": timeout, "auth": auth,
                                                     "event_hooks": _counting(http, received)}, credentials))  # fmt: skip

    if server["transport"] == "sse":
        from mcp.client.sse import sse_client

        return sse_client(
            server["url"], timeout=float(timeout), sse_read_timeout=float(timeout), httpx_client_factory=client
        )
    if mcp_1:  # takes its time-outs itself
        return streamable_http.streamablehttp_client(
            server["url"], timeout=float(timeout), sse_read_timeout=float(timeout), httpx_client_factory=client
        )
    return _streamable_http_2(server["url"], timeout, received, credentials)


def _with_credentials(settings: dict[str, Any], credentials: Any) -> dict[str, Any]:
    """An HTTP client's keywords `settings` with what `credentials` adds: headers, auth, the origin guard."""
    if credentials is None:
        return settings
    hooks = settings.get("event_hooks") or {}
    return {**settings, "headers": {**(settings.get("headers") or {}), **credentials.headers},
            "auth": credentials.auth or settings.get("auth"),
            "event_hooks": {"response": hooks.get("response", []), "request": credentials.event_hooks["request"]}}  # fmt: skip


@asynccontextmanager
async def _streamable_http_2(url: str, timeout: float, received: ReadBudget, credentials: Any) -> AsyncIterator[Any]:
    """mcp 2.x: `streamable_http_client` takes an httpx2 client, which holds the time-outs."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    settings = {"timeout": httpx2.Timeout(timeout), "follow_redirects": True, "event_hooks": _counting(httpx2, received)}
    async with httpx2.AsyncClient(**_with_credentials(settings, credentials)) as http:
        async with streamable_http_client(url, http_client=http) as streams:  # type: ignore[arg-type]  # mypy sees mcp 1
            yield streams


def _counting(http: Any, received: ReadBudget) -> dict[str, list[Any]]:
    """`event_hooks` for a client of `http` (httpx, or httpx2 for mcp 2.x: the same API) under which
    response bodies are spent from `received` chunk by chunk as they arrive. A hook, not a transport:
    httpx ignores the proxy environment variables for a client given its own transport."""

    class Counted(http.AsyncByteStream):  # type: ignore[misc, name-defined]
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in self.stream:
                received.spend(len(chunk))
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    async def count(response: Any) -> None:  # called before the body is read
        response.stream = Counted(response.stream)

    return {"response": [count]}


def _request_timeout(timeout: float) -> Any:
    """`read_timeout_seconds`: a timedelta for mcp 1.x, seconds for mcp 2.x."""
    from mcp.shared import exceptions

    return timedelta(seconds=timeout) if hasattr(exceptions, "McpError") else float(timeout)


async def list_page(client: Any, cursor: str | None, kind: str = "tools") -> tuple[list[Any], str | None]:
    """One page of `tools/list` (or of the listing `kind` names, a key of LISTINGS): (items, nextCursor)."""
    method, field = LISTINGS[kind]
    list_method = getattr(client, method)
    if "cursor" in inspect.signature(list_method).parameters:  # mcp 1.x
        page = await list_method(cursor)
    else:
        from mcp import types

        page = await list_method(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
    cursor = page.next_cursor if hasattr(page, "next_cursor") else page.nextCursor
    return list(getattr(page, field) if hasattr(page, field) else getattr(page, _snake(field))), cursor


# Each listing by the snapshot key that keeps it: (the ClientSession method, the result's field).
LISTINGS = {
    "tools": ("list_tools", "tools"),
    "resources": ("list_resources", "resources"),
    "resourceTemplates": ("list_resource_templates", "resourceTemplates"),
    "prompts": ("list_prompts", "prompts"),
}


def _snake(name: str) -> str:
    """mcp 2.x spells a protocol field in snake case (resourceTemplates: resource_templates)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


# The process each stdio session started (the SDK's own `_create_platform_compatible_process` records it here).
_STARTED: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("stdio_started", default=None)
_GROUP_EXIT_BOUND = 5.0  # seconds a server's left-over processes get to exit after SIGTERM, then SIGKILL
_CANCELLED_EXIT_BOUND = 1.0  # the same for a session cancelled (Ctrl-C, a deadline): the user is waiting


@asynccontextmanager
async def _stdio(stdio_params: Any, errlog: Any = None) -> AsyncIterator[Any]:
    """The SDK's `stdio_client`, then whatever is left of the server's process group ended.

    The SDK starts the server in a process group of its own, but ends the group only when its own child
    outlives the close of its stdin: `npx` exits at once, and its node child (server-everything) then
    runs on for a minute after `add` has returned, to print an EPIPE traceback on the user's terminal.
    A cancelled session ends the group first: the SDK would give the server 2 s to exit after its stdin
    closes, and a server asking the client for something (roots) may wait for the answer a minute.
    """
    import mcp.client.stdio as sdk

    _record_started(sdk)
    started: list[int] = []
    token = _STARTED.set(started)
    try:
        async with sdk.stdio_client(stdio_params, **({"errlog": errlog} if errlog is not None else {})) as streams:
            try:
                yield streams
            except BaseException as exc:
                if not isinstance(exc, Exception):  # cancelled
                    for group in started:
                        _end_group(group, _CANCELLED_EXIT_BOUND)
                raise
    finally:
        _STARTED.reset(token)
        for group in started:
            _end_group(group)


def _record_started(sdk: Any) -> None:
    """Wrap the SDK's process start (once) so that each session learns its server's pid, the group's id."""
    create = getattr(sdk, "_create_platform_compatible_process", None)
    if create is None or getattr(create, "records_started", False) or not hasattr(os, "killpg"):
        return  # another SDK layout, or no process groups (Windows: the SDK uses a job object)

    async def recording(*args: Any, **kwargs: Any) -> Any:
        process = await create(*args, **kwargs)
        if (started := _STARTED.get()) is not None:
            started.append(process.pid)
        return process

    recording.records_started = True  # type: ignore[attr-defined]
    sdk._create_platform_compatible_process = recording


def _end_group(group: int, bound: float = _GROUP_EXIT_BOUND) -> None:
    """SIGTERM to what is left of process group `group`, SIGKILL after `bound` s; returns once it is gone.

    It waits with time.sleep, not on the event loop: it runs in a `finally` that a cancellation may have
    reached, where an await would be cancelled again and leave the group running (usually it waits a few ms).
    """
    try:
        os.killpg(group, signal.SIGTERM)
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            time.sleep(0.01)
            os.killpg(group, 0)  # ProcessLookupError once no member is left
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
