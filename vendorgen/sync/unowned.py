"""Code in an output package that the lock does not own: `check` reports it.

Importing a vendored module (`from tools.convert import ConvertTool`, an agent, `vendorgen serve`)
first imports its package: Python runs `tools/__init__` with any suffix FileFinder takes (an
extension module, `.py`, a sourceless `.pyc`), or a hash-based `__pycache__/__init__.*.pyc` in place
of `__init__.py` (vendorgen.sync.shadowing says why). vendorgen writes no `__init__` (the modules
import each other relatively, so the directory works as a namespace package), so any of them that
runs code is a pull request's: reported. An `__init__.py` that runs nothing (empty, comments, one
docstring; parsed from its bytes as the import system compiles them, its coding declaration
honoured) is the user's way of making a regular package, and is left alone.

Nothing else in the package runs on import, but other code there runs in other ways: `__main__.py`
(`python -m tools`), `conftest.py` (pytest collecting the directory), `sitecustomize.py` (the directory
on PYTHONPATH), a `.pth` file (the directory as a site directory), any other module or subpackage
once something imports it. vendorgen writes none of them, and a reviewer reads the package as
vendorgen's, so each that holds code is reported too (a module of comments runs nothing), as is any
subdirectory and any link that leads somewhere (never followed). Other files (a README, `py.typed`)
run nothing.
Names Python imports in place of a lock-owned file are vendorgen.sync.shadowing's; files that say
they are vendored are `extra_files`' (vendorgen.sync.check).
"""

from __future__ import annotations

import ast
import os
import stat
from collections.abc import Iterable
from importlib import machinery
from pathlib import Path, PurePosixPath

from vendorgen.project.workspace import Workspace
from vendorgen.sync.shadowing import hash_based_pycs

_CODE_SUFFIXES = (*machinery.EXTENSION_SUFFIXES, *machinery.SOURCE_SUFFIXES, *machinery.BYTECODE_SUFFIXES, ".pth")


def unowned_code(workspace: Workspace, owned: Iterable[str], reported: Iterable[str] = ()) -> list[str]:
    """What runs, or can, in the packages holding the lock-owned files `owned`, besides them; one line each.

    `reported`: paths another check reports already.
    """
    owned_paths = {PurePosixPath(path) for path in owned}
    skip = {PurePosixPath(path) for path in reported} | owned_paths
    stems = {path.with_suffix("") for path in owned_paths}  # a name beside a module is a shadow
    found = []
    for package in sorted({path.parent for path in owned_paths if path.parent.name}):
        directory = workspace.root / package
        if os.path.islink(directory) or not os.path.isdir(directory):
            continue
        init = package / "__init__.py"
        if os.path.isfile(workspace.root / init):  # its .pyc is read only in place of a source
            found += hash_based_pycs(workspace, init, f"runs on every import of {package}/")
        for name in sorted(os.listdir(directory)):
            path = package / name
            if path in skip or package / name.split(".", 1)[0] in stems:
                continue
            if line := _problem(workspace, package, path):
                found.append(line)
    return found


def _problem(workspace: Workspace, package: PurePosixPath, path: PurePosixPath) -> str | None:
    absolute = workspace.root / path
    info = os.lstat(absolute)
    if stat.S_ISLNK(info.st_mode):  # not followed; one leading nowhere imports nothing
        return f"{path} is a link in {package}/; vendorgen writes none" if os.path.exists(absolute) else None
    if stat.S_ISDIR(info.st_mode):
        return (
            None if path.name == "__pycache__" else f"{path}/ is a package in {package}/ that vendorgen did not write"
        )
    if not path.name.endswith(_CODE_SUFFIXES):
        return None
    if path.suffix in machinery.SOURCE_SUFFIXES and stat.S_ISREG(info.st_mode) and _runs_nothing(absolute):
        return None
    if path.name.startswith("__init__."):
        return f"{path} runs on every import of {package}/ and vendorgen did not write it"
    return f"{path} is code in {package}/ that vendorgen did not write"


def _runs_nothing(path: Path) -> bool:
    """Whether the module holds no statement but a docstring, as Python compiles its bytes."""
    try:
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as handle:
            body = ast.parse(handle.read()).body
    except (SyntaxError, ValueError, OSError):
        return False
    docstring = len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    return not body or (docstring and isinstance(body[0].value.value, str))  # type: ignore[attr-defined]
