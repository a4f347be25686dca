"""Package files derived from the lock (the server module, the catalog): written, owned and checked alike.

Each is rewritten from the lock by its command (`vendorgen serve`, `vendorgen catalog`) and
then owned by the lock like the runtime beside it: a `[[runtime]]` entry with the sha256 it was
written with. `Workspace.commit` writes it, so never half-written and never through a link;
add, update and remove keep it in step (vendorgen.package.copies), `remove` of the last module
beside it deletes it.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from vendorgen.errors import UsageError
from vendorgen.project.config import GENERATOR
from vendorgen.project.hashing import sha256_text
from vendorgen.project.lockfile import RuntimeEntry
from vendorgen.project.workspace import LOCK_NAME, LockEntry, Workspace


def one_directory(entries: list[LockEntry], command: str) -> str:
    """The output directory of `entries`, which `command` writes one file for; refused when there are several."""
    if not entries:
        raise UsageError(f"nothing vendored yet, so nothing for `{command}`; try `vendorgen add --help`")
    directories = sorted({PurePosixPath(entry.path).parent.as_posix() for entry in entries})
    if len(directories) > 1:
        raise UsageError(f"`{command}` covers one output directory; the lock has modules in {', '.join(directories)}")
    return directories[0]


def tool_classes(
    workspace: Workspace, entry: LockEntry, pending: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    """(class name, attributes assigned a literal) of each locked tool's class, read from the module as written.

    `pending`: files about to be written (root-relative path -> text), read instead of the disk's.
    """
    text = pending[entry.path] if entry.path in pending else workspace.read_file(entry.path)
    if text is None:
        raise UsageError(f"{entry.path} is missing: `vendorgen update --offline {entry.name}` writes it again")
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise UsageError(unparsable(entry, text, exc)) from None
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            attributes = _literal_attributes(node)
            if isinstance(attributes.get("name"), str) and attributes["name"] in entry.tools:
                found.append((node.name, attributes))
    if missing := set(entry.tools) - {attributes["name"] for _, attributes in found}:
        raise UsageError(
            f"{entry.path} has no tool class for {', '.join(sorted(missing))} (`vendorgen diff --offline {entry.name}`"
            f" shows the edits; `vendorgen update --offline {entry.name}` after deleting the file writes it again)"
        )
    return found


def unparsable(entry: LockEntry, text: str, error: SyntaxError) -> str:
    """Why the module file `text` of `entry` is not Python, and the way out."""
    if (error.text or "").startswith(("<<<<<<< ", "=======", ">>>>>>> ")):  # where Python stops: a merge's marker
        return f"{entry.path} holds merge conflict markers: resolve the <<<<<<< markers"
    return (
        f"{entry.path} is not valid Python (line {error.lineno}: {error.msg}): fix it, or delete it and"
        f" `vendorgen update --offline {entry.name}` writes it again as vendorgen wrote it"
    )


def readable(workspace: Workspace, entries: list[LockEntry]) -> tuple[list[LockEntry], list[str]]:
    """The modules of `entries` whose tool classes can be read from their files, and why each other one cannot:
    `serve` and `catalog` go on with the rest and name those."""
    kept, broken = [], []
    for entry in entries:
        try:
            tool_classes(workspace, entry, {})
        except UsageError as exc:
            broken.append(str(exc))
        else:
            kept.append(entry)
    return kept, broken


def _literal_attributes(node: ast.ClassDef) -> dict[str, Any]:
    """The class's attributes assigned a literal (a hub tool may compute some: those are left out)."""
    attributes = {}
    for statement in node.body:
        target: ast.expr | None = statement.target if isinstance(statement, ast.AnnAssign) else None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        value = getattr(statement, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            try:
                attributes[target.id] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return attributes


def write(workspace: Workspace, path: str, text: str, header_start: str) -> bool:
    """Write the file at `path` if it or its lock entry differs; True when it changed.

    A file already there is replaced only when the lock owns it or it begins as vendorgen
    writes it (`header_start`); a vendored module's own file never.
    """
    written = RuntimeEntry(path, sha256_text(text), GENERATOR)
    with workspace.mutex():
        files = workspace.read_runtimes()
        on_disk = workspace.read_file(path)
        if on_disk == text and written in files:
            return False
        if any(entry.path == path for entry in workspace.read_lock()):
            raise UsageError(f"{path} is a vendored module's file; rename the module (`vendorgen remove`, then add --name)")
        owned = any(entry.path == path for entry in files)
        if on_disk is not None and not owned and not on_disk.startswith(header_start):
            raise UsageError(f"{path} exists and was not written by vendorgen; move it")
        others = [entry for entry in files if entry.path != path]
        workspace.commit({path: text}, workspace.read_lock(), runtimes=[*others, written])
    return True


def problems(workspace: Workspace, path: str, text: str, command: str, stale: str) -> list[str]:
    """What `check` says about the file at `path`, which `command` writes as `text` (`stale`: how it differs)."""
    on_disk = workspace.read_file(path)
    entry = next((entry for entry in workspace.read_runtimes() if entry.path == path), None)
    if on_disk is None:
        return [f"{path} is missing: `{command}` writes it"]
    if on_disk != text:
        return [f"{path} {stale}: `{command}` rewrites it"]
    if entry is None or entry.sha256 != sha256_text(on_disk):
        return [f"{path} is not the file {LOCK_NAME} records: `{command}` rewrites it"]
    return []
