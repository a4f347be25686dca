"""The one place that touches the user's project: config, files, snapshots and the lock.

Writes are transactions, one at a time under a lock on the project directory
(`Workspace.mutex`):

1. the journal (`.vendorgen/journal.json`) is written in the *staging* state:
   every file about to be written, every directory about to be created, every
   file to delete and the new lock;
2. each new file is written beside its target as `.<name>.vendorgen-new`;
3. the journal is rewritten in the *committed* state;
4. the staged files are renamed over their targets, deletions happen, the lock
   is written last and the journal is deleted.

A run killed before step 3 left a staging journal: the next vendorgen command
deletes what it staged and the directories it created (the project is as it
was). A run killed after step 3 left a committed journal: the next command
finishes it (the project is fully updated). Every command settles a journal
before it reads the lock, readers included, so the lock always matches the
files. The journal and the lock are replaced atomically (temporary file,
fsync, rename). A journal is obeyed only within bounds, or refused: renaming
only staged names onto files the new lock may own, deleting only what the lock
lists, each checked by the rule every write follows (vendorgen.project.paths).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import filelock

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.config import load_config
from vendorgen.project.lock_holder import lock_holder
from vendorgen.project.lockfile import LockEntry, RuntimeEntry, dump_lock, lock_owns, parse_lock_text
from vendorgen.project.paths import (
    JOURNAL_NAME,
    LOCK_NAME,
    SCHEMAS_DIR,
    STATE_DIR,
    VENDORED_HEADER,
    Project,
    find_root,
    package_file,
    relative_parts,
)
from vendorgen.text.pysource import check_as_written, python_text
from vendorgen.waits import NO_WAITS, Waits

_JOURNAL_TEMP = f"{STATE_DIR}/.journal.json.tmp"  # what _replace_durably writes before renaming the journal
STAGED_SUFFIX = ".vendorgen-new"
_STAGING, _COMMITTED = "staging", "committed"  # the journal's states


class Workspace:
    """A project root with its lock, snapshots and config."""

    def __init__(self, root: Path, waits: Waits = NO_WAITS) -> None:
        self.root = root
        self.project = Project(root)
        self.config = load_config(root)
        self.waits = waits  # where a long wait is shown: for the project lock, and for inspections run for it
        self._holding_mutex = False

    @classmethod
    def discover(cls, start: Path | None = None, waits: Waits = NO_WAITS) -> Workspace:
        return cls(find_root(start), waits)

    # -- paths -------------------------------------------------------------

    def inside(self, path: Path, what: str) -> Path:
        """The directory `path` (relative to the root, or absolute), refused if it leaves the project or is reached through a link."""
        absolute = Path(os.path.normpath(self.root / path))
        if absolute == self.root:
            return absolute
        if self.root not in absolute.parents:
            raise UsageError(f"{what} {path} is outside the project {self.root}")
        return self.project.reach(self.relative(absolute), directory=True)

    def relative(self, path: Path) -> str:
        """`path` relative to the root, as written (links are not resolved: `Project.reach` refuses them)."""
        absolute = Path(os.path.abspath(path))
        if absolute != self.root and self.root not in absolute.parents:
            raise UsageError(f"{path} is outside the project {self.root}")
        return absolute.relative_to(self.root).as_posix()

    def templates_dir(self) -> Path | None:
        return self.config.templates_dir

    # -- lock --------------------------------------------------------------

    def read_lock(self) -> list[LockEntry]:
        self._settle()
        return self._parse_lock()

    def read_runtimes(self) -> list[RuntimeEntry]:
        """The package files the lock owns: run-time files (vendorgen.package.files), servers (vendorgen.package.serve)."""
        self._settle()
        return self._parse_runtimes()

    def _parse_lock(self) -> list[LockEntry]:
        text = self.project.read_text(LOCK_NAME)
        return [] if text is None else parse_lock_text(text)[0]

    def _parse_runtimes(self) -> list[RuntimeEntry]:
        text = self.project.read_text(LOCK_NAME)
        return [] if text is None else parse_lock_text(text)[1]

    def read_file(self, relative: str) -> str | None:
        """A file the lock owns, None when it is missing; a module as Python reads it (see pysource)."""
        if not relative.endswith(".py"):
            return self.project.read_text(relative)
        data = self.project.read_bytes(relative)
        return None if data is None else python_text(data, relative)

    def read_snapshot(self, entry: LockEntry) -> dict[str, Any]:
        try:
            text = self.project.read_text(entry.schema)
            if text is None:
                raise VendorgenError(f"{entry.schema} is missing")
            snapshot = json.loads(text)
        except (VendorgenError, json.JSONDecodeError) as exc:
            raise VendorgenError(f"cannot read the snapshot of {entry.name}: {exc}") from None
        if not isinstance(snapshot, dict):
            raise VendorgenError(f"cannot read the snapshot of {entry.name}: it is not a JSON object")
        return snapshot

    def _settle(self) -> None:
        """Before reading: finish or undo what an interrupted vendorgen left, so the lock matches the files.

        Commands that only read take the mutex just for that, and only when a journal is there.
        """
        if not self._holding_mutex and any(os.path.lexists(self.root / name) for name in (JOURNAL_NAME, _JOURNAL_TEMP)):
            with self.mutex():
                pass

    # -- writing -----------------------------------------------------------

    @contextlib.contextmanager
    def mutex(self, timeout: float = 30.0) -> Iterator[None]:
        """One vendorgen writing this project at a time; what an interrupted one left is settled first."""
        # The lock is taken on the project directory itself: no file is created, in the project or
        # elsewhere, and every user who can read the project can take it.
        descriptor = os.open(self.root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            if not filelock.lock_descriptor(descriptor, blocking=False):
                self._wait_for_mutex(descriptor, timeout)
            self._holding_mutex = True
            try:
                self.recover()
                yield
            finally:
                self._holding_mutex = False
        finally:
            os.close(descriptor)  # releases the lock

    def _wait_for_mutex(self, descriptor: int, timeout: float) -> None:
        """Take the project lock another process holds, saying so on a terminal after a second (as for sources)."""
        holder = lock_holder(descriptor)
        held_by = f" (process {holder})" if holder else ""
        deadline = time.monotonic() + timeout
        with self.waits.shown(f"the project lock of {self.root}, held by another vendorgen{held_by}"):
            while not filelock.lock_descriptor(descriptor, blocking=False):
                if time.monotonic() > deadline:
                    raise VendorgenError(f"another vendorgen{held_by} is writing this project; try again")
                time.sleep(0.05)

    def commit(
        self,
        files: dict[str, str],
        entries: list[LockEntry],
        removed: tuple[str, ...] = (),
        runtimes: list[RuntimeEntry] | None = None,
    ) -> None:
        """Write `files` (root-relative path -> text), delete `removed`, then the new lock.

        `runtimes`: the lock's package files (`[[runtime]]`) after this; None keeps them as they are.
        Call inside `mutex()`. Only what the new lock may own is written and only what the current
        one owns is deleted. All or nothing: see the module docstring.
        """
        current, current_runtimes = self._parse_lock(), self._parse_runtimes()
        if runtimes is None:
            runtimes = current_runtimes
        for runtime in runtimes:
            package_file(runtime.path, [entry.path for entry in entries])
        owned = lock_owns(entries, runtimes)  # checks the new entries' names and files before anything is written
        current_owned = lock_owns(current, current_runtimes)
        for relative in files:
            if relative not in owned:
                raise VendorgenError(f"vendorgen does not write {relative}: {LOCK_NAME} would not own it")
        for relative in removed:
            if relative not in current_owned:
                raise VendorgenError(f"vendorgen does not delete {relative}: {LOCK_NAME} does not own it")
        modules = {entry.path for entry in (*entries, *current)}
        for relative in (*files, *removed):
            self._check_replaceable(relative, modules)
        staged_files = [(_staged_name(final), final, files[final]) for final in sorted(files)]
        for staged, _, _ in staged_files:
            if self.project.exists(staged):
                raise VendorgenError(f"{staged} is in the way: vendorgen stages files under that name; move it")
        journal = {
            "state": _STAGING,
            "renames": [[staged, final] for staged, final, _ in staged_files],
            "removed": list(removed),
            "lock": dump_lock(entries, runtimes),
            "created": self._missing_directories([STATE_DIR, *(_parent(final) for _, final, _ in staged_files)]),
        }
        try:
            self.project.make_directory(STATE_DIR)
            self._replace(JOURNAL_NAME, json.dumps(journal, indent=1))
            for staged, final, text in staged_files:
                if parent := _parent(final):
                    self.project.make_directory(parent)
                self._attempt(f"write {final}", _create_durably, self.project.reach(staged), text)
            journal["state"] = _COMMITTED
            self._replace(JOURNAL_NAME, json.dumps(journal, indent=1))
        except BaseException:
            # Settle by what the disk says: the interruption may even have come just after the commit.
            with contextlib.suppress(VendorgenError):  # what cannot be settled now, the next command settles
                if not self.recover():
                    self._roll_back(journal)  # the journal never landed: only directories to remove
            raise
        try:
            self._roll_forward(journal)
        except VendorgenError as exc:
            raise VendorgenError(f"{exc}; the next vendorgen command in this project finishes the update") from None

    def _check_replaceable(self, relative: str, modules: set[str]) -> None:
        """A file vendorgen replaces or deletes is reached without a link; a module file is one it wrote (its header)."""
        exists = self.project.exists(relative)
        if relative in modules and exists and not self.project.looks_vendored(relative):
            raise UsageError(
                f"{relative} does not start with {VENDORED_HEADER!r}, so vendorgen did not write it;"
                " it replaces or deletes only files it wrote"
            )

    def recover(self) -> bool:
        """Settle what an interrupted commit left: finish it once committed, else undo it. Call inside `mutex()`.

        False when there was no journal, so nothing to do.
        """
        # A leftover temporary file, or a committed link under its name: the entry itself goes, never a target.
        temporary = self.project.reach(STATE_DIR, directory=True) / PurePosixPath(_JOURNAL_TEMP).name
        self._attempt(f"delete {_JOURNAL_TEMP}", _unlink_if_present, temporary)
        journal = self._read_journal()
        if journal is None:
            return False
        try:
            (self._roll_forward if journal["state"] == _COMMITTED else self._roll_back)(journal)
        except VendorgenError as exc:
            raise VendorgenError(f"an interrupted vendorgen left {JOURNAL_NAME}; cannot settle it: {exc}") from None
        return True

    def _roll_forward(self, journal: dict[str, Any]) -> None:
        for staged, final in journal["renames"]:
            source = self.project.reach(staged)
            if os.path.lexists(source):  # else it was renamed before the interruption
                self._attempt(f"move {staged} to {final}", os.replace, source, self.project.reach(final))
        for relative in journal["removed"]:
            self._attempt(f"delete {relative}", _unlink_if_present, self.project.reach(relative))
        changed = {_parent(final) for _, final in journal["renames"]} | {_parent(path) for path in journal["removed"]}
        for directory in changed:  # the renames and deletions are durable before the lock says they happened
            _sync_directory(self.root / directory)
        self._replace(LOCK_NAME, journal["lock"])
        self._attempt(f"delete {JOURNAL_NAME}", _unlink_if_present, self.project.reach(JOURNAL_NAME))
        _sync_directory(self.root / STATE_DIR)

    def _roll_back(self, journal: dict[str, Any]) -> None:
        for staged, _ in journal["renames"]:
            self._attempt(f"delete {staged}", _unlink_if_present, self.project.reach(staged))
        self._attempt(f"delete {JOURNAL_NAME}", _unlink_if_present, self.project.reach(JOURNAL_NAME))
        for relative in sorted(journal["created"], key=lambda path: path.count("/"), reverse=True):
            with contextlib.suppress(OSError):  # not empty: something else lives there now
                os.rmdir(self.project.reach(relative, directory=True))

    def _read_journal(self) -> dict[str, Any] | None:
        """The journal, checked by the rule every write follows before anything is undone or redone."""
        try:
            text = self.project.read_text(JOURNAL_NAME)
            if text is None:
                return None
            journal = json.loads(text)
        except (VendorgenError, ValueError) as exc:
            raise VendorgenError(f"cannot read {JOURNAL_NAME}: {exc}") from None
        try:
            self._check_journal(journal)
        except (KeyError, TypeError, ValueError, VendorgenError) as exc:
            raise VendorgenError(
                f"{JOURNAL_NAME} is damaged or not vendorgen's ({exc}); nothing was changed: check the files"
                f" against {LOCK_NAME}, then delete it"
            ) from None
        return journal

    def _check_journal(self, journal: Any) -> None:
        """Renames only onto files the journal's new lock may own, deletions only of what the lock owns."""
        if journal["state"] not in (_STAGING, _COMMITTED) or not isinstance(journal["lock"], str):
            raise ValueError("unknown state")
        journal["lock"].encode("utf-8")  # a lone surrogate would fail the write halfway through the replay
        new, new_runtimes = parse_lock_text(journal["lock"])
        owned = lock_owns(new, new_runtimes)
        current = self._parse_lock()
        modules = {entry.path for entry in (*new, *current)}
        for staged, final in journal["renames"]:
            if staged != _staged_name(final):
                raise ValueError(f"{staged!r} is not the staged name of {final!r}")
            if final not in owned:
                raise ValueError(f"it would write {final}, which its {LOCK_NAME} does not own")
            self.project.reach(staged)  # a regular file or missing, not reached through a link
            self._check_replaceable(final, modules)
            if journal["state"] == _COMMITTED:
                self._check_staged_text(staged, final)
        current_owned = lock_owns(current, self._parse_runtimes())
        for relative in journal["removed"]:
            if relative not in current_owned and self.project.exists(relative):
                raise ValueError(f"it would delete {relative}, which {LOCK_NAME} does not own")
            self._check_replaceable(relative, modules)
        directories = {STATE_DIR, SCHEMAS_DIR} | {
            "/".join(relative_parts(final)[:index]) for final in owned for index in range(1, final.count("/") + 1)
        }
        for relative in journal["created"]:
            if relative not in directories:
                raise ValueError(f"it would remove the directory {relative}, which holds nothing vendorgen writes")

    def _check_staged_text(self, staged: str, final: str) -> None:
        """What a replayed rename puts at `final`, checked as the gate checks a fresh write: UTF-8
        text, and for a Python file the same text when Python reads it (PEP 263: no other declared
        encoding, no byte order mark), so a planted journal cannot land a file the gate refuses."""
        data = self.project.read_bytes(staged)
        if data is None:
            return  # renamed before the interruption: nothing left to write
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{staged} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        if final.endswith(".py"):
            check_as_written(text, staged)

    def _missing_directories(self, directories: list[str]) -> list[str]:
        """Those of `directories` (root-relative, "" for the root) and their parents that do not exist yet."""
        missing: set[str] = set()
        for directory in filter(None, directories):
            parts = relative_parts(directory)
            for index in range(1, len(parts) + 1):
                partial = "/".join(parts[:index])
                if not os.path.lexists(self.project.reach(partial, directory=True)):
                    missing.add(partial)
        return sorted(missing)

    def _replace(self, relative: str, text: str) -> None:
        self._attempt(f"write {relative}", _replace_durably, self.project.reach(relative), text)

    @staticmethod
    def _attempt(what: str, action: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """`action(*args, **kwargs)`, its OSError as one line saying what could not be done and why."""
        try:
            action(*args, **kwargs)
        except OSError as exc:
            raise VendorgenError(f"cannot {what}: {exc.strerror or exc}") from None


def _parent(relative: str) -> str:
    """The directory of a root-relative path, "" for the root."""
    parent = PurePosixPath(relative).parent.as_posix()
    return "" if parent == "." else parent


def _staged_name(relative: str) -> str:
    """Where `relative` is written before it is renamed into place: beside it, hidden."""
    path = PurePosixPath(relative)
    return str(path.with_name(f".{path.name}{STAGED_SUFFIX}"))


# Created exclusively and never through a link: a committed file or link under a name vendorgen
# writes fails the open instead of being written to.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _create_durably(path: Path, text: str) -> None:
    """A new file (never over an existing one) holding `text` on disk."""
    with open(os.open(path, _NEW_FILE, 0o666), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _replace_durably(path: Path, text: str) -> None:
    """`path` replaced atomically by a file holding `text` on disk."""
    temporary = path.with_name(f".{path.name}.tmp")
    _unlink_if_present(temporary)  # left by a killed run, or committed: only vendorgen's own name is removed
    try:
        _create_durably(temporary, text)
        os.replace(temporary, path)
    except BaseException:
        _unlink_if_present(temporary)
        raise
    _sync_directory(path.parent)


def _unlink_if_present(path: Path) -> None:
    """Delete the directory entry `path` (a link itself, never its target); a name too long cannot exist."""
    try:
        os.unlink(path)
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENAMETOOLONG):
            raise


def _sync_directory(directory: Path) -> None:
    """Make the renames and deletions in `directory` durable (fsync of the directory itself)."""
    with contextlib.suppress(FileNotFoundError):
        descriptor = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
