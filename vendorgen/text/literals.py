"""The one way remote text enters generated code: as an escaped Python literal.

Python's `repr` already escapes every character that is not printable (controls,
format characters such as the bidirectional overrides, line and paragraph
separators, lone surrogates, unassigned code points). These helpers only add
the forms generated code needs: nested JSON values, docstrings and comments.
"""

from __future__ import annotations

import math
import re
from typing import Any

from vendorgen.errors import SchemaError

_DOCSTRING_QUOTE = re.compile(r'"(?=")|"$')
_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_unicode(text: str) -> str:
    """Refuse lone surrogates: no UTF-8 file, prompt or HTTP request can carry them."""
    if match := _SURROGATE.search(text):
        raise SchemaError(
            f"remote text holds a lone surrogate (U+{ord(match.group()):04X}), which is not valid Unicode"
        )
    return text


def _escaped(char: str) -> str:
    """A character `repr` would not show as itself, as its escape (`\\x1b`, `\\u202e`); others unchanged."""
    return char if char.isprintable() else repr(char)[1:-1]


def escape_text(text: str) -> str:
    """`text` with every non-printable character and backslash escaped, unquoted."""
    return "".join("\\\\" if ch == "\\" else _escaped(ch) for ch in _valid_unicode(text))


def terminal_text(text: str) -> str:
    """`text` as vendorgen prints it: line breaks and tabs kept, every other non-printable character escaped.

    What vendorgen prints carries remote text (file names, requirements, server errors); a terminal acts
    on control characters (ESC[1A ESC[2K erases the line above), so none reaches it raw. Backslashes
    stay: printed code and paths read as they are.
    """
    if text.replace("\n", "").replace("\t", "").isprintable():  # the usual case, checked at C speed
        return text
    return "".join(ch if ch in "\n\t" else _escaped(ch) for ch in text)


def python_literal(value: Any) -> str:
    """Python source for a JSON value; `ast.literal_eval` of it equals `value`."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            # JSON has no NaN or Infinity (Python's json reads them anyway) and `float("nan")` is no
            # literal: refused, never written as code the gate cannot compare with the spec.
            raise SchemaError(
                f"the schema holds the number {value!r} (a default, enum or const?), which JSON cannot carry"
            )
        return repr(value)
    if isinstance(value, str):
        return repr(_valid_unicode(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"dict key {key!r} is not a string")
            items.append(f"{python_literal(key)}: {python_literal(item)}")
        return "{" + ", ".join(items) + "}"
    raise ValueError(f"{type(value).__name__} is not a JSON value")


def docstring_body(text: str) -> str:
    """The inside of a triple-quoted docstring whose value is exactly `text`.

    Newlines stay real so the docstring reads as prose; everything else that
    could end the string or hide code is escaped.
    """
    lines = [escape_text(line) for line in text.split("\n")]
    return _DOCSTRING_QUOTE.sub(lambda match: '\\"', "\n".join(lines))


# What makes a comment on line 1 or 2 a PEP 263 encoding declaration (Python matches it case-sensitively).
_CODING = re.compile(r"(?<=coding)[:=]", re.IGNORECASE)


def comment_text(text: str) -> str:
    """`text` made safe for a `#` comment: one line, nothing hidden, never an encoding declaration.

    The header keeps remote text off lines 1-2, where Python reads `coding:`; escaping the
    `:` or `=` after "coding" (`coding\\x3a`) holds wherever a template puts a comment.
    """
    return _CODING.sub(lambda match: f"\\x{ord(match.group()):02x}", escape_text(text))
