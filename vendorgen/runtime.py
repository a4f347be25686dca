"""The runtime module every output directory with generated modules gets, and what the lock keeps of it.

`_vendored_runtime.py` ships inside vendorgen and is copied byte for byte beside the
generated modules that import it (never rendered, so no remote text reaches it). The lock
owns each copy like any vendored file: a `[[runtime]]` entry with its path, the sha256 it
was written with and the vendorgen that wrote it.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from vendorgen.project.paths import RUNTIME_FILE, SERVER_FILE

FILE_NAME = RUNTIME_FILE
MODULE = FILE_NAME.removesuffix(".py")
_SHIPPED = Path(__file__).resolve().parent / FILE_NAME
# The sha256 of the runtime this vendorgen version ships: the gate accepts the file by it
# (tests/unit/test_runtime.py fails until it is updated after an edit of the runtime).
KNOWN_SHA256 = "91261bf208810cd2e492e9de661ccb7c65599b19dc0b93fcd5374f9952e9abbd"


@dataclass(frozen=True)
class RuntimeEntry:
    """One package file as the lock's `[[runtime]]` records it: a copy of the runtime, or a server (vendorgen.serve)."""

    path: str  # relative to the root
    sha256: str
    generator: str

    FIELDS = ("path", "sha256", "generator")


@cache
def text() -> str:
    """The runtime this vendorgen writes."""
    return _SHIPPED.read_text(encoding="utf-8")


def sha256() -> str:
    return hashlib.sha256(text().encode("utf-8")).hexdigest()


@cache
def tool_bases() -> frozenset[str]:
    """The runtime's classes that derive from smolagents' Tool: what a tool class may subclass."""
    return frozenset(_tool_bases(ast.parse(text())))


@cache
def public_names() -> frozenset[str]:
    """What the runtime binds at module level (imports, classes, functions, constants), private names aside."""
    tree = ast.parse(text())
    statements = [node for node in tree.body if not (isinstance(node, ast.ImportFrom) and node.module == "__future__")]
    return frozenset(name for node in statements for name in _defined_names(node) if not name.startswith("_"))


def is_runtime_import(name: str) -> bool:
    """`name` (as the gate spells an import, `._vendored_runtime.X`) is one of the runtime's names."""
    return name.startswith(f".{MODULE}.")


def needs_runtime(allowed_imports: Iterable[str]) -> bool:
    """A source whose generated code may import the runtime gets one beside its modules."""
    return any(is_runtime_import(name) for name in allowed_imports)


def path_beside(module_path: str, file_name: str = FILE_NAME) -> str:
    """Where the runtime (or another package file) of the module at `module_path` (root-relative) lives."""
    return str(PurePosixPath(module_path).with_name(file_name))


def is_server(path: str) -> bool:
    """The package file at `path` is a server module (vendorgen.serve), not a runtime."""
    return PurePosixPath(path).name == SERVER_FILE


def inline(module_code: str) -> str:
    """`module_code` with its `from ._vendored_runtime import ...` replaced by what those names need.

    `push` uses it: a Hub tool is one self-contained tool.py. The runtime's top-level
    definitions the imported names reach (through the names they use) are copied in runtime
    order, after the runtime's imports that they use.
    """
    module_tree = ast.parse(module_code)
    imported = [
        node
        for node in module_tree.body
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == MODULE
    ]
    if not imported:
        return module_code
    runtime_tree = ast.parse(text())
    definitions: dict[str, ast.stmt] = {}
    for node in runtime_tree.body:
        for name in _defined_names(node):
            definitions[name] = node
    wanted = [alias.name for node in imported for alias in node.names]
    needed: set[int] = set()
    used: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in used:
            continue
        used.add(name)
        definition = definitions.get(name)
        if definition is None or id(definition) in needed:
            continue
        needed.add(id(definition))
        wanted += [child.id for child in ast.walk(definition) if isinstance(child, ast.Name)]
    lines = text().splitlines(keepends=True)
    pieces: list[str] = []
    for node in runtime_tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue  # the module has it on top; it is only allowed there
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            keep = any(name in used for name in _defined_names(node))  # only imports the copied code uses
        else:
            keep = id(node) in needed
        if keep:
            start = node.lineno - 1 - len(getattr(node, "decorator_list", []))
            pieces.append("".join(lines[start : node.end_lineno]))
    block = "# From _vendored_runtime.py (vendorgen), inlined so that this file stands alone.\n" + "\n".join(pieces)
    first = imported[0]
    out = module_code.splitlines(keepends=True)
    rest = [
        line for index, line in enumerate(out[first.lineno - 1 :], first.lineno - 1) if not _inside(index, imported)
    ]
    code = "".join(out[: first.lineno - 1]) + block + "\n\n" + "".join(rest)
    # smolagents' from_code instantiates the first Tool subclass by name: the runtime's base
    # classes get private names, which sort after the tool's own.
    for name in tool_bases():
        code = re.sub(rf"(?<![\w.]){name}\b", f"_{name}", code)
    return code


def _tool_bases(tree: ast.Module) -> list[str]:
    """The runtime's classes that derive from smolagents' Tool."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
            if bases & {"Tool", *found}:
                found.append(node.name)
    return found


def _inside(index: int, nodes: list[ast.ImportFrom]) -> bool:
    return any(node.lineno - 1 <= index < (node.end_lineno or node.lineno) for node in nodes)


def _defined_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, ast.Assign):
        return [target.id for target in node.targets if isinstance(target, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []
