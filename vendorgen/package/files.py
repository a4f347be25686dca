"""The run-time files vendorgen writes into output packages, and what the lock keeps of each copy.

Each is copied byte for byte beside the generated modules that need it (never rendered, so
no remote text reaches it): the core `_vendored_runtime.py` (vendorgen/shipped/) and the
files each registered source kind ships (`Source.runtime_files`, from its `runtime_dir`: vendorgen's
own kinds from shipped/, a plugin's from its package). The lock owns each copy like any vendored
file: a `[[runtime]]` entry with its path, the sha256 it was written with and the vendorgen that
wrote it; the gate accepts a copy only by the sha256 of the file read here. The server module
(vendorgen.package.serve) is a `[[runtime]]` entry too.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path, PurePosixPath

from vendorgen import sources
from vendorgen.package.builtin_files import defined_names
from vendorgen.project.paths import RUNTIME_FILE, SERVER_FILES, module_of
from vendorgen.sources.base import SHIPPED, Source


def runtime_files() -> dict[str, Path]:
    """Every run-time file, by name, and where it is read: the core first, then each kind's in the registry's order
    (built-in kinds, then plugins), each in the order its kind lists them (as they import each other)."""
    found = {RUNTIME_FILE: SHIPPED / RUNTIME_FILE}
    for source in sources.registered():
        found.update((name, source.runtime_directory() / name) for name in source.runtime_files)
    return found


def needed_by(source: Source) -> tuple[str, ...]:
    """The run-time files the modules of `source` need beside them: its own with the core, which they may import;
    the core alone for a kind whose code imports only the core's names; none for a kind that imports neither."""
    if source.runtime_files:
        return (RUNTIME_FILE, *source.runtime_files)
    core = module_of(RUNTIME_FILE)
    return (RUNTIME_FILE,) if any(name.rpartition(".")[0] == core for name in source.allowed_imports) else ()


def text(name: str) -> str:
    """The run-time file `name` as this vendorgen writes it."""
    path = runtime_files().get(name)
    if path is None:
        raise ValueError(f"{name} is not a run-time file vendorgen or a registered source kind ships")
    return _read(path)


@cache
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def sha256(name: str) -> str:
    """The sha256 of the run-time file `name` as this vendorgen ships it: the gate accepts a copy by it."""
    return hashlib.sha256(text(name).encode("utf-8")).hexdigest()


def tool_bases() -> frozenset[str]:
    """The run time's classes that derive from smolagents' Tool: what a tool class may subclass."""
    return _tool_bases(tuple(runtime_files().values()))


@cache
def _tool_bases(paths: tuple[Path, ...]) -> frozenset[str]:
    return frozenset(name for path in paths for name in _tool_classes(ast.parse(_read(path))))


def defined_at_top(name: str) -> frozenset[str]:
    """What the run-time file `name` binds at module level: what a generated module may import from it."""
    text(name)  # refused unless it is one
    return _defined_at_top(runtime_files()[name])


@cache
def _defined_at_top(path: Path) -> frozenset[str]:
    return frozenset(found for node in ast.parse(_read(path)).body for found in defined_names(node))


def path_beside(module_path: str, file_name: str) -> str:
    """Where the package file `file_name` of the module at `module_path` (root-relative) lives."""
    return str(PurePosixPath(module_path).with_name(file_name))


def is_server(path: str) -> bool:
    """The package file at `path` is a server module or its transport (vendorgen.package.serve), not a run-time file."""
    return PurePosixPath(path).name in SERVER_FILES


def _tool_classes(tree: ast.Module) -> list[str]:
    """The classes of `tree` that derive from smolagents' Tool."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
            if bases & {"Tool", *found}:
                found.append(node.name)
    return found
