"""The copies of the run-time files the lock owns: which ones are needed, and what add, check, update and remove do to them.

Each output directory gets one copy of each run-time file its modules' kinds ship
(`Source.runtime_files`, with the core: vendorgen.package.files). Like a vendored module, a copy is compared
by hash, replaced when vendorgen's changes, merged three ways when edited (across files when
its code moved to another file: vendorgen.package.moved), and deleted with the last module
that needs it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from vendorgen import sources
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.package import files, moved
from vendorgen.package.catalog import catalog_module
from vendorgen.package.serve import server_module
from vendorgen.project.config import GENERATOR
from vendorgen.project.hashing import sha256_text
from vendorgen.project.lockfile import LockEntry, RuntimeEntry
from vendorgen.project.paths import CATALOG_FILE, RUNTIME_FILE, SERVER_FILE, SERVER_FILES
from vendorgen.project.workspace import Workspace


@dataclass
class RuntimeChanges:
    """What a write does to the run-time copies: files to write, files to delete, the lock's entries after."""

    files: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    entries: list[RuntimeEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what update did, for its report


def needed_paths(entries: Iterable[LockEntry], locked: Iterable[str] = ()) -> dict[str, str]:
    """The run-time files the modules of `entries` need, and the core beside a server module the lock holds
    (`locked`: its `[[runtime]]` paths) with modules beside it: root-relative path -> file name, sorted by path."""
    entries = list(entries)
    needed = {
        files.path_beside(entry.path, name): name
        for entry in entries
        for name in files.needed_by(sources.load(entry.kind))
    }
    directories = {PurePosixPath(entry.path).parent for entry in entries}
    for path in locked:
        if PurePosixPath(path).name == SERVER_FILE and PurePosixPath(path).parent in directories:
            needed.setdefault(files.path_beside(path, RUNTIME_FILE), RUNTIME_FILE)
    return dict(sorted(needed.items()))


def current_entry(path: str, name: str) -> RuntimeEntry:
    return RuntimeEntry(path, files.sha256(name), GENERATOR)


def _read(workspace: Workspace, path: str) -> str | None:
    return workspace.read_file(path)  # never through a link, as Python reads it


def plan(
    workspace: Workspace,
    entries: Iterable[LockEntry],
    merge: bool = False,
    force: bool = False,
    pending: Mapping[str, str] | None = None,
) -> RuntimeChanges:
    """The run-time files the modules of `entries` (the lock after this write) need, and those no module needs.

    A copy vendorgen wrote is replaced by this vendorgen's; an edited one is kept (`add`,
    `remove`) or merged three ways (`update`, `merge`). A copy no module needs any more is
    deleted, unless edited (then only with `force`); so is a derived file (vendorgen.package.serve, .catalog)
    with no module left beside it, while one with modules is rewritten for them (unless
    edited: `check` reports it). `pending`: the modules and snapshots this write brings.
    """
    entries = list(entries)
    from vendorgen.generate.gate import check_runtime  # libcst: only when something is written

    locked = {entry.path: entry for entry in workspace.read_runtimes()}
    changes = RuntimeChanges()
    needed = needed_paths(entries, locked)
    # Edits of a file written by another vendorgen, merged into the files where their code is now.
    carried, merged_from = _carried(workspace, locked, needed) if merge else ({}, set())
    replaced: list[str] = []  # files replaced: the modules beside them must still find what they import
    for path, name in needed.items():
        shipped = files.text(name)
        on_disk = _read(workspace, path)
        entry = locked.get(path)
        if entry is None and on_disk is not None and on_disk != shipped:
            raise UsageError(f"{path} exists and was not written by vendorgen; move it or pick another --out")
        if path in carried:
            changes.files[path] = _merged(path, *carried[path], shipped, changes)
            changes.entries.append(current_entry(path, name))
        elif on_disk is None or entry is None or sha256_text(on_disk) == entry.sha256 or path in merged_from:
            check_runtime(shipped, path)
            if on_disk != shipped:
                changes.files[path] = shipped
                changes.notes.append(f"{'wrote' if on_disk is None else 'updated'} {path}")
                replaced += [path] if on_disk is not None else []
            changes.entries.append(current_entry(path, name))
        else:  # edited, and either this vendorgen wrote it or this is not an update: left as it is
            changes.entries.append(entry)
    directories = {PurePosixPath(path).parent for path in [*replaced, *carried]}
    _check_imports(
        workspace,
        [entry for entry in entries if PurePosixPath(entry.path).parent in directories],
        needed,
        pending or {},
    )
    for path, entry in locked.items():
        if path in needed:
            continue
        beside = [module for module in entries if PurePosixPath(module.path).parent == PurePosixPath(path).parent]
        if PurePosixPath(path).name in DERIVED_FILES and beside:
            _follow(workspace, entry, beside, pending, changes, locked)
            continue
        on_disk = _read(workspace, path)
        if on_disk is not None and sha256_text(on_disk) != entry.sha256 and not force:
            raise UsageError(f"{path} has local edits and no module needs it any more; --force deletes it anyway")
        if on_disk is not None:
            changes.removed.append(path)
    return changes


def _check_imports(
    workspace: Workspace, entries: list[LockEntry], needed: Mapping[str, str], pending: Mapping[str, str]
) -> None:
    """Refuse a write after which one of `entries` would import what the run-time files beside it no longer define.

    A module written by an older vendorgen imports from the run time as it was then (the single
    `_vendored_runtime.py` of vendorgen 0.1): replacing that run time under it must come with the
    module's own update. A module that cannot be read is left to `check`.
    """
    stale = []
    shipped = files.runtime_files()
    for entry in entries:
        text = pending[entry.path] if entry.path in pending else _read(workspace, entry.path)
        try:
            tree = ast.parse(text or "")
        except SyntaxError:
            continue
        for node in tree.body:
            if not (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module):
                continue
            name = f"{node.module}.py"
            if name not in shipped:
                continue
            beside = files.path_beside(entry.path, name)
            defined = files.defined_at_top(name) if beside in needed else frozenset()
            stale += [f"{entry.path} ({alias.name} from {name})" for alias in node.names if alias.name not in defined]
    if stale:
        raise UsageError(
            f"{', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''}: written by an older vendorgen, whose run time"
            " this one lays out differently; `vendorgen update --offline` moves every module to it at once"
        )


def _carried(
    workspace: Workspace, locked: Mapping[str, RuntimeEntry], needed: Mapping[str, str]
) -> tuple[dict[str, tuple[str, str, str]], set[str]]:
    """Where the edits of each edited run-time file that another vendorgen wrote land now: path -> (the edited
    file, its base, its text with the edits), to merge three ways; and the edited files.

    An edit lands in its own file, unless its code moved to another file of its directory
    (vendorgen.package.moved: the single runtime from before the split by source kind).
    """
    from vendorgen.sync.history import (
        written_text,  # upward (pyproject.toml's ignore_imports): an edited copy is merged like a module
    )

    carried: dict[str, tuple[str, str, str]] = {}
    sources: set[str] = set()
    for path, name in needed.items():
        entry, on_disk = locked.get(path), _read(workspace, path)
        if entry is None or on_disk is None or sha256_text(on_disk) == entry.sha256:
            continue
        if entry.sha256 == files.sha256(name):
            continue  # edited, and this vendorgen wrote it: left as it is
        base = written_text(workspace, entry)
        if base is None:
            raise VendorgenError(
                f"{path} has local edits and was written by {entry.generator}, and git holds no copy of it as"
                " written, so they cannot be merged: save your edits, delete the file, then update again"
            )
        sources.add(path)
        if not moved.moved_away(base, name):
            carried[path] = (path, base, on_disk)
            continue
        directory = PurePosixPath(path).parent
        targets = {
            other: files.text(file) for other, file in needed.items() if PurePosixPath(other).parent == directory
        }
        for target, (target_base, edited) in moved.carry(path, base, on_disk, targets).items():
            carried[target] = (path, target_base, edited)
    return carried, sources


def _follow(
    workspace: Workspace,
    entry: RuntimeEntry,
    beside: list[LockEntry],
    pending: Mapping[str, str] | None,
    changes: RuntimeChanges,
    locked: Mapping[str, RuntimeEntry],
) -> None:
    """Keep a derived package file (the server module, the catalog) in step with the modules beside it,
    as its command would write it now.

    Left as it is when edited, or when it cannot be written now (a module without its tool class):
    `check` says so, and its command says why.
    """
    on_disk = _read(workspace, entry.path)
    try:
        module = DERIVED_FILES[PurePosixPath(entry.path).name](workspace, beside, pending)
    except (VendorgenError, KeyError, TypeError):  # a module, snapshot or lock it cannot read: `check` says
        module = None
    text = module.files.get(entry.path) if module is not None else None
    if text is None or on_disk is None or sha256_text(on_disk) != entry.sha256:
        changes.entries.append(entry)
        return
    if text != on_disk:
        changes.files[entry.path] = text
    changes.entries.append(RuntimeEntry(entry.path, sha256_text(text), GENERATOR))
    if module is not None and entry.path == module.path:  # a server written before its transport gets one
        for path, shipped in module.files.items():
            if path not in locked and _read(workspace, path) in (None, shipped):
                changes.files[path] = shipped
                changes.entries.append(RuntimeEntry(path, sha256_text(shipped), GENERATOR))


# The package files rewritten from the modules beside them: what builds each (the server's parts are shipped with
# the server module, as they are).
DERIVED_FILES: dict[str, Callable[..., Any]] = {
    **dict.fromkeys(SERVER_FILES, server_module),
    CATALOG_FILE: catalog_module,
}


def _merged(path: str, source: str, base: str, edited: str, shipped: str, changes: RuntimeChanges) -> str:
    """The file at `path` as this vendorgen ships it, with the edits of `source` merged in three ways from `base`."""
    from vendorgen.sync.merge import (
        merge3,  # upward (pyproject.toml's ignore_imports): an edited copy is merged like a module
    )

    merged = merge3(base, edited, shipped, (f"{source} (your edits)", "as vendorgen wrote it", "vendorgen now"))
    moved = "" if source == path else f" (from {source})"
    changes.notes.append(
        f"conflict in {path}{moved}: {merged.conflicts} conflict blocks to resolve"
        if merged.conflicts
        else f"merged {path}, your edits{moved} kept"
    )
    return merged.text


def problems(workspace: Workspace, entries: Iterable[LockEntry], allow_edits: bool = False) -> list[str]:
    """What `check` reports about the runtime copies: each with what to do about it."""
    locked = {entry.path: entry for entry in workspace.read_runtimes()}
    needed = needed_paths(entries, locked)
    # A file the lock owns where no module needs it is still imported by whatever imports it: reported.
    found = [
        f"{path}: no module beside it needs this run-time file: `vendorgen update` deletes it"
        for path in sorted(locked)
        if path not in needed and PurePosixPath(path).name not in DERIVED_FILES and _read(workspace, path) is not None
    ]
    for path, name in needed.items():
        on_disk = _read(workspace, path)
        entry = locked.get(path)
        if entry is None:
            found.append(
                f"{path}: the modules beside it need this run-time file, which {'is' if on_disk else 'is missing and'} not in the lock: `vendorgen update` writes it"
            )
            continue
        if on_disk is None:
            found.append(f"{path} is missing: `vendorgen update` restores it")
            continue
        if sha256_text(on_disk) != entry.sha256 and not allow_edits:
            found.append(f"{path} has local edits: `vendorgen update` keeps them")
        if entry.sha256 != files.sha256(name) or entry.generator != GENERATOR:
            found.append(
                f"{path} was written by {entry.generator}, this is {GENERATOR}: `vendorgen update` replaces it"
            )
    return found
