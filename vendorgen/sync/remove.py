"""`vendorgen remove`: forget modules, delete their files and snapshots, and the package files left unneeded."""

from __future__ import annotations

from collections.abc import Sequence

from vendorgen.errors import UsageError
from vendorgen.package import copies
from vendorgen.project.hashing import sha256_text
from vendorgen.project.workspace import Workspace
from vendorgen.sync.local import select


def remove(workspace: Workspace, names: Sequence[str], force: bool = False) -> list[str]:
    """Forget modules and delete their files and snapshots; refuse an edited file unless `force`."""
    with workspace.mutex():
        entries = workspace.read_lock()
        chosen = select(entries, names)
        deleted: list[str] = []
        for entry in chosen:
            on_disk = workspace.read_file(entry.path)
            if on_disk is not None and sha256_text(on_disk) != entry.sha256 and not force:
                raise UsageError(
                    f"{entry.path} has local edits (`vendorgen diff {entry.name}` shows them); --force deletes it anyway"
                )
            deleted += [relative for relative in entry.files if workspace.project.exists(relative)]
        gone = {entry.name for entry in chosen}
        kept = [entry for entry in entries if entry.name not in gone]
        runtime = copies.plan(workspace, kept, force=force)
        deleted += runtime.removed
        workspace.commit(runtime.files, kept, tuple(deleted), runtime.entries)
    return deleted
