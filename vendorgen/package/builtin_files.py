"""vendorgen's own shipped files (vendorgen/shipped/), read with nothing but the standard library.

Apart from vendorgen.package.files, which derives the run-time files from the kinds' registry, because
`naming` reads them here and the kinds import `naming`: the registry's files cannot be what naming reads.
What the shipped directory holds besides the server's and the catalog's files is the built-in kinds'
run-time files (tests/unit/test_runtime.py holds it to the registry).
"""

from __future__ import annotations

import ast
from functools import cache

from vendorgen.project.paths import PACKAGE_PREFIX, SERVER_FILES
from vendorgen.sources.base import SHIPPED

# The catalog's shipped logic (vendorgen.package.catalog writes it into `catalog.py`).
CATALOG_LOGIC = "_vendored_catalog.py"


@cache
def runtime_file_names() -> frozenset[str]:
    """The run-time files vendorgen ships for its own kinds: what shipped/ holds but the server's and the catalog's."""
    return frozenset(
        path.name for path in SHIPPED.glob(f"{PACKAGE_PREFIX}*.py") if path.name not in {*SERVER_FILES, CATALOG_LOGIC}
    )


@cache
def public_names() -> frozenset[str]:
    """What vendorgen's own run-time files bind at module level (imports, classes, functions, constants), private
    names aside. A plugin's files are not among them: installing one does not change how names are chosen."""
    return frozenset(
        name
        for file in sorted(runtime_file_names())
        for node in ast.parse((SHIPPED / file).read_text(encoding="utf-8")).body
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "__future__")
        for name in defined_names(node)
        if not name.startswith("_")
    )


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
