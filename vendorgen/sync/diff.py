"""`vendorgen diff`: each module's upstream changes and local edits, apart, and its drift."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vendorgen.errors import VendorgenError
from vendorgen.sync.local import LocalState, local_state
from vendorgen.sync.remote import Reinspector, Upstream
from vendorgen.project.workspace import LockEntry, Workspace


@dataclass(frozen=True)
class ModuleDiff:
    local: LocalState  # regenerated even when clean: generated from the locked snapshot -> on disk
    upstream: Upstream | None  # None: offline

    @property
    def error(self) -> VendorgenError | None:
        return self.upstream.error if self.upstream is not None else None


def diff(workspace: Workspace, entries: Sequence[LockEntry], offline: bool = False) -> list[ModuleDiff]:
    """For each module, upstream changes (locked snapshot -> live source) and local edits (generated -> disk)."""
    reinspector = Reinspector(workspace)  # each source read once for all its modules
    return [
        ModuleDiff(
            local_state(workspace, entry, regenerate_anyway=True), None if offline else reinspector.compare(entry)
        )
        for entry in entries
    ]
