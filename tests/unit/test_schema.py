"""The one JSON Schema walk: each row of the type table in docs/DESIGN-notes and the issue."""

import socket

import pytest

from vendorgen.errors import SchemaError
from vendorgen.model import NO_DEFAULT
from vendorgen.text.schema import input_spec, inputs_from_object, map_type, resolve_refs


@pytest.mark.parametrize(
    ("schema", "kind", "annotation"),
    [
        ({"type": "string"}, "string", "str"),
        ({"type": "integer"}, "integer", "int"),
        ({"type": "number"}, "number", "float"),
        ({"type": "boolean"}, "boolean", "bool"),
        ({"type": "string", "enum": ["a", "b"]}, "string", "Literal['a', 'b']"),
        ({"enum": [1, 2]}, "integer", "Literal[1, 2]"),
        ({"enum": [1, 2.5]}, "number", "Literal[1, 2.5]"),
        ({"const": "x"}, "string", "Literal['x']"),
        ({"type": "array", "items": {"type": "integer"}}, "array", "list[int]"),
        ({"type": "array"}, "array", "list[Any]"),
        ({"type": "array", "items": {"enum": ["x", "y"]}}, "array", "list[Literal['x', 'y']]"),
        ({"type": "object", "properties": {"a": {"type": "string"}}}, "object", "dict[str, Any]"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "integer", "int"),
        ({"type": ["string", "null"]}, "string", "str"),
        ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, ("integer", "string"), "int | str"),
        ({"oneOf": [{"type": "integer"}, {"type": "object"}]}, ("integer", "object"), "int | dict[str, Any]"),
        ({"allOf": [{"type": "string"}]}, "string", "str"),
        ({}, "any", "Any"),
        ({"type": {}}, "any", "Any"),  # gradio's JSON component
        ({"type": "null"}, "null", "None"),
    ],
)
def test_type_table(schema, kind, annotation) -> None:
    mapped = map_type(schema)
    assert mapped.type == kind
    assert mapped.annotation == annotation


def test_null_members_mark_nullable() -> None:
    assert map_type({"anyOf": [{"type": "integer"}, {"type": "null"}]}).accepts_null
    assert map_type({"enum": ["a", None]}).accepts_null
    assert not map_type({"type": "integer"}).accepts_null


def test_enum_with_objects_keeps_values_without_literal() -> None:
    mapped = map_type({"enum": [{"a": 1}, "x"]})
    assert (mapped.type, mapped.annotation, mapped.enum) == ("any", "Any", ({"a": 1}, "x"))


def test_refs_are_inlined_as_plain_dicts() -> None:
    root = {"$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}}}
    resolved = resolve_refs({"$ref": "#/$defs/Address", "description": "where"}, root)
    assert resolved == {"type": "object", "properties": {"city": {"type": "string"}}, "description": "where"}
    assert type(resolved) is dict


def test_recursive_ref_keeps_its_definitions() -> None:
    root = {"$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}
    resolved = resolve_refs({"$ref": "#/$defs/Node"}, root)
    assert resolved["properties"]["kids"]["items"] == {"$ref": "#/$defs/Node"}
    assert resolved["$defs"]["Node"]["properties"]["kids"]["items"] == {"$ref": "#/$defs/Node"}
    assert map_type(resolved).type == "object"


@pytest.mark.parametrize("ref", ["#/$defs/Missing", "http://example.invalid/schema.json", "#/properties/x"])
def test_bad_refs_are_refused(ref: str) -> None:
    with pytest.raises(SchemaError):
        resolve_refs({"$ref": ref}, {"$defs": {}})


def test_refs_outside_the_schema_are_refused_and_never_fetched() -> None:
    """A hostile schema pointing at a server (and at files) that would answer: nothing connects to it."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        here = f"http://127.0.0.1:{listener.getsockname()[1]}"
        hostile = [
            ({"$ref": f"{here}/schema.json"}, {}),
            ({"$ref": f"{here}/schema.json#/$defs/X"}, {}),
            ({"$ref": "file:///etc/passwd"}, {}),
            ({"$ref": "other.json"}, {"$id": f"{here}/root.json"}),  # relative to the schema's own `$id`
            ({"$ref": "#/$defs/Sub"}, {"$defs": {"Sub": {"$id": f"{here}/sub/", "items": {"$ref": "next.json"}}}}),
        ]
        for schema, root in hostile:
            with pytest.raises(SchemaError, match="never fetches a schema"):
                resolve_refs(schema, root)
        with pytest.raises(BlockingIOError):
            listener.accept()  # no connection was ever attempted


def test_pointer_escapes_are_read_and_written() -> None:
    node = {"type": "array", "items": {"$ref": "#/$defs/a~1b"}}
    root = {"$defs": {"a/b": node, "t~x": {"type": "string"}}}
    assert resolve_refs({"$ref": "#/$defs/t~0x"}, root) == {"type": "string"}
    resolved = resolve_refs({"$ref": "#/$defs/a~1b"}, root)
    assert resolved["items"] == {"$ref": "#/$defs/a~1b"} and set(resolved["$defs"]) == {"a/b"}
    assert resolve_refs({"$ref": "#/$defs/a~1b"}, resolved)["$defs"] == resolved["$defs"]  # the result is valid


def test_a_recursive_ref_to_any_pointer_keeps_its_definition() -> None:
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/properties/tree"}}}}
    resolved = resolve_refs({"$ref": "#/properties/tree"}, {"properties": {"tree": tree}})
    assert resolved["properties"]["kids"]["items"] == {"$ref": "#/$defs/properties~1tree"}
    assert resolved["$defs"]["properties/tree"]["type"] == "object"


@pytest.mark.parametrize(
    "ref, root",
    [("#/$defs/L/0", {"$defs": {"L": [1]}}), ("#/$defs/S/0", {"$defs": {"S": "text"}}),
     ("#/x/y", {"x": 5}), ("#anchor", {"$defs": {"A": {"$id": 3}}})],
)  # fmt: skip
def test_a_pointer_through_what_is_not_a_schema_is_one_schema_error(ref: str, root: dict) -> None:
    with pytest.raises(SchemaError, match="points"):
        resolve_refs({"$ref": ref}, root)


def test_deep_nesting_is_refused_not_crashed() -> None:
    schema: dict = {"type": "string"}
    for _ in range(200):
        schema = {"type": "array", "items": schema}
    with pytest.raises(SchemaError, match="nested deeper"):
        map_type(schema)


def test_optional_scalar_keeps_its_default_and_is_nullable() -> None:
    spec = input_spec("count", {"type": "integer", "default": 3}, required=False)
    assert spec.python_default == 3
    assert spec.annotation == "int"
    assert spec.smolagents_input() == {"type": "integer", "description": "", "default": 3, "nullable": True}


def test_optional_without_scalar_default_defaults_to_none() -> None:
    spec = input_spec("tags", {"type": "array", "items": {"type": "string"}, "default": []}, required=False)
    assert spec.python_default is None
    assert spec.annotation == "list[str] | None"
    assert spec.smolagents_input()["nullable"] is True


def test_required_has_no_nullable_key() -> None:
    spec = input_spec("city", {"type": "string", "description": "City name"}, required=True)
    assert spec.python_default is NO_DEFAULT
    assert "nullable" not in spec.smolagents_input()


def test_required_but_null_accepting_is_nullable_without_default() -> None:
    spec = input_spec("maybe", {"anyOf": [{"type": "string"}, {"type": "null"}]}, required=True)
    assert spec.python_default is NO_DEFAULT
    assert spec.annotation == "str | None"
    assert spec.smolagents_input()["nullable"] is True


def test_object_inputs_order_required_first_and_sanitize() -> None:
    schema = {
        "type": "object",
        "properties": {"limit": {"type": "integer", "default": 5}, "from": {"type": "string"}, "to": {"type": "string"}},
        "required": ["from", "to"],
    }
    specs = inputs_from_object(schema)
    assert [(s.name, s.wire_name) for s in specs] == [("from_", "from"), ("to", "to"), ("limit", "limit")]


def test_object_without_properties_has_no_inputs() -> None:
    assert inputs_from_object({"type": "object"}) == ()


def test_colliding_properties_are_refused_after_overrides(tmp_path) -> None:
    """Collisions are checked once, after [tool.vendorgen] overrides, so an override can fix one."""
    from vendorgen.model import ModuleSpec, ToolSpec
    from vendorgen.project.config import load_config

    schema = {"type": "object", "properties": {"max-results": {"type": "integer"}, "max_results": {"type": "integer"}}}
    tool = ToolSpec("search", "SearchTool", "d", "search", inputs_from_object(schema), (), "string")
    module = ModuleSpec("search", "mcp", "mcp:x", "", (tool,))
    with pytest.raises(SchemaError, match="'max-results' and 'max_results' both become 'max_results'"):
        load_config(tmp_path).apply(module)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.vendorgen.overrides.search]\nparams = { "max-results" = "limit" }\n'
    )
    fixed = load_config(tmp_path).apply(module)
    assert [spec.name for spec in fixed.tools[0].inputs] == ["limit", "max_results"]


# Unions keep their branches (issue 12): where smolagents' get_tool_json_schema reads them right.
STRING = {"type": "string", "description": "A name"}
OBJECT = {"type": "object", "properties": {"id": {"type": "integer"}}, "description": "By id"}


@pytest.mark.parametrize(
    ("union", "kept"),
    [
        ({"anyOf": [STRING, OBJECT]}, {"oneOf": [STRING, OBJECT]}),  # distinct types: any-of is one-of
        ({"oneOf": [STRING, OBJECT]}, {"oneOf": [STRING, OBJECT]}),
        ({"anyOf": [OBJECT, {**OBJECT, "description": "Other"}]}, {"anyOf": [OBJECT, {**OBJECT, "description": "Other"}]}),
        ({"anyOf": [{"const": "all"}, {"type": "integer"}]}, {"oneOf": [{"const": "all"}, {"type": "integer"}]}),
        # overlapping, and an enum smolagents would lift onto the whole input: only the type list
        ({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "string", "minLength": 3}, {"type": "integer"}]}, {}),
        ({"type": ["string", "integer"]}, {}),
    ],
)
def test_a_union_keeps_its_branches_where_smolagents_reads_them(union: dict, kept: dict) -> None:
    mapped = map_type(union)
    assert {key: value for key, value in mapped.schema.items() if key in ("anyOf", "oneOf")} == kept


def test_a_union_says_what_its_branches_say_and_is_annotated_precisely() -> None:
    spec = input_spec("who", {"anyOf": [STRING, OBJECT, {"type": "null"}]}, required=True)
    assert spec.description == "A name; or By id"
    assert spec.annotation == "str | dict[str, Any] | None"
    assert spec.smolagents_input()["type"] == ["string", "object"]
    own = input_spec("who", {"anyOf": [STRING, OBJECT], "description": "Who"}, required=True)
    assert own.description == "Who"
    assert input_spec("x", {"anyOf": [{"type": "integer", "description": "Count"}, {"type": "null"}]}, required=False).description == "Count"


def test_required_with_a_default_is_optional() -> None:
    query, limit = inputs_from_object({"type": "object", "required": ["query", "limit"], "properties": {
        "query": {"type": "string"}, "limit": {"type": "integer", "default": 10}}})  # fmt: skip
    assert (query.required, limit.required, limit.python_default) == (True, False, 10)
