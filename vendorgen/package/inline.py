"""A generated module with what it imports of the run-time files copied in: one file that stands alone.

`push` uses it: a Hub tool is one self-contained tool.py, which smolagents' `from_code` runs,
instantiating the first Tool subclass of the module's namespace in alphabetical order. The
run time's tool bases (SpaceTool...) are deleted from that namespace at the end of the file,
so the one tool class is the only Tool subclass left there (it keeps its base as a base).
"""

from __future__ import annotations

import ast

from vendorgen.package import files
from vendorgen.package.builtin_files import defined_names

_BLOCK_NOTE = "# From the vendored run time (vendorgen), inlined so that this file stands alone.\n"
_BASES_NOTE = (
    "# Its base classes leave the namespace: smolagents' from_code instantiates the first Tool subclass there.\n"
)


def inline(module_code: str) -> str:
    """`module_code` with its imports of the run-time files replaced by the definitions those names need.

    The definitions the imported names reach (through the names they use) are copied in the
    order of the run-time files (the core first), after the imports they use.
    """
    module_tree = ast.parse(module_code)
    imported = [node for node in module_tree.body if isinstance(node, ast.ImportFrom) and _is_runtime_import(node)]
    if not imported:
        return module_code
    statements = [(file, node) for file in files.runtime_files() for node in ast.parse(files.text(file)).body]
    definitions = {
        name: node
        for _, node in statements
        if not isinstance(node, (ast.Import, ast.ImportFrom))
        for name in defined_names(node)
    }
    wanted = [alias.name for node in imported for alias in node.names]
    needed: set[int] = set()
    used: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in used:
            continue
        used.add(name)
        definition = definitions.get(name)
        if definition is not None and id(definition) not in needed:
            needed.add(id(definition))
            wanted += [child.id for child in ast.walk(definition) if isinstance(child, ast.Name)]
    pieces: list[str] = []
    imports_made: set[str] = set()
    for file, node in statements:
        if isinstance(node, ast.ImportFrom) and (node.module == "__future__" or node.level):
            continue  # the module has __future__ on top (only allowed there); the run time's own imports are copied
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            new = set(defined_names(node)) & used - imports_made  # only imports the copied code uses, once
            keep = bool(new)
            imports_made |= new
        else:
            keep = id(node) in needed
        if keep:
            pieces.append(_source(files.text(file), node))
    bases = sorted(name for name in files.tool_bases() if id(definitions[name]) in needed)
    out = module_code.splitlines(keepends=True)
    first = imported[0]
    rest = [
        line for index, line in enumerate(out[first.lineno - 1 :], first.lineno - 1) if not _inside(index, imported)
    ]
    tail = f"\n\n{_BASES_NOTE}del {', '.join(bases)}\n" if bases else ""
    return "".join(out[: first.lineno - 1]) + _BLOCK_NOTE + "\n".join(pieces) + "\n\n" + "".join(rest) + tail


def _is_runtime_import(node: ast.ImportFrom) -> bool:
    return node.level == 1 and f"{node.module}.py" in files.runtime_files()


def _source(text: str, node: ast.stmt) -> str:
    """The lines of a top-level statement, its decorators included."""
    lines = text.splitlines(keepends=True)
    start = min([node.lineno, *(decorator.lineno for decorator in getattr(node, "decorator_list", []))]) - 1
    return "".join(lines[start : node.end_lineno])


def _inside(index: int, nodes: list[ast.ImportFrom]) -> bool:
    return any(node.lineno - 1 <= index < (node.end_lineno or node.lineno) for node in nodes)
