"""What a vendored tool needs that a Hub Space will not have (`vendorgen push`).

Read from the module's locked snapshot, offline. A *fatal* problem means the
pushed Space could never run the tool (an app on this machine's loopback
address, an MCP server started from a script in this project); the others are
things the Space must be given (secrets, packages, a server on a private
network it may not reach). Each kind says what applies to it (`Source.push_problems`,
built from the checks here); other kinds' needs are checked by `push` itself (LangChain code
of the project).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from vendorgen.shipped._vendored_mcp_auth import variables


@dataclass(frozen=True)
class Problem:
    message: str
    fatal: bool


def url_problems(url: str, what: str) -> list[Problem]:
    """`what` answers at `url`: a loopback address is fatal, a private one likely unreachable."""
    host = urlsplit(url).hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    loopback = address is not None and (address.is_loopback or address.is_unspecified)
    if loopback or host == "localhost" or host.endswith(".localhost"):
        return [Problem(f"{what} is at {url}, a loopback address: from a Space that is the Space itself", True)]
    if address is not None and (address.is_private or address.is_link_local):
        return [Problem(f"{what} is at {url}, a private address a Space can probably not reach", False)]
    return []


def credential_problems(server: dict[str, Any]) -> list[Problem]:
    """What a Space must be given for an HTTP MCP server's credentials (names only, never a value)."""
    problems = []
    if names := variables(server):
        problems.append(Problem(f"its MCP server is sent {', '.join(names)} from the environment: set them as the"
                                " Space's secrets", False))  # fmt: skip
    if server.get("oauth"):
        problems.append(Problem("its MCP server authorizes with OAuth, which needs a person at a browser and a token"
                                " store: a Space has neither (vendor it with --bearer-env if it takes a token)", False))  # fmt: skip
    return problems


def stdio_problems(server: dict[str, Any], root: Path) -> list[Problem]:
    """An MCP server started as `server` says: what of this machine it runs, what the Space must be given."""
    command, args = str(server.get("command", "")), [str(arg) for arg in server.get("args", [])]
    problems = []
    # The interpreter is the Space's own `python`; a script or program given by path is this machine's.
    local = [arg for arg in args if _is_file(arg, root)]
    if not Path(command).name.startswith("python") and _is_file(command, root):
        local.insert(0, command)
    for path in local:
        problems.append(Problem(f"its MCP server runs the local file {path}, which the Space does not have", True))
    if "-m" in args[:-1]:
        module = args[args.index("-m") + 1]
        if _local_module(module, root):
            where = f"its MCP server runs the module {module} from this project"
            problems.append(Problem(f"{where}, which the Space does not have", True))
        else:
            problems.append(Problem(f"its MCP server runs python -m {module}: the Space must have it installed", False))
    elif not problems and command not in ("python", "python3") and shutil.which(command) is not None:
        problems.append(Problem(f"its MCP server is started with {command}: the Space must have that command", False))
    if server.get("env"):
        names = ", ".join(server["env"])
        problems.append(Problem(f"its MCP server reads {names}: set them as the Space's secrets", False))
    return problems


def _is_file(arg: str, root: Path) -> bool:
    return ("/" in arg or arg.endswith(".py")) and (Path(arg) if os.path.isabs(arg) else root / arg).is_file()


def _local_module(module: str, root: Path) -> bool:
    """Whether `module`'s top-level package is a file or directory of the project."""
    top = module.split(".")[0]
    return bool(top) and ((root / top).is_dir() or (root / f"{top}.py").is_file())
