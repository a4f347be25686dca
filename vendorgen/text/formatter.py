"""black, in-process: the generated file is formatted once, as a person's would be.

In this process, whole: formatting a big module in forked pieces no longer paid
(figures in bench/README.md, `add`'s speed-ups) and a forked worker could
outlive a killed vendorgen.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from vendorgen.errors import GateError

DEFAULT_LINE_LENGTH = 99


def import_black() -> None:
    """Import black in this thread, before work that formats runs in several: threads importing it at
    once can be handed a half-initialised module (`module 'black' has no attribute 'Mode'`)."""
    import black  # noqa: F401


def format_source(source: str, line_length: int = DEFAULT_LINE_LENGTH) -> str:
    """`source` exactly as black formats it (Python 3.11)."""
    import black  # ~0.1 s to import: only commands that write code pay for it

    mode = black.Mode(line_length=line_length, target_versions={black.TargetVersion.PY311})
    try:
        with without_gc():
            return black.format_str(source, mode=mode)
    except (black.InvalidInput, SyntaxError) as exc:  # SyntaxError: an unknown encoding declared
        raise GateError(f"rendered module is not valid Python: {exc}") from None


@contextmanager
def without_gc() -> Iterator[None]:
    """No cyclic garbage collection inside: for a big module black and libcst make ~10^6 objects.

    Each burst of them would start collections that walk every object alive, mcp
    and pydantic included when an MCP server was just inspected: a quarter of
    black's time. Their garbage waits for the first collection after the block.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
