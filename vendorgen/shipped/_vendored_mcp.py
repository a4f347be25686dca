# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored MCP tools (mcp:) share: the session to their server, and results as Python values."""

from __future__ import annotations

import asyncio
import atexit
import base64
import concurrent.futures
import contextvars
import io
import json
import logging
import tempfile
import threading
from collections.abc import Callable
from typing import Any

# smolagents ships no type information: to mypy its Tool is Any, and the tools here subclass it.
# mypy: allow-subclassing-any
from smolagents import Tool

from ._vendored_mcp_auth import http_transport
from ._vendored_mcp_calls import CallHandlers, _mcp_sdk
from ._vendored_mcp_transport import sdk_client
from ._vendored_runtime import IMAGE_FORMATS, MAX_IMAGE_PIXELS, ResultFile, _leaf, _needs, _reason, _VendoredTool


class MCPToolError(RuntimeError):
    """The tool call failed: the server said so (isError, a protocol error: its message), or its result is refused."""


class MCPSession:
    """The one connection to an MCP server that every tool of a vendored module shares.

    Opened on the first call, on a private event-loop thread that serves calls from any thread;
    reconnected once if the server went away; closed by close(), or when the process exits.
    """

    # The most bytes a message from the server may take, a tool's answer included (None: MAX_MESSAGE_BYTES in
    # _vendored_mcp_transport.py); a bigger one is refused. Set it on a module's session for its tools.
    max_message_bytes: int | None = None

    def __init__(self, server: dict[str, Any], connect_timeout: float) -> None:
        self.server = server  # the module's SERVER, read each time a connection opens
        self.connect_timeout = connect_timeout
        self.lock = threading.Lock()
        # (event loop, its thread, the mcp ClientSession, the event that stops it), or None.
        self.connection: tuple[Any, Any, Any, Any] | None = None
        self.exit_hook = False
        # The connection on a caller's event loop (call_here): a future of (client, stop event), and its task.
        self.local: Any = None
        self.local_task: Any = None
        # What the server's progress, log messages, elicitation and sampling requests go to (MCPTool.set_handlers).
        self.handlers = CallHandlers()

    def call(self, name: str, arguments: dict[str, Any], timeout: float | None) -> Any:
        """Send tools/call and return the raw CallToolResult; reconnect once if the server went away."""
        return self.request("tools/call", {"name": name, "arguments": arguments}, timeout)

    def read_resource(self, uri: str, timeout: float | None) -> Any:
        """Send resources/read and return the raw ReadResourceResult."""
        return self.request("resources/read", {"uri": uri}, timeout)

    def get_prompt(self, name: str, arguments: dict[str, str], timeout: float | None) -> Any:
        """Send prompts/get and return the raw GetPromptResult."""
        return self.request("prompts/get", {"name": name, "arguments": arguments}, timeout)

    def request(self, method: str, params: dict[str, Any], timeout: float | None) -> Any:
        """The result of a request (`_MCPSDK.send`) over the shared connection; reconnect once if the server went away."""
        error: BaseException | None = None
        for _attempt in range(2):
            connection = self.open()
            loop, _, client, _ = connection
            progress = self.handlers.on_progress(str(params["name"])) if method == "tools/call" else None
            future = asyncio.run_coroutine_threadsafe(_mcp_sdk().send(client, method, params, timeout, progress), loop)
            try:
                return future.result()
            except Exception as exc:
                error = self._failure(exc, str(params.get("name") or params.get("uri") or method), timeout)
            self.drop(connection)  # the server went away: reconnect once
        raise ConnectionError(f"lost the MCP server {self.describe()} and could not get it back: {_reason(error)}")

    async def call_here(
        self, name: str, arguments: dict[str, Any], timeout: float | None, progress: Any = None, client: Any = None
    ) -> Any:
        """call() for a coroutine: over a connection on the running event loop, with no thread in between.

        The vendored MCP server (_vendored_server.py) awaits its MCP tools' calls so. That connection
        is its own, opened on the first such call and closed with the loop; call() keeps using its thread.
        `progress(progress, total, message)` is awaited on each progress notification of the call; `client`:
        a connection of connect_here() to make the call on instead (not reopened if it went away).
        """
        return await self.request_here("tools/call", {"name": name, "arguments": arguments}, timeout, progress, client)

    async def request_here(
        self, method: str, params: dict[str, Any], timeout: float | None, progress: Any = None, client: Any = None
    ) -> Any:
        """request() for a coroutine (see call_here): also the resources, prompts and completions served."""
        what = str(params.get("name") or params.get("uri") or method)
        if client is not None:
            try:
                return await _mcp_sdk().send(client, method, params, timeout, progress)
            except Exception as exc:
                raise ConnectionError(
                    f"lost the MCP server {self.describe()}: {_reason(self._failure(exc, what, timeout))}"
                ) from None
        error: BaseException | None = None
        for _attempt in range(2):
            opening = self._opening()
            client, stop = await self._opened(opening)
            try:
                return await _mcp_sdk().send(client, method, params, timeout, progress)
            except Exception as exc:
                error = self._failure(exc, what, timeout)
            if self.local is opening:  # the server went away: reconnect once
                self.local = None
            stop.set()
        raise ConnectionError(f"lost the MCP server {self.describe()} and could not get it back: {_reason(error)}")

    async def connect_here(self, callbacks: dict[str, Any]) -> tuple[Any, Any]:
        """A new connection on the running loop, of its caller alone: (client, stop event; set it to close).

        `callbacks` go to the SDK's ClientSession (sampling_callback, elicitation_callback, logging_callback...):
        the connection declares what they answer, as the caller's own client did.
        """
        ready = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(self.serve(self.transport(), ready, callbacks))
        try:
            return await asyncio.wait_for(asyncio.shield(ready), self.connect_timeout * 2 + 10)
        except Exception as exc:
            task.cancel()
            raise self._cannot_connect(exc) from None

    async def here(self) -> tuple[Any, Any]:
        """(client, stop event) of the connection on the running loop, opened now if there is none."""
        return await self._opened(self._opening())

    def _opening(self) -> Any:
        """The future of the connection on the running loop; it starts opening now if there is none."""
        loop = asyncio.get_running_loop()
        if self.local is None or self.local.get_loop() is not loop:
            transport = self.transport()  # reads the environment: a missing variable is the caller's error
            self.local = loop.create_future()  # concurrent callers wait for this one connection
            # Shared by the server's clients: it declares no elicitation nor sampling, which a client may not take.
            self.local_task = loop.create_task(self.serve(transport, self.local, {}))
        return self.local

    async def _opened(self, opening: Any) -> tuple[Any, Any]:
        if opening.done() and not opening.cancelled() and opening.exception() is None:
            return opening.result()  # type: ignore[no-any-return]  # open: every call after the first, no timer
        try:
            return await asyncio.wait_for(asyncio.shield(opening), self.connect_timeout * 2 + 10)
        except Exception as exc:
            if self.local is opening:
                self.local = None
            raise self._cannot_connect(exc) from None

    def _cannot_connect(self, exc: BaseException) -> Exception:
        if isinstance(_leaf(exc), (TimeoutError, asyncio.TimeoutError, concurrent.futures.TimeoutError)):
            return TimeoutError(f"the MCP server {self.describe()} did not answer within {self.connect_timeout} s")
        return ConnectionError(f"cannot connect to the MCP server {self.describe()}: {_reason(exc)}")

    def _failure(self, exc: Exception, name: str, timeout: float | None) -> BaseException:
        """What a failed call raises; returns the error instead when the server went away (so reconnect)."""
        sdk = _mcp_sdk()
        import anyio  # installed with mcp

        if isinstance(exc, sdk.error_type):
            code, message = sdk.error_of(exc)
            if code in sdk.timeout_codes:
                raise TimeoutError(f"the MCP tool {name} did not answer within {timeout} s") from None
            if code != sdk.connection_closed and message != "Session terminated":
                raise MCPToolError(f"{name}: {message}") from exc
            return exc
        gone = (
            anyio.ClosedResourceError,
            anyio.BrokenResourceError,
            anyio.EndOfStream,
            concurrent.futures.CancelledError,
        )
        if isinstance(exc, gone):
            return exc
        raise exc

    def open(self) -> tuple[Any, Any, Any, Any]:
        """The live connection, opened now if there is none."""
        with self.lock:
            if self.connection is not None and self.connection[1].is_alive():
                return self.connection
            if self.connection is not None:
                self.stop(self.connection)
                self.connection = None
            # Reads the environment now, so a missing variable shows in the caller's thread.
            transport = self.transport()
            loop = asyncio.new_event_loop()
            ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
            thread = threading.Thread(target=self.run, args=(loop, transport, ready), name="mcp-session", daemon=True)
            thread.start()
            try:
                client, stop = ready.result(self.connect_timeout * 2 + 10)
            except Exception as exc:
                raise self._cannot_connect(exc) from None
            self.connection = (loop, thread, client, stop)
            if not self.exit_hook:
                atexit.register(self.close)
                self.exit_hook = True
            return self.connection

    def run(self, loop: Any, transport: Any, ready: Any) -> None:
        """The session thread: serve until stopped, then cancel what is left so no caller waits forever."""
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self.serve(transport, ready))
        finally:
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def serve(self, transport: Any, ready: Any, callbacks: dict[str, Any] | None = None) -> None:
        """Open the connection, hand (client, stop event) to `ready`, and keep it until stopped; `callbacks` for
        the SDK's ClientSession, else the handlers' (what a tool's own call answers)."""
        from mcp import ClientSession

        stop = asyncio.Event()
        callbacks = self.handlers.callbacks() if callbacks is None else callbacks
        try:
            async with transport as streams, ClientSession(streams[0], streams[1], **callbacks) as client:
                await asyncio.wait_for(client.initialize(), self.connect_timeout)
                ready.set_result((client, stop))
                await stop.wait()
        except BaseException as exc:  # the connection ended: tell whoever is still waiting for it
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else ConnectionError(repr(exc)))

    def drop(self, connection: tuple[Any, Any, Any, Any]) -> None:
        """Forget a connection that failed, unless another thread already replaced it."""
        with self.lock:
            if self.connection is not connection:
                return
            self.connection = None
        self.stop(connection)

    def close(self) -> None:
        """Close the connection (a stdio server's process ends); the next call opens a new one."""
        with self.lock:
            connection, self.connection = self.connection, None
        if connection is not None:
            self.stop(connection)

    def stop(self, connection: tuple[Any, Any, Any, Any]) -> None:
        loop, thread, _, stop = connection
        try:
            loop.call_soon_threadsafe(stop.set)
        except RuntimeError:  # its loop is already closed
            pass
        if thread is not threading.current_thread():
            thread.join(self.connect_timeout)

    def transport(self) -> Any:
        """The mcp SDK client for the server, not yet connected."""
        _mcp_sdk()  # mcp is there
        if self.server.get("headers") or self.server.get("oauth"):  # with the credentials SERVER names
            return http_transport(self.server, self.connect_timeout)
        return sdk_client(self.server, self.connect_timeout, self.max_message_bytes)

    def describe(self) -> str:
        if self.server["transport"] == "stdio":
            return " ".join([self.server["name"] or self.server["command"], "(stdio)"])
        return str(self.server["url"])


class _ClosesSession:
    """close(), or the end of a `with` block, closes `session`; the next call opens a new one."""

    session: MCPSession

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


_KEEP: Any = object()  # set_handlers: leave this handler as it is

# Set by the vendored MCP server (_vendored_server.py) around a call of an MCP tool: the tool's forward() runs,
# but its _call hands back the request, which the server awaits on its own event loop.
_hand_back: contextvars.ContextVar[Callable[[Any, dict[str, Any]], Any] | None] = contextvars.ContextVar(
    "_hand_back", default=None
)


class MCPTool(_ClosesSession, _VendoredTool, Tool):
    """A tool of an MCP server: calls it through `session` (shared by its module) and converts the result.

    What the server sends during a call besides its answer goes to Python logging (the module's logger) and to
    the handlers of `set_handlers`; a request for the user's input is declined unless an elicitation handler
    is set (_vendored_mcp_calls.py says how).
    """

    mcp_name = ""
    # A generated class sets `result_key` when the server wraps a plain value as {result_key: value}
    # in structuredContent (FastMCP): the tool returns the value.

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if isinstance(cls.__dict__.get("session"), MCPSession):  # a module's shared base: its logger
            cls.__dict__["session"].handlers.logger = logging.getLogger(cls.__module__)

    def __init__(self, timeout: float | None) -> None:
        super().__init__()
        self.timeout = timeout

    def set_handlers(
        self, *, progress: Any = _KEEP, log: Any = _KEEP, elicitation: Any = _KEEP, sampling: Any = _KEEP
    ) -> None:
        """Set what the server's progress and log messages, elicitation and sampling requests go to, for every tool
        of this module (they share one session); None removes one. See CallHandlers in _vendored_mcp_calls.py."""
        handlers = self.session.handlers
        declared = handlers.sampling is not None
        for name, value in (("progress", progress), ("log", log), ("elicitation", elicitation), ("sampling", sampling)):
            if value is not _KEEP:
                setattr(handlers, name, value)
        if (handlers.sampling is not None) != declared:  # the session declares sampling: it opens again
            self.session.close()

    def _call(self, arguments: dict[str, Any]) -> Any:
        """Call the tool with its wire names; an argument left at NOT_GIVEN is not sent.

        Where `_hand_back` is set, the call is not made: it is handed back unsent, as `_hand_back` makes it.
        """
        sent = self._sent(arguments)
        hand_back = _hand_back.get()
        if hand_back is not None:
            return hand_back(self, sent)
        return self._value(self.session.call(self.mcp_name, sent, self.timeout))

    def _value(self, result: Any) -> Any:
        """The tool's value from the server's CallToolResult; an isError result raises MCPToolError."""
        if _field(result, "isError"):
            texts = [item.text for item in result.content if item.type == "text"]
            raise MCPToolError(" ".join(texts) or f"{self.mcp_name} failed and said nothing")
        result_key = getattr(self, "result_key", None)
        if result_key is not None:
            return self._unwrapped(result, result_key)
        if self.output_schema is not None:
            structured = _field(result, "structuredContent")
            if isinstance(structured, dict):
                return structured
            # Servers from before structured output send the JSON as text.
            for item in result.content:
                if item.type == "text":
                    try:
                        value = json.loads(item.text)
                    except ValueError:
                        continue
                    if isinstance(value, dict):
                        return value
            raise MCPToolError(f"{self.mcp_name} returned no structured content")
        values = [_content_value(item) for item in result.content]
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def _unwrapped(self, result: Any, key: str) -> Any:
        """The value the server wrapped as {key: value}; from the text item if it sent no structured content."""
        structured = _field(result, "structuredContent")
        if isinstance(structured, dict) and key in structured:
            return structured[key]
        texts = [item.text for item in result.content if item.type == "text"]
        if len(texts) != 1:
            raise MCPToolError(f"{self.mcp_name} returned no {key!r} value")
        try:
            return json.loads(texts[0])
        except ValueError:
            return texts[0]


class ToolList(_ClosesSession, list):  # type: ignore[type-arg]
    """The tools of a module's `tools()`: a list that also closes their session (close(), or `with`)."""

    def __init__(self, session: MCPSession, tools: list[Tool]) -> None:
        super().__init__(tools)
        self.session = session


# The format an MCP image item is opened as, by its MIME type; only those of the run time's IMAGE_FORMATS
# (others, like PostScript, would start external programs).
_IMAGE_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/jpg": "JPEG", "image/gif": "GIF",
                  "image/webp": "WEBP", "image/bmp": "BMP", "image/tiff": "TIFF"}  # fmt: skip
# The most an image result may be encoded; decoded, MAX_IMAGE_PIXELS (a small PNG can hold 730 MB of pixels).
MAX_IMAGE_BYTES = 50_000_000
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _field(value: Any, name: str) -> Any:
    """A field of an mcp result by its protocol name: mcp 1.x spells it so (isError), 2.x in snake case (is_error)."""
    if hasattr(value, name):
        return getattr(value, name)
    return getattr(value, "".join(f"_{c.lower()}" if c.isupper() else c for c in name))


def _content_value(item: Any) -> Any:
    """One content item: text as str, an image as a PIL image, audio as a file path.

    An image PIL is not allowed to or cannot open, and audio, are written to a temporary file
    named after the MIME type, which the caller owns (delete it when done).
    """
    if item.type == "text":
        return item.text
    if item.type == "image":
        if len(item.data) * 3 // 4 > MAX_IMAGE_BYTES:
            raise MCPToolError(f"the server's image is over {MAX_IMAGE_BYTES} bytes: refused")
        data = base64.b64decode(item.data)
        image = decoded_image(data, _field(item, "mimeType"))
        return image if image is not None else _temporary_file(data, _field(item, "mimeType"))
    if item.type == "audio":
        return _temporary_file(base64.b64decode(item.data), _field(item, "mimeType"))
    if item.type == "resource":
        text = getattr(item.resource, "text", None)
        return text if text is not None else base64.b64decode(item.resource.blob)
    if item.type == "resource_link":
        return str(item.uri)
    return item.model_dump(mode="json")


def decoded_image(data: bytes, mime_type: str | None) -> Any:
    """`data` as a PIL image of the format `mime_type` names, or None when it names none or PIL cannot read it.

    Decoded as leniently as browsers do (a PNG's ancillary chunk with a bad checksum, such as a colour
    profile, is left out, where PIL would refuse the whole image), and refused with MCPToolError beyond
    MAX_IMAGE_PIXELS, before any pixel is decoded. It changes no state of PIL's: safe in any thread.
    """
    image_format = _IMAGE_FORMATS.get((mime_type or "").lower())
    if image_format is None or image_format not in IMAGE_FORMATS:
        return None
    with _needs("pillow"):
        from PIL import Image
    if image_format == "PNG":
        data = _without_broken_ancillary_chunks(data)
    try:
        opened = Image.open(io.BytesIO(data), formats=[image_format])  # reads the header only
    except Image.DecompressionBombError:  # beyond PIL's own bound, twice its warning's: far beyond ours
        raise MCPToolError(f"the server's image is over {MAX_IMAGE_PIXELS} pixels: refused") from None
    except Exception:  # PIL cannot read it: the file, untouched
        return None
    width, height = opened.size
    if width * height > MAX_IMAGE_PIXELS:
        raise MCPToolError(f"the server's image is {width}x{height} pixels, over {MAX_IMAGE_PIXELS}: refused")
    try:
        opened.load()
    except Exception:  # a broken image: the file, untouched
        return None
    return opened


def _without_broken_ancillary_chunks(png: bytes) -> bytes:
    """`png` without its ancillary chunks (type starting in lower case) whose CRC is wrong."""
    import zlib

    if not png.startswith(_PNG_SIGNATURE):
        return png
    kept, position = [_PNG_SIGNATURE], len(_PNG_SIGNATURE)
    while position + 12 <= len(png):
        end = position + 12 + int.from_bytes(png[position : position + 4], "big")
        if end > len(png):
            break  # truncated: left as it is, for PIL to judge
        kind, body, crc = png[position + 4 : position + 8], png[position + 8 : end - 4], png[end - 4 : end]
        if not kind[0] & 0x20 or zlib.crc32(kind + body).to_bytes(4, "big") == crc:
            kept.append(png[position:end])
        position = end
    return b"".join(kept) + png[position:]


def _temporary_file(data: bytes, mime_type: str | None) -> ResultFile:
    """`data` in a new temporary file named after its MIME type; returns the path."""
    import mimetypes

    subtype = (mime_type or "").partition("/")[2]
    suffix = mimetypes.guess_extension(mime_type or "") or (f".{subtype}" if subtype.isalnum() else ".bin")
    with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as file:
        file.write(data)
    return ResultFile(file.name)
