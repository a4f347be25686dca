# The run-time code that the tools vendorgen vendored into this directory share.
# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored tools share: the MCP session, the Gradio client and its files, the LangChain bridge.

It needs smolagents; each part imports its source's client library (mcp, gradio_client,
langchain-core, Pillow) only when it is first used, and works with the versions listed in
`_NEEDS`. A combination that cannot work says so on the first call, in one line.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import concurrent.futures
import contextvars
import io
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from smolagents import Tool

# What each part needs, as pip would install it.
_NEEDS = {
    "mcp": "mcp>=1.10",
    "gradio_client": "gradio_client>=1.8",
    "langchain_core": "langchain-core>=0.3",
    "PIL": "pillow",
}


@contextmanager
def _needs(package: str) -> Iterator[None]:
    """Imports of `package` inside; one that fails says in one line what to install."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(
            f"this vendored tool needs {_NEEDS[package]} (pip install '{_NEEDS[package]}'): {exc}"
        ) from None


def _reason(exc: BaseException | None) -> str:
    """The first real error inside nested exception groups, as one line."""
    exc = _leaf(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The first real error inside nested exception groups."""
    inner = getattr(exc, "exceptions", None)
    while inner:
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    return exc


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


# The default of an optional argument whose default the source applies itself: an argument left
# at NOT_GIVEN is not sent, while one given as None is sent as null. (smolagents calls forward with
# only the arguments the model gave.) Typed Any so that it fits any annotation.
NOT_GIVEN: Any = _NotGiven()


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` without the ones left at NOT_GIVEN."""
    return {key: value for key, value in arguments.items() if value is not NOT_GIVEN}


class _VendoredTool:
    """What the runtime's tool classes add to smolagents' Tool: one validation, and `to_langchain`.

    A mixin, not a Tool: smolagents wraps the __init__ of every Tool subclass to validate the tool
    after it, and a class inherits its base's wrapped __init__, so each shared base that is a Tool
    would validate every tool once more (four times for an MCP tool). Here only a class with a
    forward of its own or inherited (a tool, not a shared base) gets smolagents' wrapper.
    """

    # What the mixed-in Tool provides (smolagents ships no type information).
    name: str
    description: str
    inputs: dict[str, dict[str, Any]]
    output_schema: dict[str, Any] | None
    is_initialized: bool
    forward: Callable[..., Any]
    __call__: Callable[..., Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.forward is Tool.forward:  # a shared base: skip Tool's wrapping
            super(Tool, cls).__init_subclass__(**kwargs)
        else:
            super().__init_subclass__(**kwargs)

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with the same argument schema."""
        with _needs("langchain_core"):
            from langchain_core.tools import StructuredTool
        properties = {}
        for key, spec in self.inputs.items():
            properties[key] = {k: v for k, v in spec.items() if k != "nullable"}
            if properties[key]["type"] in ("image", "audio", "any"):
                del properties[key]["type"]
        required = [key for key, spec in self.inputs.items() if not spec.get("nullable")]
        schema = {"type": "object", "properties": properties, "required": required}
        try:
            return StructuredTool.from_function(
                func=lambda **arguments: self(**arguments),
                name=self.name,
                description=self.description,
                args_schema=schema,
            )
        except (TypeError, ValueError):  # langchain-core before 0.3.36 takes only a pydantic model
            return StructuredTool.from_function(
                func=lambda **arguments: self(**arguments),
                name=self.name,
                description=self.description,
                args_schema=_pydantic_model(self.name, schema),
            )


def _pydantic_model(name: str, schema: dict[str, Any]) -> Any:
    """A pydantic model whose fields take any value, with `schema` as its JSON schema.

    The values are checked by the tool itself; only the names, what is required and the
    descriptions matter to LangChain.
    """
    from pydantic import ConfigDict, create_model

    fields: dict[str, Any] = {key: (Any, ... if key in schema["required"] else None) for key in schema["properties"]}
    config = ConfigDict(json_schema_extra=lambda model_schema: model_schema.update(schema))
    return create_model(name, __config__=config, **fields)


# -- Gradio apps (space:) ------------------------------------------------------------------------

# The marker gradio_client looks for, at any depth of any argument, to upload a local file.
_FILE_DATA = "gradio.FileData"


class SpaceTool(_VendoredTool, Tool):
    """A tool that calls one endpoint of a Gradio app; the client is created on the first call."""

    src = ""
    api_name = ""

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.client: Any = None  # a gradio_client.Client once set up
        # The file arguments of the calls in flight, by id: the only dicts gradio_client may upload.
        self._uploads: set[int] = set()

    def setup(self) -> None:
        """Connect on first use: constructing the tool does no network I/O."""
        import inspect

        with _needs("gradio_client"):
            from gradio_client import Client
        token = _space_token(self.src, self.token)
        # gradio_client 2 takes `token`, 1.x `hf_token`; False sends no token, not even a saved one.
        keyword = "token" if "token" in inspect.signature(Client).parameters else "hf_token"
        with _gradio_errors(self.src):
            try:
                self.client = Client(self.src, verbose=False, **{keyword: token})
            except (ValueError, TypeError) as exc:  # an older gradio_client cannot read a Gradio 5+ app's API
                raise ConnectionError(
                    f"cannot read the API of the Gradio app {self.src} ({_reason(exc)}); "
                    f"an app on Gradio 5 or later needs {_NEEDS['gradio_client']}, which this client may be older than"
                ) from None
        _guard_uploads(self.client, self._uploads)
        self.is_initialized = True

    # A generated class sets `parameter_order`, the wire names of its inputs in the app's order,
    # `file_paths` where an input holds files ({name: [position as in `_files_at`, ...]}), and
    # `parameter_defaults`, what an argument left at NOT_GIVEN is sent as: the app's default when
    # the tool was vendored (pinned: the tool does not change with the app).
    parameter_order: list[str] = []
    parameter_defaults: dict[str, Any] = {}

    def _predict(self, arguments: dict[str, Any]) -> Any:
        """Call the endpoint with `arguments` (by wire name), sent by position in the app's order.

        An argument left at NOT_GIVEN gets its pinned default. Only the positions `file_paths`
        names upload files: a local path, an http(s) URL or a PIL image (saved to a temporary file,
        deleted after the call).
        """
        if self.client is None:
            self.setup()
        values = [arguments[name] for name in self.parameter_order]
        file_paths: dict[str, list[str]] = getattr(self, "file_paths", {})
        temporary: list[str] = []
        approved: list[dict[str, Any]] = []
        try:
            for index, name in enumerate(self.parameter_order):
                if values[index] is NOT_GIVEN:
                    if name not in self.parameter_defaults:  # a module written before defaults were pinned
                        raise TypeError(
                            f"{self.name}: no pinned default for {name}; `vendorgen update` regenerates the module"
                        )
                    values[index] = self.parameter_defaults[name]
                    continue
                for position in file_paths.get(name, ()):
                    values[index] = _files_at(values[index], position, lambda item: _file(item, temporary, approved))
            self._uploads.update(id(item) for item in approved)
            with _gradio_errors(self.src):
                return self.client.predict(*values, api_name=self.api_name)
        finally:
            self._uploads.difference_update(id(item) for item in approved)
            for path in temporary:
                os.remove(path)


def _space_token(src: str, explicit: str | None) -> str | bool | None:
    """The Hub token for `src`: the one passed in, for any host; else HF_TOKEN, only for the Hub.

    A Space named owner/name, the Hub itself (the origin of HF_ENDPOINT, as huggingface_hub reads
    it) and https *.hf.space get HF_TOKEN (None lets gradio_client read it, or the saved login);
    any other origin gets False: no token at all.
    """
    if explicit:
        return explicit
    if "://" not in src:
        return None
    try:
        target = urlsplit(src)
        hub = urlsplit(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
        origins = ((target.scheme, target.hostname, target.port), (hub.scheme, hub.hostname, hub.port))
    except ValueError:  # a port that is not a number
        return False
    if target.hostname and origins[0] == origins[1]:
        return None
    space = target.scheme == "https" and target.port in (None, 443) and (target.hostname or "").endswith(".hf.space")
    return None if space else False


@contextmanager
def _gradio_errors(src: str) -> Iterator[None]:
    """An app that cannot be reached is a ConnectionError naming it, not an httpx traceback."""
    import httpx

    try:
        yield
    except (httpx.TransportError, OSError) as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
            raise
        raise ConnectionError(f"cannot reach the Gradio app {src}: {_reason(exc)}") from None


def _files_at(value: Any, position: str, upload: Callable[[Any], Any]) -> Any:
    """`value` with `upload` applied at `position`: "" the value itself, "[*]" each item of a
    list, ".key" a property of an object, chained (".files[*]"). Missing parts are left alone."""
    if value is None:
        return value
    if not position:
        return upload(value)
    if position.startswith("[*]"):
        if isinstance(value, (list, tuple)):
            return [_files_at(item, position[3:], upload) for item in value]
        return value
    key, rest = position[1:], ""
    for index, char in enumerate(key):
        if char in ".[":
            key, rest = key[:index], key[index:]
            break
    if isinstance(value, dict) and key in value:
        return {**value, key: _files_at(value[key], rest, upload)}
    return value


def _file(value: Any, temporary: list[str], approved: list[dict[str, Any]]) -> Any:
    """A local path, an http(s) URL or a PIL image, as gradio_client sends a file."""
    from gradio_client import handle_file

    if hasattr(value, "save") and not isinstance(value, str):  # a PIL image
        with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
            value.save(file, format="PNG")
        temporary.append(file.name)
        value = file.name
    data = handle_file(str(value))
    approved.append(data)
    return data


def _guard_uploads(client: Any, uploads: set[int]) -> None:
    """Let gradio_client upload only the dicts in `uploads` (by id), the declared file arguments.

    gradio_client uploads every dict shaped like FileData at any depth of any argument; a model
    could put `{"path": "~/.ssh/id_rsa", "meta": {"_type": "gradio.FileData"}}` in a JSON argument.
    Any other such dict is hidden from its upload step and sent as the data it is.
    """
    endpoints = client.endpoints.values() if isinstance(client.endpoints, dict) else client.endpoints
    for endpoint in endpoints:
        process = getattr(endpoint, "process_input_files", None)
        if process is not None:  # endpoints of Gradio 3 apps upload by component type instead
            endpoint.process_input_files = _guarded(process, uploads)


class _Hidden:
    """A FileData-shaped dict that is not a declared file argument, out of gradio_client's sight."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value


def _guarded(process: Callable[..., tuple[Any, ...]], uploads: set[int]) -> Callable[..., tuple[Any, ...]]:
    def hide(value: Any) -> Any:
        if isinstance(value, dict):
            meta = value.get("meta")
            if isinstance(meta, dict) and meta.get("_type") == _FILE_DATA and id(value) not in uploads:
                return _Hidden(value)
            return {key: hide(item) for key, item in value.items()}
        if isinstance(value, list):
            return [hide(item) for item in value]
        return value

    def show(value: Any) -> Any:
        if isinstance(value, _Hidden):
            return value.value
        if isinstance(value, dict):
            return {key: show(item) for key, item in value.items()}
        if isinstance(value, list):
            return [show(item) for item in value]
        return value

    def process_input_files(*data: Any) -> tuple[Any, ...]:
        return tuple(show(item) for item in process(*(hide(item) for item in data)))

    return process_input_files


def audio_result(value: Any) -> Any:
    """An audio output as AgentAudio; its file path where AgentAudio cannot load (no smolagents[audio])."""
    from smolagents.agent_types import AgentAudio

    try:
        return AgentAudio(value)
    except ModuleNotFoundError:
        return value


# -- MCP servers (mcp:) --------------------------------------------------------------------------


class MCPToolError(RuntimeError):
    """The server reported the tool call as failed (isError, or a protocol error); the message is the server's."""


class MCPSession:
    """The one connection to an MCP server that every tool of a vendored module shares.

    Opened on the first call, on a private event-loop thread that serves calls from any thread;
    reconnected once if the server went away; closed by close(), or when the process exits.
    """

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

    def call(self, name: str, arguments: dict[str, Any], timeout: float | None) -> Any:
        """Send tools/call and return the raw CallToolResult; reconnect once if the server went away."""
        sdk = _mcp_sdk()
        error: BaseException | None = None
        for _attempt in range(2):
            connection = self.open()
            loop, _, client, _ = connection
            future = asyncio.run_coroutine_threadsafe(sdk.call_tool(client, name, arguments, timeout), loop)
            try:
                return future.result()
            except Exception as exc:
                error = self._failure(exc, name, timeout)
            self.drop(connection)  # the server went away: reconnect once
        raise ConnectionError(f"lost the MCP server {self.describe()} and could not get it back: {_reason(error)}")

    async def call_here(self, name: str, arguments: dict[str, Any], timeout: float | None) -> Any:
        """call() for a coroutine: over a connection on the running event loop, with no thread in between.

        The vendored MCP server (_vendored_server.py) awaits its MCP tools' calls so. That connection
        is its own, opened on the first such call and closed with the loop; call() keeps using its thread.
        """
        sdk = _mcp_sdk()
        error: BaseException | None = None
        for _attempt in range(2):
            opening = self._opening()
            client, stop = await self._opened(opening)
            try:
                return await sdk.call_tool(client, name, arguments, timeout)
            except Exception as exc:
                error = self._failure(exc, name, timeout)
            if self.local is opening:  # the server went away: reconnect once
                self.local = None
            stop.set()
        raise ConnectionError(f"lost the MCP server {self.describe()} and could not get it back: {_reason(error)}")

    async def here(self) -> tuple[Any, Any]:
        """(client, stop event) of the connection on the running loop, opened now if there is none."""
        return await self._opened(self._opening())

    def _opening(self) -> Any:
        """The future of the connection on the running loop; it starts opening now if there is none."""
        loop = asyncio.get_running_loop()
        if self.local is None or self.local.get_loop() is not loop:
            transport = self.transport()  # reads the environment: a missing variable is the caller's error
            self.local = loop.create_future()  # concurrent callers wait for this one connection
            self.local_task = loop.create_task(self.serve(transport, self.local))
        return self.local

    async def _opened(self, opening: Any) -> tuple[Any, Any]:
        try:
            return await asyncio.wait_for(asyncio.shield(opening), self.connect_timeout * 2 + 10)  # type: ignore[no-any-return]
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

    async def serve(self, transport: Any, ready: Any) -> None:
        from mcp import ClientSession

        stop = asyncio.Event()
        try:
            async with transport as streams, ClientSession(streams[0], streams[1]) as client:
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
        server = self.server
        _mcp_sdk()  # mcp is there
        if server["transport"] == "stdio":
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            missing = [name for name in server["env"] if name not in os.environ]
            if missing:
                raise RuntimeError(
                    f"set {', '.join(missing)} in the environment: the MCP server {self.describe()} needs it"
                )
            env = {name: os.environ[name] for name in server["env"]}
            argv = [server["command"], *server["args"]]
            if server.get("project_paths"):
                root = _project_root()
                for index in server["project_paths"]:
                    if isinstance(index, int) and 0 <= index < len(argv):
                        argv[index] = str(root / argv[index])
            command = sys.executable if argv[0] in ("python", "python3") else argv[0]
            return stdio_client(StdioServerParameters(command=command, args=argv[1:], env=env))
        if server["transport"] == "sse":
            from mcp.client.sse import sse_client

            return sse_client(server["url"], timeout=self.connect_timeout)
        import mcp.client.streamable_http as streamable_http

        # mcp 1.24 renamed streamablehttp_client (2.x only has the new name); older releases only have the old one.
        connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
        return connect(server["url"])

    def describe(self) -> str:
        if self.server["transport"] == "stdio":
            return " ".join([self.server["name"] or self.server["command"], "(stdio)"])
        return str(self.server["url"])


# What marks a project's root, as vendorgen finds it: the lock that owns the vendored modules
# first, else the nearest of these.
_LOCK = "vendorgen.lock"
_ROOT_MARKERS = (_LOCK, "pyproject.toml", ".git")


def _project_root() -> Path:
    """The project this runtime was vendored into: the nearest directory above it holding
    vendorgen.lock (which owns it), else the nearest holding a project marker.

    A stdio server's paths inside the project are stored relative to that root, so the tools
    start the same server wherever the agent runs.
    """
    here = Path(__file__).resolve().parent
    for markers in ((_LOCK,), _ROOT_MARKERS):
        for directory in (here, *here.parents):
            if any((directory / marker).exists() for marker in markers):
                return directory
    return here.parent


class _MCPSDK:
    """What differs between mcp 1.x and 2.x, found once by looking at what is there."""

    def __init__(self) -> None:
        with _needs("mcp"):
            from mcp import types
            from mcp.shared import exceptions

        self.types = types
        self.two = not hasattr(exceptions, "McpError")  # mcp 2 renamed it MCPError
        self.error_type: type[Exception] = getattr(exceptions, "MCPError" if self.two else "McpError")
        self.connection_closed = types.CONNECTION_CLOSED
        # A request timed out: 408 in mcp 1.x, REQUEST_TIMEOUT in 2.x.
        self.timeout_codes = {408, getattr(types, "REQUEST_TIMEOUT", 408)}

    def error_of(self, exc: Exception) -> tuple[int, str]:
        error = exc.error  # type: ignore[attr-defined]
        return error.code, error.message

    async def call_tool(self, client: Any, name: str, arguments: dict[str, Any], timeout: float | None) -> Any:
        """tools/call without the SDK's own output-schema check (which lists every tool first)."""
        types = self.types
        request = types.CallToolRequest(
            method="tools/call", params=types.CallToolRequestParams(name=name, arguments=arguments)
        )
        if self.two:  # seconds as a float, the request itself
            return await client.send_request(request, types.CallToolResult, timeout)
        from datetime import timedelta

        wait = None if timeout is None else timedelta(seconds=timeout)
        return await client.send_request(types.ClientRequest(request), types.CallToolResult, wait)


_sdk: _MCPSDK | None = None


def _mcp_sdk() -> _MCPSDK:
    global _sdk
    if _sdk is None:
        _sdk = _MCPSDK()
    return _sdk


class _ClosesSession:
    """close(), or the end of a `with` block, closes `session`; the next call opens a new one."""

    session: MCPSession

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


class MCPTool(_ClosesSession, _VendoredTool, Tool):
    """A tool of an MCP server: calls it through `session` (shared by its module) and converts the result."""

    mcp_name = ""
    # A generated class sets `result_key` when the server wraps a plain value as {result_key: value}
    # in structuredContent (FastMCP): the tool returns the value.

    def __init__(self, timeout: float | None) -> None:
        super().__init__()
        self.timeout = timeout

    def _call(self, arguments: dict[str, Any]) -> Any:
        """Call the tool with its wire names; an argument left at NOT_GIVEN is not sent.

        Inside `handing_back()` the call is not made: it comes back as an MCPRequest to await.
        """
        if _handing_back.get():
            return MCPRequest(self, _given(arguments))
        return self._value(self.session.call(self.mcp_name, _given(arguments), self.timeout))

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


# Set by the vendored MCP server (_vendored_server.py) around a call of an MCP tool: the tool's forward()
# runs, but its _call hands back the request, which the server awaits on its own event loop.
_handing_back: contextvars.ContextVar[bool] = contextvars.ContextVar("_handing_back", default=False)


@contextmanager
def handing_back() -> Iterator[None]:
    """Inside, an MCP tool called returns an MCPRequest instead of calling its server."""
    token = _handing_back.set(True)
    try:
        yield
    finally:
        _handing_back.reset(token)


class MCPRequest:
    """An MCP tool's call, not yet made: `await request.send()` makes it on the running event loop."""

    def __init__(self, tool: MCPTool, arguments: dict[str, Any]) -> None:
        self.tool = tool
        self.arguments = arguments

    async def send(self) -> Any:
        """The tool's value, as calling it would return it."""
        tool = self.tool
        return tool._value(await tool.session.call_here(tool.mcp_name, self.arguments, tool.timeout))


class ToolList(_ClosesSession, list):  # type: ignore[type-arg]
    """The tools of a module's `tools()`: a list that also closes their session (close(), or `with`)."""

    def __init__(self, session: MCPSession, tools: list[Tool]) -> None:
        super().__init__(tools)
        self.session = session


# The image formats an MCP image item is opened as, by MIME type: only these PIL plugins run
# (others, like PostScript, would start external programs).
_IMAGE_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/jpg": "JPEG", "image/gif": "GIF",
                  "image/webp": "WEBP", "image/bmp": "BMP", "image/tiff": "TIFF"}  # fmt: skip


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
        data = base64.b64decode(item.data)
        image_format = _IMAGE_FORMATS.get((_field(item, "mimeType") or "").lower())
        if image_format is not None:
            with _needs("PIL"):
                from PIL import Image
            try:
                opened = Image.open(io.BytesIO(data), formats=[image_format])
                opened.load()
                return opened
            except Exception:  # PIL cannot read it (a bad checksum...): the file, untouched
                pass
        return _temporary_file(data, _field(item, "mimeType"))
    if item.type == "audio":
        return _temporary_file(base64.b64decode(item.data), _field(item, "mimeType"))
    if item.type == "resource":
        text = getattr(item.resource, "text", None)
        return text if text is not None else base64.b64decode(item.resource.blob)
    if item.type == "resource_link":
        return str(item.uri)
    return item.model_dump(mode="json")


def _temporary_file(data: bytes, mime_type: str | None) -> str:
    """`data` in a new temporary file named after its MIME type; returns the path."""
    import mimetypes

    subtype = (mime_type or "").partition("/")[2]
    suffix = mimetypes.guess_extension(mime_type or "") or (f".{subtype}" if subtype.isalnum() else ".bin")
    with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as file:
        file.write(data)
    return file.name


# -- LangChain tools (langchain:) ----------------------------------------------------------------


class LangChainTool(_VendoredTool, Tool):
    """A LangChain tool of the user's own code: found by name in what the module's source gives."""

    lc_name = ""
    # A generated class sets `is_async = True` when only `.ainvoke()` runs its tool (made from a coroutine alone).

    def __init__(self) -> None:
        super().__init__()
        self._lc_tool: Any = None

    def _invoke(self, source: Any, arguments: dict[str, Any]) -> Any:
        """Run the tool with its LangChain argument names; an argument left at NOT_GIVEN is not sent."""
        if self._lc_tool is None:
            found = [tool for tool in langchain_tools(source) if tool.name == self.lc_name]
            if not found:
                raise LookupError(f"{self.name}: its LangChain source no longer gives a tool named {self.lc_name}")
            self._lc_tool = found[0]
        if getattr(self, "is_async", False):
            return _run_coroutine(self._lc_tool.ainvoke(_given(arguments)))
        return self._lc_tool.invoke(_given(arguments))


def _run_coroutine(coroutine: Any) -> Any:
    """Run `coroutine` to its end from synchronous code: in a new event loop, or on a thread of
    its own when this thread already runs one (an agent inside async code)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="langchain-ainvoke") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def langchain_tools(value: Any) -> list[Any]:
    """The tools a BaseTool, BaseTool class, toolkit (or its class), list of tools, or factory gives."""
    with _needs("langchain_core"):
        from langchain_core.tools import BaseTool, BaseToolkit

    if isinstance(value, type):
        value = value()
    elif not isinstance(value, (BaseTool, BaseToolkit, list, tuple)) and callable(value):
        value = value()
        if isinstance(value, type):
            value = value()
    if isinstance(value, BaseToolkit):
        return list(value.get_tools())
    if isinstance(value, BaseTool):
        return [value]
    return list(value)
