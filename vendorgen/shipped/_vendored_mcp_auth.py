# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""How vendored MCP tools (mcp:) authenticate to a server over HTTP; vendorgen inspects with the same code.

A module's SERVER names what to send, never a value: "headers" maps a header name to a template whose
`${NAME}` parts are read from os.environ when a connection opens; "oauth" says the server is an OAuth 2.1
resource (the MCP authorization spec), authorized with the mcp SDK's OAuthClientProvider, whose tokens
live in a per-user token store outside the project (TOKENS_ENV, else ~/.config/vendorgen/mcp-tokens,
files of mode 0600, one per server URL and client id). A token or header goes only to the server's own
origin: a request anywhere else (a redirect, an authorization server) is sent without them, and an
authorization server is reached only over https or on this machine.

Authorizing needs a person at a browser: AUTHORIZE_ENV says how the authorization URL is opened
("browser", "print", or "fetch": requested here, redirects followed to the loopback redirect URI, for
servers that approve without a person). Unset, generated tools never open one: they ask for
`vendorgen login NAME` instead. Needs the mcp SDK and its HTTP client; not vendorgen.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import json
import os
import re
import secrets
import socket
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

AUTHORIZE_ENV = "VENDORGEN_MCP_AUTHORIZE"
TOKENS_ENV = "VENDORGEN_MCP_TOKENS"
CLIENT_NAME = "vendorgen"
# How long a person gets to approve in the browser before the authorization fails.
APPROVAL_WAIT = 300.0
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_MODES = ("browser", "print", "fetch")


class CredentialsMissing(RuntimeError):
    """A variable SERVER names is not set, or no usable OAuth token is stored: says what to do, in one line."""


def variables(server: Mapping[str, Any]) -> list[str]:
    """The environment variables a connection to `server` reads, in order."""
    found: list[str] = []
    for template in (server.get("headers") or {}).values():
        found += [name for name in _VARIABLE.findall(template) if name not in found]
    secret = (server.get("oauth") or {}).get("client_secret_env")
    if secret and secret not in found:
        found.append(secret)
    return found


def check_variables(server: Mapping[str, Any]) -> None:
    """Raise CredentialsMissing naming each variable `server` needs that is not set."""
    missing = [name for name in variables(server) if not os.environ.get(name)]
    if missing:
        raise CredentialsMissing(
            f"set {', '.join(missing)} in the environment: the MCP server {server.get('url')} needs it"
            " (only its name is written down)"
        )


def header_values(server: Mapping[str, Any]) -> dict[str, str]:
    """The headers SERVER names, their `${NAME}` parts read from the environment now."""
    check_variables(server)
    return {name: _VARIABLE.sub(lambda found: os.environ[found.group(1)], template)
            for name, template in (server.get("headers") or {}).items()}  # fmt: skip


def secrets_of(server: Mapping[str, Any]) -> list[str]:
    """The values of the variables `server` reads (to keep them out of anything shown)."""
    return [os.environ[name] for name in variables(server) if os.environ.get(name)]


def _origin(url: Any) -> tuple[str, str, int]:
    parts = urlsplit(str(url))
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80)


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


class Credentials:
    """What connections to one HTTP server send: `headers`, `auth` (an httpx Auth for OAuth, or None) and
    `event_hooks` that keep both on the server's own origin.

    `authorize`: how an authorization URL is opened ("browser", "print", "fetch"), or None to refuse with
    `login_hint`; `discover`: attach OAuth even where SERVER names none (vendorgen, reading a new server).
    """

    def __init__(self, server: Mapping[str, Any], authorize: str | None = None, discover: bool = False,
                 login_hint: str = "") -> None:  # fmt: skip
        self.server = server
        self.headers = header_values(server)
        self.origin = _origin(server["url"])
        oauth = server.get("oauth")
        self.provider = _provider(server, authorize, login_hint) if oauth is not None or discover else None
        self.auth = self.provider
        self.event_hooks = {"request": [self._guard]}

    async def _guard(self, request: Any) -> None:
        """Nothing of the server's credentials leaves its origin; other origins only over https or loopback."""
        origin = _origin(request.url)
        if origin == self.origin:
            return
        if origin[0] != "https" and not _loopback(origin[1]):
            raise CredentialsMissing(f"refused to send a request to {origin[0]}://{origin[1]} for the MCP server"
                                     f" {self.server['url']}: not https")  # fmt: skip
        for name in self.headers:
            request.headers.pop(name, None)
        if request.headers.get("authorization", "").lower().startswith("bearer "):
            del request.headers["authorization"]

    def authorization(self) -> dict[str, str] | None:
        """Which authorization server issued the token in use, and for which scopes; None without OAuth."""
        if self.provider is None or self.provider.context.current_tokens is None:
            return None
        context = self.provider.context
        store = context.storage
        if context.oauth_metadata is None and context.protected_resource_metadata is None:
            # A stored token was good enough: nothing was discovered this time; the token's own record says.
            saved = store.read().get("authorization")
            if isinstance(saved, dict):
                return saved
        issuer = getattr(context.oauth_metadata, "issuer", None) or context.auth_server_url
        if issuer is None:  # the 2025-03-26 fallback: the server's own origin
            issuer = "{}://{}".format(*urlsplit(self.server["url"])[:2])
        issuer = str(issuer)
        if issuer.endswith("/") and urlsplit(issuer).path == "/":  # mcp 1.x renders the bare origin so, 2.x not
            issuer = issuer[:-1]
        scopes = context.client_metadata.scope or getattr(context.current_tokens, "scope", None) or ""
        found = {"authorization_server": issuer, "scopes": " ".join(sorted(scopes.split()))}
        store.write(authorization=found)
        return found


def http_module() -> Any:
    """The HTTP client library of the installed mcp SDK: httpx for mcp 1.x, httpx2 (the same API) for 2.x."""
    from mcp.shared import exceptions

    return importlib.import_module("httpx" if hasattr(exceptions, "McpError") else "httpx2")


def http_transport(server: dict[str, Any], connect_timeout: float) -> Any:
    """The SDK's streamable-http or SSE client for `server` (not yet connected), sending the credentials
    SERVER names; reads the environment and the token store now (a missing variable raises here)."""
    oauth = server.get("oauth") or {}
    login = f"run `vendorgen login {oauth.get('module', '')}`".replace("  ", " ")
    credentials = Credentials(server, authorize=os.environ.get(AUTHORIZE_ENV), login_hint=login)
    http = http_module()

    def client(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
        """The SDK's `httpx_client_factory`, with the credentials and their origin guard."""
        return http.AsyncClient(headers={**(headers or {}), **credentials.headers}, timeout=timeout,
                                auth=credentials.auth, event_hooks=credentials.event_hooks)  # fmt: skip

    if server["transport"] == "sse":
        from mcp.client.sse import sse_client

        return sse_client(server["url"], timeout=connect_timeout, httpx_client_factory=client)
    import mcp.client.streamable_http as streamable_http

    if hasattr(streamable_http, "streamablehttp_client") and not hasattr(streamable_http, "streamable_http_client"):
        return streamable_http.streamablehttp_client(server["url"], httpx_client_factory=client)  # before mcp 1.24
    return _authorized_streamable_http(streamable_http, server["url"], client(timeout=http.Timeout(30.0, read=300.0)))


@contextlib.asynccontextmanager
async def _authorized_streamable_http(streamable_http: Any, url: str, http_client: Any) -> Any:
    """mcp 1.24+ and 2.x: `streamable_http_client` takes the HTTP client, which is closed here."""
    async with http_client, streamable_http.streamable_http_client(url, http_client=http_client) as streams:
        yield streams


# -- the token store --------------------------------------------------------------------------------


def store_directory() -> Path:
    if os.environ.get(TOKENS_ENV):
        return Path(os.environ[TOKENS_ENV])
    base = os.environ.get("XDG_CONFIG_HOME") or os.environ.get("APPDATA") or str(Path.home() / ".config")
    return Path(base) / "vendorgen" / "mcp-tokens"


def store_path(server: Mapping[str, Any]) -> Path:
    """The token file of `server`: one per resource URL and client id (dynamically registered: none)."""
    client_id = (server.get("oauth") or {}).get("client_id") or ""
    key = hashlib.sha256(f"{server['url']}\n{client_id}".encode()).hexdigest()[:32]
    return store_directory() / f"{key}.json"


def forget(server: Mapping[str, Any]) -> bool:
    """Delete the stored tokens of `server`; whether there were any."""
    try:
        store_path(server).unlink()
    except FileNotFoundError:
        return False
    return True


class TokenStore:
    """The mcp SDK's TokenStorage as one JSON file of mode 0600 in a directory of mode 0700."""

    def __init__(self, server: Mapping[str, Any]) -> None:
        self.path = store_path(server)
        self.url = str(server["url"])

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) and data.get("url") == self.url else {}

    def write(self, **changes: Any) -> None:
        data = {**self.read(), **changes, "url": self.url}
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.replace(temporary, self.path)

    def expires_at(self) -> float | None:
        value = self.read().get("expires_at")
        return float(value) if isinstance(value, (int, float)) else None

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        tokens = self.read().get("tokens")
        return OAuthToken.model_validate(tokens) if isinstance(tokens, dict) else None

    async def set_tokens(self, tokens: Any) -> None:
        expires_in = getattr(tokens, "expires_in", None)
        self.write(tokens=tokens.model_dump(mode="json", exclude_none=True),
                   expires_at=time.time() + expires_in if expires_in else None)  # fmt: skip

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        info = self.read().get("client_info")
        return OAuthClientInformationFull.model_validate(info) if isinstance(info, dict) else None

    async def set_client_info(self, client_info: Any) -> None:
        self.write(client_info=client_info.model_dump(mode="json", exclude_none=True))


class _PreRegistered(TokenStore):
    """A store whose client is the one SERVER names (its secret read from the environment, never stored)."""

    def __init__(self, server: Mapping[str, Any], client: Any) -> None:
        super().__init__(server)
        self.client = client

    async def get_client_info(self) -> Any:
        return self.client

    async def set_client_info(self, client_info: Any) -> None:
        pass


# -- OAuth ------------------------------------------------------------------------------------------


def _provider(server: Mapping[str, Any], authorize: str | None, login_hint: str) -> Any:
    """The mcp SDK's OAuthClientProvider for `server`, with the token store, restoring a stored token's expiry."""
    import inspect

    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

    oauth = server.get("oauth") or {}
    mode = authorize if authorize in _MODES else None
    stored = TokenStore(server)
    redirect_uri = _redirect_uri(stored)
    metadata = OAuthClientMetadata(client_name=CLIENT_NAME, redirect_uris=[redirect_uri],  # type: ignore[list-item]
                                   token_endpoint_auth_method="none")  # fmt: skip
    storage: TokenStore = stored
    if oauth.get("client_id"):
        secret = os.environ.get(oauth.get("client_secret_env") or "") or None
        client = OAuthClientInformationFull(
            client_id=oauth["client_id"], client_secret=secret, redirect_uris=[redirect_uri],  # type: ignore[list-item]
            token_endpoint_auth_method="client_secret_basic" if secret else "none",
        )  # fmt: skip
        storage = _PreRegistered(server, client)
    approval = _Approval(redirect_uri, mode, f"the MCP server {server['url']}", login_hint)
    keywords: dict[str, Any] = {"redirect_handler": approval.open, "callback_handler": approval.result}
    taken = inspect.signature(OAuthClientProvider.__init__).parameters
    if oauth.get("client_metadata_url") and "client_metadata_url" in taken:
        keywords["client_metadata_url"] = oauth["client_metadata_url"]
    if "timeout" in taken:  # mcp 1.x; 2.x has no flow time-out of its own
        keywords["timeout"] = APPROVAL_WAIT

    class Provider(OAuthClientProvider):
        approval: _Approval | None = None  # how it asks for a person's approval

        async def _initialize(self) -> None:
            await super()._initialize()
            if self.context.current_tokens is not None:  # the SDK forgets when a stored token expires
                self.context.token_expiry_time = stored.expires_at()

        async def async_auth_flow(self, request: Any) -> Any:
            """The SDK's flow, but a 401 to a token this client still thought valid is answered by
            refreshing it first: the server's clock may end it earlier (latency, rounding), and the SDK
            would go straight to asking a person again."""
            flow = super().async_auth_flow(request)
            try:  # the SDK's flow holds a lock: it is closed here, in this task, however this one ends
                sent = await flow.__anext__()
                refreshed = False
                while True:
                    response = yield sent
                    if (sent is request and response.status_code == 401 and not refreshed
                            and "Authorization" in request.headers and self.context.can_refresh_token()):  # fmt: skip
                        refreshed = True
                        await flow.aclose()
                        self.context.token_expiry_time = 1.0  # expired: the next flow refreshes before it sends
                        flow = super().async_auth_flow(request)
                        sent = await flow.__anext__()
                        continue
                    try:
                        sent = await flow.asend(response)
                    except StopAsyncIteration:
                        return
            finally:
                await flow.aclose()

    provider = Provider(str(server["url"]), metadata, storage, **keywords)
    provider.approval = approval
    return provider


def _redirect_uri(stored: TokenStore) -> str:
    """The loopback redirect URI: the one the stored registration holds, else one on a free port."""
    info = stored.read().get("client_info") or {}
    for uri in info.get("redirect_uris") or ():
        if str(uri).startswith("http://127.0.0.1:"):
            return str(uri)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/callback"


class _Approval:
    """The two handlers the SDK awaits: open the authorization URL, then the code the redirect brings back."""

    def __init__(self, redirect_uri: str, mode: str | None, where: str, login_hint: str) -> None:
        self.redirect_uri = redirect_uri
        self.mode = mode
        self.where = where
        self.login_hint = login_hint
        self.answer: Any = None
        self.listener: Any = None  # the loopback server waiting for the redirect
        self.asked = False  # whether the flow needed a person's approval that `mode` did not allow

    async def open(self, url: str) -> None:
        if self.mode is None:
            self.asked = True
            raise CredentialsMissing(f"no usable OAuth token for {self.where}: {self.login_hint or 'authorize it'}")
        if self.mode == "fetch":
            self.answer = asyncio.get_running_loop().create_future()
            self.answer.set_result(await self._fetched(url))
            return
        self.answer = await self._listen()
        print(f"Authorize vendorgen's access to {self.where} in your browser:\n  {url}", file=sys.stderr, flush=True)
        if self.mode == "browser":
            import webbrowser

            webbrowser.open(url)

    async def result(self) -> Any:
        try:
            query = await asyncio.wait_for(self.answer, APPROVAL_WAIT)
        except TimeoutError:
            raise CredentialsMissing(f"{self.where}: the authorization was not approved within {APPROVAL_WAIT:g} s") from None
        finally:
            if self.listener is not None:
                self.listener.close()
                self.listener = None
        if "error" in query:
            raise CredentialsMissing(f"{self.where}: the authorization was refused ({query['error'][:100]})")
        code, state = query.get("code", ""), query.get("state")
        from mcp.client import auth

        result_type = getattr(auth, "AuthorizationCodeResult", None)  # mcp 2.x; 1.x takes (code, state)
        if result_type is None:
            return code, state
        return result_type(code=code, state=state, iss=query.get("iss"))

    async def _fetched(self, url: str) -> dict[str, str]:
        """Request the authorization URL and follow its redirects until one reaches the redirect URI."""
        http = http_module()
        async with http.AsyncClient(timeout=30.0) as client:
            for _ in range(10):
                if url.startswith(self.redirect_uri):
                    return _query(url)
                response = await client.get(url, follow_redirects=False)
                location = response.headers.get("location")
                if not response.is_redirect or not location:
                    raise CredentialsMissing(f"{self.where}: the authorization page answered HTTP"
                                             f" {response.status_code}, no redirect (it needs a person)")  # fmt: skip
                url = str(response.url.join(location))
        raise CredentialsMissing(f"{self.where}: the authorization redirected too often")

    async def _listen(self) -> Any:
        """A future of the redirect's query, set by a one-request server on the redirect URI's port."""
        answer = asyncio.get_running_loop().create_future()
        port = urlsplit(self.redirect_uri).port

        async def handle(reader: Any, writer: Any) -> None:
            with contextlib.suppress(Exception):
                line = (await reader.readline()).decode("latin-1")
                while (await reader.readline()).strip():
                    pass
                query = _query(line.split(" ")[1] if " " in line else "")
                if ("code" in query or "error" in query) and not answer.done():
                    answer.set_result(query)
                body = b"vendorgen: authorization received; you can close this page."
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                             + b"Content-Length: %d\r\n\r\n" % len(body) + body)  # fmt: skip
                await writer.drain()
            writer.close()

        self.listener = await asyncio.start_server(handle, "127.0.0.1", port)
        return answer


def _query(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
