"""Authorizing vendorgen's own connections to an MCP server over HTTP (`add`, `check --remote`, `update`,
`login`), with the code the generated tools run (`_vendored_mcp_auth.py`, shipped beside them).

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
import sys
from collections.abc import Mapping
from typing import Any

from vendorgen.errors import SourceUnreachable, UsageError
from vendorgen.package.shipped import _vendored_mcp_auth as runtime
from vendorgen.sources.credentials import redacted


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


_INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "vendorgen", "version": "0"}}}  # fmt: skip
