"""What an MCP server offers besides tools: resources, resource templates and prompts, vendored as tools.

Opt-in (`add --resources`, `--prompts`, or by name with `--resource NAME`, `--prompt NAME`): the snapshot
then keeps the listings under the keys the protocol uses (`resources`, `resourceTemplates`, `prompts`),
as the server sent them, and `build` makes of them:

- each resource template, a read tool (`read_<name>`) whose arguments are the template's variables
  (RFC 6570 level 1 `{var}`, and level 2's `{+var}`; a template using more is left out, and said why);
- the static resources, one tool (`read_resource`) taking one of their URIs: a server may list hundreds
  (a file tree), each one a tool would crowd the agent's prompt, and the URIs are the input's `enum`, so
  the model sees them and the runtime reads only those vendored;
- each prompt, a tool (`prompt_<name>`) taking its arguments (strings; required ones required) and
  returning its rendered messages.

Each tool's constants (what the runtime's ResourceTool and PromptTool read): a resource template's
`resource_template` (what the server listed: `uriTemplate`, whose variables are the arguments, `name`...);
the static resources' `resources` ({uri: what the server listed}); a prompt's `prompt` (`name`,
`arguments`...); and each one's `mcp_name`, the request it makes ("resources/read URI-TEMPLATE",
"resources/read", "prompts/get NAME"), which `serve` pins by.

Every string of those listings is remote text, bounded as tools are and escaped where it is written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from vendorgen import naming
from vendorgen.errors import NotOffered, SchemaError
from vendorgen.model import OutputSpec, ToolSpec, null_refused_constant
from vendorgen.sources.base import AddOptions
from vendorgen.text import limits, schema
from vendorgen.text.literals import escape_text

KEYS = ("resources", "resourceTemplates", "prompts")
# What a template may hold: literal text, `{var}` and `{+var}` (as the runtime's `expand` takes them).
_EXPRESSION = re.compile(r"\{(\+?)([A-Za-z0-9_.%]+)\}")
BEYOND_LEVEL_1 = (
    "its URI template uses RFC 6570 expressions beyond {var} and {+var}, which vendored tools do not expand"
)


def wanted(options: AddOptions) -> tuple[str, ...]:
    """The listings `options` asks for besides the tools (keys of the snapshot)."""
    keys: tuple[str, ...] = ()
    if options.resources or options.resource_names:
        keys += ("resources", "resourceTemplates")
    if options.prompts or options.prompt_names:
        keys += ("prompts",)
    return keys


def selected(
    listings: Mapping[str, list[Any]], options: AddOptions
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
    """(the listings to keep, by key; what is left out, by name, with why): checked for size and duplicates,
    narrowed to the names given."""
    kept: dict[str, list[dict[str, Any]]] = {}
    withheld: dict[str, str] = {}
    for key in KEYS:
        if key not in listings:
            continue
        limits.check_listing(listings[key], f"the {key} listing of the MCP server")
        items = [item for item in listings[key] if isinstance(item, dict) and isinstance(item.get("name"), str)]
        if key == "resourceTemplates":
            for item in items:
                if not _expressible(item.get("uriTemplate")):
                    withheld[item["name"]] = BEYOND_LEVEL_1
            items = [item for item in items if item["name"] not in withheld]
        names = [item["name"] for item in items]
        if duplicates := sorted({name for name in names if names.count(name) > 1}):
            raise SchemaError(f"the server lists these {key} more than once: {', '.join(map(_show, duplicates))}")
        kept[key] = items
    if options.resource_names:
        kept["resources"], kept["resourceTemplates"] = _by_name(
            (kept["resources"], kept["resourceTemplates"]), options.resource_names, "resource", options.prefix
        )
    if options.prompt_names:
        (kept["prompts"],) = _by_name((kept["prompts"],), options.prompt_names, "prompt", options.prefix)
    return kept, withheld


def _by_name(
    groups: tuple[list[dict[str, Any]], ...], names: tuple[str, ...], what: str, prefix: str
) -> tuple[list[dict[str, Any]], ...]:
    """Each group narrowed to the items `names` names (by name, URI or URI template, or the Python name)."""
    found: set[int] = set()
    known: dict[str, int] = {}
    for item in (item for group in groups for item in group):
        for alias in (item["name"], item.get("uri"), item.get("uriTemplate"), _python_name(item, prefix)):
            if isinstance(alias, str):
                known.setdefault(alias, id(item))
    if unknown := [name for name in names if name not in known]:
        available = ", ".join(_show(item["name"]) for group in groups for item in group) or "none"
        raise NotOffered(f"no {what} {', '.join(map(_show, unknown))} on this server; available: {available}")
    found = {known[name] for name in names}
    return tuple([item for item in group if id(item) in found] for group in groups)


def _python_name(item: Mapping[str, Any], prefix: str) -> str:
    if "uriTemplate" in item:
        return _tool_name("read", item["name"], prefix)
    if "uri" in item:
        return _tool_name("read", "resource", prefix)
    return _tool_name("prompt", item["name"], prefix)


def _tool_name(verb: str, name: str, prefix: str) -> str:
    """`read_dynamic_text_resource` (lower snake case: a name may be a title), after --prefix."""
    return naming.python_name("_".join(part for part in (prefix.rstrip("_"), verb, name.lower()) if part))


def _expressible(template: Any) -> bool:
    """Whether `template` is a string of literal text, `{var}` and `{+var}` only."""
    return isinstance(template, str) and not set("{}") & set(_EXPRESSION.sub("", template))


def _show(name: Any) -> str:
    return escape_text(str(name))


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------


def tools(snapshot: Mapping[str, Any], prefix: str, server: str, listing: limits.NodeBudget) -> list[ToolSpec]:
    """The tools of what `snapshot` keeps besides the MCP tools: the static resources' one, the templates', the prompts'."""
    for key in KEYS:
        items = snapshot.get(key, [])
        if not isinstance(items, list) or not all(
            isinstance(item, Mapping) and isinstance(item.get("name"), str) for item in items
        ):
            raise SchemaError(f"the snapshot's {key} is not a list of named items")
    found = []
    if resources := snapshot.get("resources"):
        found.append(_resources_tool(resources, prefix, server, listing))
    found += [_template_tool(item, prefix, server, listing) for item in snapshot.get("resourceTemplates", [])]
    found += [_prompt_tool(item, prefix, server, listing) for item in snapshot.get("prompts", [])]
    return found


_ANY = (OutputSpec("result", "any", "Any", "the content the server returns"),)
_MESSAGES = (
    OutputSpec("messages", "array", "list[dict[str, Any]]", "the prompt's messages, each with role and content"),
)


def _resources_tool(
    resources: list[Mapping[str, Any]], prefix: str, server: str, listing: limits.NodeBudget
) -> ToolSpec:
    listed: dict[str, dict[str, Any]] = {}
    for item in resources:
        if not isinstance(item.get("uri"), str):
            raise SchemaError(f"the server lists the resource {_show(item['name'])!r} without a URI")
        listed[item["uri"]] = _kept(item, ("name", "title", "description", "mimeType", "size"))
    lines = [f"Reads one of the resources of the MCP server{f' {server}' if server else ''}, by URI:"]
    for uri, item in listed.items():
        said = "; ".join(str(item[key]) for key in ("mimeType", "description") if key in item)
        lines.append(f"- {uri} ({item['name']}){f': {said}' if said else ''}")
    lines.append("Returns its content: text as str, a blob as bytes or an image, each with .uri and .mime_type.")
    description = schema.description_text("\n".join(lines))
    argument = {"type": "string", "enum": list(listed), "description": "The URI of the resource to read."}
    inputs = _inputs({"uri": argument}, ["uri"], "resources", listing)
    return _spec(_tool_name("read", "resource", prefix), description, "resources/read", inputs, _ANY,
                 (("resources", listed),))  # fmt: skip


def _template_tool(item: Any, prefix: str, server: str, listing: limits.NodeBudget) -> ToolSpec:
    if not isinstance(item.get("uriTemplate"), str) or not _expressible(item["uriTemplate"]):
        raise SchemaError(f"the resource template {_show(item['name'])!r} has no URI template vendorgen can expand")
    template, name = item["uriTemplate"], item["name"]
    variables = list(dict.fromkeys(found.group(2) for found in _EXPRESSION.finditer(template)))
    properties = {var: {"type": "string", "description": f"The {{{var}}} of the URI template."} for var in variables}
    inputs = _inputs(properties, variables, name, listing)
    description = _described(item, f"Reads the resource {name} of the MCP server{f' {server}' if server else ''}.")
    kept = _kept(item, ("uriTemplate", "name", "title", "description", "mimeType"))
    return _spec(_tool_name("read", name, prefix), description, f"resources/read {template}", inputs, _ANY,
                 (("resource_template", kept),))  # fmt: skip


def _prompt_tool(item: Any, prefix: str, server: str, listing: limits.NodeBudget) -> ToolSpec:
    name = item["name"]
    arguments = item.get("arguments") or []
    if not isinstance(arguments, list) or not all(
        isinstance(arg, Mapping) and isinstance(arg.get("name"), str) for arg in arguments
    ):
        raise SchemaError(f"prompt {_show(name)!r}: its arguments are not a list of named arguments")
    properties = {arg["name"]: {"type": "string", "description": _text(arg.get("description"))} for arg in arguments}
    required = [arg["name"] for arg in arguments if arg.get("required") is True]
    inputs = _inputs(properties, required, name, listing)
    description = _described(item, f"The prompt {name} of the MCP server{f' {server}' if server else ''}.")
    kept = _kept(item, ("name", "title", "description"))
    if arguments:
        kept["arguments"] = [_kept(arg, ("name", "title", "description", "required")) for arg in arguments]
    constants = (("prompt", kept), *null_refused_constant(inputs))
    return _spec(_tool_name("prompt", name, prefix), description, f"prompts/get {name}", inputs, _MESSAGES, constants)


def _kept(item: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """What the generated class keeps of a listed item (and `serve` lists again): `keys`, where they are
    plain values (a string, a whole number, a boolean); icons and `_meta` are left out."""
    return {key: item[key] for key in keys if isinstance(item.get(key), (str, int))}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _inputs(properties: dict[str, Any], required: list[str], owner: str, listing: limits.NodeBudget) -> Any:
    try:
        return schema.inputs_from_object(
            {"type": "object", "properties": properties, "required": required}, listing, owner
        )
    except SchemaError as exc:
        raise SchemaError(f"{_show(owner)!r}: {exc}") from None


def _described(item: Mapping[str, Any], otherwise: str) -> str:
    for text in (item.get("description"), item.get("title")):
        if isinstance(text, str) and text.strip():
            return schema.description_text(text)
    return otherwise


def _spec(name: str, description: str, endpoint: str, inputs: Any, outputs: Any, constants: Any) -> ToolSpec:
    return ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=description,
        endpoint=endpoint,
        inputs=inputs,
        outputs=outputs,
        output_type=outputs[0].type,
        constants=(("mcp_name", endpoint), *constants),
    )


def served_definitions(snapshot: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """What `serve` pins of each vendored offer (as `MCPSource.served_definitions` of a tool), by its `mcp_name`:
    the description, and what else the listing says of it (the URIs, the template, the arguments)."""
    pinned: dict[str, tuple[Any, Any]] = {}
    if resources := snapshot.get("resources"):
        pinned["resources/read"] = (None, {item["uri"]: definition(item, "uri") for item in resources})
    for item in snapshot.get("resourceTemplates", []):
        pinned[f"resources/read {item['uriTemplate']}"] = (item.get("description"), definition(item, "uriTemplate"))
    for item in snapshot.get("prompts", []):
        pinned[f"prompts/get {item['name']}"] = (item.get("description"), definition(item, "arguments"))
    return pinned


def definition(item: Mapping[str, Any], key: str) -> Any:
    """What is pinned of a listed template or prompt beside its description: its name, its `key`, its MIME type."""
    return {name: item.get(name) for name in ("name", key, "mimeType")}
