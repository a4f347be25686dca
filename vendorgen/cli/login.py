"""`vendorgen login` / `logout`: (re)authorize a vendored MCP module with its server, or forget its tokens.

The tokens live in the per-user token store (`_vendored_mcp_auth.py`), never in the project; the server and
its OAuth client come from the module's committed snapshot, bound to its source like any re-inspection.
"""

from __future__ import annotations

from typing import Any

import click

from vendorgen.cli.context import _complete_names, _workspace
from vendorgen.cli.output import _say


def _module(name: str) -> tuple[Any, dict[str, Any]]:
    """The kind of the vendored module `name` and its snapshot, refused unless it is the one reviewed: where tokens
    go is the one the module was reviewed with."""
    # Start-up: every kind and the sync stage (the lock, the pipeline) load when a command runs, not at `--help`.
    from vendorgen import sources
    from vendorgen.sync.binding import refuse_unreviewed
    from vendorgen.sync.local import select

    workspace = _workspace()
    (entry,) = select(workspace.read_lock(), (name,))
    snapshot = workspace.read_snapshot(entry)
    refuse_unreviewed(workspace, entry, snapshot)
    return sources.load(entry.kind), snapshot


@click.command()
@click.argument("name", shell_complete=_complete_names)
def login(name: str) -> None:
    """Authorize NAME's MCP server again (OAuth 2.1): opens the browser on a terminal, prints the URL otherwise.

    The token is kept in your per-user token store (VENDORGEN_MCP_TOKENS, else ~/.config/vendorgen/mcp-tokens),
    where the generated tools, `serve` and vendorgen's own re-inspection find it.
    """
    source, snapshot = _module(name)
    _say(source.log_in(name, snapshot))


@click.command()
@click.argument("name", shell_complete=_complete_names)
def logout(name: str) -> None:
    """Forget the OAuth tokens stored for NAME's MCP server (the server may still honour them until they expire)."""
    source, snapshot = _module(name)
    _say(source.log_out(name, snapshot))
