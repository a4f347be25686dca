"""black, in-process: the generated file is formatted once, as a person's would be.

A big module (a 200-tool MCP server renders ~170 kB) is cut at top-level `class`
statements and the pieces are formatted at the same time in forked processes.
Joined with two blank lines, the pieces are byte-identical to black's output for
the whole file: `_is_cut_point` lists what makes that hold, and
tests/unit/test_formatter.py checks it on generated modules and random ones.
"""

from __future__ import annotations

import ast
import gc
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

from vendorgen.errors import GateError

DEFAULT_LINE_LENGTH = 99
# Smallest piece worth a process of its own: black needs ~0.13 s for it, a fork and
# its round trip ~0.01 s. A Gradio or LangChain module (~10 kB) is formatted whole.
MIN_PIECE_CHARS = 20_000
# Never cut a file with these: black's `fmt: off` regions may span statements, and
# "\r" would number lines differently for `ast` and for the cut.
_NEVER_CUT = ("fmt:", "yapf:", "\r")
# A comment on the second line of a piece would be read as an encoding declaration.
_COMMENT_LINE = re.compile(r"[ \t\f]*#")


def format_source(source: str, line_length: int = DEFAULT_LINE_LENGTH) -> str:
    """`source` exactly as black formats it (Python 3.11), in parallel pieces when it is big."""
    pieces = split_source(source, _worker_count(len(source)))
    if len(pieces) == 1:
        return format_piece(source, line_length)
    from concurrent.futures.process import BrokenProcessPool

    try:
        joined = join_pieces(format_in_parallel(pieces, line_length))
    except (GateError, OSError, BrokenProcessPool):
        # Invalid code: black's own message, with the line numbers of the whole file.
        # No fork (process limits, memory): the same result, only slower.
        joined = None
    return format_piece(source, line_length) if joined is None else joined


def format_piece(source: str, line_length: int = DEFAULT_LINE_LENGTH) -> str:
    """black on one text, as one file."""
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


def join_pieces(formatted: list[str]) -> str | None:
    """The formatted pieces with what black puts between two top-level classes: two blank lines.

    None if black moved a comment onto the second line of a piece (see _COMMENT_LINE),
    which is rare: the caller formats the whole file instead.
    """
    if any(_COMMENT_LINE.match(text.split("\n", 2)[1]) for text in formatted[1:]):
        return None
    return "\n\n".join(formatted)


def split_source(source: str, count: int) -> list[str]:
    """`source` cut into at most `count` pieces of similar size, each starting at a cut point."""
    if count < 2 or any(marker in source for marker in _NEVER_CUT):
        return [source]
    points = _cut_points(source)
    cuts: list[int] = []
    for index in range(1, count):
        wanted = len(source) * index // count
        best = min(points, key=lambda offset: abs(offset - wanted), default=None)
        if best is not None and best not in cuts:
            cuts.append(best)
    cuts.sort()
    return [source[start:end] for start, end in zip([0, *cuts], [*cuts, len(source)])]


def _cut_points(source: str) -> list[int]:
    """Offsets of the top-level statements black formats without looking at what precedes them."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # black will say why, for the whole file
    lines = source.split("\n")  # without "\r" (see _NEVER_CUT), ast numbers lines the same way
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    return [
        starts[statement.lineno - 1]
        for previous, statement in zip(tree.body, tree.body[1:])
        if _is_cut_point(previous, statement, lines)
    ]


def _is_cut_point(previous: ast.stmt, statement: ast.stmt, lines: list[str]) -> bool:
    """Black formats `statement` the same whether the file starts there or not, and puts two blank lines before it.

    - it is a class without decorators, so its first line is `class` (no comment or
      decorator black would keep beside it);
    - the statement before it is a class or def: black closes that definition and
      asks for exactly two blank lines (other statements, like a module docstring,
      have rules of their own);
    - only blank lines lie between them (no comment that belongs to either) and at
      least one, which rules out black's "no blank line after a stub def" case;
    - its second line is no comment (see _COMMENT_LINE).
    Whatever precedes a top-level class is closed once black reaches it: nothing
    else carries over from one statement to the next.
    """
    if not isinstance(statement, ast.ClassDef) or statement.decorator_list:
        return False
    if not isinstance(previous, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    between = lines[previous.end_lineno : statement.lineno - 1]  # type: ignore[misc]
    if not between or any(line.strip(" \t") for line in between):
        return False
    second_line = lines[statement.lineno : statement.lineno + 1]  # none: a one-line class ends the file
    return not any(_COMMENT_LINE.match(line) for line in second_line)


def _worker_count(size: int) -> int:
    """Processes worth using for `size` characters: one per CPU, each with a big enough piece."""
    if size < 2 * MIN_PIECE_CHARS:
        return 1  # before importing multiprocessing (~20 ms): most modules are small
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cpus, size // MIN_PIECE_CHARS))


def format_in_parallel(pieces: list[str], line_length: int) -> list[str]:
    """The first piece here, the others in forked processes (black already imported, nothing to pickle but text)."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    import black  # noqa: F401 - imported before the fork, so the children start warm

    # Forked without a collector too: one walking the inherited heap would copy all of it.
    with without_gc(), ProcessPoolExecutor(len(pieces) - 1, mp_context=multiprocessing.get_context("fork")) as pool:
        others: list[Future[str]] = [pool.submit(format_piece, piece, line_length) for piece in pieces[1:]]
        first = format_piece(pieces[0], line_length)
        return [first, *(future.result() for future in others)]
