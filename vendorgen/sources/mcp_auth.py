"""The credentials of an MCP server over HTTP, by name (`--header`, `--bearer-env`, a pre-registered OAuth
client: `options_credentials`, bound to the snapshot by `bound_credentials`), and authorizing vendorgen's
own connections to it (`add`, `check --remote`, `update`, `login`), with the code the generated tools run
(`_vendored_mcp_auth.py`, shipped beside them).

A server SERVER names no credentials for is read with the mcp SDK's OAuth client attached, refusing to
ask a person: an open server never notices; one that answers 401 with the MCP authorization spec's
metadata leaves the listing failed and asking. `authorize` then does what a person must, outside any
request's time-out (opens the browser on a terminal, prints the URL otherwise; VENDORGEN_MCP_AUTHORIZE
says otherwise), and the listing runs again with the token. The module records which authorization
server issued it and for which scopes, so `check --remote` sees a change of either.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from vendorgen.errors import SourceUnreachable, UsageError
from vendorgen.shipped import _vendored_mcp_auth as runtime
from vendorgen.sources.base import AddOptions
from vendorgen.sources.credentials import redacted
from vendorgen.text.literals import escape_text

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")  # an HTTP token (RFC 9110)
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
HTTP_ONLY = ("headers", "client_id", "client_secret_env", "client_metadata_url")


def options_credentials(options: AddOptions) -> dict[str, Any]:
    """What an HTTP server is sent, by name: {"headers": {name: template}}, {"oauth": {pre-registered client}}."""
    headers: dict[str, str] = {}
    for given in options.headers:
        name, equals, template = given.partition("=")
        name = name.strip()
        if not equals or not _HEADER_NAME.match(name):
            raise UsageError("--header takes NAME=VALUE with an HTTP header name, e.g. 'Authorization=Bearer ${TOKEN}'")
        if not _VARIABLE.search(template) or "$" in _VARIABLE.sub("", template) or "\n" in template or "\r" in template:
            # Never echoed: it may be a token the shell put in place of ${NAME}.
            raise UsageError(
                f"--header {name}: its value must name its secret as ${{VARIABLE}}, read from the environment"
                " at each connection (a value typed here would be written into the vendored code); quote it"
                " with single quotes so the shell does not replace ${VARIABLE} with the secret"
            )
        if name.lower() in (known.lower() for known in headers):
            raise UsageError(f"--header {name} is given twice")
        headers[name] = template
    oauth: dict[str, str] = {}
    if options.client_id:
        oauth["client_id"] = options.client_id
    if options.client_secret_env:
        if not options.client_id:
            raise UsageError("--client-secret-env is the secret of --client-id: give both")
        if not _ENV_NAME.match(options.client_secret_env):
            raise UsageError("--client-secret-env takes a variable name; the value is read from the environment")
        oauth["client_secret_env"] = options.client_secret_env
    if options.client_metadata_url:
        parts = urlsplit(options.client_metadata_url)
        if parts.scheme != "https" or parts.path in ("", "/"):
            raise UsageError("--client-metadata-url must be an https URL with a path (your client's metadata document)")
        oauth["client_metadata_url"] = options.client_metadata_url
    if oauth and any(name.lower() == "authorization" for name in headers):
        raise UsageError("an Authorization header and an OAuth client exclude each other: give one")
    return {**({"headers": headers} if headers else {}), **({"oauth": oauth} if oauth else {})}


def bound_credentials(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The header names and templates, and the OAuth client, that the snapshot's options say an HTTP server gets."""
    options = snapshot.get("options", {})
    if not isinstance(options, dict):
        return {}
    headers, client = options.get("headers") or [], [options.get(field) or None for field in HTTP_ONLY[1:]]
    if not isinstance(headers, list) or not all(isinstance(value, str) for value in [*headers, *filter(None, client)]):
        raise UsageError("the snapshot records unusable credential options")
    recorded = options_credentials(AddOptions(headers=tuple(headers), client_id=client[0], client_secret_env=client[1],
                                       client_metadata_url=client[2]))  # fmt: skip
    oauth = recorded.get("oauth", {})
    return {"server.headers": recorded.get("headers"),
            **{f"server.oauth.{field}": oauth.get(field) for field in HTTP_ONLY[1:]}}  # fmt: skip


def credentials(server: Mapping[str, Any], name: str = "") -> Any:
    """What vendorgen sends `server` (None over stdio); a missing variable is a usage error, before any request."""
    if server["transport"] == "stdio":
        return None
    try:
        runtime.check_variables(server)
    except runtime.CredentialsMissing as exc:
        raise UsageError(str(exc)) from None
    sends_authorization = any(header.lower() == "authorization" for header in server.get("headers") or {})
    hint = f"run `vendorgen login {name}`" if name else "authorize it"
    return runtime.Credentials(server, authorize=None, discover=not sends_authorization, login_hint=hint)


def mode() -> str:
    """How an authorization URL is opened: VENDORGEN_MCP_AUTHORIZE, else the browser on a terminal, else printed."""
    chosen = os.environ.get(runtime.AUTHORIZE_ENV, "")
    if chosen:
        if chosen not in ("browser", "print", "fetch"):
            raise UsageError(f"{runtime.AUTHORIZE_ENV} must be browser, print or fetch, not {chosen!r}")
        return chosen
    return "browser" if sys.stderr.isatty() else "print"


def asked(found: Any) -> bool:
    """Whether the listing with `found` (Credentials) failed because the server wants a person's approval."""
    provider = getattr(found, "provider", None)
    return provider is not None and provider.approval.asked


def authorize(server: Mapping[str, Any], found: Any, timeout: float) -> None:
    """Run the OAuth flow for `server` with `found`'s provider now, allowed to ask a person (see `mode`).

    Sends the MCP `initialize` request (or opens the SSE stream) through it, and ends the session that
    opened; the token lands in the token store and in `found`.
    """
    found.provider.approval.mode = mode()
    http = runtime.http_module()

    async def run() -> None:
        async with http.AsyncClient(auth=found.auth, headers=found.headers, event_hooks=found.event_hooks,
                                    timeout=timeout) as client:  # fmt: skip
            accept = {"Accept": "application/json, text/event-stream"}
            if server["transport"] == "sse":
                async with client.stream("GET", server["url"], headers={"Accept": "text/event-stream"}) as response:
                    status = response.status_code
            else:
                response = await client.post(server["url"], json=_INITIALIZE, headers=accept)
                status = response.status_code
                if session := response.headers.get("mcp-session-id"):
                    await client.delete(server["url"], headers={"mcp-session-id": session})
        if status in (401, 403):
            raise SourceUnreachable(f"{server['url']} still refuses access (HTTP {status}) after authorization")

    try:
        asyncio.run(asyncio.wait_for(run(), runtime.APPROVAL_WAIT + timeout * 4))
    except SourceUnreachable:
        raise
    except Exception as exc:  # noqa: BLE001 - every failure of the flow is one line
        text = " ".join(str(exc).split()) or type(exc).__name__
        raise SourceUnreachable(
            redacted(f"cannot authorize with the MCP server {server['url']}: {text}", runtime.secrets_of(server))
        ) from None


def recorded(server: Mapping[str, Any], found: Any) -> dict[str, Any]:
    """`server` with the authorization its token came from (`oauth`), as the generated module names it."""
    authorization = found.authorization() if found is not None else None
    if authorization is None:
        return dict(server)
    return {**server, "oauth": {**(server.get("oauth") or {}), **authorization}}


# -- the MCP kind's hooks about credentials (vendorgen.sources.mcp.MCPSource) ------------------------------------


def authorization_note(name: str, snapshot: Mapping[str, Any]) -> list[str]:
    """Which authorization server the module's OAuth token came from, for the user to see at `add`."""
    server = snapshot.get("server")
    oauth = server.get("oauth") if isinstance(server, Mapping) else None
    if not isinstance(oauth, Mapping) or "authorization_server" not in oauth:
        return []
    scopes = f" for the scopes {escape_text(str(oauth.get('scopes')))}" if oauth.get("scopes") else ""
    return [f"{name} authorizes with OAuth at {escape_text(str(oauth['authorization_server']))}{scopes};"
            " the token is in your token store, not in the project"]  # fmt: skip


def secrets(snapshot: Mapping[str, Any]) -> list[str]:
    """The environment variables the tools read for their HTTP server's credentials."""
    server = snapshot.get("server")
    return runtime.variables(server) if isinstance(server, dict) and server.get("transport") != "stdio" else []


def log_in(name: str, snapshot: Mapping[str, Any], timeout: float) -> str:
    """Authorize the module's HTTP server again (OAuth 2.1), the token kept in the per-user token store."""
    server = _http_server(name, snapshot)
    runtime.forget(server)
    found = credentials(server, name)
    if found.provider is None:
        raise UsageError(
            f"{name} authenticates with headers from the environment ({', '.join(server['headers'])}), not OAuth"
        )
    authorize(server, found, timeout)
    return f"logged in to {server['url']} for {name}"


def log_out(name: str, snapshot: Mapping[str, Any]) -> str:
    """Forget the OAuth tokens stored for the module's server."""
    server = _http_server(name, snapshot)
    return f"forgot the tokens for {server['url']}" if runtime.forget(server) else f"no tokens stored for {server['url']}"


def _http_server(name: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    server = snapshot.get("server")
    if not isinstance(server, dict) or server.get("transport") not in ("streamable-http", "sse"):
        raise UsageError(f"{name} is not a vendored MCP server over HTTP: nothing to log in to")
    return server


_INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "vendorgen", "version": "0"}}}  # fmt: skip
