"""The one place that touches the user's project: config, files, snapshots and the lock.

Writes are transactional. New files are written beside their targets, then a
journal listing every rename (and the new lock) is written, then the renames
happen and the lock goes last. A run killed at any point leaves either the old
state or a journal that the next run replays, so the lock always matches the
files and nothing is half-written.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vendorgen.config import load_config
from vendorgen.errors import UsageError, VendorgenError

LOCK_NAME = "vendorgen.lock"
STATE_DIR = ".vendorgen"
SCHEMAS_DIR = f"{STATE_DIR}/schemas"
JOURNAL_NAME = f"{STATE_DIR}/journal.json"
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


def dump_lock(entries: list[LockEntry]) -> str:
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
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    # JSON escapes are valid TOML basic-string escapes; TOML also forbids raw DEL.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


class Workspace:
    """A project root with its lock, snapshots and config."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.config = load_config(root)

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
        path = self.root / LOCK_NAME
        if not path.is_file():
            return []
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise VendorgenError(f"{LOCK_NAME} is not valid TOML: {exc}") from None
        if data.get("version") != LOCK_VERSION:
            raise VendorgenError(f"{LOCK_NAME} has version {data.get('version')!r}; this vendorgen reads {LOCK_VERSION}")
        return [LockEntry.from_toml(table) for table in data.get("module", [])]

    def read_snapshot(self, entry: LockEntry) -> dict[str, Any]:
        path = self.inside(Path(entry.schema), "schema snapshot")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise VendorgenError(f"cannot read the snapshot of {entry.name}: {exc}") from None

    # -- writing -----------------------------------------------------------

    @contextlib.contextmanager
    def mutex(self, timeout: float = 30.0) -> Iterator[None]:
        """One vendorgen writing this project at a time; a stale journal is replayed first."""
        # The mutex lives outside the project, so a failed command leaves no trace there.
        key = hashlib.sha256(str(self.root).encode()).hexdigest()[:16]
        with open(Path(tempfile.gettempdir()) / f"vendorgen-{key}.mutex", "a+") as handle:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise VendorgenError("another vendorgen is writing this project; try again") from None
                    time.sleep(0.05)
            try:
                self.recover()
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def commit(self, files: dict[str, str], entries: list[LockEntry], removed: tuple[str, ...] = ()) -> None:
        """Write `files` (root-relative path -> text), delete `removed`, then the new lock.

        Call inside `mutex()`. All or nothing: see the module docstring.
        """
        renames: list[tuple[str, str]] = []
        try:
            for relative, text in sorted(files.items()):
                target = self.inside(Path(relative), "output")
                target.parent.mkdir(parents=True, exist_ok=True)
                staged = target.with_name(f".{target.name}.vendorgen-new")
                _write_durably(staged, text)
                renames.append((self.relative(staged), relative))
            lock_text = dump_lock(entries)
            journal = {"renames": renames, "removed": list(removed), "lock": lock_text}
            (self.root / STATE_DIR).mkdir(exist_ok=True)
            _write_durably(self.root / JOURNAL_NAME, json.dumps(journal, indent=1))
        except BaseException:
            for staged, _ in renames:
                (self.root / staged).unlink(missing_ok=True)
            raise
        self.recover()

    def recover(self) -> None:
        """Finish a committed transaction (the journal exists) or do nothing."""
        journal_path = self.root / JOURNAL_NAME
        if not journal_path.is_file():
            return
        try:
            journal = json.loads(journal_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            # The journal itself was cut short: the transaction never committed.
            journal_path.unlink()
            return
        for staged, final in journal["renames"]:
            staged_path = self.root / staged
            if staged_path.exists():
                os.replace(staged_path, self.root / final)
        for relative in journal["removed"]:
            (self.root / relative).unlink(missing_ok=True)
        _write_durably(self.root / LOCK_NAME, journal["lock"])
        journal_path.unlink()


def _write_durably(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
