"""A module file's bytes read as Python reads them (PEP 263), where only plain UTF-8 is accepted.

Python obeys a `coding:` comment on line 1 or 2: under another codec the same bytes are other
code than the text vendorgen checked (`unicode_escape` turns an escaped quote in a docstring
into a real one). So every vendored file vendorgen writes, and every one it reads back, is plain
UTF-8: no byte order mark, no declaration or one naming UTF-8.
"""

from __future__ import annotations

import ast
import codecs
import importlib.util
import io
import tokenize

from vendorgen.errors import GateError
from vendorgen.text.literals import escape_text


def python_text(data: bytes, what: str) -> str:
    """The text Python runs for a module file holding `data`; GateError unless it is plain UTF-8."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        codec = codecs.lookup(encoding).name
    except (SyntaxError, LookupError) as exc:
        raise GateError(f"{what}: {escape_text(str(exc))}; a vendored module must be plain UTF-8") from None
    if codec == "utf-8-sig":
        raise GateError(f"{what}: starts with a byte order mark; a vendored module must be plain UTF-8")
    if codec != "utf-8":
        raise GateError(f"{what}: declares the encoding {escape_text(encoding)}; a vendored module must be plain UTF-8")
    try:
        return importlib.util.decode_source(data)
    except UnicodeDecodeError as exc:
        raise GateError(f"{what}: is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def check_as_written(source: str, what: str) -> None:
    """GateError unless the bytes the workspace writes for `source` (UTF-8, no newline translation)
    read back, as Python reads them, as exactly `source`."""
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise GateError(
            f"{what}: holds a lone surrogate (U+{ord(source[exc.start]):04X}), which UTF-8 cannot write"
        ) from None
    if python_text(data, what) != source:
        raise GateError(f"{what}: Python would read the written file as other text than vendorgen checked")


def imported_packages(source: str) -> tuple[str, ...]:
    """The top-level packages `source` (valid Python) imports anywhere, in the order written (relative imports left out)."""
    found: dict[str, None] = {}
    nodes = [node for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Import, ast.ImportFrom))]
    for node in sorted(nodes, key=lambda node: (node.lineno, node.col_offset)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            modules = [node.module] if node.module and not node.level else []
        found.update(dict.fromkeys(module.partition(".")[0] for module in modules))
    return tuple(found)
