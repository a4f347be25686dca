"""Property-based attack on the MCP generator: a hostile tools/list is refused clearly or becomes an exact, inert module."""

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
    same_json,
    sometimes,
    uses_refs,
    utf8_text,
    vendor,
    vendors_at_least,
)
from vendorgen.sources import mcp


def mcp_snapshot(tools: list, server: dict | None = None, info: dict | None = None, source: str = "mcp:x",
                 name: str = "hostile", prefix: str = "") -> dict:  # fmt: skip
    """What `mcp.inspect` records for a server that listed `tools`."""
    info = {"name": "hostile", "version": "1"} if info is None else info
    return {"kind": "mcp", "source": source, "name": name, "prefix": prefix, "tools": tools, "options": {},
            "server": server or {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
            "server_info": info, "revision": mcp.revision(info)}  # fmt: skip


# Now and then a tool without a usable name: each must be refused.
tool_names = sometimes(st.sampled_from(["", None, 7]), names.filter(bool))


@st.composite
def mcp_tools(draw) -> dict:
    """One entry of a tools/list result, as a hostile server could send it."""
    tool: dict = {"name": draw(tool_names)}
    for key in ("description", "title"):
        if draw(st.booleans()):
            tool[key] = draw(hostile_text)
    if draw(st.booleans()):
        tool["annotations"] = {"title": draw(hostile_text)}
    # Mostly object schemas; now and then whatever JSON a broken server sends.
    tool["inputSchema"] = draw(sometimes(json_values, object_schemas()))
    if draw(st.booleans()):
        tool["outputSchema"] = draw(object_schemas())
    return tool


@st.composite
def mcp_snapshots(draw) -> dict:
    transport = draw(st.sampled_from(mcp.TRANSPORTS))
    if transport == "stdio":
        server = {"transport": transport, "command": draw(hostile_text), "args": draw(st.lists(hostile_text, max_size=3)),
                  "env": draw(st.lists(hostile_text, max_size=2))}  # fmt: skip
    else:
        server = {"transport": transport, "url": "http://127.0.0.1:1/" + draw(hostile_text)}
    return mcp_snapshot(
        draw(st.lists(mcp_tools(), min_size=1, max_size=3)),
        server,
        {"name": draw(hostile_text), "version": draw(hostile_text)},
        source="mcp:" + draw(hostile_text),
        name=draw(names),
        prefix=draw(st.one_of(st.just(""), names)),
    )


# Schemas that once came out wrong: data that looks like schema keywords was resolved as a `$ref`
# (or lost its "$defs" key), a Literal of non-ASCII enum values was refused by the gate, and a
# required input whose only type is null got a "nullable" smolagents refused, and a parameter named
# like a builtin the gate forbids (`compile`) made the gate refuse the module.
REGRESSIONS = {
    "type": "object",
    "properties": {
        "data": {"default": {"$defs": None, "$ref": "#/$defs/y"}, "enum": [{"$ref": "#/$defs/y"}, {"definitions": 1}]},
        "named": {"type": "object", "properties": {"$defs": {"type": "string"}, "definitions": {}}},
        "drink": {"enum": ["café", "thé"], "default": "thé"},
        "nothing": {"enum": [None]},
        "compile": {"type": "string"},
    },
    "required": ["nothing"],
    "$defs": {"y": {"type": "integer"}},
}


def described(raw: dict) -> str:
    """The first non-blank of the texts MCP gives a tool, in the order vendorgen reads them."""
    annotations = raw.get("annotations") or {}
    for text in (raw.get("description"), raw.get("title"), annotations.get("title")):
        if isinstance(text, str) and text.strip():
            return text
    return ""


@vendors_at_least("mcp", 0.2)
@hostile_settings
@given(snapshot=mcp_snapshots())
@example(snapshot=mcp_snapshot([{"name": "big", "description": MEGABYTE, "inputSchema": {
    "type": "object", "properties": {"x": {"enum": [MEGABYTE, "y"], "default": MEGABYTE}}}}]))  # fmt: skip
@example(snapshot=mcp_snapshot([{"name": "deep", "inputSchema": deep_schema(40)}]))
@example(snapshot=mcp_snapshot([{"name": "too_deep", "inputSchema": deep_schema(100)}]))
@example(snapshot=mcp_snapshot([{"name": "linked", "inputSchema": RECURSIVE_SCHEMA, "outputSchema": RECURSIVE_SCHEMA}]))
@example(snapshot=mcp_snapshot([{"name": "x\ud800", "inputSchema": {"type": "object"}}]))
@example(snapshot=mcp_snapshot([{"name": "found", "inputSchema": REGRESSIONS}]))  # bugs this test found
@example(snapshot=mcp_snapshot([{"name": "deep_default", "inputSchema": {
    "type": "object", "properties": {"x": {"default": deep_schema(70)}}}}]))  # fmt: skip
def test_hostile_tools_list_is_refused_or_exact(snapshot: dict) -> None:
    generated = vendor(snapshot)
    if generated is None:
        return  # a clear refusal (vendor checked it is one printable line)
    check_header(generated)
    namespace = load_module(generated.code)
    server_info = snapshot["server_info"]
    assert same_json(namespace["SERVER"], {"name": server_info["name"], "version": server_info["version"],
                                           **snapshot["server"]})  # fmt: skip
    built = namespace["tools"]()  # every tool, instantiated: smolagents validation runs here
    assert len(built) == len(snapshot["tools"]) == len(generated.module.tools)
    namespace["_ServerTool"].session = RecordingSession()
    for raw, spec, tool in zip(snapshot["tools"], generated.module.tools, built):
        assert tool.mcp_name == raw["name"]  # the wire name, exactly
        assert tool.name == mcp.tool_name(raw["name"], snapshot["prefix"])
        assert utf8_text([tool.mcp_name, tool.name, tool.description, tool.inputs, tool.output_schema])
        if described(raw):
            assert kept_prose(tool.description, described(raw))
        check_inputs(tool, spec, {} if raw["inputSchema"] is None else raw["inputSchema"])
        if isinstance(raw.get("outputSchema"), dict) and not uses_refs(raw["outputSchema"]):
            assert same_json(tool.output_schema, raw["outputSchema"])
        check_call(tool, spec, raw["name"])


class RecordingSession:
    """Stands in for the module's shared session to see exactly what a call sends, and stops there."""

    def call(self, name: str, arguments: dict, timeout: float | None) -> None:
        raise Sent(name, arguments)


def check_call(tool, spec, wire_tool_name: str) -> None:
    """forward sends the tool's MCP name and every argument under its wire name, untouched."""
    values = {input_spec.name: f"value-{index}" for index, input_spec in enumerate(spec.inputs)}
    try:
        tool.forward(**values)
    except Sent as sent:
        name, arguments = sent.args
    assert name == wire_tool_name
    assert arguments == {input_spec.wire_name: values[input_spec.name] for input_spec in spec.inputs}
