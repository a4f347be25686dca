# Vendored by vendorgen 0.1.0 from mcp:http://127.0.0.1:7861/mcp
# endpoints convert_temperature, word_stats, slugify-title at revision text-tools 1.30.0 (schema sha256 cb22cfbc93b7).
# Review it as code you run. Update: vendorgen update text_tools
#
# The tools of one MCP server (streamable-http). They share one session per process: it opens on
# the first call (building the tools does no I/O), serves every tool and thread, reconnects once if the
# server went away, and closes on close(), at the end of a `with` block, or when the process exits.
# `tools()` returns them all. Needs smolagents and the mcp SDK, nothing else.
from __future__ import annotations

import asyncio
import atexit
import base64
import io
import json
import os
import sys
import threading
from datetime import timedelta
from typing import Any, Literal

from smolagents import Tool

# How to reach the server.
SERVER: dict[str, Any] = {
    "name": "text-tools",
    "version": "1.30.0",
    "transport": "streamable-http",
    "url": "http://127.0.0.1:7861/mcp",
}
# Seconds a tool call may take (None: no limit), and seconds to connect and initialize.
TIMEOUT = 60.0
CONNECT_TIMEOUT = 30.0


class MCPToolError(RuntimeError):
    """The server reported the tool call as failed (isError, or a protocol error); the message is the server's."""


class _Session:
    """The one connection to the server that every tool of this module shares."""

    # It runs on a private event-loop thread; calls from any thread go through it concurrently.
    shared: _Session | None = None
    shared_lock = threading.Lock()

    @classmethod
    def get(cls) -> _Session:
        with cls.shared_lock:
            if cls.shared is None:
                cls.shared = cls()
            return cls.shared

    def __init__(self) -> None:
        self.lock = threading.Lock()
        # (event loop, its thread, the mcp ClientSession, the event that stops it), or None.
        self.connection: tuple[Any, Any, Any, Any] | None = None
        self.exit_hook = False

    def call(self, name: str, arguments: dict[str, Any], timeout: float | None) -> Any:
        """Send tools/call and return the raw CallToolResult; reconnect once if the server went away."""
        import concurrent.futures

        import anyio
        from mcp import types
        from mcp.shared.exceptions import McpError

        request = types.ClientRequest(
            types.CallToolRequest(
                method="tools/call",
                params=types.CallToolRequestParams(name=name, arguments=arguments),
            )
        )
        wait = None if timeout is None else timedelta(seconds=timeout)
        gone = (
            anyio.ClosedResourceError,
            anyio.BrokenResourceError,
            anyio.EndOfStream,
            concurrent.futures.CancelledError,
        )
        error: BaseException | None = None
        for _attempt in range(2):
            connection = self.open()
            loop, _, client, _ = connection
            future = asyncio.run_coroutine_threadsafe(
                client.send_request(request, types.CallToolResult, wait), loop
            )
            try:
                return future.result()
            except McpError as exc:
                if exc.error.code == 408:
                    raise TimeoutError(
                        f"the MCP tool {name} did not answer within {timeout} s"
                    ) from None
                if (
                    exc.error.code != types.CONNECTION_CLOSED
                    and exc.error.message != "Session terminated"
                ):
                    raise MCPToolError(f"{name}: {exc.error.message}") from exc
                error = exc
            except gone as exc:
                error = exc
            self.drop(connection)  # the server went away: reconnect once
        raise ConnectionError(
            f"lost the MCP server {_describe()} and could not get it back: {_reason(error)}"
        )

    def open(self) -> tuple[Any, Any, Any, Any]:
        """The live connection, opened now if there is none."""
        import concurrent.futures

        with self.lock:
            if self.connection is not None and self.connection[1].is_alive():
                return self.connection
            if self.connection is not None:
                self.stop(self.connection)
                self.connection = None
            # Reads the environment now, so a missing variable shows in the caller's thread.
            transport = _transport()
            loop = asyncio.new_event_loop()
            ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
            thread = threading.Thread(
                target=self.run, args=(loop, transport, ready), name="mcp-session", daemon=True
            )
            thread.start()
            try:
                client, stop = ready.result(CONNECT_TIMEOUT * 2 + 10)
            except Exception as exc:
                if isinstance(
                    _leaf(exc),
                    (TimeoutError, asyncio.TimeoutError, concurrent.futures.TimeoutError),
                ):
                    raise TimeoutError(
                        f"the MCP server {_describe()} did not answer within {CONNECT_TIMEOUT} s"
                    ) from None
                raise ConnectionError(
                    f"cannot connect to the MCP server {_describe()}: {_reason(exc)}"
                ) from None
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

    async def serve(self, transport: Any, ready: Any) -> None:
        from mcp import ClientSession

        stop = asyncio.Event()
        try:
            async with transport as streams, ClientSession(streams[0], streams[1]) as client:
                await asyncio.wait_for(client.initialize(), CONNECT_TIMEOUT)
                ready.set_result((client, stop))
                await stop.wait()
        except BaseException as exc:  # the connection ended: tell whoever is still waiting for it
            if not ready.done():
                ready.set_exception(
                    exc if isinstance(exc, Exception) else ConnectionError(repr(exc))
                )

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

    @staticmethod
    def stop(connection: tuple[Any, Any, Any, Any]) -> None:
        loop, thread, _, stop = connection
        try:
            loop.call_soon_threadsafe(stop.set)
        except RuntimeError:  # its loop is already closed
            pass
        if thread is not threading.current_thread():
            thread.join(CONNECT_TIMEOUT)


def _transport() -> Any:
    """The mcp SDK client for SERVER, not yet connected."""
    if SERVER["transport"] == "stdio":
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        missing = [name for name in SERVER["env"] if name not in os.environ]
        if missing:
            raise RuntimeError(
                f"set {', '.join(missing)} in the environment: the MCP server {_describe()} needs it"
            )
        env = {name: os.environ[name] for name in SERVER["env"]}
        command = (
            sys.executable if SERVER["command"] in ("python", "python3") else SERVER["command"]
        )
        return stdio_client(
            StdioServerParameters(command=command, args=list(SERVER["args"]), env=env)
        )
    if SERVER["transport"] == "sse":
        from mcp.client.sse import sse_client

        return sse_client(SERVER["url"], timeout=CONNECT_TIMEOUT)
    import mcp.client.streamable_http as streamable_http

    # mcp 1.24 renamed streamablehttp_client; older releases only have the old name.
    connect = (
        getattr(streamable_http, "streamable_http_client", None)
        or streamable_http.streamablehttp_client
    )
    return connect(SERVER["url"])


def _describe() -> str:
    if SERVER["transport"] == "stdio":
        return " ".join([SERVER["name"] or SERVER["command"], "(stdio)"])
    return SERVER["url"]


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The first real error inside nested exception groups."""
    inner = getattr(exc, "exceptions", None)  # an ExceptionGroup, also the backport on Python 3.10
    while inner:
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    return exc


def _reason(exc: BaseException | None) -> str:
    """The first real error inside nested exception groups, as one line."""
    exc = _leaf(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _MCPTool(Tool):
    """What every tool of this module shares: the session, the per-call timeout, result conversion."""

    mcp_name = ""

    def __init__(self, timeout: float | None = TIMEOUT) -> None:
        super().__init__()
        self.timeout = timeout

    def close(self) -> None:
        """Close the session this module's tools share; the next call opens a new one."""
        _Session.get().close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _call(self, required: dict[str, Any], optional: dict[str, Any]) -> Any:
        """Call the tool with its wire names; an optional argument that is None is left out."""
        arguments = {
            **required,
            **{key: value for key, value in optional.items() if value is not None},
        }
        result = _Session.get().call(self.mcp_name, arguments, self.timeout)
        if result.isError:
            texts = [item.text for item in result.content if item.type == "text"]
            raise MCPToolError(" ".join(texts) or f"{self.mcp_name} failed and said nothing")
        if self.output_schema is not None:
            if isinstance(result.structuredContent, dict):
                return result.structuredContent
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
        values = [self._value(item) for item in result.content]
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    @classmethod
    def _value(cls, item: Any) -> Any:
        """One content item: text as str, an image as a PIL image, audio as a file path."""
        if item.type == "text":
            return item.text
        if item.type == "image":
            from PIL import Image

            data = base64.b64decode(item.data)
            try:
                image = Image.open(io.BytesIO(data))
                image.load()
            except Exception:  # PIL cannot read it (a bad checksum...): the file, untouched
                return cls._file(data, item.mimeType)
            return image
        if item.type == "audio":
            return cls._file(base64.b64decode(item.data), item.mimeType)
        if item.type == "resource":
            text = getattr(item.resource, "text", None)
            return text if text is not None else base64.b64decode(item.resource.blob)
        if item.type == "resource_link":
            return str(item.uri)
        return item.model_dump(mode="json")

    @staticmethod
    def _file(data: bytes, mime_type: str | None) -> str:
        """`data` in a new temporary file named after its MIME type; returns the path."""
        import mimetypes
        import tempfile

        subtype = (mime_type or "").partition("/")[2]
        suffix = mimetypes.guess_extension(mime_type or "") or (
            f".{subtype}" if subtype.isalnum() else ".bin"
        )
        with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as file:
            file.write(data)
        return file.name

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with the same argument schema."""
        from langchain_core.tools import StructuredTool

        properties = {}
        for key, spec in self.inputs.items():
            properties[key] = {k: v for k, v in spec.items() if k != "nullable"}
            if properties[key]["type"] in ("image", "audio", "any"):
                del properties[key]["type"]
        required = [key for key, spec in self.inputs.items() if not spec.get("nullable")]
        return StructuredTool.from_function(
            func=lambda **arguments: self(**arguments),
            name=self.name,
            description=self.description,
            args_schema={"type": "object", "properties": properties, "required": required},
        )


class ConvertTemperatureTool(_MCPTool):
    """Convert a temperature between Celsius, Fahrenheit and Kelvin.

    Calls convert_temperature on mcp:http://127.0.0.1:7861/mcp.
    """

    name = "convert_temperature"
    description = "Convert a temperature between Celsius, Fahrenheit and Kelvin."
    inputs: dict[str, dict[str, Any]] = {
        "value": {"type": "number", "description": "The temperature to convert"},
        "unit": {
            "type": "string",
            "description": "Unit of the value",
            "enum": ["C", "F", "K"],
            "default": "C",
            "nullable": True,
        },
        "to": {
            "type": "string",
            "description": "Unit to convert to",
            "enum": ["C", "F", "K"],
            "default": "F",
            "nullable": True,
        },
    }
    output_type = "number"
    mcp_name = "convert_temperature"
    result_key = "result"

    def forward(
        self, value: float, unit: Literal["C", "F", "K"] = "C", to: Literal["C", "F", "K"] = "F"
    ) -> float:
        return self._call({"value": value}, {"unit": unit, "to": to})


class WordStatsTool(_MCPTool):
    """Count the words of a text and list the most frequent ones.

    Calls word_stats on mcp:http://127.0.0.1:7861/mcp.
    """

    name = "word_stats"
    description = "Count the words of a text and list the most frequent ones."
    inputs: dict[str, dict[str, Any]] = {
        "text": {"type": "string", "description": "The text to analyse"},
        "top": {
            "type": "integer",
            "description": "How many frequent words to list (default 3)",
            "minimum": 1,
            "maximum": 20,
            "default": None,
            "nullable": True,
        },
    }
    output_type = "object"
    output_schema = {
        "properties": {
            "words": {"description": "Number of words", "title": "Words", "type": "integer"},
            "unique": {
                "description": "Number of distinct words, case-insensitive",
                "title": "Unique",
                "type": "integer",
            },
            "top": {
                "description": "The most frequent words, most frequent first",
                "items": {"type": "string"},
                "title": "Top",
                "type": "array",
            },
        },
        "required": ["words", "unique", "top"],
        "title": "WordStats",
        "type": "object",
    }
    mcp_name = "word_stats"

    def forward(self, text: str, top: int | None = None) -> dict[str, Any]:
        return self._call({"text": text}, {"top": top})


class SlugifyTitleTool(_MCPTool):
    """Turn a title into a lowercase ASCII URL slug.

    Calls slugify-title on mcp:http://127.0.0.1:7861/mcp.
    """

    name = "slugify_title"
    description = "Turn a title into a lowercase ASCII URL slug."
    inputs: dict[str, dict[str, Any]] = {
        "title": {"type": "string", "description": "A title to turn into a URL slug"},
        "separator": {
            "type": "string",
            "description": "Character between words",
            "enum": ["-", "_"],
            "default": "-",
            "nullable": True,
        },
    }
    output_type = "string"
    mcp_name = "slugify-title"
    result_key = "result"

    def forward(self, title: str, separator: Literal["-", "_"] = "-") -> str:
        return self._call({"title": title}, {"separator": separator})


class _Tools(list):
    """The tools of `tools()`: a list that also closes their session (close(), or a `with` block)."""

    def close(self) -> None:
        _Session.get().close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


def tools(timeout: float | None = TIMEOUT) -> list[Tool]:
    """Every tool of this server, sharing one session (what ToolCollection.from_mcp gives at run time)."""
    return _Tools(
        [
            ConvertTemperatureTool(timeout),
            WordStatsTool(timeout),
            SlugifyTitleTool(timeout),
        ]
    )
