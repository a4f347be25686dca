"""The package files the lock owns: which runtimes are needed, and what add, check, update and remove do to them.

Each output directory holding a module whose source imports the runtime gets one copy of
`_vendored_runtime.py` (vendorgen.runtime). Like a vendored module, a copy is compared by
hash, replaced when vendorgen's changes, merged three ways when edited, and deleted with
the last module that needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from vendorgen import runtime, sources
from vendorgen.project.config import GENERATOR
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import SERVER_FILE
from vendorgen.runtime import RuntimeEntry
from vendorgen.project.hashing import sha256_text
from vendorgen.project.workspace import LockEntry, Workspace


@dataclass
class RuntimeChanges:
    """What a write does to the runtime copies: files to write, files to delete, the lock's entries after."""

    files: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    entries: list[RuntimeEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what update did, for its report


def needed_paths(entries: Iterable[LockEntry]) -> list[str]:
    """Where the modules of `entries` need a runtime, sorted."""
    return sorted({runtime.path_beside(entry.path) for entry in entries if _needs(entry.kind)})


def _needs(kind: str) -> bool:
    return runtime.needs_runtime(sources.load(kind).allowed_imports)


def current_entry(path: str) -> RuntimeEntry:
    return RuntimeEntry(path, runtime.sha256(), GENERATOR)


def _read(workspace: Workspace, path: str) -> str | None:
    return workspace.read_file(path)  # never through a link, as Python reads it


def plan(
    workspace: Workspace,
    entries: Iterable[LockEntry],
    merge: bool = False,
    force: bool = False,
    pending: Mapping[str, str] | None = None,
) -> RuntimeChanges:
    """The runtime copies the modules of `entries` (the lock after this write) need, and those no module needs.

    A copy vendorgen wrote is replaced by this vendorgen's; an edited one is kept (`add`,
    `remove`) or merged three ways (`update`, `merge`). A copy no module needs any more is
    deleted, unless edited (then only with `force`); so is a server module (vendorgen.serve)
    with no module left beside it, while one with modules is rewritten to serve them (unless
    edited: `check` reports it). `pending`: the modules and snapshots this write brings.
    """
    entries = list(entries)
    from vendorgen.generate.gate import check_runtime  # libcst: only when something is written

    locked = {entry.path: entry for entry in workspace.read_runtimes()}
    changes = RuntimeChanges()
    needed = needed_paths(entries)
    for path in needed:
        on_disk = _read(workspace, path)
        entry = locked.get(path)
        if entry is None and on_disk is not None and on_disk != runtime.text():
            raise UsageError(f"{path} exists and was not written by vendorgen; move it or pick another --out")
        if on_disk is None or entry is None or sha256_text(on_disk) == entry.sha256:
            check_runtime(runtime.text(), path)
            if on_disk != runtime.text():
                changes.files[path] = runtime.text()
                changes.notes.append(f"{'wrote' if on_disk is None else 'updated'} {path}")
            changes.entries.append(current_entry(path))
        elif merge and entry.sha256 != runtime.sha256():
            changes.files[path] = _merged(workspace, entry, on_disk, changes)
            changes.entries.append(current_entry(path))
        else:  # edited, and either this vendorgen wrote it or this is not an update: left as it is
            changes.entries.append(entry)
    served = {runtime.path_beside(entry.path, SERVER_FILE) for entry in entries}
    for path, entry in locked.items():
        if path in needed:
            continue
        if runtime.is_server(path) and path in served:
            beside = [module for module in entries if runtime.path_beside(module.path, SERVER_FILE) == path]
            _follow_server(workspace, entry, beside, pending, changes)
            continue
        on_disk = _read(workspace, path)
        if on_disk is not None and sha256_text(on_disk) != entry.sha256 and not force:
            raise UsageError(f"{path} has local edits and no module needs it any more; --force deletes it anyway")
        if on_disk is not None:
            changes.removed.append(path)
    return changes


def _follow_server(
    workspace: Workspace,
    entry: RuntimeEntry,
    beside: list[LockEntry],
    pending: Mapping[str, str] | None,
    changes: RuntimeChanges,
) -> None:
    """Keep the server module serving the modules beside it, as `vendorgen serve` would write it now.

    Left as it is when edited, or when it cannot be written now (a module without its tool class):
    `check` says so, and `vendorgen serve` says why.
    """
    from vendorgen import serve

    on_disk = _read(workspace, entry.path)
    try:
        module = serve.server_module(workspace, beside, pending)
    except (VendorgenError, KeyError, TypeError):  # a module, snapshot or lock it cannot read: `check` says
        module = None
    if module is None or module.path != entry.path or on_disk is None or sha256_text(on_disk) != entry.sha256:
        changes.entries.append(entry)
        return
    if module.text != on_disk:
        changes.files[entry.path] = module.text
    changes.entries.append(RuntimeEntry(entry.path, sha256_text(module.text), GENERATOR))


def _merged(workspace: Workspace, entry: RuntimeEntry, on_disk: str, changes: RuntimeChanges) -> str:
    """An edited copy written by another vendorgen, merged with this one's from the text as it was written."""
    from vendorgen.sync.merge import merge3
    from vendorgen.sync.history import written_text

    base = written_text(workspace, entry)
    if base is None:
        raise VendorgenError(
            f"{entry.path} has local edits and was written by {entry.generator}, and git holds no copy of it as"
            " written, so they cannot be merged: save your edits, delete the file, then update again"
        )
    merged = merge3(
        base, on_disk, runtime.text(), (f"{entry.path} (your edits)", "as vendorgen wrote it", "vendorgen now")
    )
    changes.notes.append(
        f"conflict in {entry.path}: {merged.conflicts} conflict blocks to resolve"
        if merged.conflicts
        else f"merged {entry.path}, your edits kept"
    )
    return merged.text


def problems(workspace: Workspace, entries: Iterable[LockEntry], allow_edits: bool = False) -> list[str]:
    """What `check` reports about the runtime copies: each with what to do about it."""
    locked = {entry.path: entry for entry in workspace.read_runtimes()}
    found = []
    for path in needed_paths(entries):
        on_disk = _read(workspace, path)
        entry = locked.get(path)
        if entry is None:
            found.append(
                f"{path}: the modules beside it need the runtime, which {'is' if on_disk else 'is missing and'} not in the lock: `vendorgen update` writes it"
            )
            continue
        if on_disk is None:
            found.append(f"{path} is missing: `vendorgen update` restores it")
            continue
        if sha256_text(on_disk) != entry.sha256 and not allow_edits:
            found.append(f"{path} has local edits: `vendorgen update` keeps them")
        if entry.sha256 != runtime.sha256() or entry.generator != GENERATOR:
            found.append(
                f"{path} was written by {entry.generator}, this is {GENERATOR}: `vendorgen update` replaces it"
            )
    return found
