"""`$ref`s in a JSON Schema inlined, never fetched: the first step of every schema vendorgen reads.

`vendorgen.text.schema` maps what this returns to smolagents types and Python annotations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from vendorgen.errors import SchemaError
from vendorgen.text.limits import NodeBudget

MAX_DEPTH = 64

# Keywords whose value is a JSON value, never a schema; and those mapping names to schemas.
_DATA_KEYWORDS = frozenset({"default", "enum", "const", "examples"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})


def resolve_refs(schema: Any, root: Mapping[str, Any], nodes: NodeBudget | None = None) -> Any:
    """`schema` with its `$ref`s into `root` inlined as plain dicts.

    A reference back into itself (a recursive type) stays a `$ref`, and the
    definitions it needs are attached as `$defs` so the result stays valid.
    Every value of the result is paid for from `nodes` (a fresh budget if none
    is given) as it is made: references that fan out are stopped while they expand.
    A reference that leads outside `root` (http(s), a file) is refused, never fetched.
    """
    needed: dict[str, Any] = {}
    resolved = _resolve(schema, _resolver(root), (), needed, 0, nodes or NodeBudget())
    if needed and isinstance(resolved, dict):
        resolved = {**resolved, "$defs": dict(sorted(needed.items()))}
    return resolved


# Where `root` is registered: references are resolved against it, as the document's own URI.
_ROOT_URI = "urn:vendorgen:schema"


def _resolver(root: Mapping[str, Any]) -> Any:
    """A `referencing` resolver that knows `root` and nothing else.

    Its registry has no `retrieve` function, so a reference to any other document is
    `Unresolvable`: nothing is ever fetched. Every schema is read as draft 2020-12, which MCP
    specifies and pydantic and Gradio write (a `$schema` naming another dialect is not trusted).
    """
    from referencing import Registry  # lazy: the CLI's start does not pay for it (mcp imports it anyway)
    from referencing.jsonschema import DRAFT202012

    resource = DRAFT202012.create_resource(root)
    return Registry().with_resource(_ROOT_URI, resource).resolver(_ROOT_URI)


def _resolve(
    node: Any, resolver: Any, stack: tuple[str, ...], needed: dict[str, Any], depth: int, nodes: NodeBudget
) -> Any:
    check_depth(depth)
    nodes.spend()
    if isinstance(node, list):
        return [_resolve(item, resolver, stack, needed, depth + 1, nodes) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = _definition_name(ref)
        target, target_resolver = _lookup(ref, resolver)
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        if name in stack:
            if name not in needed:
                needed[name] = {}  # claimed first, so the definition's own self-references stop here
                needed[name] = _resolve(target, target_resolver, (name,), needed, depth + 1, nodes)
            return {"$ref": "#/$defs/" + _pointer_segment(name), **siblings}
        inlined = _resolve(target, target_resolver, (*stack, name), needed, depth + 1, nodes)
        return {**inlined, **_resolve(siblings, resolver, stack, needed, depth + 1, nodes)}
    return {
        key: _resolve_keyword(key, value, resolver, stack, needed, depth + 1, nodes)
        for key, value in node.items()
        if key not in ("$defs", "definitions")
    }


def _resolve_keyword(
    key: str,
    value: Any,
    resolver: Any,
    stack: tuple[str, ...],
    needed: dict[str, Any],
    depth: int,
    nodes: NodeBudget,
) -> Any:
    """One keyword's value: data is kept as it is, a map of names keeps every name, schemas are resolved."""
    if key in _DATA_KEYWORDS:
        # A value that looks like {"$ref": ...} is a value, not a reference; inlined anew each time, it costs anew.
        return checked_nesting(value, depth, nodes)
    if key in _SCHEMA_MAPS and isinstance(value, dict):
        # Property names are data too: a property may be called "$defs" or "definitions".
        return {name: _resolve(schema, resolver, stack, needed, depth + 1, nodes) for name, schema in value.items()}
    return _resolve(value, resolver, stack, needed, depth, nodes)


def checked_nesting(value: Any, depth: int = 0, nodes: NodeBudget | None = None) -> Any:
    """`value`, refused if its lists and dicts nest deeper than MAX_DEPTH (generated code that deep does not compile)
    or, given `nodes`, if it holds more values than are left in that budget."""
    check_depth(depth)
    if nodes is not None:
        nodes.spend()
    for item in value.values() if isinstance(value, Mapping) else value if isinstance(value, list) else ():
        checked_nesting(item, depth + 1, nodes)
    return value


def check_depth(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise SchemaError(f"schema is nested deeper than {MAX_DEPTH} levels")


def _lookup(ref: str, resolver: Any) -> tuple[Any, Any]:
    """What `ref` points at in the schema, and the resolver for the references inside it."""
    from referencing.exceptions import Unresolvable

    try:
        resolved = resolver.lookup(ref)
    except Unresolvable:
        if ref.startswith("#"):
            raise SchemaError(f"$ref {ref!r} points at nothing in the schema") from None
        raise SchemaError(
            f"$ref {ref!r} points outside the schema; vendorgen never fetches a schema from the network or a file"
        ) from None
    except (AttributeError, TypeError, ValueError, LookupError):
        # referencing reads every value on the way as a schema: a pointer through a list, a string
        # or a number (or a non-string `$id` met while it searches) fails inside it.
        raise SchemaError(f"$ref {ref!r} points through something that is not a schema") from None
    return resolved.contents, resolved.resolver


def _definition_name(ref: str) -> str:
    """The name a reference's target keeps under `$defs` when it recurses: a definition's own name
    (`#/$defs/Node`, `#/definitions/Node`: `Node`), else the reference's fragment."""
    fragment = unquote(ref.partition("#")[2])
    for section in ("/$defs/", "/definitions/"):
        name = fragment[len(section) :]
        if fragment.startswith(section) and name and "/" not in name:
            return name.replace("~1", "/").replace("~0", "~")
    return fragment.lstrip("/") or ref  # another pointer, an anchor; `#` (the whole schema) keeps its `#`


def _pointer_segment(name: str) -> str:
    """`name` as one segment of a JSON pointer (RFC 6901)."""
    return name.replace("~", "~0").replace("/", "~1")
