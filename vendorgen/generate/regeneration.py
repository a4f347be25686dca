"""What a committed snapshot generates now, and whether a file is exactly that: regenerating, with a cache
kept outside the project.

Everything in the project (the lock, the snapshots, the headers, the templates) may come from a pull
request, so "this file is what its snapshot generates" is decided by generating it again, never by a
hash or a string the project holds. Regenerating 200 modules costs seconds, so the sha256 of what a
snapshot generated is remembered in the user's cache directory (`$VENDORGEN_CACHE_DIR`, else
`$XDG_CACHE_HOME/vendorgen`, else `~/.cache/vendorgen`; an empty VENDORGEN_CACHE_DIR turns it off),
under a key of everything that decides the code: the snapshot's canonical bytes, every template file
that can be rendered (built-in and the project's), the [tool.vendorgen] settings, vendorgen's own
files, black's version and Python's. Only vendorgen writes an entry, after generating, so an entry
is what those inputs generate whoever wrote the project; a pull request cannot reach the directory,
and one inside the project, a link, or a directory another user can write is not used. An entry that
cannot be read or does not name its own key counts as none: the module is regenerated. A fresh CI
machine has no entries and regenerates every module.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vendorgen import builtin_templates_dir, sources
from vendorgen.generate import pipeline
from vendorgen.project.hashing import canonical_json, sha256_text, snapshot_sha256

if TYPE_CHECKING:
    from vendorgen.project.workspace import Workspace

CACHE_ENV = "VENDORGEN_CACHE_DIR"
# Part of every key: a new layout of the key or of an entry never reads an old entry.
_FORMAT = b"vendorgen generated-code cache 1"
_ENTRY_MAX_BYTES = 256


def regenerate(snapshot: dict[str, Any], workspace: Workspace) -> pipeline.Generated:
    """What `snapshot` generates now, with this vendorgen, these templates and this config (remembered)."""
    generated = pipeline.generate(snapshot, workspace)
    entry = _entry(workspace, snapshot)
    if entry is not None:
        _store(entry, sha256_text(generated.code))
    return generated


def remembered(workspace: Workspace, snapshot: dict[str, Any]) -> str | None:
    """The sha256 of what `snapshot` generated when this user last regenerated it with the same inputs; None if unknown."""
    entry = _entry(workspace, snapshot)
    return None if entry is None else _load(entry)


# -- the key ---------------------------------------------------------------------------------------


def _entry(workspace: Workspace, snapshot: dict[str, Any]) -> Path | None:
    """The cache entry of `snapshot` in `workspace`, named by its key; None when no cache is used for it."""
    directory = cache_directory(workspace.root)
    if directory is None or not _builtin(snapshot.get("kind")):
        return None
    templates = workspace.templates_dir()
    digest = hashlib.sha256()
    for part in (
        _FORMAT,
        _vendorgen_files(),
        _directory_bytes(templates) if templates is not None else b"",
        canonical_json(workspace.config.raw).encode(),
        snapshot_sha256(snapshot).encode(),
    ):
        digest.update(b"%d:%s" % (len(part), part))
    return directory / digest.hexdigest()


def _builtin(kind: object) -> bool:
    """A kind vendorgen ships: its code is among vendorgen's files, which the key holds (a plugin's is not)."""
    try:
        source = sources.load(str(kind))
    except Exception:  # noqa: BLE001 - an unknown kind or a plugin that does not load: regenerating says why
        return False
    return type(source).__module__.startswith("vendorgen.")


@lru_cache(maxsize=1)
def _vendorgen_files() -> bytes:
    """A digest of what generates code besides the project: vendorgen's files, its built-in templates,
    black's version (it formats the code) and Python's."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(_directory_bytes(package, "*.py") + _directory_bytes(builtin_templates_dir()))
    black = find_spec("black")
    version = Path(black.origin).with_name("_black_version.py") if black and black.origin else None
    digest.update(version.read_bytes() if version is not None and version.is_file() else b"black unknown")
    digest.update(sys.version.encode())
    return digest.hexdigest().encode()


def _directory_bytes(directory: Path, pattern: str = "*") -> bytes:
    """A digest of every file under `directory` matching `pattern`: each one's name and bytes, as read (links followed,
    as the template loader follows them)."""
    digest = hashlib.sha256()
    for path in sorted(directory.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            name, content = path.relative_to(directory).as_posix().encode(), path.read_bytes()
            digest.update(b"%d:%s%d:%s" % (len(name), name, len(content), content))
    return digest.hexdigest().encode()


# -- the directory and its entries -----------------------------------------------------------------


def cache_directory(project_root: Path) -> Path | None:
    """The user's directory of remembered hashes, made if missing; None when there is none usable."""
    environment = (os.environ.get(CACHE_ENV), os.environ.get("XDG_CACHE_HOME", ""), os.environ.get("HOME"))
    return _cache_directory(project_root, *environment)


@lru_cache(maxsize=8)  # looked up per module: once per project and environment is enough
def _cache_directory(project_root: Path, configured: str | None, xdg: str, home: str | None) -> Path | None:
    if configured == "":
        return None
    try:
        if configured:
            base = Path(configured)
        elif os.path.isabs(xdg):
            base = Path(xdg) / "vendorgen"
        else:
            base = Path.home() / ".cache" / "vendorgen"
        directory = Path(os.path.abspath(base)) / "generated"
        root = Path(os.path.realpath(project_root))
        if directory.resolve() == root or root in directory.resolve().parents:
            return None  # a pull request can write there
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(directory)
    except (OSError, RuntimeError):  # no home, a read-only file system: regenerate
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None
    return directory


def _load(entry: Path) -> str | None:
    """The hash an entry holds; None unless it is a regular file of this user naming its own key."""
    try:
        descriptor = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with open(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            return None
        data = handle.read(_ENTRY_MAX_BYTES)
    named, _, value = data.decode("ascii", "replace").strip().partition(" ")
    if named != entry.name or len(value) != 64 or not all(char in "0123456789abcdef" for char in value):
        return None
    return value


def _store(entry: Path, value: str) -> None:
    try:
        descriptor, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
    except OSError:  # a read-only cache: the next run regenerates
        return
    try:
        with open(descriptor, "w", encoding="ascii") as handle:
            handle.write(f"{entry.name} {value}\n")
        os.replace(temporary, entry)
    except OSError:  # a full disk
        Path(temporary).unlink(missing_ok=True)
