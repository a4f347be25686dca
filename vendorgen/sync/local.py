"""One locked module here: its file, its snapshot and the lock compared, and regenerating a snapshot.

A module is clean when the file is what vendorgen wrote (its sha256 is the
lock's) and the lock was written by this vendorgen with these templates and
settings from this snapshot. Then regenerating cannot change anything, so
`check` skips it: that hash-only fast path keeps the heavy pipeline (jinja2,
black, libcst) unimported when nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.config import GENERATOR
from vendorgen.project.fingerprint import Drift, fingerprint_drift
from vendorgen.project.hashing import sha256_text, snapshot_sha256
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.workspace import Workspace
from vendorgen.sync.binding import names_hash, unbound
from vendorgen.sync.merge import has_conflict_markers, unified_diff

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Generated


def select(entries: list[LockEntry], names: Sequence[str]) -> list[LockEntry]:
    """The locked modules called `names`, or all of them when none is given."""
    if not names:
        return entries
    by_name = {entry.name: entry for entry in entries}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        known = ", ".join(sorted(by_name)) or "nothing yet"
        raise UsageError(f"not vendored here: {', '.join(unknown)} (vendored: {known})")
    return [by_name[name] for name in dict.fromkeys(names)]


def regenerate(snapshot: dict[str, Any], workspace: Workspace) -> Generated:
    """What `snapshot` generates now, with this vendorgen, these templates and this config."""
    from vendorgen.generate import pipeline  # jinja2, black and libcst: only when something must be regenerated

    return pipeline.generate(snapshot, workspace)


@dataclass(frozen=True)
class LocalState:
    """One locked module compared with its file and with what its snapshot generates now."""

    entry: LockEntry
    on_disk: str | None  # None: the file is missing
    base: str | None = None  # None on the fast path, or when regenerating failed
    edited: bool = False  # the file is not what vendorgen wrote
    drift: tuple[Drift, ...] = ()  # why the lock no longer describes what this vendorgen writes
    error: VendorgenError | None = None  # the module cannot be regenerated at all
    unreadable: bool = False  # the error is its snapshot's: it cannot be read

    @property
    def outdated(self) -> bool:
        return bool(self.drift)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.on_disk is None:
            return "missing"
        if self.edited and has_conflict_markers(self.on_disk):
            return "conflict"
        if self.edited:
            return "edited"
        return "outdated" if self.outdated else "clean"

    @property
    def keeps_code(self) -> bool:
        """Outdated, yet regenerating gives the code the lock records: only the lock needs updating."""
        return self.base is not None and sha256_text(self.base) == self.entry.sha256

    def fails(self, allow_edits: bool = False) -> bool:
        return self.status != "clean" and not (allow_edits and self.status == "edited" and not self.outdated)

    def diff(self) -> str:
        """Local edits as base -> disk; else what regenerating would change, disk -> base."""
        if self.on_disk is None or self.base is None:
            return ""
        path = self.entry.path
        if self.edited:
            return unified_diff(self.base, self.on_disk, f"a/{path}", f"b/{path}")
        return unified_diff(self.on_disk, self.base, f"a/{path}", f"b/{path}")


def local_state(workspace: Workspace, entry: LockEntry, regenerate_anyway: bool = False) -> LocalState:
    """Compare one module; `regenerate_anyway` skips the fast path (to diff a module that looks clean)."""
    on_disk = workspace.read_file(entry.path)
    try:
        snapshot = workspace.read_snapshot(entry)
    except VendorgenError as exc:
        return LocalState(entry, on_disk, error=exc, unreadable=True)
    drift = lock_drift(workspace, entry, snapshot)
    edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
    # The lock's hashes alone prove nothing (a pull request can change the lock and the snapshot
    # together): the fast path also needs the file itself to name the snapshot, hashed from its bytes.
    if (
        on_disk is not None
        and not edited
        and not drift
        and not regenerate_anyway
        and names_hash(on_disk, entry.schema_sha256)  # without drift, the snapshot's own hash
    ):
        return LocalState(entry, on_disk)
    try:
        base = regenerate(snapshot, workspace).code
    except VendorgenError as exc:  # Excluded among them: the config now filters out every tool
        return LocalState(entry, on_disk, None, edited, tuple(drift), exc)
    if not drift and sha256_text(base) != entry.sha256:
        drift.append(Drift("code"))  # a bug, or a hand-edited lock
    return LocalState(entry, on_disk, base, edited, tuple(drift))


def lock_drift(workspace: Workspace, entry: LockEntry, snapshot: dict[str, Any]) -> list[Drift]:
    """Why the lock may no longer describe what this vendorgen generates, part by part: [] when it does."""
    reasons = []
    if entry.generator != GENERATOR:
        reasons.append(Drift("generator", entry.generator, GENERATOR))
    reasons += fingerprint_drift(entry.templates, workspace.config.fingerprint(entry.kind, entry.source, entry.tools))
    if (schema_sha256 := snapshot_sha256(snapshot)) != entry.schema_sha256:
        reasons.append(Drift("snapshot", entry.schema_sha256, schema_sha256))
    return reasons + unbound(entry, snapshot)
