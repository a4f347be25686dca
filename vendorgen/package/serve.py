"""`vendorgen serve`: the server module of the output package, and the interpreter that runs it.

The server module (`_vendored_server.py`, beside the runtime) is the same bytes in every
project for a vendorgen version (the logic, copied verbatim from the file that ships in
vendorgen) followed by what this project serves: an import of each locked module, its tool
classes (read from the files the lock checks) and, for MCP tools, the pinned hashes of the
upstream definitions in the committed snapshots. Only identifiers and hex digests are
written there, never remote text. It is rewritten whenever the lock says otherwise, and the
lock owns it like the run-time files beside it: a `[[runtime]]` entry (vendorgen.package.copies).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from vendorgen import __version__, naming, sources
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.package import derived, files
from vendorgen.package.server_text import served_text
from vendorgen.project.config import GENERATOR
from vendorgen.project.hashing import sha256_text
from vendorgen.project.lockfile import LockEntry, RuntimeEntry
from vendorgen.project.paths import RUNTIME_FILE, SERVER_FILE, SERVER_FILES
from vendorgen.project.workspace import Workspace
from vendorgen.shipped._vendored_pins import definition_hashes
from vendorgen.sources.base import SHIPPED
from vendorgen.text.literals import escape_text

FILE_NAME = SERVER_FILE
MODULE = FILE_NAME.removesuffix(".py")
_HEADER = """\
# The MCP server of the tools vendorgen vendored into this directory: python -m {package}.{module}
# Written by vendorgen {version}; `vendorgen serve` rewrites it from vendorgen.lock, `vendorgen check` compares.
# Up to the line "# -- What this project serves", the same bytes in every project vendored with that version.
"""
_HEADER_START = _HEADER.split(":", 1)[0]  # how a server module vendorgen wrote begins


@dataclass(frozen=True)
class ServerModule:
    path: str  # relative to the root
    package: str  # dotted, for `python -m`
    text: str

    @property
    def dotted(self) -> str:
        return f"{self.package}.{MODULE}"

    @property
    def files(self) -> dict[str, str]:
        """What serving writes (root-relative path -> text): the module, and its parts as shipped (transport,
        content, the serving of resources and prompts)."""
        shipped = {files.path_beside(self.path, name): (SHIPPED / name).read_text(encoding="utf-8")
                   for name in SERVER_FILES if name != FILE_NAME}  # fmt: skip
        return {self.path: self.text, **shipped}


def server_module(
    workspace: Workspace, entries: list[LockEntry], pending: Mapping[str, str] | None = None
) -> ServerModule:
    """The server module the locked modules call for (all in one output directory).

    `pending`: files about to be written (root-relative path -> text), read instead of the disk's.
    """
    directory = derived.one_directory(entries, "vendorgen serve")
    parts = PurePosixPath(directory).parts
    if not parts or not all(part.isidentifier() for part in parts):
        raise UsageError(f"{directory} is not an importable package path, so it cannot be served with python -m")
    package = ".".join(parts)
    imports, classes, pins, read_only, snapshots = [], [], {}, [], {}
    for entry in sorted(entries, key=lambda entry: entry.name):
        module = PurePosixPath(entry.path).stem
        if module in naming.module_reserved():  # `from . import dict` would break the server's own code
            raise UsageError(
                f"the module {module} cannot be served under that name, which the server module uses;"
                f" re-add it with another --name (`vendorgen remove {entry.name}` first)"
            )
        imports.append(f"from . import {module}")
        source = sources.load(entry.kind)
        found = [
            (class_name, attributes["name"], str(attributes.get(source.served_name_attribute, "")))
            for class_name, attributes in derived.tool_classes(workspace, entry, pending or {})
        ]
        classes += [f"{module}.{class_name}" for class_name, _, _ in found]
        if source.served_name_attribute:  # its upstream can change under a running server: pinned
            snapshot = json.loads(pending[entry.schema]) if pending and entry.schema in pending else None
            snapshot = snapshot or workspace.read_snapshot(entry)
            definitions = source.served_definitions(snapshot)
            pinned_read_only = source.served_read_only(snapshot)
            for _, name, remote_name in found:
                pins[name] = definition_hashes(*definitions[remote_name])
                if remote_name in pinned_read_only:
                    read_only.append(name)
            snapshots[module] = entry.schema  # the schemas served as listed, checked against the pins
    header = _HEADER.format(package=package, module=MODULE, version=__version__)
    text = header + served_text(imports, classes, pins, read_only, snapshots)
    return ServerModule(f"{directory}/{FILE_NAME}", package, text)


def write(workspace: Workspace, module: ServerModule) -> bool:
    """Write the server module and its transport if one of them or its lock entry differs; True when one changed.
    The core run time beside them is written too where no module brought it (hub tools alone).

    The lock owns them like the run-time files beside them (`[[runtime]]` entries): written through
    `Workspace.commit`, so never half-written, never through a link, and deleted by `remove`
    with the last module beside them.
    """
    with workspace.mutex():
        locked = workspace.read_runtimes()
        owned = {entry.path for entry in locked}
        core = files.path_beside(module.path, RUNTIME_FILE)
        texts = dict(module.files)
        if core not in owned:  # the server imports the core run time, which hub tools alone do not bring
            texts[core] = files.text(RUNTIME_FILE)
        elif not workspace.project.exists(core):
            raise UsageError(f"{module.path} needs {core}: `vendorgen update` restores it")
        written = {path: RuntimeEntry(path, sha256_text(text), GENERATOR) for path, text in texts.items()}
        on_disk = {path: workspace.read_file(path) for path in written}
        if all(on_disk[path] == text and written[path] in locked for path, text in texts.items()):
            return False
        for path, text in texts.items():
            found = on_disk[path]
            ours = found == text or (path == module.path and found is not None and found.startswith(_HEADER_START))
            if found is not None and path not in owned and not ours:
                raise UsageError(f"{path} exists and was not written by vendorgen; move it")
        others = [entry for entry in locked if entry.path not in written]
        workspace.commit(texts, workspace.read_lock(), runtimes=[*others, *written.values()])
    return True


def problems(workspace: Workspace, entries: list[LockEntry]) -> list[str]:
    """What `check` says about the server modules, each output directory's: missing, out of step with the
    lock, not its hash, or one that cannot be verified (never a pass). One the lock owns with no module
    beside it any more, or one left where nothing is vendored, is reported too."""
    locked = {entry.path for entry in workspace.read_runtimes() if files.is_server(entry.path)}  # and transports
    beside: dict[str, list[LockEntry]] = {}
    for entry in entries:
        beside.setdefault(files.path_beside(entry.path, FILE_NAME), []).append(entry)
    found = []
    left = workspace.relative(workspace.root / workspace.config.output_dir / FILE_NAME)
    for path in sorted(locked | {left}):
        if files.path_beside(path, FILE_NAME) not in beside and workspace.project.exists(path):
            found.append(f"{path}: nothing vendored is left to serve beside it; delete it")
    for path, modules in sorted(beside.items()):
        if path in locked or workspace.project.exists(path):
            found += _server_problems(workspace, path, modules)
    return found


def _server_problems(workspace: Workspace, path: str, modules: list[LockEntry]) -> list[str]:
    try:
        module = server_module(workspace, modules)
    except (VendorgenError, KeyError, TypeError) as exc:  # a module, snapshot or lock it cannot read
        return [f"{path} cannot be verified ({escape_text(str(exc))}): `vendorgen serve` says what is wrong"]
    found = []
    for file_path, text in module.files.items():
        stale = "does not serve what the lock holds" if file_path == module.path else "is not the file vendorgen ships"
        found += derived.problems(workspace, file_path, text, "vendorgen serve", stale)
    return found


# Runs the server module from its text on stdin, as the module it would be on disk (relative imports
# included): `serve --list` lists what would be served without writing the file.
_UNWRITTEN = """\
import sys, types
text = sys.stdin.buffer.read().decode("utf-8")
module = types.ModuleType(sys.argv[1])
module.__package__ = sys.argv[1].rpartition(".")[0]
sys.modules[module.__name__] = module
exec(compile(text, sys.argv[2], "exec"), module.__dict__)
module.main(module.TOOLS, module.PINNED, sys.argv[3:], read_only=module.READ_ONLY)
"""


def list_unwritten(module: ServerModule, python: str, names: Sequence[str]) -> tuple[int, str]:
    """`python -m <server module> NAME... --list` with `python`, from the module's text: its exit code and what
    it printed, which vendorgen prints (so that a reader gone early is vendorgen's quiet exit, not its traceback)."""
    args = [python, "-B", "-c", _UNWRITTEN, module.dotted, module.path, *names, "--list"]  # -B: no .pyc either
    listed = subprocess.run(args, input=module.text.encode("utf-8"), stdout=subprocess.PIPE, check=False)
    return listed.returncode, listed.stdout.decode("utf-8", "replace")
