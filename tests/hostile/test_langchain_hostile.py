"""Property-based attack on the LangChain generator: hostile tool schemas are refused clearly or become an exact module."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from tests.hostile.strategies import (
    MEGABYTE,
    RECURSIVE_SCHEMA,
    Sent,
    check_header,
    check_inputs,
    deep_schema,
    hostile_settings,
    hostile_text,
    json_values,
    kept_prose,
    load_module,
    names,
    object_schemas,
    sometimes,
    utf8_text,
    vendor,
    vendors_at_least,
)
from vendorgen import naming
from vendorgen.sources import langchain

# Where the generated forward imports the LangChain tools from: a real module, so the call path runs.
SOURCE = ("tests.servers.langchain_tools", "make_tools")
RETURNS = [("string", "str"), ("integer", "int"), ("number", "float"), ("boolean", "bool"),
           ("object", "dict[str, Any]"), ("array", "list[Any]"), ("any", "Any"),
           ("image", "Any"), ("string", "__import__('os')"), ("evil", "str")]  # fmt: skip


def langchain_snapshot(tools: list, source: tuple[str, str] = SOURCE, name: str = "hostile", prefix: str = "",
                       tool_name: str = "", revision: str = "") -> dict:  # fmt: skip
    """What `langchain.inspect` records for `tools` (described as `langchain.describe` does)."""
    module, attr = source
    return {"kind": "langchain", "source": f"langchain:{module}:{attr}", "name": name, "module": module,
            "attr": attr, "shape": "factory", "revision": revision, "prefix": prefix, "tool_name": tool_name,
            "tools": tools, "options": {}}  # fmt: skip


@st.composite
def langchain_tools(draw) -> dict:
    output_type, output_annotation = draw(st.sampled_from(RETURNS))
    return {
        "name": draw(names),
        "description": draw(hostile_text),
        # Mostly object schemas; now and then whatever an edited snapshot holds.
        "schema": draw(sometimes(json_values, object_schemas())),
        "injected": [],
        "output_type": output_type,
        "output_annotation": output_annotation,
    }


@st.composite
def langchain_snapshots(draw) -> dict:
    # Module and attribute become an import statement: hostile ones must be refused.
    source = draw(sometimes(st.tuples(names, names), st.just(SOURCE)))
    return langchain_snapshot(
        draw(st.lists(langchain_tools(), min_size=1, max_size=3)),
        source,
        name=draw(names),
        prefix=draw(st.one_of(st.just(""), names)),
        tool_name=draw(sometimes(names, st.just(""))),
        revision=draw(hostile_text),
    )


@vendors_at_least("langchain", 0.2)
@hostile_settings
@given(snapshot=langchain_snapshots())
@example(snapshot=langchain_snapshot([{"name": "big", "description": MEGABYTE, "schema": {
    "type": "object", "properties": {"x": {"enum": [MEGABYTE, "y"], "default": MEGABYTE}}}}]))  # fmt: skip
@example(snapshot=langchain_snapshot([{"name": "deep", "description": "", "schema": deep_schema(40)}]))
@example(snapshot=langchain_snapshot([{"name": "tabs", "description": "tab\there", "schema": {}}]))  # was expanded
@example(snapshot=langchain_snapshot([{"name": "linked", "description": "", "schema": RECURSIVE_SCHEMA}]))
@example(snapshot=langchain_snapshot([{"name": "t", "description": "", "schema": {}}], ("os", "system")))
@example(snapshot=langchain_snapshot([{"name": "t", "description": "", "schema": {}}], ("os;import sys", "x")))
@example(snapshot=langchain_snapshot([{"name": "t", "description": "", "schema": {}}], ("builtins", "eval")))
@example(snapshot=langchain_snapshot([{"name": "t", "description": "", "schema": {  # a branch's text, behind a $ref
    "type": "object", "properties": {"x": {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}},
    "$defs": {"X": {"type": "string", "description": "said by the branch"}}}}]))  # fmt: skip
def test_hostile_langchain_tools_are_refused_or_exact(snapshot: dict) -> None:
    generated = vendor(snapshot)
    if generated is None:
        return  # a clear refusal (vendor checked it is one printable line)
    check_header(generated)
    namespace = load_module(generated.code)
    assert (namespace["SOURCE_MODULE"], namespace["SOURCE_ATTR"]) == (snapshot["module"], snapshot["attr"])
    built = namespace["tools"]()  # every tool, instantiated: smolagents validation runs here
    assert len(built) == len(snapshot["tools"]) == len(generated.module.tools)
    for raw, spec, tool in zip(snapshot["tools"], generated.module.tools, built):
        assert tool.lc_name == raw["name"]  # the LangChain name, exactly
        given = snapshot["tool_name"]
        assert tool.name == (naming.python_name(given) if given else langchain.tool_name(raw["name"], snapshot["prefix"]))
        assert utf8_text([tool.lc_name, tool.name, tool.description, tool.inputs])
        if raw["description"].strip():
            assert kept_prose(tool.description, raw["description"])
        if (raw.get("output_type"), raw.get("output_annotation")) in RETURNS[:7]:
            assert tool.output_type == raw["output_type"]
        else:
            assert tool.output_type == "any"
        check_inputs(tool, spec, raw["schema"])
        if (snapshot["module"], snapshot["attr"]) == SOURCE:
            check_call(tool, spec)


class RecordingTool:
    """Stands in for the LangChain tool the generated code finds, to see exactly what it is given."""

    def invoke(self, arguments: dict) -> None:
        raise Sent(arguments)


def check_call(tool, spec) -> None:
    """forward invokes the LangChain tool with every argument under its wire name, untouched."""
    tool._lc_tool = RecordingTool()  # what `_tool()` found and kept; forward still imports SOURCE for real
    values = {input_spec.name: f"value-{index}" for index, input_spec in enumerate(spec.inputs)}
    try:
        tool.forward(**values)
    except Sent as sent:
        (arguments,) = sent.args
    assert arguments == {input_spec.wire_name: values[input_spec.name] for input_spec in spec.inputs}
