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
fsync, rename). A journal is obeyed only within bounds, or refused: inside the
project, renaming only staged names (never the user's) and deleting only what
the lock lists.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from vendorgen.config import load_config
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.runtime import RuntimeEntry

LOCK_NAME = "vendorgen.lock"
STATE_DIR = ".vendorgen"
SCHEMAS_DIR = f"{STATE_DIR}/schemas"
JOURNAL_NAME = f"{STATE_DIR}/journal.json"
_JOURNAL_TEMP = f"{STATE_DIR}/.journal.json.tmp"  # what _replace_durably writes before renaming
STAGED_SUFFIX = ".vendorgen-new"
_STAGING, _COMMITTED = "staging", "committed"  # the journal's states
LOCK_VERSION = 1


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical_json(value: Any) -> str:
    """The bytes a schema hash is taken over: no whitespace, ASCII, keys in their order.

    Key order is kept, not sorted: a schema's property order is its parameter order.
    """
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def find_root(start: Path | None = None) -> Path:
    """The nearest directory holding pyproject.toml or .git; else the start directory."""
    start = (start or Path.cwd()).resolve()
    for directory in (start, *start.parents):
        if (directory / "pyproject.toml").is_file() or (directory / ".git").exists():
            return directory
    return start


@dataclass(frozen=True)
class LockEntry:
    """One generated module as the lock records it."""

    name: str
    kind: str
    source: str
    endpoints: tuple[str, ...]
    tools: tuple[str, ...]
    revision: str
    schema: str  # snapshot path, relative to the root
    schema_sha256: str
    path: str  # generated file, relative to the root
    sha256: str
    generator: str
    templates: str
    requirements: tuple[str, ...] = ()  # what the module needs installed (ModuleSpec.requirements)

    FIELDS = ("name", "kind", "source", "endpoints", "tools", "revision", "schema", "schema_sha256", "path",
              "sha256", "generator", "templates", "requirements")  # fmt: skip
    OPTIONAL = ("requirements",)  # absent from locks written before it existed

    @classmethod
    def from_toml(cls, table: dict[str, Any]) -> LockEntry:
        try:
            values = {key: table[key] for key in cls.FIELDS if key in table or key not in cls.OPTIONAL}
        except KeyError as exc:
            raise VendorgenError(f"{LOCK_NAME}: entry {table.get('name', '?')!r} lacks {exc.args[0]}") from None
        for key in ("endpoints", "tools", "requirements"):
            if key in values:
                values[key] = tuple(values[key])
        return cls(**values)


def dump_lock(entries: list[LockEntry], runtimes: Iterable[RuntimeEntry] = ()) -> str:
    lines = [
        "# Written by vendorgen: what is vendored, from where, and the hashes that tell edits from drift.",
        f"version = {LOCK_VERSION}",
    ]
    for entry in sorted(entries, key=lambda e: e.name):
        lines += ["", "[[module]]"]
        for key in LockEntry.FIELDS:
            value = getattr(entry, key)
            if isinstance(value, tuple):
                rendered = "[" + ", ".join(_toml_string(item) for item in value) + "]"
            else:
                rendered = _toml_string(value)
            lines.append(f"{key} = {rendered}")
    for runtime in sorted(runtimes, key=lambda r: r.path):
        lines += ["", "[[runtime]]"]
        lines += [f"{key} = {_toml_string(getattr(runtime, key))}" for key in RuntimeEntry.FIELDS]
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    # JSON escapes are valid TOML basic-string escapes; TOML also forbids raw DEL.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


class Workspace:
    """A project root with its lock, snapshots and config."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.config = load_config(root)
        self._holding_mutex = False

    @classmethod
    def discover(cls, start: Path | None = None) -> Workspace:
        return cls(find_root(start))

    # -- paths -------------------------------------------------------------

    def inside(self, path: Path, what: str) -> Path:
        """`path` resolved against the root, refused if it leaves the project."""
        resolved = (self.root / path).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise UsageError(f"{what} {path} is outside the project {self.root}")
        return resolved

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.root).as_posix()

    def templates_dir(self) -> Path | None:
        return self.config.templates_dir

    # -- lock --------------------------------------------------------------

    def read_lock(self) -> list[LockEntry]:
        self._settle()
        return self._parse_lock()

    def read_runtimes(self) -> list[RuntimeEntry]:
        """The runtime modules the lock owns (vendorgen.runtime)."""
        self._settle()
        return self._parse_runtimes()

    def _parse_lock(self) -> list[LockEntry]:
        return [LockEntry.from_toml(table) for table in self._lock_data().get("module", [])]

    def _parse_runtimes(self) -> list[RuntimeEntry]:
        try:
            return [RuntimeEntry(**{key: str(table[key]) for key in RuntimeEntry.FIELDS}) for table in self._lock_data().get("runtime", [])]
        except (KeyError, TypeError) as exc:
            raise VendorgenError(f"{LOCK_NAME}: a [[runtime]] entry lacks {exc}") from None

    def _lock_data(self) -> dict[str, Any]:
        path = self.root / LOCK_NAME
        if not path.is_file():
            return {}
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise VendorgenError(f"{LOCK_NAME} is not valid TOML: {exc}") from None
        if data.get("version") != LOCK_VERSION:
            raise VendorgenError(f"{LOCK_NAME} has version {data.get('version')!r}; this vendorgen reads {LOCK_VERSION}")
        return data

    def read_snapshot(self, entry: LockEntry) -> dict[str, Any]:
        path = self.inside(Path(entry.schema), "schema snapshot")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise VendorgenError(f"cannot read the snapshot of {entry.name}: {exc}") from None

    def _settle(self) -> None:
        """Before reading: finish or undo what an interrupted vendorgen left, so the lock matches the files.

        Commands that only read take the mutex just for that, and only when a journal is there.
        """
        if not self._holding_mutex and any((self.root / name).exists() for name in (JOURNAL_NAME, _JOURNAL_TEMP)):
            with self.mutex():
                pass

    # -- writing -----------------------------------------------------------

    @contextlib.contextmanager
    def mutex(self, timeout: float = 30.0) -> Iterator[None]:
        """One vendorgen writing this project at a time; what an interrupted one left is settled first."""
        # The lock is taken on the project directory itself: no file is created, in the project or
        # elsewhere, and every user who can read the project can take it.
        descriptor = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise VendorgenError("another vendorgen is writing this project; try again") from None
                    time.sleep(0.05)
            self._holding_mutex = True
            try:
                self.recover()
                yield
            finally:
                self._holding_mutex = False
        finally:
            os.close(descriptor)  # releases the lock

    def commit(
        self,
        files: dict[str, str],
        entries: list[LockEntry],
        removed: tuple[str, ...] = (),
        runtimes: list[RuntimeEntry] | None = None,
    ) -> None:
        """Write `files` (root-relative path -> text), delete `removed`, then the new lock.

        `runtimes`: the lock's runtime entries after this; None keeps them as they are.
        Call inside `mutex()`. All or nothing: see the module docstring.
        """
        if runtimes is None:
            runtimes = self._parse_runtimes()
        staged_files = []  # (staged name, target, text)
        for relative in sorted(files):
            final = self.relative(self.inside(Path(relative), "output"))
            staged_files.append((_staged_name(final), final, files[relative]))
        for staged, _, _ in staged_files:
            if (self.root / staged).exists():
                raise VendorgenError(f"{staged} is in the way: vendorgen stages files under that name; move it")
        journal = {
            "state": _STAGING,
            "renames": [[staged, final] for staged, final, _ in staged_files],
            "removed": [self.relative(self.inside(Path(relative), "vendored file")) for relative in removed],
            "lock": dump_lock(entries, runtimes),
            "created": self._missing_directories(
                [self.root / STATE_DIR, *((self.root / final).parent for _, final, _ in staged_files)]
            ),
        }
        try:
            self._make_directory(self.root / STATE_DIR)
            self._replace(JOURNAL_NAME, json.dumps(journal, indent=1))
            for staged, final, text in staged_files:
                self._make_directory((self.root / final).parent)
                self._attempt(f"write {final}", _create_durably, self.root / staged, text)
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

    def recover(self) -> bool:
        """Settle what an interrupted commit left: finish it once committed, else undo it. Call inside `mutex()`.

        False when there was no journal, so nothing to do.
        """
        (self.root / _JOURNAL_TEMP).unlink(missing_ok=True)
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
            if (self.root / staged).exists():  # else it was renamed before the interruption
                self._attempt(f"move {staged} to {final}", os.replace, self.root / staged, self.root / final)
        for relative in journal["removed"]:
            self._attempt(f"delete {relative}", (self.root / relative).unlink, missing_ok=True)
        changed = {(self.root / final).parent for _, final in journal["renames"]}
        changed |= {(self.root / relative).parent for relative in journal["removed"]}
        for directory in changed:  # the renames and deletions are durable before the lock says they happened
            _sync_directory(directory)
        self._replace(LOCK_NAME, journal["lock"])
        self._attempt(f"delete {JOURNAL_NAME}", (self.root / JOURNAL_NAME).unlink)
        _sync_directory(self.root / STATE_DIR)

    def _roll_back(self, journal: dict[str, Any]) -> None:
        for staged, _ in journal["renames"]:
            self._attempt(f"delete {staged}", (self.root / staged).unlink, missing_ok=True)
        self._attempt(f"delete {JOURNAL_NAME}", (self.root / JOURNAL_NAME).unlink, missing_ok=True)
        for relative in sorted(journal["created"], key=lambda path: path.count("/"), reverse=True):
            with contextlib.suppress(OSError):  # not empty: something else lives there now
                (self.root / relative).rmdir()

    def _read_journal(self) -> dict[str, Any] | None:
        """The journal, checked to name only what vendorgen stages, creates and deletes in this project."""
        try:
            journal = json.loads((self.root / JOURNAL_NAME).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise VendorgenError(f"cannot read {JOURNAL_NAME}: {exc}") from None
        try:
            if journal["state"] not in (_STAGING, _COMMITTED) or not isinstance(journal["lock"], str):
                raise ValueError("unknown state")
            for staged, final in journal["renames"]:
                if staged != _staged_name(final):
                    raise ValueError(f"{staged!r} is not the staged name of {final!r}")
            for relative in [final for _, final in journal["renames"]] + journal["removed"] + journal["created"]:
                self.inside(Path(relative), "path")
            owned = {path for entry in self._parse_lock() for path in (entry.path, entry.schema)}
            owned |= {runtime.path for runtime in self._parse_runtimes()}
            for relative in journal["removed"]:
                if relative not in owned and (self.root / relative).exists():
                    raise ValueError(f"it would delete {relative}, which {LOCK_NAME} does not list")
        except (KeyError, TypeError, ValueError, VendorgenError) as exc:
            raise VendorgenError(
                f"{JOURNAL_NAME} is damaged or not vendorgen's ({exc}); nothing was changed: check the files"
                f" against {LOCK_NAME}, then delete it"
            ) from None
        return journal

    def _missing_directories(self, directories: list[Path]) -> list[str]:
        """Those of `directories` and their parents that do not exist yet, root-relative."""
        missing: set[Path] = set()
        for directory in directories:
            while directory != self.root and not directory.exists():
                missing.add(directory)
                directory = directory.parent
        return sorted(self.relative(directory) for directory in missing)

    def _make_directory(self, directory: Path) -> None:
        self._attempt(f"create {self.relative(directory)}/", directory.mkdir, parents=True, exist_ok=True)

    def _replace(self, relative: str, text: str) -> None:
        self._attempt(f"write {relative}", _replace_durably, self.root / relative, text)

    @staticmethod
    def _attempt(what: str, action: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """`action(*args, **kwargs)`, its OSError as one line saying what could not be done and why."""
        try:
            action(*args, **kwargs)
        except OSError as exc:
            raise VendorgenError(f"cannot {what}: {exc.strerror or exc}") from None


def _staged_name(relative: str) -> str:
    """Where `relative` is written before it is renamed into place: beside it, hidden."""
    path = PurePosixPath(relative)
    return str(path.with_name(f".{path.name}{STAGED_SUFFIX}"))


def _create_durably(path: Path, text: str) -> None:
    """A new file (never over an existing one) holding `text` on disk."""
    with open(path, "x", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _replace_durably(path: Path, text: str) -> None:
    """`path` replaced atomically by a file holding `text` on disk."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_directory(path.parent)


def _sync_directory(directory: Path) -> None:
    """Make the renames and deletions in `directory` durable (fsync of the directory itself)."""
    with contextlib.suppress(FileNotFoundError):
        descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
