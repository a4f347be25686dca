"""What Python would import in place of a file the lock owns: `check` reports it.

`check` compares each lock-owned file (`tools/shout.py`, `tools/_vendored_runtime.py`) with what
vendorgen wrote, but `import tools.shout` may never read it. importlib's FileFinder looks in a
directory for, in this order: a package directory `shout/` (its `__init__` with any suffix), then
`shout` with each suffix its loaders take (extension modules, source, bytecode: the order of
`_get_supported_file_loaders`, read here from importlib.machinery), and a namespace directory last.
SourceFileLoader then prefers `__pycache__/shout.<tag>.pyc` to the source when the .pyc says so: a
hash-based .pyc (PEP 552) is never compared with the source when unchecked, and when checked only by
the source's hash, never by the code it holds; Python's own imports write timestamp .pycs only.

So beside each lock-owned module this reports: a directory of its name (a package shadows it; a
namespace directory becomes one as soon as it holds an `__init__`), the module's name with any other
suffix (an extension module shadows it; a sourceless .pyc is imported the moment the source is
missing), and any hash-based .pyc of it. The same holds one level up for each output package: `tools.py`
or `tools.abi3.so` beside a `tools/` without `__init__.py` is imported instead of the whole package.
Nothing found here is read beyond a .pyc's 16-byte header.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from importlib import machinery
from pathlib import PurePosixPath

from vendorgen.project.workspace import Workspace

# PEP 552: the .pyc header's flags word, after the 4-byte magic number.
_HASH_BASED = 0b01
_CHECK_SOURCE = 0b10


def _suffixes() -> list[str]:
    """Every suffix FileFinder imports a module from, in its order (extensions, source, bytecode)."""
    return [*machinery.EXTENSION_SUFFIXES, *machinery.SOURCE_SUFFIXES, *machinery.BYTECODE_SUFFIXES]


def shadows(workspace: Workspace, owned: Iterable[str]) -> list[str]:
    """What would be imported in place of the lock-owned files `owned` (root-relative), one line each."""
    modules = sorted({PurePosixPath(path) for path in owned if path.endswith(tuple(machinery.SOURCE_SUFFIXES))})
    packages = sorted({parent for module in modules for parent in module.parents if parent.name})
    found = [line for module in modules for line in _beside_module(workspace, module)]
    return found + [line for package in packages for line in _beside_package(workspace, package)]


def _beside_module(workspace: Workspace, module: PurePosixPath) -> list[str]:
    """In the module's directory: a directory of its name, its name with another suffix, a hash-based .pyc."""
    instead = f"is imported in place of {module}"
    found = []
    package = module.with_suffix("")
    if os.path.isdir(workspace.root / package):
        namespace = (
            f"is a namespace directory, imported in place of {module} once that is missing or it has an __init__"
        )
        found.append(f"{package}/ {instead if _is_package(workspace, package) else namespace}")
    order = _suffixes()
    for suffix in order:  # a suffix FileFinder tries before the module's own wins now, one after it once it is gone
        path = package.with_name(package.name + suffix)
        if path != module and os.path.lexists(workspace.root / path):
            now = order.index(suffix) < order.index(module.suffix)
            found.append(f"{path} {instead}{'' if now else ' once it is missing'}")
    return found + hash_based_pycs(workspace, module, instead)


def _beside_package(workspace: Workspace, package: PurePosixPath) -> list[str]:
    """Beside an output package: a module of its name, imported instead of it unless it has an __init__."""
    when = "" if not _is_package(workspace, package) else " once its __init__ is gone"
    paths = [package.with_name(package.name + suffix) for suffix in _suffixes()]
    return [
        f"{path} is imported in place of {package}/{when}" for path in paths if os.path.lexists(workspace.root / path)
    ]


def _is_package(workspace: Workspace, directory: PurePosixPath) -> bool:
    return any(os.path.lexists(workspace.root / directory / f"__init__{suffix}") for suffix in _suffixes())


def hash_based_pycs(workspace: Workspace, module: PurePosixPath, instead: str) -> list[str]:
    """The hash-based .pycs of `module` in its `__pycache__`, each a line ending with `instead` (what it does)."""
    cache = workspace.root / module.parent / "__pycache__"
    if not cache.is_dir() or cache.is_symlink():
        return []
    found = []
    for pyc in sorted(cache.glob(f"{module.stem}.*{machinery.BYTECODE_SUFFIXES[0]}")):
        if not stat.S_ISREG(os.lstat(pyc).st_mode):
            continue
        with open(os.open(pyc, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as handle:
            flags = int.from_bytes(handle.read(16)[4:8], "little")
        if flags & _HASH_BASED:
            how = "by the source's hash, not by the code it holds" if flags & _CHECK_SOURCE else "never"
            found.append(f"{workspace.relative(pyc)} {instead} (a hash-based .pyc, compared with the source {how})")
    return found
