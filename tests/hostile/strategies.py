"""Hypothesis strategies for hostile remote schemas, and the checks every source's property test shares."""

from __future__ import annotations

import builtins
import importlib.util
import io
import itertools
import json
import keyword
import os
import sys
import tempfile
import tokenize
import types
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from vendorgen import __version__
from vendorgen.errors import GateError, VendorgenError
from vendorgen.generate import pipeline
from vendorgen.package import files
from vendorgen.project.workspace import Workspace
from vendorgen.text import schema as schema_walk

RUNTIME_FILES = tuple(files.runtime_files())  # the core, then each built-in kind's

# Every hostile property test runs under these settings: hypothesis' default 100 examples in CI
# (each example vendors, formats and gates a module); the search at size is bench/bench_hostile.py,
# 10,000 examples each, which sets VENDORGEN_HYPOTHESIS_EXAMPLES before importing the tests.
EXAMPLES_ENV = "VENDORGEN_HYPOTHESIS_EXAMPLES"
hostile_settings = settings(
    max_examples=int(os.environ.get(EXAMPLES_ENV, "100")), deadline=None, suppress_health_check=list(HealthCheck)
)

# PEP 263: Python obeys one of these in a comment on line 1 or 2 of a module (unicode_escape turns
# the `\\"` a docstring escapes back into a `"` that ends it).
ENCODING_DECLARATIONS = ["-*- coding: unicode_escape -*-", "coding=raw_unicode_escape", "coding:latin-1",
                         "vim: set fileencoding=utf-16 :", "coding: utf-8", "\ncoding: unicode_escape\n"]  # fmt: skip
# Text a schema author could use to break out of a literal, hide code from a reviewer, or crash us.
SPECIALS = ['"', "'", '"""', "'''", "\\", "\x00", "\r", "\n", "\r\n", "\t", "\x0b", "\x1b[2J", "\u2028", "\u2029",
            "\u202e", "\u202d", "\u2066", "\u2067", "\u2069", "\u200b", "\ufeff", "{{", "}}",
            "{%", "#", "\\N{BULLET}", "\\x00", "`", "\u0430", "\u0435", "\U0001f600", *ENCODING_DECLARATIONS]  # fmt: skip
# Lone surrogates: no UTF-8 text can hold one, so each must be refused. They come in one text
# out of twenty: a schema holds many texts, and one surrogate anywhere refuses all of it.
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]

KEYWORDS = keyword.kwlist + keyword.softkwlist
# Besides: names the templates' own code uses (locals, client keywords) and names Python mangles.
NAME_SPECIALS = KEYWORDS + ["self", "cls", "__init__", "__class__", "Tool", "Any", "Literal", "arguments", "uploads",
                            "result", "_source", "api_name", "fn_index", "headers", "timeout", "mcp_name", "lc_name",
                            "", "1st", "0", "a-b", "a.b", "a b", "café", "\u0430dmin", "x\u202e", "_", "__"]  # fmt: skip
# Names the generated modules define or their `forward` reads: a parameter or tool class taking one
# would shadow it ("'str' object is not callable"). Listed here, not read from vendorgen, so a
# template name vendorgen forgets is still attacked.
TEMPLATE_NAMES = ["AgentImage", "AgentAudio", "MCPToolError", "SERVER", "TIMEOUT", "CONNECT_TIMEOUT", "SOURCE_MODULE",
                  "SOURCE_ATTR", "tools", "asyncio", "atexit", "base64", "io", "json", "os", "sys", "threading",
                  "timedelta", "path", "item", "ModuleNotFoundError", "Image", "handle_file", "Client", "tempfile",
                  "StructuredTool", "BaseTool", "_Session", "_MCPTool", "_Tools", "_call", "_LangChainTool"]  # fmt: skip
# Lower-case builtins (functions and types) are the ones a parameter would shadow.
BUILTINS = [name for name in dir(builtins) if name.islower() and not name.startswith("_")]

_valid_text = st.one_of(
    st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(st.characters(exclude_categories=["Cs"]), max_size=8)),
             max_size=12).map("".join),
    st.text(max_size=40),
)  # fmt: skip


def sometimes(rare: st.SearchStrategy, usual: st.SearchStrategy, one_in: int = 20) -> st.SearchStrategy:
    """`usual`, and `rare` once in `one_in` draws (hypothesis' integers favour their bounds: no `integers() == 0`)."""
    return st.sampled_from([False] * (one_in - 1) + [True]).flatmap(lambda pick: rare if pick else usual)


hostile_text = sometimes(st.tuples(_valid_text, st.sampled_from(SURROGATES), _valid_text).map("".join), _valid_text)

names = st.one_of(st.sampled_from(NAME_SPECIALS + TEMPLATE_NAMES + BUILTINS), hostile_text.filter(lambda text: len(text) < 30))

# JSON Schema keywords used as data: a default, an enum value or a property may be named like them.
SCHEMA_WORDS = ["$ref", "$defs", "definitions", "properties", "required", "type", "enum", "default", "anyOf",
                "description"]  # fmt: skip
json_keys = st.one_of(st.sampled_from(SCHEMA_WORDS), hostile_text)

# Now and then NaN or Infinity: Python's json reads them, JSON cannot hold them; each must be a clear refusal.
NON_FINITE = [float("nan"), float("inf"), float("-inf")]
numbers = sometimes(st.sampled_from(NON_FINITE), st.floats(allow_nan=False, allow_infinity=False), one_in=30)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), numbers, hostile_text)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(json_keys, children, max_size=4)),
    max_leaves=10,
)

primitive_types = st.sampled_from(["string", "integer", "number", "boolean"])
enum_values = st.one_of(hostile_text, st.integers(-5, 5), st.none(), json_values)
property_names = st.one_of(names, st.sampled_from(SCHEMA_WORDS))
# A few references that cannot be resolved: each must be a clear refusal.
BAD_REFS = ["#/$defs/", "#/definitions/missing", "https://127.0.0.1:1/schema.json", "#/properties/x", "#"]


@st.composite
def property_schemas(draw, depth: int = 0, refs: tuple[str, ...] = ()) -> dict:
    """One JSON Schema property: primitives, enums, arrays, objects, unions, nullables, refs to `refs` ($defs)."""
    kinds = ["primitive", "enum", "array", "object", "nullable", "union", "empty", "const"] + (["ref"] if refs else [])
    kind = draw(st.sampled_from(kinds if depth < 3 else ["primitive", "enum", "empty", *kinds[8:]]))
    schema: dict
    if kind == "primitive":
        schema = {"type": draw(primitive_types)}
    elif kind == "enum":
        schema = {"enum": draw(st.lists(enum_values, min_size=1, max_size=5, unique_by=json.dumps))}
    elif kind == "const":
        schema = {"const": draw(st.one_of(hostile_text, st.integers(), json_values))}
    elif kind == "array":
        schema = {"type": "array", "items": draw(property_schemas(depth + 1, refs))}
    elif kind == "object":
        schema = {"type": "object",
                  "properties": draw(st.dictionaries(property_names, property_schemas(depth + 1, refs), max_size=3))}  # fmt: skip
    elif kind == "nullable":
        schema = {"anyOf": [draw(property_schemas(depth + 1, refs)), {"type": "null"}]}
    elif kind == "union":
        schema = {"anyOf": draw(st.lists(property_schemas(depth + 1, refs), min_size=2, max_size=3))}
    elif kind == "ref":
        good = st.sampled_from([f"#/$defs/{name}" for name in refs])
        schema = {"$ref": draw(sometimes(st.sampled_from(BAD_REFS), good))}
    else:
        schema = {}
    if draw(st.booleans()):
        schema["description"] = draw(hostile_text)
    if draw(st.booleans()):
        schema["title"] = draw(hostile_text)
    if draw(st.booleans()):
        schema["default"] = draw(json_values)
    return schema


@st.composite
def object_schemas(draw) -> dict:
    """An object schema (MCP inputSchema/outputSchema, LangChain args): properties, required, recursive $defs."""
    definitions = tuple(draw(st.lists(names, max_size=3, unique=True)))
    properties = draw(st.dictionaries(property_names, property_schemas(refs=definitions), max_size=5))
    schema: dict = {"type": "object", "properties": properties}
    if properties and draw(st.booleans()):
        schema["required"] = draw(st.lists(st.sampled_from(list(properties)), unique=True))
    if definitions:
        # A definition may refer to itself or to the others: recursive types.
        schema["$defs"] = {name: draw(property_schemas(depth=1, refs=definitions)) for name in definitions}
    if draw(st.booleans()):
        schema["description"] = draw(hostile_text)
    return schema


def deep_schema(levels: int) -> dict:
    """An object schema with one property nested `levels` arrays deep."""
    node: dict = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", "items": node}
    return {"type": "object", "properties": {"deep": node}, "required": ["deep"]}


# A linked list: the definition refers to itself.
RECURSIVE_SCHEMA = {
    "type": "object",
    "properties": {"head": {"$ref": "#/$defs/Node", "description": "first node"}},
    "$defs": {"Node": {"type": "object", "properties": {"value": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}}}},
}
MEGABYTE = "\u202e\"\"\"\\" + "x" * 1_000_000


# ---------------------------------------------------------------------------
# Checks every source's property test shares
# ---------------------------------------------------------------------------

WORKSPACE = Workspace(Path(tempfile.mkdtemp(prefix="vendorgen-hostile-")))  # defaults; nothing is written


class Sent(Exception):
    """Raised by a test's stand-in for the remote end, with what the generated code would have sent."""


def same_json(actual: object, expected: object, key_order: bool = True) -> bool:
    """Equal as JSON, types included (True is not 1, 1.0 is not 1), and key order unless `key_order` is False."""
    return json.dumps(actual, sort_keys=not key_order) == json.dumps(expected, sort_keys=not key_order)


def printable_source(code: str) -> bool:
    """No raw control, format (bidi) or separator character anywhere in a generated file."""
    return all(ch.isprintable() or ch == "\n" for ch in code)


def visible_source(code: str) -> bool:
    """An author's code as vendored (hub): printable text, newlines, tabs and spaces; no control, bidi or zero-width."""
    return all(ch.isprintable() or ch in "\n\t" or unicodedata.category(ch) == "Zs" for ch in code)


def unescape(text: str) -> str:
    """The text the `comment` filter escaped (`\\x00`, `\\u202e`, `\\\\`...), back as it was."""
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def check_header(generated: Any) -> None:
    """The provenance header: constant lines 1-2, then lines that say, once unescaped, exactly where the code came from.

    Python reads an encoding declaration on lines 1-2, so no remote text may be there. Black
    drops the trailing spaces of a comment; nothing else may change, and no remote text (source
    URI, endpoint names, revision) may start a line of code.
    """
    module, lines = generated.module, generated.code.split("\n")
    endpoints = ", ".join(module.endpoints)
    revision = f" at revision {module.revision}" if module.revision else ""
    assert lines[:2] == [f"# Vendored by vendorgen {__version__}: review it as code you run.",
                         "# Provenance (as the source gave it, escaped):"]  # fmt: skip
    expected = [
        f"# from {module.source}",
        f"# endpoint{'' if len(module.endpoints) == 1 else 's'} {endpoints}{revision}"
        f" (schema sha256 {generated.schema_sha256}).",
    ]
    assert [unescape(line) for line in lines[2:4]] == [line.rstrip(" ") for line in expected]
    assert lines[4] == f"# Update: vendorgen update {module.name}"


# What `vendor` did with each example, by source kind: "vendored" or "refused".
OUTCOMES: dict[str, Counter[str]] = {}


def vendor(snapshot: dict, gate_may_refuse: bool = False) -> Any:
    """`pipeline.generate` (build, config, render, black, gate): the Generated module, or None for a clear refusal.

    Only the source's `build` may refuse generated code: the gate refusing what a template
    wrote means an escaping or template bug (a hub file is the author's code, so there it may).
    """
    outcomes = OUTCOMES.setdefault(snapshot["kind"], Counter())
    try:
        generated = pipeline.generate(snapshot, WORKSPACE)
    except VendorgenError as exc:
        check_refusal(exc)
        assert gate_may_refuse or not isinstance(exc, GateError), str(exc)[:300]
        outcomes["refused"] += 1
        return None
    outcomes["vendored"] += 1
    return generated


def vendors_at_least(kind: str, share: float) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """A property test of "refused or exact" passes vacuously when everything is refused: the wrapped
    test (hypothesis' runner, which takes no arguments) must also vendor `share` of its examples of `kind`.
    Measured shares at 100 examples: hub 40%, mcp 37%, space 64%, langchain 68%; the tests ask for 20%,
    far enough below (3.5 standard deviations at the lowest) that chance does not fail them."""

    def wrap(test: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            before = OUTCOMES.setdefault(kind, Counter()).copy()
            test()
            seen = OUTCOMES[kind] - before
            vendored, total = seen["vendored"], seen["vendored"] + seen["refused"]
            print(f"{kind}: {vendored} of {total} examples vendored, {seen['refused']} refused")
            assert total and vendored >= share * total, f"{kind}: only {vendored} of {total} examples were vendored"

        run.__name__, run.__doc__ = test.__name__, test.__doc__
        return run

    return wrap


def check_refusal(exc: VendorgenError) -> None:
    """A refusal is the one `error: ...` line the CLI prints: nothing remote may break or hide in it."""
    message = str(exc)
    assert message and message.isprintable(), message[:200]


MODULES_DIR = Path(tempfile.mkdtemp(prefix="vendorgen-hostile-modules-"))
for name in RUNTIME_FILES:
    (MODULES_DIR / name).write_text(files.text(name), encoding="utf-8")


def write_module(code: str) -> Path:
    """`code` written as the workspace writes a module (UTF-8, "\\n"), checked to read back as Python reads it."""
    path = MODULES_DIR / f"generated_{next(_module_numbers)}.py"
    with open(path, "w", encoding="utf-8", newline="\n") as file:
        file.write(code)
    data = path.read_bytes()
    assert tokenize.detect_encoding(io.BytesIO(data).readline)[0] == "utf-8"
    assert importlib.util.decode_source(data) == code
    return path


_module_numbers = itertools.count()


def load_module(code: str) -> dict:
    """Import a generated module (vendorgen's output, never remote code) from its file, and return its namespace.

    From the file, not a str: Python decodes the bytes (PEP 263) before it compiles them. The file
    sits beside a copy of the run-time files vendorgen ships, in a package of its own, so
    `from ._vendored_gradio import ...` resolves as it does in a user's project.
    """
    path = write_module(code)
    package = f"vendorgen_hostile_{path.stem}"
    holder = types.ModuleType(package)
    holder.__path__ = [str(path.parent)]
    sys.modules[package] = holder
    try:
        module = importlib.import_module(f"{package}.{path.stem}")
    finally:
        path.unlink()
    return vars(module)


def utf8_text(value: object) -> bool:
    """What a tool shows a model can be sent as UTF-8 (no lone surrogate got through)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def kept_prose(actual: str, original: str) -> bool:
    """A description is kept exactly, but for the surrounding whitespace and docstring indentation sources trim."""
    lines = original.split("\n")
    trimmed = original != original.strip() or any(line[:1].isspace() or (line and not line.strip()) for line in lines[1:])
    return actual.split() == original.split() if trimmed else actual == original


def check_inputs(tool: Any, spec: Any, object_schema: dict) -> None:
    """Each property of an object schema is one input, found by its wire name, with its text and values exactly."""
    properties = object_schema.get("properties") or {}
    required = object_schema.get("required")
    assert tool.inputs == spec.smolagents_inputs()
    assert sorted(input_spec.wire_name for input_spec in spec.inputs) == sorted(properties)
    by_wire = {input_spec.wire_name: input_spec for input_spec in spec.inputs}
    for wire, property_schema in properties.items():
        input_spec = by_wire[wire]
        entry = tool.inputs[input_spec.name]
        declared = effective(property_schema, object_schema)
        # Listed as required but with a default (zod's `.default()`): the source fills it in, so optional.
        assert input_spec.required == (isinstance(required, list) and wire in required and "default" not in declared)
        # A property that says nothing itself takes what its union's branches say (schema.map_type's rule).
        said = schema_walk.map_type(declared).description if not declared.get("description") else ""
        texts = [text for text in (declared.get("description"), said, declared.get("title")) if isinstance(text, str)]
        described = next((text for text in texts if text), "")
        if input_spec.typed_dicts:  # a union of objects: its shapes are named after the text (schema.input_spec)
            said = described.rstrip()
            said += "" if not said or said.endswith(".") else "."
            assert entry["description"].startswith(f"{said} An object is one of: ".lstrip()), entry["description"]
        else:
            assert entry["description"] == described
        if "default" in declared:
            assert same_json(entry["default"], declared["default"])
        if "$ref" not in declared:
            values = [declared["const"]] if "const" in declared else declared.get("enum")
            values = [value for value in values if value is not None] if isinstance(values, list) else []
            if values:
                assert same_json(entry["enum"], values)
        if isinstance(declared.get("properties"), dict) and "properties" in entry:
            assert list(entry["properties"]) == list(declared["properties"])


def effective(property_schema: Any, root: dict, seen: frozenset[str] = frozenset()) -> dict:
    """A property as a JSON Schema reader sees it: local `$ref`s followed (in a union's branches too),
    the nearer keywords winning.

    A `$ref` is left in the result when it cannot be followed (a cycle, a missing definition).
    """
    definitions = root.get("$defs") if isinstance(root.get("$defs"), dict) else {}
    merged: dict = {}
    node = property_schema
    while isinstance(node, dict):
        merged = {**node, **merged}
        ref = node.get("$ref")
        if not (isinstance(ref, str) and ref.startswith("#/$defs/")) or ref in seen:
            break
        seen |= {ref}
        node = definitions.get(ref[len("#/$defs/") :])
        if isinstance(node, dict):
            del merged["$ref"]
    for union in ("anyOf", "oneOf"):  # a union's branches are read the same way (their text may describe it)
        if isinstance(merged.get(union), list):
            merged[union] = [effective(branch, root, seen) if isinstance(branch, dict) else branch
                             for branch in merged[union]]  # fmt: skip
    return merged


def uses_refs(value: Any) -> bool:
    """Whether `value` holds `$ref`, `$defs` or `definitions` keys anywhere (resolution may rewrite it)."""
    if isinstance(value, dict):
        return bool({"$ref", "$defs", "definitions"} & value.keys()) or any(uses_refs(item) for item in value.values())
    if isinstance(value, list):
        return any(uses_refs(item) for item in value)
    return False
