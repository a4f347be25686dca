"""MCP servers (streamable-http, legacy SSE, stdio), read with the mcp SDK's client (mcp 1.10+ and 2.x).

`inspect` connects once, initializes, lists every tool (following `nextCursor`)
and disconnects (`vendorgen/sources/mcp_client.py`, which says why not through
mcpadapt); `build` turns the raw `tools/list` answer into one module per
server. The schema conversion is vendorgen's own (`vendorgen.generate.schema`), never
mcpadapt's `SmolAgentsAdapter`: that one drops `required`, leaves `$ref`s as
lazy proxies and returns tool errors as text.

The generated code does not use mcpadapt at all: it talks to the server with the
mcp SDK only (see templates/mcp.py.j2).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shlex
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from vendorgen import naming
from vendorgen.generate import limits
from vendorgen.sources import pins
from vendorgen.generate import schema
from vendorgen.sources.credentials import refuse_url_credentials
from vendorgen.errors import NotOffered, SchemaError, SourceUnreachable, UsageError
from vendorgen.generate.literals import escape_text
from vendorgen.model import ModuleSpec, OutputSpec, ToolSpec
from vendorgen.sources import AddOptions, replay_options, seconds_from_env, waiting
from vendorgen.sources.builtin import MCPSource
from vendorgen.project.workspace import find_root

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


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------


def parse_target(target: str, options: AddOptions) -> dict[str, Any]:
    """What `mcp:<target>` names: the transport and how to reach the server. No I/O."""
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
        'mcp:sse:http(s)://host/sse (legacy SSE) or "mcp:stdio:<command line>"'
    )


def _stdio_target(command_line: str, options: AddOptions) -> dict[str, Any]:
    try:
        argv = shlex.split(command_line)
    except ValueError as exc:
        raise UsageError(f"cannot split the stdio command line {command_line!r}: {exc}") from None
    if not argv:
        raise UsageError('mcp:stdio: needs a command line, e.g. "mcp:stdio:python -m my_server"')
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
    argv, package = pins.pin(argv)  # before the paths are made portable: uvx reads its options from here
    argv, project_paths = portable_argv(argv, find_root())
    server: dict[str, Any] = {"transport": "stdio", "command": argv[0], "args": argv[1:], "env": env}
    if project_paths:
        server["project_paths"] = project_paths
    if package:
        server["package"] = package
    return server


def portable_argv(argv: list[str], root: Path) -> tuple[list[str], list[int]]:
    """`argv` with every path inside the project made relative to its root, and their indices.

    A word is a path when it names an existing file or directory, from here or from the project
    root (so `update` finds it again from a subdirectory). Paths outside the project stay as given.
    """
    portable = list(argv)
    indices: list[int] = []
    for index, word in enumerate(argv):
        if not word or word.startswith("-") or argv[index - 1] in ("-m", "--from") and index > 0:
            continue  # an option, or a module or package name that may share a directory's name
        for base in (Path.cwd(), root):
            candidate = (base / word).resolve()
            if not candidate.exists():
                continue
            if candidate != root and root not in candidate.parents:
                break  # outside the project: kept as written
            portable[index] = candidate.relative_to(root).as_posix()
            indices.append(index)
            break
    return portable, indices


def resolved_argv(server: Mapping[str, Any], root: Path) -> list[str]:
    """The command line to start, with the project's paths resolved against `root`."""
    argv = [server["command"], *server["args"]]
    for index in server.get("project_paths", ()):
        if isinstance(index, int) and 0 <= index < len(argv):
            argv[index] = str(root / argv[index])
    return argv


def _url(url: str) -> str:
    parts = urlsplit(refuse_url_credentials(url))  # first: the message below quotes the URL
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{url!r} is not an http(s) URL")
    return url


def inspect(target: str, options: AddOptions) -> list[dict[str, Any]]:
    server = parse_target(target, options)
    if server["transport"] == "stdio":
        # What is written down (the lock, the header) is the portable command line, never this machine's paths.
        target = "stdio:" + shlex.join([server["command"], *server["args"]])
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
    name = naming.python_name(options.name) if options.name else default_module_name(info, server)
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
            "revision": revision(info, server),
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
        raise NotOffered(f"no tool {', '.join(map(_show, unknown))} on this server; available: {available}")
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
    name = naming.module_name(base)
    return f"mcp{name}" if name.startswith("_") else name


def revision(info: Mapping[str, Any], server: Mapping[str, Any] | None = None) -> str:
    """Which version of the server was read: its own, where the command line tells.

    `serverInfo.version` is often not the server's: FastMCP reports the mcp SDK's version. So a
    pinned npx package gives its name and version, `python -m MODULE` the distribution that provides
    MODULE, a script inside the project the server's name and the sha256 of the script; anything else
    (an HTTP server) what it says in `serverInfo`.
    """
    name = info.get("name") if isinstance(info.get("name"), str) else ""
    version = info.get("version") if isinstance(info.get("version"), str) else ""
    own = _own_revision(server) if server is not None and server["transport"] == "stdio" else ""
    if own.startswith("sha256:"):
        return " ".join(part for part in (name, own) if part)
    return own or " ".join(part for part in (name, version) if part)


def _own_revision(server: Mapping[str, Any]) -> str:
    package = server.get("package")
    if isinstance(package, Mapping):
        return f"{package['name']} {package['version']}"
    argv = [server["command"], *server["args"]]
    if server["command"] in ("python", "python3") and argv[1:2] == ["-m"] and len(argv) > 2:
        top = argv[2].split(".")[0]
        for distribution in metadata.packages_distributions().get(top, [])[:1]:
            return f"{distribution} {metadata.version(distribution)}"
    for index in server.get("project_paths", ()):
        path = find_root() / argv[index]
        if path.is_file():  # the first file of the project on the command line: the server's code
            return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return ""


def stdio_params(server: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> Any:
    """The stdio server's parameters (None for a server over HTTP); `--env` values come from `environ` (never stored)."""
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
        argv = resolved_argv(server, find_root())
        return StdioServerParameters(command=python_command(argv[0]), args=argv[1:], env=env)
    return None


def python_command(command: str) -> str:
    """`python`/`python3` run the interpreter that runs vendorgen (the generated code does the same)."""
    return sys.executable if command in ("python", "python3") else command


def list_tools(
    server: Mapping[str, Any], timeout: float = DEFAULT_TIMEOUT
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(serverInfo, every tool as the JSON the server sent)."""
    import asyncio

    from vendorgen.sources import mcp_client

    params = stdio_params(server)
    where = _where(server)
    received = limits.ReadBudget(f"what the MCP server {where} sent")

    async def run() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with mcp_client.session(server, params, timeout, received) as (client, info):
            tools = await _all_pages(client)
        return info, [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools]

    async def bounded() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        # Each request has its own timeout; this bounds everything else (a TCP
        # connect that hangs, a process that will not die). Pages add up.
        # The SDK may wait on a stream cut at the byte limit (its SSE reader blocks handing the
        # error on): the whole listing is cancelled then.
        listing = asyncio.ensure_future(run())
        received.stop = listing.cancel
        return await asyncio.wait_for(listing, timeout * 4 + 10)

    with _client_log() as log, waiting():
        try:
            return asyncio.run(bounded())
        except (UsageError, SchemaError):
            raise
        except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
            if isinstance(exc, KeyboardInterrupt):
                raise
            if received.exceeded is not None:  # whatever the client made of the stream that was cut
                raise received.exceeded from None
            if isinstance(leaf := _leaf(exc), SchemaError):  # what the listing broke (a limit), from inside the session
                raise leaf from None
            refusal = _refusal_reason(server, leaf, timeout)
            reason = _failure(where, server, exc, timeout, _first_problem(log.records), refusal)
            raise SourceUnreachable(reason) from None


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


def _refusal_reason(server: Mapping[str, Any], leaf: BaseException, timeout: float) -> str:
    """What an HTTP server that refused access (401/403) said about why, in a few words; "" for anything else.

    The mcp client reads a refused response's headers only, so the body is asked for once more.
    """
    response: Any = getattr(leaf, "response", None)
    if server["transport"] == "stdio" or getattr(response, "status_code", None) not in (401, 403):
        return ""
    import httpx

    body = ""
    try:
        if server["transport"] == "sse":
            again = httpx.get(server["url"], timeout=timeout)
        else:
            again = httpx.post(server["url"], json=_INITIALIZE, timeout=timeout,
                               headers={"Accept": "application/json, text/event-stream"})  # fmt: skip
        if again.status_code in (401, 403):
            response, body = again, again.text[:2000]
    except httpx.HTTPError:
        pass
    reason = _said(body) or _said_in_header(response.headers.get("www-authenticate", ""))
    if not reason and response.reason_phrase not in ("Unauthorized", "Forbidden", ""):
        reason = response.reason_phrase
    reason = escape_text(" ".join(reason.split()))
    return reason if len(reason) <= 200 else reason[:200] + "..."


_INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "vendorgen", "version": "0"}}}  # fmt: skip


def _said(body: str) -> str:
    """The message of an error body: a JSON error's own words, else the text."""
    try:
        value = json.loads(body)
    except ValueError:
        return body.strip()
    for _ in range(3):  # {"error": {"message": ...}}, {"error": "...", "error_description": "..."}
        if not isinstance(value, Mapping):
            break
        for key in ("error_description", "message", "detail", "error"):
            if isinstance(value.get(key), str) and value[key].strip():
                return value[key]
        value = value.get("error")
    return body.strip() if not isinstance(value, (Mapping, list)) else ""


def _said_in_header(challenge: str) -> str:
    found = re.search(r'error_description="([^"]*)"', challenge)
    return found.group(1) if found else ""


def _failure(
    where: str, server: Mapping[str, Any], exc: BaseException, timeout: float, logged: str = "", refusal: str = ""
) -> str:
    """One line saying why the server could not be read; `logged`: the first problem the client logged;
    `refusal`: what a server refusing access said."""
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
    if stdio and (closed or (name in _PROTOCOL_ERRORS and "Connection closed" in text)):
        said = f"; the client said: {logged}" if logged else ""
        return f"the MCP server {where} exited or closed its output before answering (its stderr is above){said}"
    if name in _PROTOCOL_ERRORS and "Connection closed" in text:
        return f"the MCP server at {where} closed the connection"
    if name == "ConnectError" or isinstance(leaf, ConnectionError):
        return f"cannot connect to {where}: {text or 'connection refused'}"
    if name == "HTTPStatusError" or (name in _PROTOCOL_ERRORS and "Session terminated" in text):
        # The mcp client turns a 404 into "Session terminated", even for the first request.
        status = getattr(getattr(leaf, "response", None), "status_code", 404)
        if status in (401, 403):
            said = f": {refusal}" if refusal else ""
            return f"{where} refused access (HTTP {status}{said}); vendorgen sends no credentials to MCP servers"
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
    if name in _PROTOCOL_ERRORS:
        return f"the MCP server {where} refused: {text}"
    if name in ("RemoteProtocolError", "ReadError", "WriteError", "NetworkError"):
        return f"the connection to {where} broke: {text or name}"
    if logged and name in ("BrokenResourceError", "ClosedResourceError"):
        return no_answer  # the client gave up waiting while the server still sent what it could not read
    return f"cannot read the tools of the MCP server {where}: {name}: {text}"


# The SDK's JSON-RPC error: McpError in mcp 1.x, MCPError in 2.x.
_PROTOCOL_ERRORS = ("McpError", "MCPError")
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


async def _all_pages(session: Any) -> list[Any]:
    """Every tool, following `nextCursor` to the end."""
    from vendorgen.sources.mcp_client import list_page

    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        page, cursor = await list_page(session, cursor)
        tools.extend(page)
        limits.TOOLS.check(len(tools), "the MCP server's tools/list")  # page by page: a listing may never end
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
    listing = limits.listing_budget(f"the MCP server {_where(server)}")
    tools = [_tool(raw, prefix, server_name, listing) for raw in snapshot["tools"]]
    module_name = naming.python_name(snapshot["name"])
    runtime = {"name": server_name, "version": info.get("version", ""), **server}
    return ModuleSpec(
        name=module_name,
        kind="mcp",
        source=snapshot["source"],
        revision=snapshot.get("revision", ""),
        tools=tuple(tools),
        constants=(("SERVER", runtime), ("TIMEOUT", CALL_TIMEOUT), ("CONNECT_TIMEOUT", CONNECT_TIMEOUT)),
        requirements=MCPSource.requirements,
    )


def _tool(raw: Any, prefix: str, server_name: str, listing: limits.NodeBudget) -> ToolSpec:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise SchemaError("the server lists a tool without a name")
    mcp_name = raw["name"]
    try:
        input_schema = raw.get("inputSchema")
        inputs = schema.inputs_from_object({"type": "object"} if input_schema is None else input_schema, listing)
    except SchemaError as exc:
        raise SchemaError(f"tool {_show(mcp_name)!r}: {exc}") from None
    name = tool_name(mcp_name, prefix)
    description, described = _description(raw, mcp_name, server_name)
    output_schema = raw.get("outputSchema")
    constants: tuple[tuple[str, Any], ...] = (("mcp_name", mcp_name),)
    if isinstance(output_schema, Mapping):
        try:
            resolved = schema.resolve_refs(
                output_schema, output_schema, limits.NodeBudget("the output schema", within=listing)
            )
        except SchemaError as exc:
            raise SchemaError(f"tool {_show(mcp_name)!r} output schema: {exc}") from None
        outputs = (OutputSpec("result", "object", "dict[str, Any]", "the structured result"),)
        output_type = "object"
        if _wraps_result(resolved):
            # A plain value the server wraps as {"result": value}: the tool returns the value itself.
            mapped = schema.map_type(resolved["properties"][RESULT_KEY])
            output_type = mapped.type if isinstance(mapped.type, str) and mapped.type != "null" else "any"
            annotation = mapped.annotation if output_type != "any" else "Any"
            outputs = (OutputSpec("result", output_type, annotation, "the value the tool returns"),)
            resolved = None
            constants += (("result_key", RESULT_KEY),)
    else:
        resolved = None
        outputs = (OutputSpec("result", "any", "Any", "the content the server returns"),)
        output_type = "any"
    return ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=description,
        generated_description=not described,
        endpoint=mcp_name,
        inputs=inputs,
        outputs=outputs,
        output_type=output_type,
        output_schema=resolved,
        constants=constants,
    )


RESULT_KEY = "result"


def _wraps_result(output_schema: Mapping[str, Any]) -> bool:
    """Whether the structured result is a plain value wrapped as {"result": value}.

    FastMCP 2 marks it (`x-fastmcp-wrap-result`); the mcp SDK's FastMCP does not, but its wrapper
    has one recognisable shape: a model titled `<function>Output`, with no description, whose only,
    required property is `result` titled "Result". Any other object with a `result` field stays a dict.
    """
    properties = output_schema.get("properties")
    if not isinstance(properties, Mapping) or list(properties) != [RESULT_KEY]:
        return False
    if output_schema.get("x-fastmcp-wrap-result") is True:
        return True
    result = properties[RESULT_KEY]
    title = output_schema.get("title")
    return (
        output_schema.get("required") == [RESULT_KEY]
        and isinstance(title, str)
        and title.endswith("Output")
        and "description" not in output_schema
        and isinstance(result, Mapping)
        and result.get("title") == "Result"
    )


def _description(raw: Mapping[str, Any], mcp_name: str, server_name: str) -> tuple[str, bool]:
    """(the description, whether the server gave one)."""
    annotations = raw["annotations"] if isinstance(raw.get("annotations"), Mapping) else {}
    for text in (raw.get("description"), raw.get("title"), annotations.get("title")):
        if isinstance(text, str) and text.strip():
            return schema.description_text(text), True
    where = f" of the MCP server {server_name}" if server_name else ""
    return f"The {mcp_name} tool{where}.", False
