"""MCP servers (streamable-http, legacy SSE, stdio), read through mcpadapt's `MCPAdapt`.

`inspect` connects once, initializes, lists every tool (following `nextCursor`)
and disconnects; `build` turns the raw `tools/list` answer into one module per
server. The schema conversion is vendorgen's own (`vendorgen.schema`), never
mcpadapt's `SmolAgentsAdapter`: that one drops `required`, leaves `$ref`s as
lazy proxies and returns tool errors as text.

How the inspection uses mcpadapt:

- transports and lifecycle are `MCPAdapt`'s (its `mcptools` picks stdio, SSE or
  streamable-http, opens the `ClientSession`, initializes it and keeps it open
  for the `async with` block);
- the adapter is vendorgen's `ToolAdapter` that returns each raw `mcp.types.Tool`
  unchanged, so nothing is converted twice;
- `MCPAdapt.atools()` lists once without a cursor, so a paginated server would
  lose every page but the first: vendorgen's `MCPAdapt` subclass overrides
  `atools()` to follow `nextCursor` on the session MCPAdapt holds;
- `mcptools` drops the `InitializeResult`, so while the connection is set up the
  subclass has mcpadapt build a `ClientSession` subclass that keeps it
  (`serverInfo` names the module and is recorded as the revision).

The generated code does not use mcpadapt at all: it talks to the server with the
mcp SDK only (see templates/mcp.py.j2).
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from vendorgen import limits, naming, schema
from vendorgen.credentials import refuse_url_credentials
from vendorgen.errors import SchemaError, SourceUnreachable, UsageError
from vendorgen.literals import escape_text
from vendorgen.model import ModuleSpec, OutputSpec, ToolSpec
from vendorgen.sources import AddOptions, replay_options, seconds_from_env, waiting

ALLOWED_IMPORTS = frozenset(
    {
        "__future__.annotations",
        "typing.Any",
        "typing.Literal",
        "smolagents.Tool",
        "._vendored_runtime.MCPSession",
        "._vendored_runtime.MCPTool",
        "._vendored_runtime.MCPToolError",
        "._vendored_runtime.ToolList",
    }
)

TRANSPORTS = ("stdio", "streamable-http", "sse")

# Inspection fails fast: each request (initialize, every tools/list page) must be
# answered within this many seconds; a stdio server's start-up counts. Override
# with VENDORGEN_MCP_TIMEOUT for a server that starts slowly.
DEFAULT_TIMEOUT = 10.0
TIMEOUT_ENV = "VENDORGEN_MCP_TIMEOUT"
MAX_PAGES = 1000

# What the generated module waits for by default (both can be changed there).
CALL_TIMEOUT = 60.0
CONNECT_TIMEOUT = 30.0

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NOT_FOR_MCP = {"api_name": "--api-name", "all_endpoints": "--all-endpoints", "class_name": "--class",
                "keep_going": "--keep-going"}  # fmt: skip


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------


def parse_target(target: str, options: AddOptions) -> dict[str, Any]:
    """What `mcp:<target>` names: the transport and how to reach the server. No I/O."""
    for field_name, flag in _NOT_FOR_MCP.items():
        if getattr(options, field_name):
            raise UsageError(f"{flag} does not apply to mcp: sources")
    if target.startswith("stdio:"):
        return _stdio_target(target[len("stdio:") :], options)
    if options.env:
        raise UsageError(
            "--env passes variables to a stdio server's process; an HTTP server runs elsewhere and gets none"
        )
    if target.startswith("sse:"):
        return {"transport": "sse", "url": _url(target[len("sse:") :])}
    if target.startswith(("http://", "https://")):
        return {"transport": "streamable-http", "url": _url(target)}
    raise UsageError(
        f"mcp:{target} names no transport; use mcp:http(s)://host/mcp (streamable-http), "
        "mcp:sse:http(s)://host/sse (legacy SSE) or \"mcp:stdio:<command line>\""
    )


def _stdio_target(command_line: str, options: AddOptions) -> dict[str, Any]:
    try:
        argv = shlex.split(command_line)
    except ValueError as exc:
        raise UsageError(f"cannot split the stdio command line {command_line!r}: {exc}") from None
    if not argv:
        raise UsageError("mcp:stdio: needs a command line, e.g. \"mcp:stdio:python -m my_server\"")
    if not options.trust:
        raise UsageError(
            f"starting an MCP server over stdio runs a local command ({shlex.join(argv)}), now and each time "
            "the vendored tools connect; pass --trust if you trust it"
        )
    env: list[str] = []
    for name in options.env:
        if not _ENV_NAME.match(name):
            raise UsageError(f"--env takes a variable name, not {name!r}; the value is read at run time")
        if name not in env:
            env.append(name)
    return {"transport": "stdio", "command": argv[0], "args": argv[1:], "env": env}


def _url(url: str) -> str:
    parts = urlsplit(refuse_url_credentials(url))  # first: the message below quotes the URL
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{url!r} is not an http(s) URL")
    return url


def inspect(target: str, options: AddOptions) -> list[dict[str, Any]]:
    server = parse_target(target, options)
    info, raw_tools = list_tools(server, seconds_from_env(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    limits.check_listing(raw_tools, f"the tools/list of the MCP server {_where(server)}")
    tools = [tool for tool in raw_tools if isinstance(tool, dict)]
    names = [tool.get("name") for tool in tools]
    duplicates = sorted({name for name in names if names.count(name) > 1}, key=str)
    if duplicates:
        raise SchemaError(f"the server lists these tools more than once: {', '.join(map(_show, duplicates))}")
    if options.tools:
        tools = _select(tools, options.tools, options.prefix)
    if not tools:
        raise SchemaError(f"the MCP server at {_where(server)} lists no tools")
    name = naming.python_name(options.name or default_module_name(info, server))
    # What `update` passes to `inspect` to get this module again (never a value of --env).
    again = replay_options(name, trust=server["transport"] == "stdio", env=list(options.env),
                           tools=list(options.tools), prefix=options.prefix)  # fmt: skip
    return [
        {
            "kind": "mcp",
            "source": f"mcp:{target}",
            "name": name,
            "server": server,
            "server_info": info,
            "revision": revision(info),
            "prefix": options.prefix,
            "tools": tools,
            "options": again,
        }
    ]


def _select(tools: list[dict[str, Any]], wanted: tuple[str, ...], prefix: str) -> list[dict[str, Any]]:
    """The tools named by --tool, by MCP name or by the Python name vendorgen gives them."""
    by_name: dict[str, dict[str, Any]] = {}
    for tool in tools:
        by_name[tool["name"]] = tool
        by_name.setdefault(tool_name(tool["name"], prefix), tool)
    chosen: list[dict[str, Any]] = []
    unknown = [name for name in wanted if name not in by_name]
    if unknown:
        available = ", ".join(_show(tool["name"]) for tool in tools)
        raise UsageError(f"no tool {', '.join(map(_show, unknown))} on this server; available: {available}")
    for name in wanted:
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    return chosen


def _show(name: Any) -> str:
    return escape_text(str(name))


def _where(server: Mapping[str, Any]) -> str:
    if server["transport"] == "stdio":
        return "`" + escape_text(shlex.join([server["command"], *server["args"]])) + "`"
    return escape_text(server["url"])


def default_module_name(info: Mapping[str, Any], server: Mapping[str, Any]) -> str:
    """From the server's own name (`serverInfo.name`), else its host or command."""
    base = info["name"] if isinstance(info.get("name"), str) else ""
    if not base.strip():
        if server["transport"] == "stdio":
            base = os.path.basename(server["command"])
        else:
            base = urlsplit(server["url"]).hostname or "mcp"
    name = naming.python_name(base).lower()
    return f"mcp{name}" if name.startswith("_") else name


def revision(info: Mapping[str, Any]) -> str:
    name = info.get("name") if isinstance(info.get("name"), str) else ""
    version = info.get("version") if isinstance(info.get("version"), str) else ""
    return " ".join(part for part in (name, version) if part)


def client_params(server: Mapping[str, Any], timeout: float, environ: Mapping[str, str] | None = None) -> Any:
    """mcpadapt's server parameters for `server`; `--env` values come from `environ` (never stored)."""
    environ = os.environ if environ is None else environ
    if server["transport"] == "stdio":
        from mcp import StdioServerParameters

        missing = [name for name in server["env"] if name not in environ]
        if missing:
            raise UsageError(
                f"--env {', '.join(missing)}: not set here; the server gets the value at inspection too"
                " (it is never written down)"
            )
        env = {name: environ[name] for name in server["env"]}
        return StdioServerParameters(command=python_command(server["command"]), args=list(server["args"]), env=env)
    # Floats on purpose: mcpadapt and the transports ignore an int timeout.
    params: dict[str, Any] = {"url": server["url"], "transport": server["transport"], "timeout": float(timeout)}
    if server["transport"] == "sse":
        params["sse_read_timeout"] = float(timeout)
    return params


def python_command(command: str) -> str:
    """`python`/`python3` run the interpreter that runs vendorgen (the generated code does the same)."""
    return sys.executable if command in ("python", "python3") else command


def list_tools(server: Mapping[str, Any], timeout: float = DEFAULT_TIMEOUT) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(serverInfo, every tool as the JSON the server sent), through MCPAdapt."""
    import asyncio

    params = client_params(server, timeout)
    where = _where(server)

    async def run() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        inspection = _inspection_class()(params, _raw_adapter(), connect_timeout=timeout,
                                         client_session_timeout_seconds=float(timeout))  # fmt: skip
        async with inspection as tools:
            info = inspection.server_info
        return info, [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools]

    async def bounded() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        # Each request has its own timeout; this bounds everything else (a TCP
        # connect that hangs, a process that will not die). Pages add up.
        return await asyncio.wait_for(run(), timeout * 4 + 10)

    with _client_log() as log, waiting():
        try:
            return asyncio.run(bounded())
        except (UsageError, SchemaError):
            raise
        except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
            if isinstance(exc, KeyboardInterrupt):
                raise
            if isinstance(leaf := _leaf(exc), SchemaError):  # what the listing broke (a limit), from inside the session
                raise leaf from None
            raise SourceUnreachable(_failure(where, server, exc, timeout, _first_problem(log.records))) from None


class _Recorder(logging.Handler):
    """Keeps log records instead of printing them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def _client_log() -> Iterator[_Recorder]:
    """What the mcp client logs while inspecting (tracebacks of messages it cannot parse), off stderr."""
    logger = logging.getLogger("mcp")
    recorder = _Recorder()
    logger.addHandler(recorder)
    propagate, logger.propagate = logger.propagate, False
    try:
        yield recorder
    finally:
        logger.removeHandler(recorder)
        logger.propagate = propagate


def _first_problem(records: list[logging.LogRecord]) -> str:
    """The first error the mcp client logged (a message it could not parse), in a few words.

    It explains what otherwise reads as a time-out; a logged time-out adds nothing to that.
    """
    for record in records:
        error = record.exc_info[1] if record.exc_info else None
        if record.levelno < logging.ERROR or type(error).__name__.endswith("Timeout"):
            continue
        problem = record.getMessage()
        if error is not None:
            lines = str(error).strip().splitlines()[:2]  # pydantic's third line is a link
            problem += f" ({type(error).__name__}: {' '.join(' '.join(lines).split())})"
        return escape_text(problem if len(problem) <= 300 else problem[:300] + "...")
    return ""


def _failure(where: str, server: Mapping[str, Any], exc: BaseException, timeout: float, logged: str = "") -> str:
    """One line saying why the server could not be read; `logged`: the first problem the client logged."""
    leaf = _leaf(exc)
    name = type(leaf).__name__
    text = escape_text(" ".join(str(leaf).split()))
    stdio = server["transport"] == "stdio"
    no_answer = f"no answer from the MCP server {where} within {timeout:g} s (set {TIMEOUT_ENV} to wait longer)"
    if logged:
        no_answer = f"no valid answer from the MCP server {where} within {timeout:g} s; the client said: {logged}"
    if isinstance(leaf, FileNotFoundError) and stdio:
        return f"cannot start {where}: command {escape_text(server['command'])!r} not found"
    if isinstance(leaf, PermissionError) and stdio:
        return f"cannot start {where}: permission denied"
    if isinstance(leaf, TimeoutError) or "Timed out" in text:
        return no_answer
    # A stdio server's pipes torn down, with no other error: the process is gone.
    closed = name in ("BrokenResourceError", "ClosedResourceError", "EndOfStream")
    if stdio and (closed or (name == "McpError" and "Connection closed" in text)):
        said = f"; the client said: {logged}" if logged else ""
        return f"the MCP server {where} exited or closed its output before answering (its stderr is above){said}"
    if name == "McpError" and "Connection closed" in text:
        return f"the MCP server at {where} closed the connection"
    if name == "ConnectError" or isinstance(leaf, ConnectionError):
        return f"cannot connect to {where}: {text or 'connection refused'}"
    if name == "HTTPStatusError" or (name == "McpError" and "Session terminated" in text):
        # The mcp client turns a 404 into "Session terminated", even for the first request.
        status = getattr(getattr(leaf, "response", None), "status_code", 404)
        if status in (401, 403):
            return f"{where} refused access (HTTP {status}); vendorgen sends no credentials to MCP servers"
        if status >= 500:
            return f"the MCP server {where} failed (HTTP {status}); try again later"
        hint = (
            " (is it an MCP streamable-http endpoint? for a legacy SSE server use mcp:sse:URL)"
            if server["transport"] == "streamable-http"
            else " (is it an MCP SSE endpoint? for streamable-http use mcp:URL)"
        )
        return f"{where} answered HTTP {status}{hint}"
    if name.endswith(("Timeout", "TimeoutException")):
        return no_answer
    if name == "McpError":
        return f"the MCP server {where} refused: {text}"
    if name in ("RemoteProtocolError", "ReadError", "WriteError", "NetworkError"):
        return f"the connection to {where} broke: {text or name}"
    if logged and name in ("BrokenResourceError", "ClosedResourceError"):
        return no_answer  # the client gave up waiting while the server still sent what it could not read
    return f"cannot read the tools of the MCP server {where}: {name}: {text}"


# Errors that only say a stream was torn down after something else went wrong (a time-out...).
_AFTERMATH = ("BrokenResourceError", "ClosedResourceError", "EndOfStream", "CancelledError")


def _leaf(exc: BaseException) -> BaseException:
    """The cause inside (nested) exception groups: the first error that is not the aftermath of another.

    Which of a task group's errors comes first is a race, so the order alone cannot be trusted.
    """
    leaves = list(_leaves(exc))
    return next((leaf for leaf in leaves if type(leaf).__name__ not in _AFTERMATH), leaves[0])


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def _raw_adapter() -> Any:
    from mcpadapt.core import ToolAdapter

    class RawTools(ToolAdapter):
        """vendorgen's adapter: every MCP tool as the server described it, unconverted."""

        def adapt(self, func: Any, mcp_tool: Any) -> Any:
            return mcp_tool

        def async_adapt(self, afunc: Any, mcp_tool: Any) -> Any:
            return mcp_tool

    return RawTools()


def _inspection_class() -> type:
    from functools import partial

    import mcpadapt.core as core
    from mcp import ClientSession

    class RecordingSession(ClientSession):
        """A ClientSession that keeps the InitializeResult mcpadapt's `mcptools` discards."""

        initialize_result: Any = None

        async def initialize(self) -> Any:
            self.initialize_result = await super().initialize()
            return self.initialize_result

    class Inspection(core.MCPAdapt):
        """MCPAdapt, plus pagination and the server's identity."""

        server_info: dict[str, Any] = {}

        async def __aenter__(self) -> list[Any]:
            # `mcptools` builds its session from this module attribute; the
            # subclass only records what the server sent. Restored as soon as
            # the connection is up, whatever happens.
            original = core.ClientSession
            core.ClientSession = RecordingSession  # type: ignore[misc]
            try:
                return await super().__aenter__()
            except BaseException:
                # MCPAdapt leaves the connections open when listing fails (a server that dies or hangs
                # on a later page): close them here, in this task, not in asyncio's finalizer.
                if hasattr(self, "_ctxmanager"):
                    await self._ctxmanager.aclose()
                raise
            finally:
                core.ClientSession = original  # type: ignore[misc]

        async def atools(self) -> list[Any]:
            self.mcp_tools = [await _all_pages(session) for session in self.sessions]
            result = getattr(self.sessions[0], "initialize_result", None) if self.sessions else None
            if result is not None:
                self.server_info = result.serverInfo.model_dump(mode="json", exclude_none=True)
            return [
                self.adapter.async_adapt(partial(session.call_tool, tool.name), tool)
                for session, tools in zip(self.sessions, self.mcp_tools)
                for tool in tools
            ]

    return Inspection


async def _all_pages(session: Any) -> list[Any]:
    """Every tool, following `nextCursor` to the end (mcpadapt reads the first page only)."""
    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        page = await session.list_tools(cursor)
        tools.extend(page.tools)
        limits.TOOLS.check(len(tools), "the MCP server's tools/list")  # page by page: a listing may never end
        cursor = page.nextCursor
        if not cursor:
            return tools
        if cursor in seen or len(seen) >= MAX_PAGES:
            raise SchemaError(f"the server's tools/list pagination does not end (cursor {_show(cursor)!r} again)")
        seen.add(cursor)


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------


def tool_name(mcp_name: str, prefix: str = "") -> str:
    """The smolagents tool name: `get-weather` -> `get_weather`; `--prefix gh` -> `gh_get_weather`."""
    if prefix:
        return naming.python_name(f"{prefix.rstrip('_')}_{mcp_name}")
    return naming.python_name(mcp_name)


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    server = snapshot["server"]
    if server.get("transport") not in TRANSPORTS:
        raise SchemaError(f"unknown MCP transport {server.get('transport')!r}")
    info = snapshot.get("server_info") or {}
    server_name = info["name"] if isinstance(info.get("name"), str) else ""
    prefix = snapshot.get("prefix", "")
    tools = [_tool(raw, prefix, server_name) for raw in snapshot["tools"]]
    module_name = naming.python_name(snapshot["name"])
    runtime = {"name": server_name, "version": info.get("version", ""), **server}
    return ModuleSpec(
        name=module_name,
        kind="mcp",
        source=snapshot["source"],
        revision=snapshot.get("revision", ""),
        tools=tuple(tools),
        constants=(("SERVER", runtime), ("TIMEOUT", CALL_TIMEOUT), ("CONNECT_TIMEOUT", CONNECT_TIMEOUT)),
        requirements=("smolagents", "mcp"),
    )


def _tool(raw: Any, prefix: str, server_name: str) -> ToolSpec:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise SchemaError("the server lists a tool without a name")
    mcp_name = raw["name"]
    try:
        input_schema = raw.get("inputSchema")
        inputs = schema.inputs_from_object({"type": "object"} if input_schema is None else input_schema)
    except SchemaError as exc:
        raise SchemaError(f"tool {_show(mcp_name)!r}: {exc}") from None
    name = tool_name(mcp_name, prefix)
    output_schema = raw.get("outputSchema")
    if isinstance(output_schema, Mapping):
        try:
            resolved = schema.resolve_refs(output_schema, output_schema)
        except SchemaError as exc:
            raise SchemaError(f"tool {_show(mcp_name)!r} output schema: {exc}") from None
        outputs = (OutputSpec("result", "object", "dict[str, Any]", "the structured result"),)
        output_type = "object"
    else:
        resolved = None
        outputs = (OutputSpec("result", "any", "Any", "the content the server returns"),)
        output_type = "any"
    return ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=_description(raw, mcp_name, server_name),
        endpoint=mcp_name,
        inputs=inputs,
        outputs=outputs,
        output_type=output_type,
        output_schema=resolved,
        constants=(("mcp_name", mcp_name),),
    )


def _description(raw: Mapping[str, Any], mcp_name: str, server_name: str) -> str:
    annotations = raw["annotations"] if isinstance(raw.get("annotations"), Mapping) else {}
    for text in (raw.get("description"), raw.get("title"), annotations.get("title")):
        if isinstance(text, str) and text.strip():
            return schema.description_text(text)
    where = f" of the MCP server {server_name}" if server_name else ""
    return f"The {mcp_name} tool{where}."
