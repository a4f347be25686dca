"""What vendorgen may touch in a project, and how it reaches it without following a link.

`vendorgen.lock` and `.vendorgen/` are committed, so a pull request can change
them without anyone reading the change. They are never trusted to name a path:
every file vendorgen writes, replaces or deletes is one of its own state files
(the lock, the journal), one that `module_files` derives from a module's name,
`<dir>/<name>.py` and `.vendorgen/schemas/<name>.json`, where the name is a
bounded Python identifier and `<dir>` lies inside the project, outside hidden
directories (`.git`, `.venv`, `.vendorgen`) and installed packages, or one of the
package files beside such a module (`package_file`): the catalog, or a plain module name in vendorgen's
namespace `_vendored_<name>.py` (the run-time files the registered kinds ship and the server's files;
vendorgen.package.files knows which of those this vendorgen writes).

`Project.reach` walks such a path from the root one component at a time with
lstat: a symbolic link anywhere on the way is refused, never followed, so a
committed link cannot turn a write into one outside what the lock owns.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path, PurePosixPath

from vendorgen.errors import UsageError, VendorgenError

LOCK_NAME = "vendorgen.lock"
STATE_DIR = ".vendorgen"
SCHEMAS_DIR = f"{STATE_DIR}/schemas"
JOURNAL_NAME = f"{STATE_DIR}/journal.json"
# The first line of every file vendorgen generates; it replaces or deletes only files that start so.
VENDORED_HEADER = "# Vendored by vendorgen"
# The core of the run time the generated modules of one directory share, copied from vendorgen/shipped/;
# each source kind ships its own part beside it (`Source.runtime_files`, vendorgen.package.files).
RUNTIME_FILE = "_vendored_runtime.py"
# Every file vendorgen copies into an output package but the catalog is named so: a plain module name in a
# namespace of its own, which no vendored module's name may take (`check_module_name`).
PACKAGE_PREFIX = "_vendored_"
# The MCP server of the tools of one directory, and how it meets its clients (vendorgen/package/serve.py
# writes both).
SERVER_FILE = "_vendored_server.py"
# The server's transports (stdio pipes, streamable HTTP behind its token check), shipped beside it.
TRANSPORT_FILE = "_vendored_transport.py"
# Its request handlers, one group per capability, and what a call carries besides its answer.
HANDLERS_FILE = "_vendored_handlers.py"
# How a call's values cross between client and tool (file arguments in, content items out, an upstream's answer
# passed on).
CONTENT_FILE = "_vendored_content.py"
# What it pins of upstream MCP tools, and the drift check.
PINS_FILE = "_vendored_pins.py"
# How the server serves vendored MCP resources, resource templates and prompts, shipped beside it.
SERVER_OFFERS_FILE = "_vendored_server_offers.py"
SERVER_FILES = (SERVER_FILE, TRANSPORT_FILE, HANDLERS_FILE, CONTENT_FILE, PINS_FILE, SERVER_OFFERS_FILE)
# The catalog of the tools of one directory, for agents with many tools (vendorgen/package/catalog.py writes it).
CATALOG_FILE = "catalog.py"
# A module name is a file name: bounded so that `.<name>.py.vendorgen-new` stays far below the
# 255 bytes file systems allow for one name.
MAX_NAME_LENGTH = 100
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_PACKAGE_FILE_NAME = re.compile(rf"{PACKAGE_PREFIX}[A-Za-z0-9_]+\.py", re.ASCII)
# Directories whose Python files the interpreter or an installer owns (`.venv` is hidden anyway).
_PACKAGE_DIRS = frozenset({"site-packages", "dist-packages", "__pycache__"})


def module_of(name: str) -> str:
    """The module a generated module imports the run-time file `name` as: `._vendored_gradio`."""
    return "." + name.removesuffix(".py")


def is_runtime_import(name: str) -> bool:
    """`name` (as the gate spells an import, `._vendored_gradio.SpaceTool`) is a name of a package file."""
    module = name.rpartition(".")[0]
    return module.startswith(".") and is_package_file_name(module[1:] + ".py")


def is_package_file_name(name: str) -> bool:
    """`name` may be a package file's (the lock's `[[runtime]]`): the catalog, or a plain module name
    `_vendored_<letters, digits, _>.py` of bounded length (a kind's run-time file, the server's)."""
    return name == CATALOG_FILE or (len(name) <= MAX_NAME_LENGTH and _PACKAGE_FILE_NAME.fullmatch(name) is not None)


def check_module_name(name: str) -> None:
    """Refuse a module name vendorgen would not write a file for."""
    if len(name) > MAX_NAME_LENGTH:
        raise UsageError(
            f"the module name {name[:24]}... is {len(name)} characters long, at most {MAX_NAME_LENGTH} are allowed;"
            " pick a shorter one with --name"
        )
    if not _MODULE_NAME.fullmatch(name) or (name.startswith("__") and name.endswith("__")):
        raise UsageError(f"{name!r} is not a module name vendorgen writes (an ASCII Python identifier, not a dunder)")
    if name.startswith(PACKAGE_PREFIX):  # the package files' namespace: a module there could take one's place
        raise UsageError(f"{name!r} is not a module name vendorgen writes: {PACKAGE_PREFIX}* names its package files")


def snapshot_path(name: str) -> str:
    return f"{SCHEMAS_DIR}/{name}.json"


def module_files(name: str, path: str, schema: str) -> tuple[str, str]:
    """The module file and snapshot of module `name`, refused unless they are what vendorgen derives from it."""
    check_module_name(name)
    parts = relative_parts(path)
    if parts[-1] != f"{name}.py":
        raise UsageError(f"module {name}: path {path!r} is not a file named {name}.py")
    if hidden := [part for part in parts[:-1] if part.startswith(".") or part in _PACKAGE_DIRS]:
        raise UsageError(f"module {name}: path {path!r} is inside {hidden[0]}/, where vendorgen does not write")
    if schema != snapshot_path(name):
        raise UsageError(f"module {name}: schema {schema!r} is not {snapshot_path(name)}")
    return "/".join(parts), schema


def package_file(path: str, module_paths: list[str]) -> str:
    """A package file's path, refused unless its name is a package file's (`is_package_file_name`) and it lies
    beside a vendored module (whose directory `module_files` has already checked)."""
    parts = relative_parts(path)
    if not is_package_file_name(parts[-1]) or not any(
        relative_parts(module)[:-1] == parts[:-1] for module in module_paths
    ):
        raise UsageError(
            f"package file {path!r} is not {CATALOG_FILE} or a {PACKAGE_PREFIX}<name>.py beside a vendored module"
        )
    return path


def relative_parts(path: str) -> tuple[str, ...]:
    """The components of a project-relative POSIX path, refused unless it stays below the root as written."""
    parts = PurePosixPath(path).parts
    # Only the canonical spelling: no `..`, no `.`, no doubled or trailing slash, no backslash.
    if "/".join(parts) != path or not parts or parts[0] == "/" or ".." in parts or "\\" in path or "\0" in path:
        raise UsageError(f"{path!r} is not a path inside the project")
    return parts


class Project:
    """A project root, reached only through real directories."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def reach(self, relative: str, directory: bool = False) -> Path:
        """`root/relative`, checked on disk: no component is a symbolic link, what exists has the right type.

        The last component is a regular file (a directory when `directory`) or missing, and no
        directory on the way is a virtual environment (it holds `pyvenv.cfg`).
        """
        parts = relative_parts(relative)
        current = self.root
        for index, part in enumerate(parts):
            current = current / part
            shown = "/".join(parts[: index + 1])
            try:
                mode = os.lstat(current).st_mode
            except OSError as exc:
                if exc.errno in (errno.ENOENT, errno.ENAMETOOLONG):
                    break  # it cannot exist, nor anything below it
                raise VendorgenError(f"cannot reach {shown}: {exc.strerror or exc}") from None
            last = index == len(parts) - 1
            if stat.S_ISLNK(mode):
                raise VendorgenError(f"{shown} is a symbolic link; vendorgen does not follow links in the project")
            if (not last or directory) and not stat.S_ISDIR(mode):
                raise VendorgenError(f"{shown} is not a directory")
            if last and not directory and not stat.S_ISREG(mode):
                raise VendorgenError(f"{shown} is not a regular file")
            if not last and os.path.lexists(current / "pyvenv.cfg"):
                raise VendorgenError(f"{shown} is a virtual environment; vendorgen does not write there")
        return self.root.joinpath(*parts)

    def exists(self, relative: str) -> bool:
        return os.path.lexists(self.reach(relative))

    def read_bytes(self, relative: str) -> bytes | None:
        """The file's bytes, None when it is missing; never read through a symbolic link."""
        path = self.reach(relative)
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise VendorgenError(f"cannot read {relative}: {exc.strerror or exc}") from None
        with open(descriptor, "rb") as handle:
            return handle.read()

    def read_text(self, relative: str) -> str | None:
        """The file's UTF-8 text, None when it is missing."""
        data = self.read_bytes(relative)
        try:
            return None if data is None else data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise VendorgenError(f"cannot read {relative}: it is not UTF-8 text ({exc.reason})") from None

    def make_directory(self, relative: str) -> None:
        """Create `relative` and its missing parents, each a real directory."""
        parts = relative_parts(relative)
        for index in range(len(parts)):
            partial = "/".join(parts[: index + 1])
            path = self.reach(partial, directory=True)
            try:
                os.mkdir(path)
            except FileExistsError:
                pass
            except OSError as exc:
                raise VendorgenError(f"cannot create {partial}/: {exc.strerror or exc}") from None

    def looks_vendored(self, relative: str) -> bool:
        """Whether the file starts with the line vendorgen writes first."""
        text = self.read_text(relative)
        return text is not None and text.startswith(VENDORED_HEADER)


ROOT_MARKERS = (LOCK_NAME, "pyproject.toml", ".git")


def find_root(start: Path | None = None) -> Path:
    """The nearest directory holding vendorgen.lock, pyproject.toml or .git; else the start directory.

    The nearest wins, whichever marker it holds: a package with its own pyproject.toml inside a
    larger git repository, or a git repository inside another, is a project of its own.
    """
    start = (start or Path.cwd()).resolve()
    for directory in (start, *start.parents):
        if any((directory / marker).exists() for marker in ROOT_MARKERS):
            return directory
    return start
