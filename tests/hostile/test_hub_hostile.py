"""Property-based attack on the hub source: a hostile tool.py is refused clearly or vendored verbatim, never run.

The file is the author's code, so it is vendored as it is (under vendorgen's header) and
read statically. Every generated tool.py would leave a marker file if any of it ran
(module body, class body, forward) and ends by raising: vendoring must do neither.
"""

from __future__ import annotations

import ast
import codecs
import io
import tempfile
import tokenize
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.hostile.strategies import (
    ENCODING_DECLARATIONS,
    MEGABYTE,
    WORKSPACE,
    check_header,
    hostile_settings,
    hostile_text,
    json_keys,
    json_values,
    names,
    same_json,
    sometimes,
    utf8_text,
    vendor,
    vendors_at_least,
    visible_source,
    write_module,
)
from vendorgen.errors import SchemaError
from vendorgen.generate import pipeline
from vendorgen.model import SMOLAGENTS_TYPES
from vendorgen.sources.toolfile import ToolFile

MARKER = Path(tempfile.mkdtemp(prefix="vendorgen-hostile-hub-")) / "tool.py was executed"
# Run, any of these lines would leave the marker or stop the process.
RUN_MARKER = f"__import__('pathlib').Path({str(MARKER)!r}).write_text('ran')"
IMPORTS = {"Tool": "from smolagents import Tool", "BaseTool": "from smolagents.tools import Tool as BaseTool",
           "smolagents.Tool": "import smolagents"}  # fmt: skip
# Values vendorgen cannot read without running code: each must be refused if its class is vendored.
NOT_LITERALS = ['"a" + "b"', "str(1)", "NAME", 'f"{NAME}"', "[n for n in ()]", "{**{}}", RUN_MARKER, "(yield)"]
# Lines that make the file invalid Python.
BROKEN = ["def (:", "class", '"""', "print 'py2'", "\x00", "return 1", "  indented = 1", "x = (", "@"]
class_names = sometimes(names, st.from_regex(r"[A-Z][A-Za-z0-9_]{0,12}", fullmatch=True), one_in=10)
identifiers = sometimes(names, st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True), one_in=10)
# Comments and strings of the code: hostile text now and then, else text a reviewer can read.
VISIBLE = st.characters(exclude_categories=["Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"])
remarks = sometimes(hostile_text, st.text(VISIBLE, max_size=30))
UNREADABLE = object()  # the value of an attribute written as something that is no literal


@st.composite
def literals(draw, value_strategy: st.SearchStrategy) -> tuple[str, object]:
    """(code, value): a value written as Python reads it; now and then something that is no literal (UNREADABLE)."""
    if draw(sometimes(st.just(True), st.just(False))):
        return draw(st.sampled_from(NOT_LITERALS)), UNREADABLE
    value = draw(value_strategy)
    if isinstance(value, str) and draw(sometimes(st.just(True), st.just(False), one_in=5)):
        # The text as it is between triple quotes: raw control and bidi characters land in the file.
        code = f'"""{value}"""'
        try:
            return code, ast.literal_eval(code)
        except (SyntaxError, ValueError):
            return code, UNREADABLE  # not valid Python: the whole file must be refused
    return repr(value), value


@st.composite
def input_entries(draw) -> dict:
    """One `inputs` entry as an author writes it by hand, extras and all."""
    entry = {"type": draw(sometimes(hostile_text, st.sampled_from(SMOLAGENTS_TYPES))), "description": draw(hostile_text)}
    if draw(st.booleans()):
        entry["nullable"] = draw(sometimes(json_values, st.booleans()))
    if draw(st.booleans()):
        entry["default"] = draw(json_values)
    if draw(st.booleans()):
        entry["enum"] = draw(st.lists(json_values, max_size=4))
    if draw(st.booleans()):
        entry[draw(st.sampled_from(["items", "format", "minimum", "x-extra"]))] = draw(json_values)
    return entry


@st.composite
def tool_classes(draw, name: str, base: str) -> tuple[str, dict]:
    """(code, the attribute values it sets) of one Tool class: mostly all four smolagents needs."""
    values = {
        "name": literals(identifiers),
        "description": literals(hostile_text),
        "inputs": literals(st.dictionaries(identifiers, input_entries(), max_size=4)),
        "output_type": literals(sometimes(hostile_text, st.sampled_from(SMOLAGENTS_TYPES))),
        "output_schema": literals(sometimes(json_values, st.dictionaries(json_keys, json_values, max_size=3))),
    }
    usual = st.lists(st.sampled_from(list(values)[4:]), max_size=1).map(lambda extra: list(values)[:4] + extra)
    chosen = draw(sometimes(st.lists(st.sampled_from(list(values)), unique=True), usual, one_in=5))
    lines = [f"class {name}({base}):", f"    {draw(remarks)!r}  # {draw(remarks)}"]
    attributes = {}
    for attribute in chosen:
        code, value = draw(values[attribute])
        lines.append(f"    {attribute} = {code}")
        attributes[attribute] = value
    lines += [f"    _ran = {RUN_MARKER}", "", "    def forward(self, *args, **kwargs):",
              f"        # {draw(remarks)}", f"        {RUN_MARKER}", f"        return {draw(remarks)!r}"]  # fmt: skip
    return "\n".join(lines) + "\n", attributes


@st.composite
def tool_files(draw) -> tuple[str, str | None, dict]:
    """(tool.py text, the class to vendor, every class's own attributes and base)."""
    tool = draw(st.sampled_from(list(IMPORTS)))
    declaration = draw(sometimes(st.sampled_from(ENCODING_DECLARATIONS).map(lambda text: [f"# {text}"]), st.just([])))
    parts = [*declaration, f"# {draw(remarks)}", IMPORTS[tool], "import pathlib", RUN_MARKER, ""]
    classes: dict[str, tuple[str, dict]] = {}
    for name in draw(st.lists(class_names, min_size=1, max_size=3, unique=True)):
        base = draw(st.sampled_from([tool, *classes])) if classes else tool
        code, attributes = draw(tool_classes(name, base))
        parts.append(code)
        classes[name] = (base, attributes)
    parts += [draw(sometimes(st.sampled_from(BROKEN), st.just(""))), "raise SystemExit('tool.py was executed')", ""]
    class_name = draw(sometimes(st.one_of(st.none(), names), st.sampled_from(list(classes))))
    return "\n".join(parts), class_name, classes


def hub_snapshot(tool_py: str, class_name: str | None, source: str = "hub:tester/hostile", name: str = "hostile",
                 revision: str = "0" * 40, repo_id: str = "tester/hostile") -> dict:  # fmt: skip
    """What `hub.inspect` records for a Space whose tool.py is `tool_py`."""
    return {"kind": "hub", "source": source, "name": name, "revision": revision, "repo_id": repo_id,
            "class_name": class_name, "tool_py": tool_py, "requirements_txt": None,
            "options": {"trust": True, "class_name": class_name, "name": name}}  # fmt: skip


@st.composite
def hub_snapshots(draw) -> tuple[dict, dict]:
    tool_py, class_name, classes = draw(tool_files())
    snapshot = hub_snapshot(tool_py, class_name, source="hub:" + draw(hostile_text), name=draw(names),
                            revision=draw(hostile_text), repo_id=draw(sometimes(hostile_text, st.just("tester/x"))))  # fmt: skip
    return snapshot, classes


def python_reads_utf8(tool_py: str) -> bool:
    """Whether Python reads `tool_py`'s UTF-8 bytes as UTF-8 (no declaration of another encoding)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(tool_py.encode("utf-8", "surrogatepass")).readline)
    except SyntaxError:
        return False
    return codecs.lookup(encoding).name == "utf-8"


def read_back(classes: dict, class_name: str) -> dict:
    """The attributes Python gives `class_name`: its own, then its bases' (single inheritance in this file)."""
    found: dict = {}
    while class_name in classes:
        base, attributes = classes[class_name]
        found = {**attributes, **found}
        class_name = base
    return found


def simple_case(code: str, value: object, attribute: str = "description") -> tuple[dict, dict]:
    """A one-class tool.py whose `attribute` is written as `code` (Python reads `value`)."""
    attributes = {"name": "t", "description": "d", "inputs": {}, "output_type": "string", attribute: value}
    body = "\n".join(f"    {key} = {code if key == attribute else repr(item)}" for key, item in attributes.items())
    return hub_snapshot(f"from smolagents import Tool\n\n\nclass T(Tool):\n{body}\n", "T"), {"T": ("Tool", attributes)}


@vendors_at_least("hub", 0.2)
@hostile_settings
@given(case=hub_snapshots())
@example(case=simple_case(repr(MEGABYTE), MEGABYTE))
@example(case=simple_case("[" * 400 + "]" * 400, UNREADABLE))
def test_hostile_tool_py_is_refused_or_vendored_verbatim(case: tuple[dict, dict]) -> None:
    snapshot, classes = case
    generated = vendor(snapshot, gate_may_refuse=True)  # the gate refuses what black or Python cannot read
    assert not MARKER.exists(), "vendoring ran the tool.py"
    if generated is None:
        return  # a clear refusal (vendor checked it is one printable line)
    assert python_reads_utf8(snapshot["tool_py"]), "a tool.py declaring another encoding was vendored"
    assert visible_source(generated.code)
    check_header(generated)
    write_module(generated.code)  # Python reads the file as written exactly as the text the gate checked
    [spec] = generated.module.tools
    expected = read_back(classes, spec.class_name)
    assert UNREADABLE not in expected.values(), "a value vendorgen cannot read was accepted"
    read = ToolFile(generated.code).attributes(spec.class_name)  # the vendored file, read without running it
    assert read.keys() == expected.keys() and all(same_json(read[key], expected[key]) for key in read)
    attributes = spec.class_attributes()  # what the lock and the review describe (key order is the file's)
    assert all(same_json(attributes[key], read[key], key_order=False) for key in attributes)
    assert utf8_text(attributes)


TROJAN_SOURCE = [
    ("a bidi override in a comment", '"ok"  # \u202e } \u2066 hidden'),
    ("a bidi isolate in a string", '"admin\u2067 \u2066"'),
    ("a zero-width space", '"a\u200bb"'),
    ("a line separator", '"a\u2028b"'),
    ("a terminal escape", '"\x1b[2J"'),
]


@pytest.mark.parametrize("description", [code for _, code in TROJAN_SOURCE], ids=[case for case, _ in TROJAN_SOURCE])
def test_characters_that_hide_code_are_refused(description: str) -> None:
    """Trojan Source: the file is vendored verbatim, so a raw invisible or control character is refused, with where."""
    snapshot, _ = simple_case(description, UNREADABLE)
    with pytest.raises(SchemaError, match=r"line 6, column \d+: U\+[0-9A-F]{4}"):
        pipeline.generate(snapshot, WORKSPACE)


@pytest.mark.parametrize(("attribute", "value"), [("description", "\ud800"), ("output_schema", {"k": "\udbff"}),
                         ("inputs", {"x": {"type": "string", "description": "\udc00"}})])  # fmt: skip
def test_escaped_lone_surrogates_are_refused(attribute: str, value: object) -> None:
    """A lone surrogate written as an escape is valid Python but no valid text: refused like in every source."""
    snapshot, _ = simple_case(repr(value), value, attribute)
    with pytest.raises(SchemaError, match="lone surrogate"):
        pipeline.generate(snapshot, WORKSPACE)
