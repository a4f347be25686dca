"""JSON Schema -> smolagents input types and Python annotations, for every source.

Gradio's `view_api` types, MCP `inputSchema`s and LangChain `tool_call_schema`s
are all JSON Schema; this is the one walk over them, after `vendorgen.text.refs` inlined their `$ref`s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vendorgen import naming
from vendorgen.errors import SchemaError
from vendorgen.model import NO_DEFAULT, InputSpec, TypedDictSpec
from vendorgen.text.limits import NodeBudget, check_description
from vendorgen.text.literals import python_literal
from vendorgen.text.refs import check_depth, checked_nesting
from vendorgen.text.refs import resolve_refs as resolve_refs

_PRIMITIVES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
# Validation keywords worth showing the model; everything else (titles, vendor extensions) is left
# out of `inputs`. A union's branches are kept apart (`_kept_union`).
_KEPT_KEYWORDS = (
    "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "items", "prefixItems", "minItems", "maxItems",
    "uniqueItems", "properties", "required", "additionalProperties", "$defs",
)  # fmt: skip


@dataclass(frozen=True)
class MappedType:
    type: str | tuple[str, ...]
    annotation: str
    accepts_null: bool = False
    enum: tuple[Any, ...] | None = None
    schema: dict[str, Any] = field(default_factory=dict)
    description: str = ""  # what the branches of a union say, for a property that says nothing itself
    # A union's object branches with properties (each a TypedDict in `forward`, see `typed_dicts`),
    # and the annotations of its other branches.
    shapes: tuple[Mapping[str, Any], ...] = ()
    other_annotations: tuple[str, ...] = ()


def map_type(schema: Any, depth: int = 0) -> MappedType:
    """The smolagents type and Python annotation of a resolved schema."""
    check_depth(depth)
    if not isinstance(schema, Mapping) or "$ref" in schema:
        return MappedType("any", "Any", schema=_kept(schema))
    if "const" in schema:
        return _from_enum([schema["const"]], schema)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return _from_enum(schema["enum"], schema)
    declared = schema.get("type")
    if isinstance(declared, list):
        members = [{**schema, "type": member} for member in declared if isinstance(member, str)]
        return _union(members, schema, depth)
    for combinator in ("anyOf", "oneOf"):
        if isinstance(schema.get(combinator), list) and "type" not in schema:
            return _union(schema[combinator], schema, depth, combinator)
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1 and "type" not in schema:
        return map_type({**schema["allOf"][0], **_kept(schema)}, depth + 1)
    if declared in ("string", "integer", "number", "boolean"):
        return MappedType(declared, _PRIMITIVES[declared], schema=_kept(schema))
    if declared == "null":
        return MappedType("null", "None", accepts_null=True)
    if declared == "array":
        items = schema.get("items")
        item = map_type(items, depth + 1).annotation if isinstance(items, Mapping) else "Any"
        return MappedType("array", f"list[{item}]", schema=_kept(schema))
    if declared == "object" or "properties" in schema:
        return MappedType("object", "dict[str, Any]", schema=_kept(schema))
    return MappedType("any", "Any", schema=_kept(schema))


def _union(members: list[Any], schema: Mapping[str, Any], depth: int, combinator: str = "") -> MappedType:
    """A union: one smolagents type per branch; the branches themselves kept (see `_kept_union`).

    A branch that is itself a union (Notion's `anyOf [{$ref: parentRequest}, {type: string}]`, the
    reference a `oneOf` of objects) gives its own branches, at any depth: each object stays a shape."""
    said = _branch_descriptions(members) if combinator else ""
    members = _flattened(members, depth)
    mapped = [map_type(member, depth + 1) for member in members]
    accepts_null = any(m.type == "null" or m.accepts_null for m in mapped)
    branches = [(member, m) for member, m in zip(members, mapped) if m.type != "null"]
    concrete = [m for _, m in branches]
    if not concrete:
        return MappedType("null", "None", accepts_null=True, description=said)
    if len(concrete) == 1:
        only = concrete[0]
        kept = {**only.schema, **_kept(schema)}
        return MappedType(only.type, only.annotation, accepts_null, only.enum, kept, said or only.description)
    kept = {**_kept(schema), **_kept_union(members, combinator)}
    if any(m.type == "any" for m in concrete):
        return MappedType("any", "Any", accepts_null, schema=kept, description=said)
    types: list[str] = []
    annotations: list[str] = []
    for m in concrete:
        for kind in m.type if isinstance(m.type, tuple) else (m.type,):
            if kind not in types:
                types.append(kind)
        if m.annotation not in annotations:
            annotations.append(m.annotation)
    shapes = tuple(member for member, m in branches if _is_shape(member, m))
    others: list[str] = []
    for member, m in branches:
        if not _is_shape(member, m) and m.annotation not in others:
            others.append(m.annotation)
    joined = types[0] if len(types) == 1 else tuple(types)  # a union of objects is an object
    return MappedType(joined, " | ".join(annotations), accepts_null, None, kept, said, shapes, tuple(others))


def _flattened(members: list[Any], depth: int) -> list[Any]:
    """`members` with each branch that only combines others (an `anyOf`/`oneOf`/`type` list with no type of
    its own, or a lone `allOf`) replaced by those others, recursively; the branch's own keywords go to each."""
    check_depth(depth)
    flat: list[Any] = []
    for member in members:
        inner = _inner_branches(member)
        if inner is None:
            flat.append(member)
            continue
        flat += _flattened(inner, depth + 1)
    return flat


def _inner_branches(member: Any) -> list[Any] | None:
    if not isinstance(member, Mapping) or "$ref" in member or "enum" in member or "const" in member:
        return None
    own = _kept(member)
    if isinstance(member.get("type"), list):
        return [{**member, "type": kind} for kind in member["type"] if isinstance(kind, str)]
    if "type" in member:
        return None
    for combinator in ("anyOf", "oneOf"):
        if isinstance(member.get(combinator), list):
            return [{**branch, **own} if isinstance(branch, Mapping) else branch for branch in member[combinator]]
    if isinstance(member.get("allOf"), list) and len(member["allOf"]) == 1 and isinstance(member["allOf"][0], Mapping):
        return [{**member["allOf"][0], **own}]
    return None


def _is_shape(member: Any, mapped: MappedType) -> bool:
    """A union's branch that is an object with named properties: a TypedDict can say what it holds."""
    return mapped.type == "object" and isinstance(member, Mapping) and bool(member.get("properties"))


def typed_dicts(prefix: str, shapes: tuple[Mapping[str, Any], ...]) -> tuple[TypedDictSpec, ...]:
    """One TypedDict per object branch of a union, named `prefix` + what tells the branch apart: the
    value of a `const` property (a discriminator such as `"type": "page_id"`), else its `title`, else
    its position. A property's own objects stay `dict[str, Any]`: one level says which shape is which."""
    specs: list[TypedDictSpec] = []
    for index, shape in enumerate(shapes, start=1):
        name = f"{prefix}_{_shape_label(shape)[:40] or f'Option{index}'}"  # a long const stays readable
        while name in (spec.name for spec in specs):
            name = f"{name}_{index}"
        required = _required_keys(shape)
        fields = []
        for key, property_schema in shape["properties"].items():
            mapped = map_type(property_schema)
            annotation = mapped.annotation
            if mapped.accepts_null and annotation not in ("Any", "None"):
                annotation = f"{annotation} | None"
            fields.append((key, annotation if key in required else f"NotRequired[{annotation}]"))
        specs.append(TypedDictSpec(name, tuple(fields)))
    return tuple(specs)


def _shape_summary(shape: Mapping[str, Any]) -> str:
    """One object branch as the model reads it: `{"type": "page_id", "page_id": string, "note"?: string}`
    (a key it may leave out marked `?`, a constant by its value, anything else by its JSON type)."""
    required = _required_keys(shape)
    parts = []
    for key, property_schema in shape["properties"].items():
        mapped = map_type(property_schema)
        if mapped.enum is not None and len(mapped.enum) == 1:
            shown = json.dumps(mapped.enum[0], ensure_ascii=False)
        else:
            shown = "|".join(mapped.type) if isinstance(mapped.type, tuple) else mapped.type
        parts.append(f"{json.dumps(key, ensure_ascii=False)}{'' if key in required else '?'}: {shown}")
    return "{" + ", ".join(parts) + "}"


def _required_keys(shape: Mapping[str, Any]) -> list[Any]:
    return shape["required"] if isinstance(shape.get("required"), list) else []


def _shape_label(shape: Mapping[str, Any]) -> str:
    for property_schema in shape["properties"].values():
        if not isinstance(property_schema, Mapping):
            continue
        values = [property_schema["const"]] if "const" in property_schema else property_schema.get("enum")
        if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str):
            return pascal_case(values[0])
    return pascal_case(_text(shape.get("title")))


def pascal_case(text: str) -> str:
    """`page_id` -> `PageId`; "" where `text` holds no ASCII letter or digit."""
    words = naming.python_name(text).split("_") if text.strip() else []
    return "".join(word[:1].upper() + word[1:] for word in words if word)


def _kept_union(members: list[Any], combinator: str) -> dict[str, Any]:
    """The branches of an `anyOf`/`oneOf` of several types, for the model, the reader and `to_langchain`.

    smolagents' `get_tool_json_schema` rewrites an `anyOf` it finds in `inputs` (it reads each
    branch's "type", fails on a branch without one, and lifts a branch's `enum` onto the whole
    input), so an `anyOf` whose branches have distinct JSON types, where any and one are the same
    thing, is kept as `oneOf`, which it leaves alone. An `anyOf` of overlapping branches is kept as
    `anyOf` only where smolagents reads it right (every branch typed, no enum); otherwise only the
    type list stays.
    """
    if not combinator:
        return {}  # `"type": [...]`: the type list says it all
    branches = [member for member in members if isinstance(member, Mapping)]
    if combinator == "oneOf":
        return {"oneOf": branches}
    kinds = [_branch_kind(branch) for branch in branches]
    if None not in kinds and len(set(kinds)) == len(kinds):
        return {"oneOf": branches}
    safe = all(isinstance(branch.get("type"), str) and not {"enum", "const"} & set(branch) for branch in branches)
    return {"anyOf": branches} if safe else {}


def _branch_kind(branch: Mapping[str, Any]) -> str | None:
    """The one JSON type every value of `branch` has, when there is one."""
    if isinstance(branch.get("type"), str):
        return branch["type"]
    values = [branch["const"]] if "const" in branch else branch.get("enum")
    if isinstance(values, list) and values:
        kinds = {"null" if value is None else _json_kind(value) for value in values}
        return kinds.pop() if len(kinds) == 1 else None
    return None


def _branch_descriptions(members: list[Any]) -> str:
    """The branches' own descriptions, each once, in order."""
    texts: list[str] = []
    for member in members:
        text = _text(member.get("description")).strip() if isinstance(member, Mapping) else ""
        if text and text not in texts:
            texts.append(text)
    return "; or ".join(texts)


def _from_enum(values: list[Any], schema: Mapping[str, Any]) -> MappedType:
    accepts_null = None in values
    values = [value for value in values if value is not None]
    if not values:
        return MappedType("null", "None", accepts_null=True)
    kinds: list[str] = []
    for value in values:
        if (value_kind := _json_kind(value)) not in kinds:
            kinds.append(value_kind)
    if set(kinds) == {"integer", "number"}:
        kinds = ["number"]
    if any(kind in ("array", "object") for kind in kinds):
        # Literal cannot hold lists or dicts: keep the enum for the model only.
        return MappedType("any", "Any", accepts_null, tuple(values), _kept(schema))
    annotation = "Literal[" + ", ".join(python_literal(value) for value in values) + "]"
    kind: str | tuple[str, ...] = kinds[0] if len(kinds) == 1 else tuple(kinds)
    return MappedType(kind, annotation, accepts_null, tuple(values), _kept(schema))


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _kept(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, Mapping):
        return {}
    return {key: schema[key] for key in _KEPT_KEYWORDS if key in schema}


def input_spec(
    wire_name: str,
    schema: Any,
    *,
    required: bool,
    description: str = "",
    default: Any = NO_DEFAULT,
    name: str | None = None,
    kind: str | None = None,
    annotation: str | None = None,
    shapes_prefix: str = "",
) -> InputSpec:
    """One `InputSpec` from a resolved property schema.

    `kind`/`annotation` override the mapped type where the source knows better
    (a Gradio Image is an `image`, whatever its JSON Schema says). Given `shapes_prefix`, a union's
    object branches are TypedDicts named from it and the parameter (`typed_dicts`).
    """
    mapped = map_type(schema)
    shapes: tuple[TypedDictSpec, ...] = ()
    if mapped.shapes and shapes_prefix and annotation is None:
        shapes = typed_dicts(f"{shapes_prefix}_{pascal_case(wire_name) or 'Argument'}", mapped.shapes)
        annotation = " | ".join([shape.name for shape in shapes] + list(mapped.other_annotations))
    if default is NO_DEFAULT and isinstance(schema, Mapping) and "default" in schema:
        default = schema["default"]
    if isinstance(schema, Mapping) and not description:
        description = _text(schema.get("description")) or mapped.description or _text(schema.get("title"))
    check_description(description, f"the description of the parameter {wire_name!r}")
    if shapes:  # a CodeAgent's prompt shows an input's type and description, not its schema
        said = description.rstrip()
        said += "" if not said or said.endswith(".") else "."
        description = f"{said} An object is one of: {' or '.join(map(_shape_summary, mapped.shapes))}.".lstrip()
    spec = InputSpec(
        name=name or naming.parameter_name(wire_name),
        wire_name=wire_name,
        type=kind or mapped.type,
        annotation=annotation or mapped.annotation,
        description=description,
        required=required,
        default=default,
        accepts_null=mapped.accepts_null or (default is None and not required),
        enum=mapped.enum,
        schema={} if kind else mapped.schema,
        typed_dicts=shapes,
    )
    # smolagents reads "may be None" from the hint; a default of None already says it for Any.
    if required:
        says_none = not spec.accepts_null or spec.annotation == "None"
    else:
        says_none = spec.python_default is not None or spec.annotation in ("Any", "None")
    if not says_none:
        spec = replace(spec, annotation=f"{spec.annotation} | None")
    checked_nesting(spec.smolagents_input())  # the default, enum and kept keywords, whichever source gave them
    return spec


def inputs_from_object(schema: Any, listing: NodeBudget | None = None, tool: str = "") -> tuple[InputSpec, ...]:
    """The inputs of an object schema (an MCP `inputSchema`, a LangChain args schema); what they
    cost is spent from the tool's own budget and from `listing`, the budget of all its tools.
    `tool`, the tool's remote name, names the TypedDicts of its unions of objects (`_Tool_Param_Shape`)."""
    if not isinstance(schema, Mapping):
        raise SchemaError("the input schema is not a JSON object")
    properties = schema.get("properties") or {}
    if not isinstance(properties, Mapping):
        raise SchemaError("`properties` is not an object")
    required = schema.get("required") or []
    if not isinstance(required, list):  # a string would make `wire in required` a substring test
        raise SchemaError("`required` is not a list")
    # A property both required and with a default (zod's `.default()`) may be left out: the server fills it in.
    nodes = NodeBudget(within=listing)  # one budget for all the properties of one tool
    specs = []
    for wire, property_schema in properties.items():
        resolved = resolve_refs(property_schema, schema, nodes)
        defaulted = isinstance(resolved, Mapping) and "default" in resolved
        shapes_prefix = "_" + (pascal_case(tool) or "Tool")
        specs.append(
            input_spec(wire, resolved, required=wire in required and not defaulted, shapes_prefix=shapes_prefix)
        )
    return order_inputs(specs)


def order_inputs(specs: list[InputSpec]) -> tuple[InputSpec, ...]:
    """Required parameters first (Python needs them before defaulted ones), else schema order."""
    return tuple(
        [spec for spec in specs if spec.python_default is NO_DEFAULT]
        + [spec for spec in specs if spec.python_default is not NO_DEFAULT]
    )


def description_text(text: str) -> str:
    """A tool description as its author wrote it: trimmed, and a docstring's indentation of its
    later lines removed; nothing else changes (unlike `inspect.cleandoc`, tabs stay tabs)."""
    check_description(text, "the tool's description")
    lines = text.strip().split("\n")
    indents = [len(line) - len(line.lstrip(" ")) for line in lines[1:] if line.strip()]
    margin = min(indents, default=0)
    return "\n".join([lines[0], *(line[margin:] if line.strip() else line.strip() for line in lines[1:])])


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
