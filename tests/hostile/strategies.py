"""Hypothesis strategies for hostile remote schemas, shared by every source's property test."""

from __future__ import annotations

import builtins
import keyword

from hypothesis import strategies as st

# Text a schema author could use to break out of a literal, hide code from a reviewer, or crash us.
SPECIALS = ['"', "'", '"""', "'''", "\\", "\x00", "\r", "\n", "\r\n", "\t", "\x0b", "\x1b[2J", "\u2028", "\u2029",
            "\u202e", "\u202d", "\u2066", "\u2067", "\u2069", "\u200b", "\ufeff", "\ud800", "\udfff", "{{", "}}",
            "{%", "#", "\\N{BULLET}", "\\x00", "`", "\u0430", "\u0435", "\U0001f600"]  # fmt: skip

KEYWORDS = keyword.kwlist + keyword.softkwlist
NAME_SPECIALS = KEYWORDS + ["self", "cls", "__init__", "__class__", "Tool", "Any", "Literal", "print", "list", "dict",
                            "", "1st", "0", "a-b", "a.b", "a b", "café", "\u0430dmin", "x\u202e", "_", "__"]  # fmt: skip
BUILTINS = [name for name in dir(builtins) if not name.startswith("_")][:40]

hostile_text = st.one_of(
    st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(st.characters(exclude_categories=()), max_size=8)),
             max_size=12).map("".join),
    st.text(max_size=40),
)  # fmt: skip

names = st.one_of(st.sampled_from(NAME_SPECIALS + BUILTINS), hostile_text.filter(lambda text: len(text) < 30))

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.floats(allow_nan=False,
                         allow_infinity=False), hostile_text)  # fmt: skip
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(hostile_text, children, max_size=4)),
    max_leaves=10,
)

primitive_types = st.sampled_from(["string", "integer", "number", "boolean"])


@st.composite
def property_schemas(draw, depth: int = 0) -> dict:
    """One JSON Schema property: primitives, enums, arrays, objects, unions, nullables, refs to $defs."""
    kinds = ["primitive", "enum", "array", "object", "nullable", "union", "empty", "const"]
    kind = draw(st.sampled_from(kinds if depth < 3 else ["primitive", "enum", "empty"]))
    schema: dict
    if kind == "primitive":
        schema = {"type": draw(primitive_types)}
    elif kind == "enum":
        schema = {"enum": draw(st.lists(st.one_of(hostile_text, st.integers(-5, 5)), min_size=1, max_size=5, unique=True))}
    elif kind == "const":
        schema = {"const": draw(st.one_of(hostile_text, st.integers()))}
    elif kind == "array":
        schema = {"type": "array", "items": draw(property_schemas(depth + 1))}
    elif kind == "object":
        schema = {"type": "object", "properties": draw(st.dictionaries(names, property_schemas(depth + 1), max_size=3))}
    elif kind == "nullable":
        schema = {"anyOf": [draw(property_schemas(depth + 1)), {"type": "null"}]}
    elif kind == "union":
        schema = {"anyOf": draw(st.lists(property_schemas(depth + 1), min_size=2, max_size=3))}
    else:
        schema = {}
    if draw(st.booleans()):
        schema["description"] = draw(hostile_text)
    if draw(st.booleans()):
        schema["title"] = draw(hostile_text)
    if draw(st.booleans()):
        schema["default"] = draw(json_values)
    return schema


def printable_source(code: str) -> bool:
    """No raw control, format (bidi) or separator character anywhere in a generated file."""
    return all(ch.isprintable() or ch == "\n" for ch in code)
