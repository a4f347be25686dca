"""One locked module here: its file, its snapshot and the lock compared.

A module is clean when its file is exactly what its snapshot generates now, established by
regenerating it (vendorgen.generate.regeneration: or by this user's own cache of an earlier
regeneration, kept outside the project), and the lock describes that: this vendorgen, these
templates and settings, this snapshot, the generated code's hash. Nothing the project holds (the
lock's hashes, the file's header) ever stands in for regenerating: a pull request writes them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vendorgen.errors import TemplateError, UsageError, VendorgenError
from vendorgen.generate.regeneration import regenerate, remembered
from vendorgen.project.config import GENERATOR
from vendorgen.project.fingerprint import Drift, fingerprint_drift
from vendorgen.project.hashing import sha256_text, snapshot_sha256
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.paths import LOCK_NAME
from vendorgen.project.workspace import Workspace
from vendorgen.sync.binding import unbound
from vendorgen.sync.merge import has_conflict_markers, unified_diff


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


@dataclass(frozen=True)
class LocalState:
    """One locked module compared with its file and with what its snapshot generates now."""

    entry: LockEntry
    on_disk: str | None  # None: the file is missing
    base: str | None = None  # None when the cache vouched for the file, or when regenerating failed
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


def local_state(
    workspace: Workspace, entry: LockEntry, with_text: bool = False, render_changed: bool = False
) -> LocalState:
    """Compare one module; `with_text` regenerates even when the cache knows the answer (to diff a clean module);
    `render_changed` renders custom templates that differ from what the lock records (`unrendered`)."""
    on_disk = workspace.read_file(entry.path)
    try:
        snapshot = workspace.read_snapshot(entry)
    except VendorgenError as exc:
        return LocalState(entry, on_disk, error=exc, unreadable=True)
    drift = lock_drift(workspace, entry, snapshot)
    if not render_changed and (refused := unrendered(entry, drift)) is not None:
        edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
        return LocalState(entry, on_disk, None, edited, tuple(drift), refused)
    if on_disk is not None and not drift and not with_text:
        # This user's own regeneration of these inputs, remembered outside the project, gave this file.
        if remembered(workspace, snapshot) == sha256_text(on_disk) == entry.sha256:
            return LocalState(entry, on_disk)
    try:
        base = regenerate(snapshot, workspace).code
    except VendorgenError as exc:  # Excluded among them: the config now filters out every tool
        edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
        return LocalState(entry, on_disk, None, edited, tuple(drift), exc)
    generated = sha256_text(base)
    if not drift and generated != entry.sha256:
        drift.append(Drift("code"))  # the lock vouches for code the snapshot does not generate: hand-edited
    # Clean only when the file is what the snapshot generates. With drift the file may be what another
    # vendorgen or other templates wrote, which cannot be regenerated: the lock's hash only tells that
    # apart from an edit to name it (an outdated module fails `check` either way).
    edited = on_disk is not None and sha256_text(on_disk) != (entry.sha256 if drift else generated)
    return LocalState(entry, on_disk, base, edited, tuple(drift))


def unrendered(entry: LockEntry, drift: Sequence[Drift]) -> TemplateError | None:
    """Why the project's templates are not rendered for `entry` without an opt-in: they differ from what the
    lock records (a pull request's, perhaps). None when they are the lock's, or none are used."""
    changed = next((reason for reason in drift if reason.part == "custom_templates"), None)
    if changed is None or not changed.current:
        return None
    return TemplateError(
        f"the custom templates differ from what {LOCK_NAME} records, so they are not rendered: read them, then"
        " --render-templates shows what they generate and `vendorgen update --offline` adopts them"
    )


def lock_drift(workspace: Workspace, entry: LockEntry, snapshot: dict[str, Any]) -> list[Drift]:
    """Why the lock may no longer describe what this vendorgen generates, part by part: [] when it does."""
    reasons = []
    if entry.generator != GENERATOR:
        reasons.append(Drift("generator", entry.generator, GENERATOR))
    reasons += fingerprint_drift(entry.templates, workspace.config.fingerprint(entry.kind, entry.source, entry.tools))
    if (schema_sha256 := snapshot_sha256(snapshot)) != entry.schema_sha256:
        reasons.append(Drift("snapshot", entry.schema_sha256, schema_sha256))
    return reasons + unbound(entry, snapshot)
