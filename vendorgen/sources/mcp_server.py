"""How an MCP server is reached: where it is, said in messages, and the command line that starts it.

Shared by the kind (`mcp.py`), the listing (`mcp_listing.py`) and the pins (`pins.py`), which all
sit above it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vendorgen.errors import SourceUnreachable, UsageError
from vendorgen.project import interpreter as project_python
from vendorgen.text.literals import escape_text

# Inspection fails fast: each request (initialize, every tools/list page) must be
# answered within this many seconds; a stdio server's start-up counts. Override
# with VENDORGEN_MCP_TIMEOUT for a server that starts slowly.
DEFAULT_TIMEOUT = 10.0
TIMEOUT_ENV = "VENDORGEN_MCP_TIMEOUT"


def resolved_argv(server: Mapping[str, Any], root: Path) -> list[str]:
    """The command line to start, with the project's paths resolved against `root`."""
    argv = [server["command"], *server["args"]]
    for index in server.get("project_paths", ()):
        if isinstance(index, int) and 0 <= index < len(argv):
            argv[index] = str(root / argv[index])
    return argv


def server_label(server: Mapping[str, Any]) -> str:
    """The server as messages name it: its command line or its URL, escaped."""
    if server["transport"] == "stdio":
        return "`" + escape_text(shlex.join([server["command"], *server["args"]])) + "`"
    return escape_text(server["url"])


def stdio_params(server: Mapping[str, Any], root: Path, environ: Mapping[str, str] | None = None) -> Any:
    """The stdio server's parameters (None for a server over HTTP), its project paths resolved against `root`;
    `--env` values come from `environ` (never stored)."""
    environ = os.environ if environ is None else environ
    if server["transport"] == "stdio":
        missing = [name for name in server["env"] if name not in environ]
        if missing:
            raise UsageError(
                f"--env {', '.join(missing)}: not set here; the server gets the value at inspection too"
                " (it is never written down)"
            )
        env = {name: environ[name] for name in server["env"]}
        argv = resolved_argv(server, root)
        command = python_command(argv[0], root)
        if os.sep not in command and shutil.which(command) is None:  # said now, not after the SDK's start-up
            raise SourceUnreachable(not_found(server_label(server), command))
        from mcp import StdioServerParameters  # the SDK takes a second to import

        return StdioServerParameters(command=command, args=argv[1:], env=env)
    return None


def not_found(where: str, command: str) -> str:
    return f"cannot start {where}: command {escape_text(command)!r} not found"


def python_command(command: str, root: Path) -> str:
    """`python`/`python3` run the project's interpreter (`vendorgen.project.interpreter`: --python, the active
    virtualenv, ./.venv, else vendorgen's own), where the generated code runs them too: its own interpreter."""
    if command not in ("python", "python3"):
        return command
    return project_python.find(root).executable


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
