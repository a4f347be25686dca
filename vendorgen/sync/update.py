"""`vendorgen update`: plan each module's new text (merged three ways when edited), then write it all or nothing."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.generate import pipeline
from vendorgen.generate.regeneration import regenerate
from vendorgen.package import copies
from vendorgen.package.derived import unparsable
from vendorgen.project.hashing import sha256_text, snapshot_sha256
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.workspace import Workspace
from vendorgen.sync.history import written_text
from vendorgen.sync.local import lock_drift, unrendered
from vendorgen.sync.merge import merge3, unified_diff
from vendorgen.sync.remote import Reinspector, per_source, upstream_changes

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Generated
    from vendorgen.package.copies import RuntimeChanges


@dataclass(frozen=True)
class Step:
    """What `update` does to one module."""

    entry: LockEntry
    new_entry: LockEntry
    on_disk: str | None  # as read when planning; re-checked under the mutex before writing
    text: str | None  # the file's new content; None leaves the file alone
    snapshot_text: str | None  # the snapshot's new content; None leaves it alone
    action: str  # restored, updated, merged, conflict, refreshed, up to date
    changes: tuple[str, ...] = ()  # upstream changes, from the specs
    conflicts: int = 0
    # An edited file whose text as vendorgen wrote it is gone (regenerated differently, not in git):
    # what the old vendorgen, templates or settings made was not merged into it.
    base_lost: bool = False
    review: str = ""  # new third-party code taken with --trust: the file to review

    @property
    def writes(self) -> bool:
        return self.text is not None or self.snapshot_text is not None or self.new_entry != self.entry

    def diff(self) -> str:
        if self.text is None:
            return ""
        path = self.entry.path
        old_path = f"a/{path}" if self.on_disk is not None else "/dev/null"
        return unified_diff(self.on_disk or "", self.text, old_path, f"b/{path}")


@dataclass(frozen=True)
class UpdatePlan:
    steps: list[Step]
    failures: list[tuple[LockEntry, VendorgenError]]
    runtime: RuntimeChanges | None = None  # the runtime modules the updated modules need

    @property
    def conflicted(self) -> list[str]:
        return [step.entry.path for step in self.steps if step.action == "conflict"]

    def error(self, dry_run: bool = False) -> VendorgenError | None:
        """What the run ends with: the worst failure's kind (exit code), naming every problem."""
        problems = [f"could not update {entry.name}: {error}" for entry, error in self.failures]
        if self.runtime is not None:
            problems += [
                f"{note}: resolve the <<<<<<< markers" for note in self.runtime.notes if note.startswith("conflict")
            ]
        if self.conflicted and dry_run:
            problems.append(f"updating would leave merge conflicts in {', '.join(self.conflicted)}")
        elif self.conflicted:
            problems.append(f"merge conflicts in {', '.join(self.conflicted)}: resolve the <<<<<<< markers")
        if not problems:
            return None
        worst = max((error for _, error in self.failures), key=lambda error: error.exit_code, default=None)
        return (type(worst) if worst else VendorgenError)("; ".join(problems))


def plan_update(
    workspace: Workspace,
    entries: Sequence[LockEntry],
    offline: bool = False,
    trust: bool = False,
    progress: Callable[[int], object] = lambda done: None,
    prereleases: bool = False,
    render_changed: bool = True,
) -> UpdatePlan:
    """Regenerate each module from its live source (or its snapshot when `offline`); write nothing.

    New upstream code vendored as it is (a hub tool.py) is taken only with `trust`, as at `add`; so is a
    source that is not what its reviewed file was generated from (vendorgen.sync.binding).
    Sources are read as `check --remote` reads them (`per_source`); `progress(n)` as n modules are planned;
    `prereleases` lets a pinned package move to a prerelease; without `render_changed` (a preview) custom
    templates that differ from what the lock records are not rendered (vendorgen.sync.local.unrendered).
    """
    reinspector = Reinspector(workspace, move_pins=True, trust=trust, prereleases=prereleases)

    def plan_one(entry: LockEntry) -> Step | VendorgenError:
        try:
            return _plan_one(workspace, entry, reinspector, offline, trust, render_changed)
        except VendorgenError as exc:
            return exc

    planned = per_source(entries, plan_one, progress)
    steps = [step for step in planned if isinstance(step, Step)]
    failures = [(entry, step) for entry, step in zip(entries, planned) if isinstance(step, VendorgenError)]
    # The runtime is shared by every module beside it, so it follows this vendorgen even for one module;
    # the server module beside them follows what the steps write.
    after = {entry.name: entry for entry in workspace.read_lock()}
    pending: dict[str, str] = {}
    for step in steps:
        after[step.entry.name] = step.new_entry
        pending.update({step.entry.path: step.text} if step.text is not None else {})
        pending.update({step.entry.schema: step.snapshot_text} if step.snapshot_text is not None else {})
    return UpdatePlan(steps, failures, copies.plan(workspace, after.values(), merge=True, pending=pending))


def _plan_one(
    workspace: Workspace, entry: LockEntry, reinspector: Reinspector, offline: bool, trust: bool, render_changed: bool
) -> Step:
    locked = workspace.read_snapshot(entry)
    if not render_changed and (refused := unrendered(entry, lock_drift(workspace, entry, locked))) is not None:
        raise refused
    on_disk = workspace.read_file(entry.path)
    if on_disk is not None and sha256_text(on_disk) != entry.sha256:
        _refuse_unparsable(entry, on_disk)  # first: a merge would carry it on ("up to date" for a file that cannot run)
    live = locked if offline else reinspector.snapshot(entry, locked)
    new = regenerate(live, workspace)
    unreviewed = new.source.unreviewed(new.module, locked, on_disk, entry, workspace.config.line_length)
    if unreviewed and not trust:
        raise UsageError(
            f"{entry.name}: {unreviewed}; read it (`vendorgen diff {entry.name}`), then `vendorgen update {entry.name} --trust`"
        )
    edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
    base = _base(workspace, locked, new, needed=edited)
    if edited and base is not None and on_disk == base.code:
        edited = False  # the file is what its snapshot generates: only the lock's hash of it is off (an edited lock)
    changes = upstream_changes(base, new) if base is not None else ()
    # The merge base is the file as vendorgen wrote it. Regenerating the locked snapshot gives it back
    # unless the templates, settings or vendorgen changed since; then git may still hold it.
    written = base.code if base is not None and sha256_text(base.code) == entry.sha256 else None
    if edited and written is None:
        written = written_text(workspace, entry)
    text: str | None
    if on_disk is None:
        text, action, conflicts = new.code, "restored", 0
    elif not edited:  # untouched since vendorgen wrote it: replaced
        text, action, conflicts = (None, "up to date", 0) if on_disk == new.code else (new.code, "updated", 0)
    else:
        assert base is not None  # _base raises when an edited file cannot have one
        text, action, conflicts = _merge(entry, on_disk, written or base.code, new)
    new_entry = pipeline.lock_entry(new, entry.path, entry.schema)
    snapshot_text: str | None = pipeline.snapshot_text(live)
    if snapshot_text == workspace.read_file(entry.schema):
        snapshot_text = None
    if action == "up to date" and (snapshot_text is not None or new_entry != entry):
        action = "refreshed"
    review = new.code if unreviewed else ""
    base_lost = edited and written is None
    return Step(entry, new_entry, on_disk, text, snapshot_text, action, changes, conflicts, base_lost, review)


def _refuse_unparsable(entry: LockEntry, on_disk: str) -> None:
    try:
        ast.parse(on_disk)
    except SyntaxError as exc:
        raise VendorgenError(unparsable(entry, on_disk, exc)) from None


def _base(workspace: Workspace, locked: dict[str, Any], new: Generated, needed: bool) -> Generated | None:
    """What the locked snapshot generates now: the merge base, and the 'before' of the changes shown.

    Only an edited file `needed` it; otherwise it is best effort (the config may now exclude it).
    """
    if new.schema_sha256 == snapshot_sha256(locked):  # offline, or upstream unchanged
        return new
    try:
        return regenerate(locked, workspace)
    except VendorgenError:
        if needed:
            raise
        return None


def _merge(entry: LockEntry, on_disk: str, base: str, new: Generated) -> tuple[str | None, str, int]:
    """Three-way merge of an edited file from `base`, the text vendorgen wrote: (new text or None, action, conflicts)."""
    merged = merge3(base, on_disk, new.code, (f"{entry.path} (your edits)", "as vendorgen wrote it", "upstream now"))
    if merged.text == on_disk:
        return None, "up to date", 0
    return merged.text, "conflict" if merged.conflicts else "merged", merged.conflicts


def apply_update(workspace: Workspace, steps: Sequence[Step], runtime: RuntimeChanges | None = None) -> None:
    """Write what `steps` (and `runtime`) planned, all or nothing, if nobody changed those files meanwhile."""
    writing = [step for step in steps if step.writes]
    if not writing and not (runtime is not None and (runtime.files or runtime.removed)):
        return
    with workspace.mutex():
        entries = {entry.name: entry for entry in workspace.read_lock()}
        files: dict[str, str] = {}
        for step in writing:
            if entries.get(step.entry.name) != step.entry or workspace.read_file(step.entry.path) != step.on_disk:
                raise VendorgenError(f"{step.entry.path} changed while vendorgen was updating it; run the update again")
            if step.text is not None:
                files[step.entry.path] = step.text
            if step.snapshot_text is not None:
                files[step.entry.schema] = step.snapshot_text
            entries[step.entry.name] = step.new_entry
        if runtime is None:
            workspace.commit(files, list(entries.values()))
            return
        # Planned again under the lock: another vendorgen may have added a module since `plan_update`.
        runtime = copies.plan(workspace, entries.values(), merge=True, pending=files)
        workspace.commit({**files, **runtime.files}, list(entries.values()), tuple(runtime.removed), runtime.entries)
