"""`vendorgen diff`: each module's upstream changes and local edits, apart, and its drift."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vendorgen.errors import VendorgenError
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.workspace import Workspace
from vendorgen.sync.local import LocalState, local_state
from vendorgen.sync.remote import Reinspector, Upstream, per_source


@dataclass(frozen=True)
class ModuleDiff:
    local: LocalState  # regenerated even when clean: generated from the locked snapshot -> on disk
    upstream: Upstream | None  # None: offline

    @property
    def error(self) -> VendorgenError | None:
        return self.upstream.error if self.upstream is not None else None


def diff(
    workspace: Workspace,
    entries: Sequence[LockEntry],
    offline: bool = False,
    trust: bool = False,
    progress: Callable[[int], object] = lambda done: None,
    render_changed: bool = False,
) -> list[ModuleDiff]:
    """For each module, upstream changes (locked snapshot -> live source) and local edits (generated -> disk);
    `trust` re-inspects a source that is not what its reviewed file was generated from (vendorgen.sync.binding).

    Sources are read as `check --remote` reads them: each once, several at once.
    """
    reinspector = Reinspector(workspace, trust=trust)
    upstream: list[Upstream | None] = (
        [None] * len(entries) if offline else list(per_source(entries, reinspector.compare, progress))
    )
    return [
        ModuleDiff(local_state(workspace, entry, with_text=True, render_changed=render_changed), live)
        for entry, live in zip(entries, upstream)
    ]
