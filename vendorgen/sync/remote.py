"""Re-inspecting sources: each module's locked snapshot against what its source answers now (network).

Only a source that answered and no longer offers what a module was added with makes the module
`Gone`; a source that could not be inspected (unreachable, or a usage error such as an `--env`
variable not set here) is that error, never a module gone upstream.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vendorgen.sources import pins
from vendorgen.errors import NotOffered, SourceUnreachable, VendorgenError
from vendorgen.project.hashing import canonical_json
from vendorgen.sync.merge import unified_diff
from vendorgen.sync.local import regenerate
from vendorgen.project.workspace import LockEntry, Workspace

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Generated
    from vendorgen.sources import AddOptions


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


class Gone(VendorgenError):
    """The source answers but no longer offers a vendored module."""


class Reinspector:
    """Re-inspects sources, once per source and option set (modules often share both).

    A source found unreachable is not contacted again for its other modules: they get the same error.
    """

    def __init__(self, workspace: Workspace, move_pins: bool = False) -> None:
        self.workspace = workspace
        self.move_pins = move_pins  # update: a pinned npx/uvx package moves to its registry's latest version
        self.answers: dict[str, list[dict[str, Any]] | VendorgenError] = {}
        self.unreachable: dict[str, SourceUnreachable] = {}

    def snapshot(self, entry: LockEntry, locked: dict[str, Any]) -> dict[str, Any]:
        """The live snapshot of `entry`'s module, inspected with the options it was added with."""
        options = snapshot_options(locked)
        source = pins.moved(entry.source, locked) if self.move_pins else entry.source
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
        from vendorgen.generate import pipeline

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
            newer = pins.newer(locked)  # a pinned package's newer version is reported, not run
            if canonical_json(live) == canonical_json(locked):
                return Upstream(entry, changes=newer)
            base = regenerate(locked, self.workspace)
            new = regenerate(live, self.workspace)
        except Gone as exc:  # a change, not a failure to check
            return Upstream(entry, changes=(f"- module {entry.name}: {exc}",))
        except VendorgenError as exc:
            return Upstream(entry, error=exc)
        return Upstream(entry, base, new, upstream_changes(base, new) + newer)


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
    from vendorgen.sync.specdiff import describe, snapshot_changes

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
