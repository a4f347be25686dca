"""`vendorgen serve`: run the vendored tools as one MCP server with the project's interpreter."""

from __future__ import annotations

import sys

import click

from vendorgen.cli.context import _workspace
from vendorgen.cli.output import _echo


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--list", "list_only", is_flag=True, help="List the tools that would be served, and exit.")
@click.option("--transport", type=click.Choice(["stdio", "streamable-http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="streamable-http: the address to bind.")
@click.option("--port", type=int, default=8765, show_default=True, help="streamable-http: the port (0: any free one).")
@click.option("--allow-remote", is_flag=True, help="Allow a --host that is not a loopback address.")
@click.option(
    "--token-env",
    metavar="NAME",
    help="streamable-http: require the token in $NAME (never written) instead of one made for this run.",
)
@click.option(
    "--no-token",
    is_flag=True,
    help="streamable-http: require no token, for an authenticating proxy in front (any local user can call).",
)
@click.option(
    "--allow-drift", is_flag=True, help="Call MCP tools whose upstream definition changed since they were vendored."
)
@click.option(
    "--stateless",
    is_flag=True,
    help="streamable-http: keep no session between requests, so that replicas behind a load balancer answer any "
    "request (no affinity); upstream elicitation, sampling and log messages then do not reach the client.",
)
@click.option(
    "--read-only", is_flag=True, help="Serve only the MCP tools whose annotations, as vendored, say read-only."
)
@click.option(
    "--files",
    multiple=True,
    metavar="DIR",
    help="Let clients name local files inside DIR (repeatable); otherwise a file argument is its content, a data: URI.",
)
def serve(names: tuple[str, ...], list_only: bool, transport: str, host: str, port: int, allow_remote: bool,
          token_env: str | None, no_token: bool, allow_drift: bool, stateless: bool, read_only: bool,
          files: tuple[str, ...]) -> None:  # fmt: skip
    """Serve the vendored tools as one MCP server, pinned to what was reviewed.

    Writes (or refreshes) the output package's _vendored_server.py from the
    lock, then runs `python -m <package>._vendored_server` with the project's
    interpreter: $VENDORGEN_PYTHON, else the active $VIRTUAL_ENV, else ./.venv,
    else this Python.
    NAME picks modules or tools (default: all). A tool of an upstream MCP
    server whose description or input schema changed since it was vendored
    is refused, unless --allow-drift (its annotations too: a tool served with
    --read-only stays read-only). Over streamable-http every request must
    carry a token (`Authorization: Bearer <token>` or `?token=<token>`): one
    made for the run, printed in the URL, unless --token-env or --no-token.

    \b
    Examples:
      vendorgen serve --list
      vendorgen serve                                   # stdio: an MCP client's command
      vendorgen serve --transport streamable-http --port 8765 --token-env MCP_TOKEN
      vendorgen serve --transport streamable-http --stateless   # one of several replicas
    """
    import os
    import subprocess

    # Start-up: the server module's planning (the lock, the workspace) loads when `serve` runs.
    from vendorgen.package import serve as serving
    from vendorgen.package.derived import readable
    from vendorgen.project import interpreter as project_interpreter

    # An MCP client starts this in a directory of its own unless its config gives the project's (`cwd`):
    # the error outside a project names that directory.
    workspace = _workspace()
    # --files names directories as the user sees them: from where the command started, before the chdir below.
    roots = [os.path.abspath(directory) for directory in files]
    entries, broken = readable(workspace, workspace.read_lock())
    for reason in broken:  # the other modules are served
        _echo(f"note: not served: {reason}", err=True)
    module = serving.server_module(workspace, entries or workspace.read_lock())
    python = project_interpreter.find(workspace.root).executable
    os.chdir(workspace.root)  # `python -m` finds the package from here
    sys.stdout.flush()
    if list_only:  # a listing writes nothing: the server module's text runs unwritten
        code, listing = serving.list_unwritten(module, python, [*names, *["--read-only"] * read_only])
        _echo(listing, nl=False)
        sys.exit(code)
    if serving.write(workspace, module):
        _echo(f"wrote {module.path}", err=True)
    args = [python, "-m", module.dotted, *names, "--transport", transport, "--host", host, "--port", str(port)]
    args += ["--allow-remote"] * allow_remote + ["--allow-drift"] * allow_drift + ["--read-only"] * read_only
    args += ["--stateless"] * stateless
    args += ["--token-env", token_env] if token_env else []
    args += ["--no-token"] * no_token
    args += [option for directory in roots for option in ("--files", directory)]
    if os.name == "posix":
        os.execv(python, args)  # the client talks to the server itself, over this process's stdio
    sys.exit(subprocess.call(args))
