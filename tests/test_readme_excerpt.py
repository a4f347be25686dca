"""The README's excerpts of generated files say what the committed files say.

An excerpt is a ```python block right after a line naming the file ("From `generated_example/...`").
It may leave out lines, and only in the ways a reader sees:
- a line holding only `...` stands for any lines;
- a line ending in ` ...` is the file's line without that ending, and its body is left out;
- a line opening a block (ending in `:`) followed by a line no deeper leaves out that block's body;
- a comment the README adds after a file's line (`  # ...`) explains it and is not in the file.
Everything else is the file's lines, in order, with nothing in between.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
EXCERPT = re.compile(r"^From `(?P<path>generated_example/[^`]+)`[^\n]*\n+```python\n(?P<body>.*?)^```$", re.M | re.S)
ELLIPSIS = " ..."


def excerpts() -> list[tuple[str, list[str]]]:
    found = [(match["path"], match["body"].splitlines()) for match in EXCERPT.finditer(README.read_text("utf-8"))]
    assert found, "the README shows no excerpt of a generated file"
    return found


def mismatch(excerpt: list[str], lines: list[str]) -> str | None:
    """Why `excerpt` is not `lines` with elisions (None when it is)."""
    position = 0
    may_skip = False
    for index, shown in enumerate(excerpt):
        if shown.strip() == "...":
            may_skip = True
            continue
        body_left_out = shown.endswith(ELLIPSIS)
        wanted = shown[: -len(ELLIPSIS)] if body_left_out else shown
        candidates = range(position, len(lines)) if may_skip else range(position, min(position + 1, len(lines)))
        found = next((at for at in candidates if _same(wanted, lines[at])), None)
        if found is None:
            near = lines[position] if position < len(lines) else "<end of file>"
            return f"excerpt line {index + 1} {shown!r} is not in the file here (the file has {near!r})"
        position = found + 1
        following = excerpt[index + 1] if index + 1 < len(excerpt) else ""
        opens_block = lines[found].rstrip().endswith(":") and _indent(following) <= _indent(lines[found])
        may_skip = body_left_out or opens_block
    return None


def _same(shown: str, line: str) -> bool:
    """`shown` is `line`, possibly with a comment the README adds after it."""
    return shown == line or (bool(line) and shown.startswith(line + "  # "))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@pytest.mark.parametrize("path, excerpt", excerpts(), ids=[path for path, _ in excerpts()])
def test_readme_excerpt_is_the_committed_file(path: str, excerpt: list[str]) -> None:
    lines = (REPO / path).read_text("utf-8").splitlines()
    problem = mismatch(excerpt, lines)
    assert problem is None, f"README's excerpt of {path}: {problem}"


def test_a_changed_line_is_caught() -> None:
    """The comparison fails on what went wrong before: a stale hash in a header line."""
    path, excerpt = excerpts()[0]
    lines = (REPO / path).read_text("utf-8").splitlines()
    assert mismatch(excerpt, lines) is None
    stale = [re.sub(r"sha256 [0-9a-f]{12}", "sha256 000000000000", line) for line in lines]
    assert stale != lines and mismatch(excerpt, stale) is not None
    assert mismatch([*excerpt[:2], "an extra line", *excerpt[2:]], lines) is not None
