"""What an `mcp:` target names, read with no I/O: the transport and how to reach the server (`parse_target`,
at inspection), and what of the snapshot must agree with it (`bound_fields`, at `check`)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from vendorgen.errors import UsageError
from vendorgen.project import interpreter as project_python
from vendorgen.sources import mcp_auth, pins
from vendorgen.sources.base import AddOptions
from vendorgen.sources.credentials import refuse_url_credentials
from vendorgen.sources.mcp_server import portable_argv

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def parse_target(target: str, options: AddOptions, root: Path) -> dict[str, Any]:
    """What `mcp:<target>` names: the transport and how to reach the server; `root`: the project's. No I/O."""
    if target.startswith("stdio:"):
        return _stdio_target(target[len("stdio:") :], options, root)
    if options.env:
        raise UsageError(
            "--env passes variables to a stdio server's process; an HTTP server runs elsewhere and gets none"
        )
    if target.startswith("sse:"):
        return {"transport": "sse", "url": _url(target[len("sse:") :]), **mcp_auth.options_credentials(options)}
    if target.startswith(("http://", "https://")):
        return {"transport": "streamable-http", "url": _url(target), **mcp_auth.options_credentials(options)}
    raise UsageError(
        f"mcp:{target} names no transport; use mcp:http(s)://host/mcp (streamable-http), "
        'mcp:sse:http(s)://host/sse (legacy SSE) or "mcp:stdio:<command line>"'
    )


def _stdio_target(command_line: str, options: AddOptions, root: Path) -> dict[str, Any]:
    try:
        argv = shlex.split(command_line)
    except ValueError as exc:
        raise UsageError(f"cannot split the stdio command line {command_line!r}: {exc}") from None
    if not argv:
        raise UsageError('mcp:stdio: needs a command line, e.g. "mcp:stdio:python -m my_server"')
    if given := [flag for field, flag in zip(mcp_auth.HTTP_ONLY, ("--header", "--client-id", "--client-secret-env",
                                                           "--client-metadata-url")) if getattr(options, field)]:  # fmt: skip
        raise UsageError(f"{', '.join(given)}: for an HTTP server; a stdio server gets variables with --env")
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
    argv = [_python_word(argv[0], root), *argv[1:]]
    argv, project_paths = portable_argv(argv, root)
    server: dict[str, Any] = {"transport": "stdio", "command": argv[0], "args": argv[1:], "env": env}
    if project_paths:
        server["project_paths"] = project_paths
    if package:
        server["package"] = package
    return server


def _python_word(command: str, root: Path) -> str:
    """`python` for a command that is the project's interpreter (`.venv/bin/python`): the word that means it
    wherever the project is, at add and at run time; a path to it would break from another directory."""
    if os.sep not in command and "/" not in command:
        return command
    own = os.path.normpath(os.path.abspath(project_python.find(root).executable))
    given = {os.path.normpath(os.path.abspath(base / command)) for base in (Path.cwd(), root)}
    return "python" if own in given else command


def bound_fields(target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The server the generated code starts or connects to (its `SERVER`) is the one `mcp:<target>` names,
    and a stdio server gets the environment names it was added with. Read with no I/O: a command line
    is split, never pinned (its package version is already written in it)."""
    if not target.startswith("stdio:"):
        transport, url = ("sse", target[len("sse:") :]) if target.startswith("sse:") else ("streamable-http", target)
        return {"server.transport": transport, "server.url": url, **mcp_auth.bound_credentials(snapshot)}
    try:
        argv = shlex.split(target[len("stdio:") :])
    except ValueError as exc:
        raise UsageError(f"cannot split the stdio command line: {exc}") from None
    options = snapshot.get("options", {})  # absent: added before options were recorded, with no --env
    env = options.get("env", []) if isinstance(options, dict) else None
    return {"server.transport": "stdio", "server.command": argv[0] if argv else None, "server.args": argv[1:],
            "server.env": env}  # fmt: skip


def _url(url: str) -> str:
    parts = urlsplit(refuse_url_credentials(url))  # first: the message below quotes the URL
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{url!r} is not an http(s) URL")
    return url
