"""The run-time files vendorgen ships (vendorgen/package/shipped/), and what the lock keeps of each copy.

Each is copied byte for byte beside the generated modules that need it (never rendered, so
no remote text reaches it): the core `_vendored_runtime.py` and one part per source kind,
named by `Source.package_files`. The lock owns each copy like any vendored file: a
`[[runtime]]` entry with its path, the sha256 it was written with and the vendorgen that
wrote it. The server module (vendorgen.package.serve) is a `[[runtime]]` entry too.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path, PurePosixPath

from vendorgen.project.paths import RUNTIME_FILES, SERVER_FILES

SHIPPED = Path(__file__).resolve().parent / "shipped"


@cache
def text(name: str) -> str:
    """The run-time file `name` (one of RUNTIME_FILES) as this vendorgen writes it."""
    if name not in RUNTIME_FILES:
        raise ValueError(f"{name} is not a run-time file vendorgen ships")
    return (SHIPPED / name).read_text(encoding="utf-8")


def sha256(name: str) -> str:
    """The sha256 of the run-time file `name` as this vendorgen ships it: the gate accepts a copy by it."""
    return hashlib.sha256(text(name).encode("utf-8")).hexdigest()


@cache
def tool_bases() -> frozenset[str]:
    """The run time's classes that derive from smolagents' Tool: what a tool class may subclass."""
    return frozenset(name for file in RUNTIME_FILES for name in _tool_bases(ast.parse(text(file))))


@cache
def public_names() -> frozenset[str]:
    """What the run-time files bind at module level (imports, classes, functions, constants), private names aside."""
    return frozenset(
        name
        for file in RUNTIME_FILES
        for node in ast.parse(text(file)).body
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "__future__")
        for name in defined_names(node)
        if not name.startswith("_")
    )


@cache
def defined_at_top(name: str) -> frozenset[str]:
    """What the run-time file `name` binds at module level: what a generated module may import from it."""
    return frozenset(found for node in ast.parse(text(name)).body for found in defined_names(node))


def path_beside(module_path: str, file_name: str) -> str:
    """Where the package file `file_name` of the module at `module_path` (root-relative) lives."""
    return str(PurePosixPath(module_path).with_name(file_name))


def is_server(path: str) -> bool:
    """The package file at `path` is a server module or its transport (vendorgen.package.serve), not a run-time file."""
    return PurePosixPath(path).name in SERVER_FILES


def _tool_bases(tree: ast.Module) -> list[str]:
    """The classes of `tree` that derive from smolagents' Tool."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
            if bases & {"Tool", *found}:
                found.append(node.name)
    return found


def defined_names(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, ast.Assign):
        return [target.id for target in node.targets if isinstance(target, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []
