"""Reading a smolagents tool.py without running it (toolfile.py), the hub ToolSpec, and the gate's verbatim mode.

All offline: the hub source's `build` is pure, so a hand-made snapshot is enough.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from vendorgen.errors import GateError, SchemaError, UsageError
from vendorgen.generate import pipeline
from vendorgen.generate.gate import check_module
from vendorgen.model import NO_DEFAULT
from vendorgen.project.workspace import Workspace
from vendorgen.sources import hub
from vendorgen.sources.toolfile import ToolFile
from vendorgen.text.formatter import format_source

INPUTS = {
    "text": {"type": "string", "description": "The text."},
    "times": {"type": "integer", "description": "How often.", "nullable": True, "default": 1},
    "unit": {"description": "Unit first, then type: key order is the author's.", "type": "string", "enum": ["a", "b"]},
    "either": {"type": ["string", "integer"], "description": "A union."},
    "items": {"type": "array", "description": "Kept extras.", "items": {"type": "number"}, "minItems": 1},
    "flag": {"type": "boolean", "description": "nullable False stays.", "nullable": False},
}

TOOL_PY = f'''\
"""A tool Space."""
from smolagents import Tool


class ShapeTool(Tool):
    name = "shape"
    description = """Does shapes.

    Several lines."""
    inputs = {INPUTS!r}
    output_type = "object"
    output_schema = {{"type": "object", "required": ["a"]}}

    def forward(self, text, times=1, unit=None, either=None, items=None, flag=None):
        return {{"a": text}}
'''


def snapshot(tool_py: str = TOOL_PY, class_name: str = "ShapeTool", **extra: object) -> dict[str, object]:
    return {
        "kind": "hub",
        "source": "hub:tester/shape",
        "name": "shape",
        "revision": "a" * 40,
        "repo_id": "tester/shape",
        "class_name": class_name,
        "tool_py": tool_py,
        "requirements_txt": "smolagents\n# a comment\nrequests>=2  # inline\n\n",
        **extra,
    }


def tool_file(source: str) -> ToolFile:
    return ToolFile(textwrap.dedent(source))


# ------------------------------------------------------------------ finding the Tool class


@pytest.mark.parametrize(
    "header",
    [
        "from smolagents import Tool",
        "from smolagents.tools import Tool",  # what smolagents' own push_to_hub writes
        "from smolagents import Tool as Base",
        "import smolagents",
        "import smolagents.tools",
        "import smolagents as sa",
    ],
)
def test_every_spelling_of_smolagents_tool(header: str) -> None:
    base = {
        "from smolagents import Tool as Base": "Base",
        "import smolagents": "smolagents.Tool",
        "import smolagents.tools": "smolagents.tools.Tool",
        "import smolagents as sa": "sa.Tool",
    }.get(header, "Tool")
    file = ToolFile(f"{header}\n\nclass Other:\n    pass\n\nclass EchoTool({base}):\n    name = 'echo'\n")
    assert list(file.tool_classes) == ["EchoTool"]


def test_a_subclass_of_a_tool_class_in_the_file_is_a_tool_and_inherits_attributes() -> None:
    file = tool_file("""\
        from smolagents import Tool

        class Base(Tool):
            description = "shared"
            inputs = {}
            output_type = "string"
            name = "base"

        class Child(Base):
            name = "first"
            name = "child"  # the last assignment wins, as in Python
        """)
    assert list(file.tool_classes) == ["Base", "Child"]
    assert file.attributes("Child") == {"name": "child", "description": "shared", "inputs": {}, "output_type": "string"}


def test_several_classes_need_a_choice() -> None:
    file = tool_file("from smolagents import Tool\nclass A(Tool): pass\nclass B(Tool): pass\n")
    with pytest.raises(UsageError, match=r"defines 2 Tool classes \(A, B\); pick one with --class"):
        file.choose(None)
    assert file.choose("B") == "B"
    with pytest.raises(UsageError, match="no Tool class 'C'; it defines: A, B"):
        file.choose("C")


def test_no_tool_class() -> None:
    with pytest.raises(SchemaError, match="defines no subclass of smolagents' Tool"):
        tool_file("from other import Tool as Mine\nclass A(Mine): pass\n").choose(None)


# ---------------------------------------------------------------------- reading values


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("    name = NAME\n", r"line 5: T.name is not a literal .*\(NAME\)"),
        ("    inputs = dict(a=1)\n", r"line 5: T.inputs is not a literal"),
        ("    inputs = {'a': {1, 2}}\n", r"line 5: T.inputs is not a literal"),  # a set: JSON cannot carry it
        ("    description = 'x' + 'y'\n", r"line 5: T.description is not a literal"),
        ("    output_type = 1e999\n", r"line 5: T.output_type is not a literal"),
    ],
)
def test_a_value_that_needs_running_is_refused_with_its_line(body: str, message: str) -> None:
    source = "from smolagents import Tool\nNAME = 'n'\n\nclass T(Tool):\n" + body
    with pytest.raises(SchemaError, match=message):
        ToolFile(source, "tool.py").attributes("T")


def test_attributes_set_in_init_are_named_as_missing() -> None:
    file = tool_file("""\
        from smolagents import Tool

        class T(Tool):
            name = "t"
            description = "d"
            output_type = "string"

            def __init__(self):
                self.inputs = {"a": {"type": "string", "description": "a"}}
                super().__init__()
        """)
    with pytest.raises(SchemaError, match=r"T has no class attribute inputs .*set in __init__"):
        file.attributes("T")


def test_syntax_error_names_the_line() -> None:
    with pytest.raises(SchemaError, match=r"tool.py of x/y line 3, column \d+: syntax error"):
        ToolFile("from smolagents import Tool\nclass T(Tool):\n    name = (\n", "tool.py of x/y")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("class T:\n    yield 1\n", "line 2: 'yield' outside function"),
        ("def f():\n    x = 1\n    global x\n", "line 3: name 'x' is assigned to before global declaration"),
    ],
)
def test_code_that_parses_but_does_not_compile_is_refused(code: str, message: str) -> None:
    with pytest.raises(SchemaError, match=f"tool.py of x/y {message} \\(not valid Python 3 code\\)"):
        ToolFile(code, "tool.py of x/y")


# -------------------------------------------------------------------------- the ToolSpec


def test_the_tool_spec_gives_back_the_authors_attributes() -> None:
    module = hub.build(snapshot())
    [tool] = module.tools
    assert (module.kind, module.revision, tool.class_name, tool.name) == ("hub", "a" * 40, "ShapeTool", "shape")
    assert module.requirements == ("smolagents", "requests>=2")
    assert module.carried_code == TOOL_PY
    # Equal by value (key order is the author's, and not InputSpec's).
    assert tool.smolagents_inputs() == INPUTS
    assert tool.class_attributes() == {
        "name": "shape",
        "description": "Does shapes.\n\n    Several lines.",
        "inputs": INPUTS,
        "output_type": "object",
        "output_schema": {"type": "object", "required": ["a"]},
    }
    specs = {spec.name: spec for spec in tool.inputs}
    assert specs["times"].nullable and specs["times"].default == 1 and specs["times"].annotation == "int | None"
    assert not specs["text"].nullable and specs["text"].default is NO_DEFAULT
    assert specs["unit"].enum == ("a", "b") and specs["unit"].annotation == "Literal['a', 'b']"
    assert specs["either"].type == ("string", "integer") and specs["either"].annotation == "str | int"
    assert specs["items"].schema == {"items": {"type": "number"}, "minItems": 1}


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        ('name = "not an id"\ndescription = "d"\ninputs = {}\noutput_type = "string"', "is not a Python identifier"),
        ('name = "t"\ndescription = "d"\ninputs = {}\noutput_type = "str"', "output_type 'str' is not one of"),
        ('name = "t"\ndescription = "d"\ninputs = []\noutput_type = "string"', "inputs is not a dict"),
        (
            'name = "t"\ndescription = "d"\ninputs = {"a b": {"type": "string", "description": "x"}}\n'
            'output_type = "string"',
            "'a b' is not a usable Python parameter name",
        ),
        (
            'name = "t"\ndescription = "d"\ninputs = {"a": {"type": "text", "description": "x"}}\n'
            'output_type = "string"',
            r"inputs\['a'\] needs a 'type' among",
        ),
        (
            'name = "t"\ndescription = "d"\ninputs = {"a": {"type": "string"}}\noutput_type = "string"',
            "and a 'description' string",
        ),
    ],
)
def test_values_smolagents_would_refuse_are_refused(attributes: str, message: str) -> None:
    body = textwrap.indent(attributes, "    ")
    with pytest.raises(SchemaError, match=message):
        hub.build(snapshot(f"from smolagents import Tool\n\nclass T(Tool):\n{body}\n", "T"))


def test_targets_and_requirements() -> None:
    assert hub.parse_target("owner/space") == ("owner/space", None)
    assert hub.parse_target("owner/space@refs/pr/1") == ("owner/space", "refs/pr/1")
    for bad in ("space", "owner/space@", "a/b/c", "../x"):
        with pytest.raises(UsageError, match="is not owner/space"):
            hub.parse_target(bad)
    assert hub.parse_requirements(None) == ()
    assert hub.normal_newlines("a\r\nb\rc\n") == "a\nb\nc\n"


# ------------------------------------------------------------------------ the gate, verbatim


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Workspace(tmp_path)


def test_the_vendored_file_is_the_header_then_the_formatted_original(workspace: Workspace) -> None:
    generated = pipeline.generate(snapshot(TOOL_PY.replace("\n", "\r\n")), workspace)
    header, body = generated.code.split("\n\n", 1)
    assert header.startswith("# Vendored by vendorgen ") and "revision " + "a" * 40 in header
    assert body.lstrip("\n") == format_source(TOOL_PY)
    assert pipeline.generate(snapshot(TOOL_PY.replace("\n", "\r\n")), workspace).code == generated.code


@pytest.mark.parametrize(
    "tamper",
    [
        lambda code: code + "import os\n",
        lambda code: code.replace("# Vendored by", "import os\n# Vendored by"),
        lambda code: code.replace("Several lines.", "Several lines!"),
        lambda code: "# Vendored by vendorgen 0\nprint('hi')\n" + code.split("\n\n", 1)[1],
    ],
    ids=["code appended", "code before the header", "original changed", "code in the header"],
)
def test_the_gate_refuses_anything_but_the_original(workspace: Workspace, tamper) -> None:
    generated = pipeline.generate(snapshot(), workspace)
    with pytest.raises(GateError):
        check_module(tamper(generated.code), generated.module, generated.source)


def test_the_gate_refuses_a_spec_the_code_does_not_match(workspace: Workspace) -> None:
    """What a [tool.vendorgen.overrides] rename does to a hub module: refused, with the reason."""
    generated = pipeline.generate(snapshot(), workspace)
    renamed = replace(generated.module, tools=(replace(generated.module.tools[0], name="other"),))
    with pytest.raises(GateError, match="ShapeTool.name differs from the spec .*overrides cannot rename"):
        check_module(generated.code, renamed, generated.source)
