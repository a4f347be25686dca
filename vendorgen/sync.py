"""Keeping vendored modules in sync: check, check --remote, update, diff, remove.

Three texts of a module are compared:

- *on disk*: the file, possibly edited by the user;
- *base*: what its committed snapshot generates with this vendorgen, these
  templates and this config (offline);
- *upstream*: what the live source generates now (`--remote`, `update`, `diff`).

A module is clean when the file is what vendorgen wrote (its sha256 is the
lock's) and the lock was written by this vendorgen with these templates and
settings from this snapshot. Then regenerating cannot change anything, so
`check` skips it: that hash-only fast path keeps the heavy pipeline (jinja2,
black, libcst) unimported when nothing changed.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vendorgen.config import GENERATOR, Excluded
from vendorgen.errors import NotOffered, SourceUnreachable, UsageError, VendorgenError
from vendorgen.merge import has_conflict_markers, merge3, unified_diff
from vendorgen.projectfiles import VENDORED_HEADER
from vendorgen.workspace import LOCK_NAME, LockEntry, Workspace, canonical_json, sha256_text

if TYPE_CHECKING:
    from vendorgen.pipeline import Generated
    from vendorgen.runtime_sync import RuntimeChanges
    from vendorgen.sources import AddOptions


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


# -- check (offline) -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LocalState:
    """One locked module compared with its file and with what its snapshot generates now."""

    entry: LockEntry
    on_disk: str | None  # None: the file is missing
    base: str | None = None  # None on the fast path, or when regenerating failed
    edited: bool = False  # the file is not what vendorgen wrote
    drift: tuple[str, ...] = ()  # why the lock no longer describes what this vendorgen writes
    error: str | None = None  # the module cannot be regenerated at all

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
    def problems(self) -> list[str]:
        """What is wrong, each with what to do about it."""
        name = self.entry.name
        problems = [self.error] if self.error is not None else []
        if self.on_disk is None:
            problems.append(f"{self.entry.path} is missing: `vendorgen update {name}` restores it")
        elif self.status == "conflict":
            problems.append("unresolved merge conflict markers")
        elif self.edited:
            problems.append(f"local edits: `vendorgen diff {name}` shows them, `vendorgen update` keeps them")
        problems += self.drift
        if self.outdated and self.error is None:
            if self.base is not None and sha256_text(self.base) == self.entry.sha256:
                problems.append(f"its code stays the same: `vendorgen update --offline {name}` updates the lock")
            else:
                problems.append(f"`vendorgen update --offline {name}` regenerates it")
        return problems

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

    def to_json(self) -> dict[str, Any]:
        return {"name": self.entry.name, "path": self.entry.path, "source": self.entry.source, "status": self.status,
                "problems": self.problems, "diff": self.diff()}  # fmt: skip


def local_state(workspace: Workspace, entry: LockEntry, regenerate: bool = False) -> LocalState:
    """Compare one module; `regenerate` skips the fast path (to diff a module that looks clean)."""
    on_disk = workspace.read_file(entry.path)
    try:
        snapshot = workspace.read_snapshot(entry)
    except VendorgenError as exc:
        return LocalState(entry, on_disk, error=str(exc))
    drift = lock_drift(workspace, entry, snapshot)
    edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
    # The lock's hashes alone prove nothing (a pull request can change the lock and the snapshot
    # together): the fast path also needs the file itself to name the snapshot, hashed from its bytes.
    if on_disk is not None and not edited and not drift and not regenerate and _names_snapshot(on_disk, snapshot):
        return LocalState(entry, on_disk)
    try:
        base = _generate(snapshot, workspace).code
    except Excluded as exc:
        return LocalState(
            entry, on_disk, None, edited, tuple(drift), f"{exc}; `vendorgen remove {entry.name}` drops it"
        )
    except VendorgenError as exc:
        return LocalState(entry, on_disk, None, edited, tuple(drift), f"cannot regenerate it: {exc}")
    if not drift and sha256_text(base) != entry.sha256:
        drift.append("its snapshot now generates different code")  # a bug, or a hand-edited lock
    return LocalState(entry, on_disk, base, edited, tuple(drift))


_SNAPSHOT_HASH = re.compile(r"schema sha256 ([0-9a-f]{64})\b")


def _names_snapshot(code: str, snapshot: dict[str, Any]) -> bool:
    """Whether the header of `code` names the whole hash of `snapshot` (a prefix could be forged)."""
    header = itertools.takewhile(lambda line: line.startswith("#"), code.splitlines())
    named = {match.group(1) for line in header for match in _SNAPSHOT_HASH.finditer(line)}
    return sha256_text(canonical_json(snapshot)) in named


def lock_drift(workspace: Workspace, entry: LockEntry, snapshot: dict[str, Any]) -> list[str]:
    """Why the lock may no longer describe what this vendorgen generates: [] when it does."""
    reasons = []
    if entry.generator != GENERATOR:
        reasons.append(f"written by {entry.generator}, this is {GENERATOR}")
    current = workspace.config.fingerprint(entry.kind, entry.source, entry.tools)
    if entry.templates != current:
        reasons += _fingerprint_drift(entry.templates, current)
    if sha256_text(canonical_json(snapshot)) != entry.schema_sha256:
        reasons.append(f"{entry.schema} changed since {LOCK_NAME} was written")
    return reasons


def _fingerprint_drift(locked: str, current: str) -> list[str]:
    """Config.fingerprint is `<version> [custom:<hash>] [config:<hash>]`: say which part moved."""

    def parts(fingerprint: str) -> dict[str, str]:
        version, *rest = fingerprint.split(" ")
        return {"version": version, **dict(part.split(":", 1) for part in rest if ":" in part)}

    old, new = parts(locked), parts(current)
    reasons = []
    if old["version"] != new["version"]:
        reasons.append(f"built-in templates changed (version {old['version']} -> {new['version']})")
    if old.get("custom") != new.get("custom"):
        if not old.get("custom"):
            reasons.append("custom templates now override the built-in ones")
        elif not new.get("custom"):
            reasons.append("custom templates no longer apply")
        else:
            reasons.append("custom templates changed")
    if old.get("config") != new.get("config"):
        reasons.append("[tool.vendorgen] settings for it changed")
    return reasons


def extra_files(workspace: Workspace, entries: Iterable[LockEntry]) -> list[str]:
    """Files in an output directory that say they are vendored but that the lock does not list."""
    entries = list(entries)
    owned = {entry.path for entry in entries}
    directories = {workspace.config.output_dir, *(Path(entry.path).parent.as_posix() for entry in entries)}
    extras = []
    for directory in sorted(directories):
        absolute = workspace.inside(Path(directory), "output directory")
        for path in sorted(absolute.glob("*.py")) if absolute.is_dir() else ():
            relative = workspace.relative(path)
            if relative not in owned and _looks_vendored(path):
                extras.append(relative)
    return extras


def _looks_vendored(path: Path) -> bool:
    """A regular file starting with vendorgen's header; a link is not vendorgen's and is not followed."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        return False
    with open(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), encoding="utf-8", errors="replace") as handle:
        return handle.readline().startswith(VENDORED_HEADER)


@dataclass(frozen=True)
class CheckReport:
    states: list[LocalState]
    extra: list[str]
    allow_edits: bool = False
    runtime: tuple[str, ...] = ()  # problems of the runtime modules (vendorgen.runtime_sync)

    @property
    def failing(self) -> list[LocalState]:
        return [state for state in self.states if state.fails(self.allow_edits)]

    @property
    def ok(self) -> bool:
        return not self.failing and not self.extra and not self.runtime

    def render(self) -> str:
        lines = []
        for state in self.failing:
            lines.append(f"{state.entry.name} ({state.entry.path}): {state.status}")
            lines += [f"  - {problem}" for problem in state.problems]
            if diff := state.diff():
                lines.append(diff.rstrip("\n"))
        for path in self.extra:
            lines.append(f"{path}: extra: it says it is vendored, but {LOCK_NAME} does not list it")
        lines += [f"runtime: {problem}" for problem in self.runtime]
        total = len(self.states)
        if self.ok:
            edited = sum(state.status == "edited" for state in self.states)
            allowed = f" ({edited} with local edits, allowed)" if edited else ""
            lines.append(f"{total} vendored module{'s' * (total != 1)} in sync{allowed}")
        else:
            extra = f", {len(self.extra)} extra file{'s' * (len(self.extra) != 1)}" if self.extra else ""
            extra += ", the runtime module differs" if self.runtime else ""
            lines.append(f"check failed: {len(self.failing)} of {total} vendored modules differ{extra}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "modules": [state.to_json() for state in self.states], "extra": self.extra,
                "runtime": list(self.runtime)}  # fmt: skip


def check(workspace: Workspace, names: Sequence[str] = (), allow_edits: bool = False) -> CheckReport:
    """The modules called `names` (default: all) compared with their files, and the extra files."""
    entries = workspace.read_lock()
    from vendorgen import runtime_sync, serve

    states = [local_state(workspace, entry) for entry in select(entries, names)]
    runtime = tuple(runtime_sync.problems(workspace, entries, allow_edits)) + tuple(serve.problems(workspace, entries))
    return CheckReport(states, extra_files(workspace, entries), allow_edits, runtime)


# -- upstream (network) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Upstream:
    """One module's locked snapshot compared with what its source answers now."""

    entry: LockEntry
    base: Generated | None = None  # from the locked snapshot
    new: Generated | None = None  # from the live source
    changes: tuple[str, ...] = ()
    error: VendorgenError | None = None

    def diff(self) -> str:
        if self.base is None or self.new is None:
            return ""
        return unified_diff(self.base.code, self.new.code, f"a/{self.entry.path}", f"b/{self.entry.path}")

    @property
    def status(self) -> str:
        return "error" if self.error is not None else "changed" if self.changes else "unchanged"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.entry.name, "path": self.entry.path, "source": self.entry.source, "status": self.status,
                "changed": bool(self.changes), "changes": list(self.changes),
                "error": str(self.error) if self.error else None}  # fmt: skip


class Gone(VendorgenError):
    """The source answers but no longer offers a vendored module."""


class Reinspector:
    """Re-inspects sources, once per source and option set (modules often share both).

    A source found unreachable is not contacted again for its other modules: they get the same error.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.answers: dict[str, list[dict[str, Any]] | VendorgenError] = {}
        self.unreachable: dict[str, SourceUnreachable] = {}

    def snapshot(self, entry: LockEntry, locked: dict[str, Any]) -> dict[str, Any]:
        """The live snapshot of `entry`'s module, inspected with the options it was added with."""
        options = snapshot_options(locked)
        key = entry.source + "\0" + canonical_json(dataclasses.asdict(options))
        if key not in self.answers:
            self.answers[key] = self.unreachable.get(entry.source) or self._inspect(entry.source, options)
        answer = self.answers[key]
        if isinstance(answer, Gone):
            raise Gone(
                f"{entry.source} no longer offers {entry.name} ({answer}); `vendorgen remove {entry.name}` drops it"
            )
        if isinstance(answer, VendorgenError):
            raise answer
        for snapshot in answer:
            if snapshot.get("name") == entry.name:
                return snapshot
        offered = ", ".join(str(snapshot.get("name")) for snapshot in answer) or "nothing"
        raise Gone(
            f"{entry.source} no longer offers {entry.name} (it offers {offered}); `vendorgen remove {entry.name}` drops it"
        )

    def _inspect(self, source: str, options: AddOptions) -> list[dict[str, Any]] | VendorgenError:
        from vendorgen import pipeline

        try:
            return pipeline.inspect(source, options)
        except NotOffered as exc:  # the source answered, and what the options name is not there
            return Gone(str(exc))
        except SourceUnreachable as exc:
            self.unreachable[source] = exc
            return exc
        except VendorgenError as exc:
            return exc

    def compare(self, entry: LockEntry) -> Upstream:
        try:
            locked = self.workspace.read_snapshot(entry)
            live = self.snapshot(entry, locked)
            if canonical_json(live) == canonical_json(locked):
                return Upstream(entry)
            base = _generate(locked, self.workspace)
            new = _generate(live, self.workspace)
        except Gone as exc:  # a change, not a failure to check
            return Upstream(entry, changes=(f"- module {entry.name}: {exc}",))
        except VendorgenError as exc:
            return Upstream(entry, error=exc)
        return Upstream(entry, base, new, upstream_changes(base, new))


def snapshot_options(snapshot: dict[str, Any]) -> AddOptions:
    """The AddOptions a snapshot records for re-inspection (the contract in vendorgen.sources)."""
    from vendorgen.sources import AddOptions

    recorded = snapshot.get("options", {"name": snapshot.get("name")})
    known = {field.name for field in dataclasses.fields(AddOptions)} - {"token"}
    if not isinstance(recorded, dict) or not set(recorded) <= known:
        raise VendorgenError(f"the snapshot of {snapshot.get('name')} records unusable options: {recorded!r}")
    options: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value for key, value in recorded.items()
    }
    return AddOptions(**options)


def upstream_changes(base: Generated, new: Generated) -> tuple[str, ...]:
    from vendorgen.specdiff import describe, snapshot_changes

    if base.schema_sha256 == new.schema_sha256:
        return ()
    return tuple(describe(base.module, new.module) or snapshot_changes(base.snapshot, new.snapshot))


# How many sources `check --remote` inspects at once.
REMOTE_CONCURRENCY = 4


def check_remote(
    workspace: Workspace, entries: Sequence[LockEntry], progress: Callable[[int], object] = lambda done: None
) -> list[Upstream]:
    """Each module compared with its source: the modules of one source in turn, up to REMOTE_CONCURRENCY
    sources at once. `progress(n)` is called (in this thread) as each source's n modules are done."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    reinspector = Reinspector(workspace)
    by_source: dict[str, list[LockEntry]] = {}
    for entry in entries:
        by_source.setdefault(entry.source, []).append(entry)
    done: dict[str, Upstream] = {}
    with ThreadPoolExecutor(max_workers=max(1, min(REMOTE_CONCURRENCY, len(by_source)))) as pool:
        futures = [pool.submit(lambda group: [reinspector.compare(entry) for entry in group], group)
                   for group in by_source.values()]  # fmt: skip
        for future in as_completed(futures):
            results = future.result()
            done.update((result.entry.name, result) for result in results)
            progress(len(results))
    return [done[entry.name] for entry in entries]


def remote_errors(results: Sequence[Upstream]) -> list[dict[str, Any]]:
    """One error per source (its modules share it when the source is unreachable), in order."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for result in results:
        if result.error is not None:
            grouped.setdefault((result.entry.source, str(result.error)), []).append(result.entry.name)
    return [{"source": source, "modules": names, "message": message} for (source, message), names in grouped.items()]


def render_remote(results: Sequence[Upstream]) -> str:
    lines = []
    for error in remote_errors(results):
        lines.append(f"{error['source']}: cannot check {', '.join(error['modules'])}: {error['message']}")
    for result in results:
        if result.changes:
            lines.append(f"{result.entry.name} ({result.entry.source}): changed upstream")
            lines += [f"  {change}" for change in result.changes]
    changed = sum(bool(result.changes) for result in results)
    failed = sum(result.error is not None for result in results)
    if not changed and not failed:
        lines.append(f"no upstream changes in {len(results)} vendored module{'s' * (len(results) != 1)}")
    else:
        summary = f"{changed} of {len(results)} vendored modules changed upstream"
        summary += f", {failed} could not be checked" if failed else ""
        lines.append(summary + ("; `vendorgen update` brings the changes in, keeping local edits" if changed else ""))
    return "\n".join(lines) + "\n"


def remote_exit_code(results: Sequence[Upstream]) -> int:
    """The worst error's code (2 for an unreachable source), else 1 when anything changed, else 0."""
    codes = [result.error.exit_code for result in results if result.error is not None]
    return max(codes, default=1 if any(result.changes for result in results) else 0)


# -- diff ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffReport:
    """`vendorgen diff` of one module: upstream changes and local edits apart, and drift."""

    local: LocalState
    upstream: Upstream | None  # None: offline

    @property
    def error(self) -> VendorgenError | None:
        return self.upstream.error if self.upstream is not None else None

    def _drift(self) -> list[str]:
        return [*([self.local.error] if self.local.error else []), *self.local.drift]

    def render(self) -> str:
        entry, local, upstream = self.local.entry, self.local, self.upstream
        sections = []
        if upstream is not None:
            heading = f"upstream changes to {entry.name} since it was locked ({entry.source}):"
            if upstream.error is not None:
                body = [f"  cannot tell: {upstream.error}"]
            elif upstream.changes:
                body = [f"  {change}" for change in upstream.changes] + [upstream.diff().rstrip("\n")]
            else:
                body = ["  none"]
            sections.append("\n".join([heading, *body]))
        heading = f"local edits in {entry.path} (generated from the locked snapshot -> on disk):"
        if local.edited and local.base is not None:
            body = [local.diff().rstrip("\n")]
        else:
            body = ["  none" if local.on_disk is not None else f"  none: {entry.path} is missing"]
        sections.append("\n".join([heading, *body]))
        if drift := self._drift():
            heading = f"drift: the lock no longer describes what this vendorgen writes for {entry.name}:"
            body = [f"  - {problem}" for problem in drift]
            if not local.edited and local.diff():
                body.append(local.diff().rstrip("\n"))
            sections.append("\n".join([heading, *body]))
        return "\n\n".join(sections) + "\n"

    def to_json(self) -> dict[str, Any]:
        entry, local, upstream = self.local.entry, self.local, self.upstream
        return {
            "name": entry.name, "path": entry.path, "source": entry.source, "status": local.status,
            "upstream": None if upstream is None else {"status": upstream.status, "changes": list(upstream.changes),
                                                       "diff": upstream.diff(), "error": str(upstream.error or "")
                                                       or None},
            "local": local.diff() if local.edited else "",
            "drift": self._drift(),
        }  # fmt: skip


def diff_reports(workspace: Workspace, entries: Sequence[LockEntry], offline: bool = False) -> list[DiffReport]:
    """For each module, upstream changes (locked snapshot -> live source) and local edits (generated -> disk)."""
    reinspector = Reinspector(workspace)  # each source read once for all its modules
    return [
        DiffReport(local_state(workspace, entry, regenerate=True), None if offline else reinspector.compare(entry))
        for entry in entries
    ]


# -- update ----------------------------------------------------------------------------------------


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
    note: str = ""
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

    def render(self, dry_run: bool = False) -> str:
        path, name = self.entry.path, self.entry.name
        blocks = f"{self.conflicts} conflict block{'s' * (self.conflicts != 1)} to resolve between <<<<<<< and >>>>>>>"
        done, planned = {
            "restored": (f"restored {path}", f"would restore {path}"),
            "updated": (f"updated {path}", f"would update {path}"),
            "merged": (f"merged {path}, your edits kept", f"would merge {path}, keeping your edits"),
            "conflict": (f"conflict in {path}: {blocks}", f"would conflict in {path}: {blocks}"),
            "refreshed": (f"refreshed the lock entry of {name}", f"would refresh the lock entry of {name}"),
            "up to date": (f"{name} is up to date", f"{name} is up to date"),
        }[self.action]
        lines = [planned if dry_run else done]
        lines += [f"  {change}" for change in self.changes]
        if self.note:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)


@dataclass(frozen=True)
class UpdatePlan:
    steps: list[Step]
    failures: list[tuple[LockEntry, VendorgenError]]
    runtime: RuntimeChanges | None = None  # the runtime modules the updated modules need

    @property
    def writes_runtime(self) -> bool:
        return self.runtime is not None and bool(self.runtime.files or self.runtime.removed)

    @property
    def conflicted(self) -> list[str]:
        return [step.entry.path for step in self.steps if step.action == "conflict"]

    def error(self, dry_run: bool = False) -> VendorgenError | None:
        """What the run ends with: the worst failure's kind (exit code), naming every problem."""
        problems = [f"could not update {entry.name}: {error}" for entry, error in self.failures]
        if self.runtime is not None:
            problems += [f"{note}: resolve the <<<<<<< markers" for note in self.runtime.notes if note.startswith("conflict")]
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
    progress: Callable[[Sequence[LockEntry]], Iterable[LockEntry]] = iter,
) -> UpdatePlan:
    """Regenerate each module from its live source (or its snapshot when `offline`); write nothing.

    New upstream code vendored as it is (a hub tool.py) is taken only with `trust`, as at `add`.
    `progress` wraps the entries for display.
    """
    from vendorgen import runtime_sync

    reinspector = Reinspector(workspace)
    steps, failures = [], []
    for entry in progress(entries):
        try:
            steps.append(_plan_one(workspace, entry, reinspector, offline, trust))
        except VendorgenError as exc:
            failures.append((entry, exc))
    # The runtime is shared by every module beside it, so it follows this vendorgen even for one module;
    # the server module beside them follows what the steps write.
    after = {entry.name: entry for entry in workspace.read_lock()}
    pending: dict[str, str] = {}
    for step in steps:
        after[step.entry.name] = step.new_entry
        pending.update({step.entry.path: step.text} if step.text is not None else {})
        pending.update({step.entry.schema: step.snapshot_text} if step.snapshot_text is not None else {})
    return UpdatePlan(steps, failures, runtime_sync.plan(workspace, after.values(), merge=True, pending=pending))


def _plan_one(workspace: Workspace, entry: LockEntry, reinspector: Reinspector, offline: bool, trust: bool) -> Step:
    from vendorgen import pipeline

    locked = workspace.read_snapshot(entry)
    live = locked if offline else reinspector.snapshot(entry, locked)
    new = _generate(live, workspace)
    on_disk = workspace.read_file(entry.path)
    # Code vendored as it is runs only as the user reviewed it: the file on disk, never the snapshot
    # or the lock, which a pull request can change unread.
    new_code = bool(new.module.original_source) and not _reviewed(on_disk, new, workspace)
    if new_code and not trust:
        if new.module.original_source != _original_source(locked):
            what = f"{entry.source} has new code at {new.module.revision[:12] or 'an unknown revision'}"
        else:
            what = f"{entry.schema} holds code that is not {entry.path} as you reviewed it"
        raise UsageError(
            f"{entry.name}: {what}; read it (`vendorgen diff {entry.name}`), then `vendorgen update {entry.name} --trust`"
        )
    edited = on_disk is not None and sha256_text(on_disk) != entry.sha256
    base = _base(workspace, locked, new, needed=edited)
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
    note = ""
    if edited and written is None:
        # The text vendorgen wrote is gone: what the old vendorgen/templates/settings made reads as an edit.
        note = (f"{entry.path} has local edits and was generated with another vendorgen, other templates or settings,"
                " and git holds no copy of it as written; their changes to it were not merged"
                " (`vendorgen diff --offline` shows the file against them)")  # fmt: skip
    review = new.code if new_code else ""
    return Step(entry, new_entry, on_disk, text, snapshot_text, action, changes, conflicts, note, review)


def _reviewed(on_disk: str | None, new: Generated, workspace: Workspace) -> bool:
    """Whether the code `new` vendors as it is is what the file on disk holds (below vendorgen's header)."""
    from vendorgen.formatter import format_source

    return on_disk is not None and on_disk.endswith(
        format_source(new.module.original_source, workspace.config.line_length)
    )


def _original_source(snapshot: dict[str, Any]) -> str:
    """The third-party code a snapshot vendors as it is (a hub tool.py), else ""."""
    from vendorgen import sources

    return sources.load(snapshot["kind"]).build(snapshot).original_source


def _base(workspace: Workspace, locked: dict[str, Any], new: Generated, needed: bool) -> Generated | None:
    """What the locked snapshot generates now: the merge base, and the 'before' of the changes shown.

    Only an edited file `needed` it; otherwise it is best effort (the config may now exclude it).
    """
    if new.schema_sha256 == sha256_text(canonical_json(locked)):  # offline, or upstream unchanged
        return new
    try:
        return _generate(locked, workspace)
    except VendorgenError:
        if needed:
            raise
        return None


# How far back `written_text` looks in a file's history.
GIT_HISTORY_DEPTH = 50


def written_text(workspace: Workspace, entry: LockEntry) -> str | None:
    """The file exactly as vendorgen last wrote it (the lock's sha256), from git: the index, then its recent commits.

    None when the project is not in a git repository, git is missing, or no version matches
    (the file was edited before it was ever committed).
    """
    import subprocess

    def git(*args: str) -> str | None:
        try:
            result = subprocess.run(["git", "-C", str(workspace.root), *args], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        try:
            return result.stdout.decode("utf-8") if result.returncode == 0 else None
        except UnicodeDecodeError:
            return None

    history = git("log", f"-{GIT_HISTORY_DEPTH}", "--format=%H", "--", entry.path) or ""
    for revision in ["", *history.split()]:  # "" is the index: `git show :./path`
        text = git("show", f"{revision}:./{entry.path}")
        if text is not None and sha256_text(text) == entry.sha256:
            return text
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
        else:
            workspace.commit({**files, **runtime.files}, list(entries.values()), tuple(runtime.removed), runtime.entries)


# -- remove ----------------------------------------------------------------------------------------


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
        from vendorgen import runtime_sync

        gone = {entry.name for entry in chosen}
        kept = [entry for entry in entries if entry.name not in gone]
        runtime = runtime_sync.plan(workspace, kept, force=force)
        deleted += runtime.removed
        workspace.commit(runtime.files, kept, tuple(deleted), runtime.entries)
    return deleted


def _generate(snapshot: dict[str, Any], workspace: Workspace) -> Generated:
    from vendorgen import pipeline  # jinja2, black and libcst: only when something must be regenerated

    return pipeline.generate(snapshot, workspace)
