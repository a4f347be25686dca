"""`vendorgen login` / `logout`: (re)authorize a vendored MCP module with its server, or forget its tokens.

The tokens live in the per-user token store (`_vendored_mcp_auth.py`), never in the project; the server and
its OAuth client come from the module's committed snapshot, bound to its source like any re-inspection.
"""

from __future__ import annotations

from typing import Any

import click

from vendorgen.cli.context import _complete_names, _workspace
from vendorgen.cli.output import _say
from vendorgen.errors import UsageError


def _server(name: str) -> dict[str, Any]:
    """The HTTP server the vendored MCP module `name` connects to, from its reviewed snapshot."""
    # Start-up: the sync stage (the lock, the pipeline) loads when a command runs, not at `vendorgen --help`.
    from vendorgen.sync.binding import refuse_unreviewed
    from vendorgen.sync.local import select

    workspace = _workspace()
    (entry,) = select(workspace.read_lock(), (name,))
    snapshot = workspace.read_snapshot(entry)
    server = snapshot.get("server")
    if entry.kind != "mcp" or not isinstance(server, dict) or server.get("transport") not in ("streamable-http", "sse"):
        raise UsageError(f"{name} is not a vendored MCP server over HTTP: nothing to log in to")
    refuse_unreviewed(workspace, entry, snapshot)  # the URL tokens go to is the one the module was reviewed with
    return server


@click.command()
@click.argument("name", shell_complete=_complete_names)
def login(name: str) -> None:
    """Authorize NAME's MCP server again (OAuth 2.1): opens the browser on a terminal, prints the URL otherwise.

    The token is kept in your per-user token store (VENDORGEN_MCP_TOKENS, else ~/.config/vendorgen/mcp-tokens),
    where the generated tools, `serve` and vendorgen's own re-inspection find it.
    """
    # Start-up: the MCP kind and its auth code (asyncio, the mcp SDK when it runs) load only here.
    from vendorgen.package.shipped import _vendored_mcp_auth as runtime
    from vendorgen.sources import mcp_auth, seconds_from_env
    from vendorgen.sources.mcp import DEFAULT_TIMEOUT, TIMEOUT_ENV

    server = _server(name)
    runtime.forget(server)
    found = mcp_auth.credentials(server, name)
    if found.provider is None:
        raise UsageError(
            f"{name} authenticates with headers from the environment ({', '.join(server['headers'])}), not OAuth"
        )
    mcp_auth.authorize(server, found, seconds_from_env(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    _say(f"logged in to {server['url']} for {name}")


@click.command()
@click.argument("name", shell_complete=_complete_names)
def logout(name: str) -> None:
    """Forget the OAuth tokens stored for NAME's MCP server (the server may still honour them until they expire)."""
    from vendorgen.package.shipped import _vendored_mcp_auth as runtime  # start-up, as in `login`

    server = _server(name)
    _say(
        f"forgot the tokens for {server['url']}" if runtime.forget(server) else f"no tokens stored for {server['url']}"
    )
