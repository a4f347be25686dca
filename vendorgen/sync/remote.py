"""Re-inspecting sources: each module's locked snapshot against what its source answers now (network).

Only a source that answered and no longer offers what a module was added with makes the module
`Gone`; a source that could not be inspected (unreachable, or a usage error such as an `--env`
variable not set here) is that error, never a module gone upstream.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from vendorgen import sources
from vendorgen.errors import Gone, NotOffered, SourceUnreachable, VendorgenError
from vendorgen.generate import pipeline
from vendorgen.generate.regeneration import regenerate
from vendorgen.interrupts import interrupt, raise_if_interrupted
from vendorgen.project.hashing import canonical_json
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.workspace import Workspace
from vendorgen.review.changes import review_changes
from vendorgen.review.specdiff import describe, snapshot_changes
from vendorgen.sources.base import snapshot_options
from vendorgen.sync.binding import refuse_unreviewed
from vendorgen.sync.merge import unified_diff
from vendorgen.text.formatter import import_black

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Generated
    from vendorgen.sources import AddOptions, Source


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


class Reinspector:
    """Re-inspects sources, once per source and option set (modules often share both).

    A source found unreachable is not contacted again for its other modules: they get the same error.
    """

    def __init__(
        self, workspace: Workspace, move_pins: bool = False, trust: bool = False, prereleases: bool = False
    ) -> None:
        self.workspace = workspace
        self.move_pins = move_pins  # update: a pinned npx/uvx package moves to its registry's latest version
        self.prereleases = prereleases  # --pre: that version may be a prerelease
        self.trust = trust  # --trust: run a source that is not what the reviewed file was generated from
        self.answers: dict[str, list[dict[str, Any]] | VendorgenError] = {}
        self.unreachable: dict[str, SourceUnreachable] = {}

    def snapshot(self, entry: LockEntry, locked: dict[str, Any]) -> dict[str, Any]:
        """The live snapshot of `entry`'s module, inspected with the options it was added with."""
        if not self.trust:
            refuse_unreviewed(self.workspace, entry, locked)
        options = snapshot_options(locked)
        source = _kind(locked).moved_pins(entry.source, locked, self.workspace.root, self.prereleases) if self.move_pins else entry.source
        key = source + "\0" + canonical_json(dataclasses.asdict(options))
        if key not in self.answers:
            self.answers[key] = self.unreachable.get(source) or self._inspect(source, options)
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
        try:
            return pipeline.inspect(source, options, self.workspace)
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
            newer = _kind(locked).newer_pins(
                locked, self.workspace.root, self.prereleases
            )  # a pinned package's newer version is reported, not run
            if canonical_json(live) == canonical_json(locked):
                return Upstream(entry, changes=newer)
            base = regenerate(locked, self.workspace)
            new = regenerate(live, self.workspace)
        except Gone as exc:  # a change, not a failure to check
            return Upstream(entry, changes=(f"- module {entry.name}: {exc}",))
        except VendorgenError as exc:
            return Upstream(entry, error=exc)
        return Upstream(entry, base, new, upstream_changes(base, new) + newer)


def _kind(snapshot: dict[str, Any]) -> Source:
    return sources.load(snapshot["kind"])


def upstream_changes(base: Generated, new: Generated) -> tuple[str, ...]:
    if base.schema_sha256 == new.schema_sha256:
        return ()
    # What a reviewer must see first (annotation flips, new text, new flags), then the schema details.
    first = review_changes(base.module, base.snapshot, new.module, new.snapshot)
    return tuple(first + (describe(base.module, new.module) or snapshot_changes(base.snapshot, new.snapshot)))


# How many sources `check --remote`, `diff` and `update` inspect at once.
REMOTE_CONCURRENCY = 4

T = TypeVar("T")


def per_source(
    entries: Sequence[LockEntry], work: Callable[[LockEntry], T], progress: Callable[[int], object] = lambda done: None
) -> list[T]:
    """`work(entry)` for each entry, in order: the modules of one source in turn, up to REMOTE_CONCURRENCY
    sources at once. `progress(n)` is called (in this thread) as each source's n modules are done."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    import_black()  # the work regenerates modules, in several threads
    by_source: dict[str, list[LockEntry]] = {}
    for entry in entries:
        by_source.setdefault(entry.source, []).append(entry)
    done: dict[str, T] = {}
    with ThreadPoolExecutor(max_workers=max(1, min(REMOTE_CONCURRENCY, len(by_source)))) as pool:
        futures = {pool.submit(lambda group: [_unless_interrupted(work, entry) for entry in group], group): group
                   for group in by_source.values()}  # fmt: skip
        try:
            for future in as_completed(futures):
                results = future.result()
                done.update((entry.name, result) for entry, result in zip(futures[future], results))
                progress(len(results))
        except KeyboardInterrupt:  # the sources being read stop now, the others are not contacted
            interrupt()
            pool.shutdown(cancel_futures=True)  # and waits for the readers, which end their servers
            raise
    return [done[entry.name] for entry in entries]


def _unless_interrupted(work: Callable[[LockEntry], T], entry: LockEntry) -> T:
    """`work(entry)`, not begun after Ctrl-C (a registry asked, a server started)."""
    raise_if_interrupted()
    return work(entry)


def check_remote(
    workspace: Workspace,
    entries: Sequence[LockEntry],
    progress: Callable[[int], object] = lambda done: None,
    trust: bool = False,
    prereleases: bool = False,
) -> list[Upstream]:
    """Each module compared with its source, several sources at once (`per_source`)."""
    return per_source(entries, Reinspector(workspace, trust=trust, prereleases=prereleases).compare, progress)


@dataclass(frozen=True)
class SourceError:
    """One source's error, with the modules that share it (all of them when the source is unreachable)."""

    source: str
    modules: list[str]
    message: str


def source_errors(results: Sequence[Upstream]) -> list[SourceError]:
    """One error per source and message, in order."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for result in results:
        if result.error is not None:
            grouped.setdefault((result.entry.source, str(result.error)), []).append(result.entry.name)
    return [SourceError(source, names, message) for (source, message), names in grouped.items()]


def remote_exit_code(results: Sequence[Upstream]) -> int:
    """The worst error's code (2 for an unreachable source), else 1 when anything changed, else 0."""
    codes = [result.error.exit_code for result in results if result.error is not None]
    return max(codes, default=1 if any(result.changes for result in results) else 0)
