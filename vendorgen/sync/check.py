"""`vendorgen check`, offline: every locked module against its file, and files that look vendored but are not locked."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vendorgen.naming import shared_tool_names
from vendorgen.package import catalog, copies, serve
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.paths import VENDORED_HEADER
from vendorgen.project.workspace import Workspace
from vendorgen.sync.local import LocalState, local_state, select
from vendorgen.sync.shadowing import shadows
from vendorgen.sync.unowned import unowned_code


@dataclass(frozen=True)
class CheckResult:
    states: list[LocalState]
    extra: list[str]  # files that say they are vendored but that the lock does not list
    allow_edits: bool = False
    runtime: tuple[str, ...] = ()  # problems of the package files (vendorgen.package: copies, serve, catalog)
    shadows: tuple[str, ...] = ()  # what Python would import in place of a lock-owned file (vendorgen.sync.shadowing)
    shared_tools: tuple[str, ...] = ()  # tool names that several modules use
    unowned: tuple[str, ...] = ()  # code in an output package that the lock does not own (vendorgen.sync.unowned)

    @property
    def failing(self) -> list[LocalState]:
        return [state for state in self.states if state.fails(self.allow_edits)]

    @property
    def ok(self) -> bool:
        problems = (self.extra, self.runtime, self.shadows, self.shared_tools, self.unowned)
        return not self.failing and not any(problems)


def check(
    workspace: Workspace, names: Sequence[str] = (), allow_edits: bool = False, render_changed: bool = False
) -> CheckResult:
    """The modules called `names` (default: all) compared with their files, and the extra files
    (`render_changed`: vendorgen.sync.local.unrendered)."""
    entries = workspace.read_lock()
    states = [local_state(workspace, entry, render_changed=render_changed) for entry in select(entries, names)]
    runtime = (
        *copies.problems(workspace, entries, allow_edits),
        *serve.problems(workspace, entries),
        *catalog.problems(workspace, entries),
    )
    owned = [entry.path for entry in entries] + [package_file.path for package_file in workspace.read_runtimes()]
    extra = extra_files(workspace, entries)
    return CheckResult(
        states, extra, allow_edits, runtime, tuple(shadows(workspace, owned)), shared_tools(entries),
        tuple(unowned_code(workspace, owned, extra)),
    )  # fmt: skip


def shared_tools(entries: Iterable[LockEntry]) -> tuple[str, ...]:
    """A tool name in several modules: an agent cannot tell them apart, and `vendorgen serve` refuses them."""
    shared = shared_tool_names({entry.name: entry.tools for entry in entries})
    return tuple(
        f"the tool name {tool} is vendored by {' and '.join(modules)}; re-add one with --prefix P (or --name)"
        for tool, modules in shared.items()
    )


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
