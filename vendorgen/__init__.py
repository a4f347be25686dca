"""vendorgen: vendor remote agent tools as reviewable smolagents source code.

Public, for source plugins: `vendorgen.sources`, `vendorgen.model`, `vendorgen.naming`, `vendorgen.errors`.
Everything else (cli, generate, project, sync, publish, the runtime modules) is private: it changes freely.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__version__ = "0.1.0"

_PACKAGE_DIR = Path(__file__).resolve().parent


def builtin_templates_dir() -> Path:
    """`templates/` ships inside the wheel as vendorgen/templates; a checkout has it at the top."""
    installed = _PACKAGE_DIR / "templates"
    return installed if installed.is_dir() else _PACKAGE_DIR.parent / "templates"


@lru_cache(maxsize=1)
def templates_version() -> str:
    """A short hash of the built-in templates' bytes, so `check` can tell a template upgrade from a local edit.

    Derived rather than bumped by hand (a hand-kept number went stale). Computed on
    first use, never at import: `vendorgen --help` reads no template.
    """
    import hashlib

    root = builtin_templates_dir()
    digest = hashlib.sha256()
    for path in sorted(path for path in root.rglob("*") if path.is_file()):
        name = path.relative_to(root).as_posix().encode()
        content = path.read_bytes()
        digest.update(b"%d:%s%d:%s" % (len(name), name, len(content), content))
    return digest.hexdigest()[:12]
