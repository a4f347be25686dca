"""Reading an MCP server's tool listing, and saying in one line why it could not be read.

`list_tools` connects with the mcp SDK's client (`vendorgen.sources.mcp_client`), follows
`tools/list` pagination to the end and turns every failure (a time-out, a refusal, a process
that exited, an HTTP status) into a `SourceUnreachable` naming the cause.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from vendorgen import interrupts
from vendorgen.errors import SchemaError, SourceUnreachable, UsageError
from vendorgen.shipped._vendored_mcp_auth import CredentialsMissing, header_values, secrets_of, variables
from vendorgen.sources import mcp_client
from vendorgen.sources.credentials import redacted
from vendorgen.sources.mcp_server import DEFAULT_TIMEOUT, TIMEOUT_ENV, not_found, server_label, stdio_params
from vendorgen.text import limits
from vendorgen.text.literals import escape_text, terminal_text
from vendorgen.waits import NO_WAITS, Waits

MAX_PAGES = 1000


def list_tools(
    server: Mapping[str, Any], root: Path, timeout: float = DEFAULT_TIMEOUT, waits: Waits = NO_WAITS,
    credentials: Any = None,
) -> tuple[dict[str, Any], list[dict[str, Any]], set[str] | None]:
    """`list_offers` of the tools alone."""
    info, tools, capable, _ = list_offers(server, root, timeout, waits=waits, credentials=credentials)
    return info, tools, capable


# The capability a server declares for each listing beside its tools (a server without it has no such method).
CAPABILITY = {"resources": "resources", "resourceTemplates": "resources", "prompts": "prompts"}


def list_offers(
    server: Mapping[str, Any],
    root: Path,
    timeout: float = DEFAULT_TIMEOUT,
    also: tuple[str, ...] = (),
    waits: Waits = NO_WAITS,
    credentials: Any = None,
) -> tuple[dict[str, Any], list[dict[str, Any]], set[str] | None, dict[str, list[dict[str, Any]]]]:
    """(serverInfo, every tool as the JSON the server sent, the names of the tools it lists to a client that
    declares every capability it may ask for: roots, sampling, elicitation; None when not asked or that failed).

    A server decides what to offer when a client initializes, so the second listing is a session of its own
    (a stdio server starts again). It is asked for only after the first listing succeeded, and only of a
    server that says its tool list may change (`tools.listChanged`): one that offers tools by what a client
    declares (server-everything) says so; most servers start once. Every failure reported is the first
    listing's; the second's only leaves what is withheld unknown, and its stderr is not shown.

    A stdio server's stderr is kept off the terminal (where vendorgen shows its progress) and printed,
    escaped, only when the listing fails. Ctrl-C stops the listing and ends the server at once.
    `root`: the project's, against which the paths of a stdio server's command line are resolved.
    `also`: the other listings to read in the first session (keys of `mcp_client.LISTINGS`:
    "resources", "resourceTemplates", "prompts"), returned fourth by key, as the server sent them;
    a server that does not declare the capability has none. `waits`: where a wait is shown, which the
    server's stderr is printed above; `credentials` (`_vendored_mcp_auth.Credentials`): what an HTTP server
    is sent, for both listings.
    """
    import asyncio
    import os
    import tempfile

    params = stdio_params(server, root)
    where = server_label(server)
    received = limits.ReadBudget(f"what the MCP server {where} sent")
    bound = timeout * 4 + 10  # each request has its own timeout; this bounds everything else (a hung connect)
    extras: dict[str, list[dict[str, Any]]] = {}

    async def run(errlog: Any) -> tuple[dict[str, Any], list[dict[str, Any]], bool]:
        async with mcp_client.session(server, params, timeout, received, credentials=credentials,
                                      errlog=errlog) as (client, info):  # fmt: skip
            declared = _declared(client)
            # A server of resources or prompts alone may declare no tools (and answer tools/list with an error).
            tools = await _all_pages(client) if "tools" in declared or not also else []
            for kind in also:
                listed = await _all_pages(client, kind) if declared.get(CAPABILITY[kind]) is not None else []
                extras[kind] = [_dumped(item) for item in listed]
            may_change = _tool_list_may_change(client)
        return info, [_dumped(tool) for tool in tools], may_change

    async def offered_to_capable_clients() -> set[str] | None:
        capable_received = limits.ReadBudget(f"what the MCP server {where} sent to a client with capabilities")
        capable_received.stop = asyncio.current_task().cancel  # type: ignore[union-attr]  # a task runs this
        names = None
        try:
            with open(os.devnull, "w") as quiet:
                async with mcp_client.session(server, params, timeout, capable_received, capable=True,
                                              credentials=credentials, errlog=quiet) as (client, _):  # fmt: skip
                    names = {tool.name for tool in await _all_pages(client)}
        except Exception:  # noqa: BLE001 - the listing above is what counts; this one's names, if read, stand
            pass  # (server-everything asks a client with roots for them as it closes: the close may fail)
        return names

    async def bounded(errlog: Any) -> tuple[dict[str, Any], list[dict[str, Any]], set[str] | None, dict[str, Any]]:
        # The SDK may wait on a stream cut at the byte limit (its SSE reader blocks handing the
        # error on): the whole listing is cancelled then.
        listing = asyncio.ensure_future(run(errlog))
        received.stop = listing.cancel
        info, tools, may_change = await asyncio.wait_for(listing, bound)
        if not may_change:
            return info, tools, None, extras
        try:
            return info, tools, await asyncio.wait_for(offered_to_capable_clients(), bound), extras
        except TimeoutError:
            return info, tools, None, extras

    with _client_log() as log, tempfile.TemporaryFile() as errlog:
        try:
            return interrupts.run(bounded(errlog if params is not None else None))
        except (UsageError, SchemaError):
            raise
        except BaseException as exc:  # noqa: BLE001 - every failure becomes one line
            if isinstance(exc, KeyboardInterrupt):
                raise
            _show_stderr(errlog, waits)
            if received.exceeded is not None:  # whatever the client made of the stream that was cut
                raise received.exceeded from None
            if isinstance(leaf := _leaf(exc), SchemaError):  # what the listing broke (a limit), from inside the session
                raise leaf from None
            refusal = _refusal_reason(server, leaf, timeout)
            reason = _failure(where, server, exc, timeout, _first_problem(log.records), refusal)
            raise SourceUnreachable(redacted(reason, secrets_of(server))) from None


def _tool_list_may_change(client: Any) -> bool:
    """Whether the server declared `tools.listChanged`; True where this SDK does not tell (then it is asked)."""
    capabilities = getattr(client, "get_server_capabilities", lambda: None)()
    if capabilities is None:
        return True
    tools = getattr(capabilities, "tools", None)
    return tools is not None and bool(getattr(tools, "listChanged", getattr(tools, "list_changed", False)))


STDERR_SHOWN = 40  # lines, of at most the last 64 KiB: the end of what a failed server printed (npm's errors)


def _show_stderr(errlog: Any, waits: Waits) -> None:
    """What a stdio server printed before its listing failed, escaped, on vendorgen's stderr."""
    size = errlog.seek(0, 2)
    errlog.seek(max(0, size - 65536))
    lines = errlog.read().decode(errors="replace").splitlines()[-STDERR_SHOWN:]
    if lines:
        waits.print_above(terminal_text("\n".join(lines)))


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
    refused = getattr(response, "status_code", None) in (401, 403) or _oauth_failure(leaf)
    if server["transport"] == "stdio" or not refused:
        return ""
    import httpx

    body = ""
    try:  # with the headers SERVER names (the same as the listing's), never the OAuth token
        sent = {**header_values(server), "Accept": "application/json, text/event-stream"}
        if server["transport"] == "sse":
            again = httpx.get(server["url"], timeout=timeout, headers=sent)
        else:
            again = httpx.post(server["url"], json=_INITIALIZE, timeout=timeout, headers=sent)
        if again.status_code in (401, 403):
            response, body = again, again.text[:2000]
    except httpx.HTTPError:
        pass
    if response is None:
        return ""
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
        return not_found(where, server["command"])
    if isinstance(leaf, PermissionError) and stdio:
        return f"cannot start {where}: permission denied"
    if isinstance(leaf, TimeoutError) or re.search(r"\btimed out\b", text, re.IGNORECASE):
        return no_answer  # mcp 1.x: "Timed out while waiting for response"; 2.x: "Request 'initialize' timed out"
    # A stdio server's pipes torn down, with no other error: the process is gone.
    closed = name in ("BrokenResourceError", "ClosedResourceError", "EndOfStream")
    if stdio and (closed or (name in _PROTOCOL_ERRORS and "Connection closed" in text)):
        said = f"; the client said: {logged}" if logged else ""
        return f"the MCP server {where} exited or closed its output before answering (its stderr is above){said}"
    if isinstance(leaf, CredentialsMissing):
        return text
    if _oauth_failure(leaf):
        said = f": {refusal}" if refusal else ""
        return f"{where} refused access (HTTP 401{said}) and its OAuth authorization failed ({text}); {_credentials_hint(server)}"
    if name in _PROTOCOL_ERRORS and "Connection closed" in text:
        return f"the MCP server at {where} closed the connection"
    if name == "ConnectError" or isinstance(leaf, ConnectionError):
        return f"cannot connect to {where}: {text or 'connection refused'}"
    if name == "HTTPStatusError" or (name in _PROTOCOL_ERRORS and "Session terminated" in text):
        # The mcp client turns a 404 into "Session terminated", even for the first request.
        status = getattr(getattr(leaf, "response", None), "status_code", 404)
        if status in (401, 403):
            said = f": {refusal}" if refusal else ""
            return f"{where} refused access (HTTP {status}{said}); {_credentials_hint(server)}"
        if status >= 500:
            return f"the MCP server {where} failed (HTTP {status}); try again later"
        return f"{where} answered HTTP {status}{_endpoint_hint(server, status)}"
    if name.endswith(("Timeout", "TimeoutException")):
        return no_answer
    if name in _PROTOCOL_ERRORS:
        return f"the MCP server {where} refused: {text}"
    if name in ("RemoteProtocolError", "ReadError", "WriteError", "NetworkError"):
        return f"the connection to {where} broke: {text or name}"
    if logged and name in ("BrokenResourceError", "ClosedResourceError"):
        return no_answer  # the client gave up waiting while the server still sent what it could not read
    return f"cannot read the tools of the MCP server {where}: {name}: {text}"


def _oauth_failure(leaf: BaseException) -> bool:
    """Whether `leaf` is the mcp SDK's OAuth client giving up (discovery, registration or a token)."""
    return type(leaf).__module__.startswith("mcp.client.auth")


def _credentials_hint(server: Mapping[str, Any]) -> str:
    """What to do about a refusal: the credentials it was sent by name, or how to send some."""
    if server.get("headers"):
        return f"check the values of {', '.join(variables(server))} (sent as {', '.join(server['headers'])})"
    if server.get("oauth"):
        return "check the OAuth client (--client-id, --client-secret-env) or run `vendorgen login NAME` again"
    return "if it takes a token, pass --bearer-env VARIABLE or --header 'NAME=... ${VARIABLE}'"


def _endpoint_hint(server: Mapping[str, Any], status: int) -> str:
    """How to find the MCP endpoint of a server that answered `status`: a bare host gets the usual path."""
    streamable = server["transport"] == "streamable-http"
    parts = urlsplit(server["url"])
    if status == 404 and parts.path in ("", "/"):
        usual = parts._replace(path="/mcp" if streamable else "/sse").geturl()
        return f" (MCP servers usually answer at a path: try mcp:{'' if streamable else 'sse:'}{escape_text(usual)})"
    if streamable:
        return " (is it an MCP streamable-http endpoint? for a legacy SSE server use mcp:sse:URL)"
    return " (is it an MCP SSE endpoint? for streamable-http use mcp:URL)"


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


_METHODS = {"tools": "tools/list", "resources": "resources/list", "resourceTemplates": "resources/templates/list",
            "prompts": "prompts/list"}  # fmt: skip


def _dumped(item: Any) -> dict[str, Any]:
    """A listed item as the JSON the server sent."""
    return item.model_dump(mode="json", by_alias=True, exclude_none=True)  # type: ignore[no-any-return]


def _declared(client: Any) -> dict[str, Any]:
    """The capabilities the server declared when it initialized, as JSON (mcp 2.x: a property)."""
    found = getattr(client, "get_server_capabilities", None)
    capabilities = found() if callable(found) else getattr(client, "server_capabilities", None)
    return capabilities.model_dump(mode="json", by_alias=True, exclude_none=True) if capabilities is not None else {}


async def _all_pages(session: Any, kind: str = "tools") -> list[Any]:
    """Every item of a listing (`kind`: a key of `mcp_client.LISTINGS`), following `nextCursor` to the end."""
    method = _METHODS[kind]
    items: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        page, cursor = await mcp_client.list_page(session, cursor, kind)
        items.extend(page)
        limits.TOOLS.check(len(items), f"the MCP server's {method}")  # page by page: a listing may never end
        if not cursor:
            return items
        if cursor in seen or len(seen) >= MAX_PAGES:
            raise SchemaError(f"the server's {method} pagination does not end (cursor {escape_text(str(cursor))!r} again)")
        seen.add(cursor)
