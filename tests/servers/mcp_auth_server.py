"""MCP servers that want credentials, on 127.0.0.1, for vendorgen's authentication tests.

    python -m tests.servers.mcp_auth_server bearer --port N   # wants `Authorization: Bearer $AUTH_TEST_TOKEN`
                                                              # and `X-Team: $AUTH_TEST_TEAM` when that is set
    python -m tests.servers.mcp_auth_server oauth --port N    # an OAuth 2.1 resource with its own authorization
                                                              # server (the mcp SDK's), approving every request

Both serve streamable-http at /mcp, the bearer server also legacy SSE at /sse. The bearer server also answers /moved with a 307 to
`--redirect-to` (another origin, for the redirect tests). The tool `whoami` says what credentials arrived.
Every request's path and credential headers are appended to `--log` when given, one JSON line each.
The OAuth server's access tokens last `--expires-in` seconds; `POST /revoke` revokes one (RFC 7009).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import time
from typing import Any

from mcp.server.auth.provider import AccessToken, AuthorizationCode, AuthorizationParams, RefreshToken
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

SCOPE = "tools"


class ApprovingProvider:
    """The mcp SDK's OAuthAuthorizationServerProvider in memory: every authorization is approved at once."""

    def __init__(self, expires_in: int) -> None:
        self.expires_in = expires_in
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.clients[str(client_info.client_id)] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(16)
        self.codes[code] = AuthorizationCode(
            code=code, scopes=params.scopes or [SCOPE], expires_at=time.time() + 300, client_id=str(client.client_id),
            code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly, resource=params.resource,
        )  # fmt: skip
        separator = "&" if "?" in str(params.redirect_uri) else "?"
        state = f"&state={params.state}" if params.state else ""
        return f"{params.redirect_uri}{separator}code={code}{state}"

    async def load_authorization_code(self, client: Any, authorization_code: str) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client: Any, authorization_code: AuthorizationCode) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(str(client.client_id), authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: Any, refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client: Any, refresh_token: RefreshToken, scopes: list[str]) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        return self._issue(str(client.client_id), scopes or refresh_token.scopes, None, refreshed=True)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: Any) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None, refreshed: bool = False) -> OAuthToken:
        access = ("refreshed-" if refreshed else "access-") + secrets.token_urlsafe(16)
        refresh = "refresh-" + secrets.token_urlsafe(16)
        expires_at = int(time.time()) + self.expires_in
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes, expires_at=expires_at,
                                          resource=resource)  # fmt: skip
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes)
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=self.expires_in,
                          refresh_token=refresh, scope=" ".join(scopes))  # fmt: skip


def build(kind: str, port: int, expires_in: int) -> FastMCP:
    base = f"http://127.0.0.1:{port}"
    options: dict[str, Any] = {}
    if kind == "oauth":
        options = {
            "auth_server_provider": ApprovingProvider(expires_in),
            "auth": AuthSettings(
                issuer_url=base, resource_server_url=f"{base}/mcp", required_scopes=[SCOPE],
                client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=[SCOPE],
                                                                      default_scopes=[SCOPE]),
                revocation_options=RevocationOptions(enabled=True), validate_token_resource=False,
            ),
        }  # fmt: skip
    server = FastMCP("auth-test", host="127.0.0.1", port=port, **options)

    @server.tool()
    def whoami(ctx: Context) -> str:
        """Say which credentials this request carried (never their values)."""
        request = ctx.request_context.request
        headers = request.headers if request is not None else {}
        authorization = headers.get("authorization", "")
        kind = authorization.split(" ")[0] if authorization else "none"
        token = authorization.split(" ")[-1]
        refreshed = " refreshed" if token.startswith("refreshed-") else ""
        return f"{kind}{refreshed} team={'yes' if headers.get('x-team') else 'no'}"

    return server


def guarded(app: Any, log: str | None, redirect_to: str | None) -> Any:
    """The bearer server's ASGI app: 401 without the expected credentials; logs what arrived."""
    token = os.environ.get("AUTH_TEST_TOKEN")
    team = os.environ.get("AUTH_TEST_TEAM")

    async def guard(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = {key.decode().lower(): value.decode() for key, value in scope["headers"]}
        if log:
            with open(log, "a") as file:
                file.write(json.dumps({"path": scope["path"], "authorization": headers.get("authorization"),
                                       "x-team": headers.get("x-team")}) + "\n")  # fmt: skip
        if scope["path"] == "/moved" and redirect_to:
            await send({"type": "http.response.start", "status": 307, "headers": [(b"location", redirect_to.encode())]})
            return await send({"type": "http.response.body", "body": b""})
        wanted = token is None or headers.get("authorization") == f"Bearer {token}"
        if not wanted or (team is not None and headers.get("x-team") != team):
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"), (b"www-authenticate", b'Bearer error="invalid_token"')]})  # fmt: skip
            return await send({"type": "http.response.body", "body": b'{"error": "invalid_token"}'})
        return await app(scope, receive, send)

    return guard


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["bearer", "oauth"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--expires-in", type=int, default=3600)
    parser.add_argument("--log")
    parser.add_argument("--redirect-to")
    arguments = parser.parse_args()
    import uvicorn

    server = build(arguments.kind, arguments.port, arguments.expires_in)
    app = server.streamable_http_app()
    if arguments.kind == "bearer":  # also legacy SSE at /sse
        from starlette.applications import Starlette

        both = Starlette(routes=[*server.sse_app().routes, *app.routes], lifespan=app.router.lifespan_context)
        app = guarded(both, arguments.log, arguments.redirect_to)
    uvicorn.run(app, host="127.0.0.1", port=arguments.port, log_level="warning")


if __name__ == "__main__":
    main()
