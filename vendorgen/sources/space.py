"""Gradio apps (Hugging Face Spaces or any URL), read through `view_api`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from vendorgen import naming, schema
from vendorgen.errors import SchemaError, SourceUnreachable, UsageError
from vendorgen.model import NO_DEFAULT, InputSpec, ModuleSpec, OutputSpec, ToolSpec, returns_note
from vendorgen.sources import AddOptions, waiting

ALLOWED_IMPORTS = frozenset(
    {
        "__future__.annotations",
        "typing.Any",
        "typing.Literal",
        "smolagents.Tool",
        "smolagents.agent_types.AgentAudio",
        "smolagents.agent_types.AgentImage",
        "os",
        "tempfile",
        "gradio_client.Client",
        "gradio_client.handle_file",
        "langchain_core.tools.StructuredTool",
    }
)

# Components whose value is a file: sent through handle_file, as smolagents type.
_FILE_COMPONENTS = {"Image": "image", "Audio": "audio"}
_FILE_NOTE = {
    "image": "A local path, an http(s) URL or a PIL image.",
    "audio": "A local path or an http(s) URL.",
    "string": "A local path or an http(s) URL.",
}


def inspect(target: str, options: AddOptions) -> list[dict[str, Any]]:
    if not target.startswith(("http://", "https://")) and target.count("/") != 1:
        raise UsageError(f"space:{target} is neither owner/name nor an http(s) URL")
    # First, because it is bounded: gradio_client looks a Space up on the Hub with no time-out.
    revision = _revision(target, options.token)
    api = _view_api(target, options.token)
    endpoints = api.get("named_endpoints") or {}
    if not endpoints:
        raise SchemaError(f"the app at {target} has no named endpoints (give its events an api_name)")
    if options.api_name:
        api_name = options.api_name if options.api_name.startswith("/") else f"/{options.api_name}"
        if api_name not in endpoints:
            raise UsageError(f"no endpoint {api_name} in {target}; available: {', '.join(endpoints)}")
        chosen = [api_name]
    elif options.all_endpoints or len(endpoints) == 1:
        chosen = list(endpoints)
    else:
        raise UsageError(
            f"{target} has {len(endpoints)} endpoints ({', '.join(endpoints)}); "
            "pick one with --api-name or take all with --all-endpoints"
        )
    if options.name and len(chosen) > 1:
        prefix = f"{options.name}_"
    else:
        prefix = ""
    snapshots = []
    for api_name in chosen:
        wanted = options.name if options.name and len(chosen) == 1 else prefix + naming.module_name(api_name)
        name = naming.python_name(wanted)
        snapshots.append(
            {
                "kind": "space",
                "source": f"space:{target}",
                "src": target,
                "name": name,
                "revision": revision,
                "api_name": api_name,
                "endpoint": endpoints[api_name],
                "options": {"api_name": api_name, "name": name},
            }
        )
    return snapshots


def _view_api(target: str, token: str | None) -> dict[str, Any]:
    from gradio_client import Client  # heavy; only `add space:` pays for it

    try:
        with waiting():
            client = Client(
                target, token=token or os.environ.get("HF_TOKEN"), verbose=False, analytics_enabled=False
            )
            api = client.view_api(return_format="dict", print_info=False)
    except Exception as exc:  # gradio_client raises anything from httpx errors to ValueError
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SourceUnreachable(f"cannot read the Gradio API of {target}: {reason}") from None
    if not isinstance(api, dict):
        raise SourceUnreachable(f"{target} did not describe a Gradio API")
    return api


def _revision(target: str, token: str | None) -> str:
    """The Space's commit sha when it is a Hub Space (a URL has none); the Hub's errors as hub: gives them."""
    if target.startswith(("http://", "https://")):
        return ""
    from huggingface_hub import HfApi

    from vendorgen.sources.hub import bound_hub_requests, hub_errors

    with hub_errors(f"the Space {target}"):
        info = HfApi().space_info(target, token=token or os.environ.get("HF_TOKEN"), timeout=bound_hub_requests())
    return info.sha or ""


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    endpoint = snapshot["endpoint"]
    api_name = snapshot["api_name"]
    if not isinstance(endpoint, Mapping):
        raise SchemaError(f"endpoint {api_name} is not described by an object")
    read = [_input(parameter, index) for index, parameter in enumerate(endpoint.get("parameters") or [])]
    inputs = schema.order_inputs([spec for spec, _ in read])
    returns = endpoint.get("returns") or []
    outputs = tuple(_output(value, index, alone=len(returns) == 1) for index, value in enumerate(returns))
    name = snapshot["name"]
    description = _text(endpoint.get("description"))
    generated = not description.strip()
    if generated:
        description = f"Calls {api_name} of the Gradio app {snapshot['src']}."
    if len(outputs) > 1:
        description = f"{description.rstrip()}\n\n{returns_note(outputs)}"
    if len(outputs) == 1:
        output_type = outputs[0].type
    else:
        output_type = "array" if outputs else "null"
    # The app's own parameter order: the runtime sends by position, so a parameter may be called
    # like a keyword of Client.predict (`headers`, `api_name`, `fn_index`).
    constants: tuple[tuple[str, Any], ...] = (
        ("src", snapshot["src"]),
        ("api_name", api_name),
        ("parameter_order", [spec.name for spec, _ in read]),
    )
    if file_paths := {spec.name: positions for spec, positions in read if positions}:
        constants += (("file_paths", file_paths),)
    tool = ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=description,
        endpoint=api_name,
        inputs=inputs,
        outputs=outputs,
        output_type=output_type,
        constants=constants,
        generated_description=generated,
    )
    return ModuleSpec(
        name=name,
        kind="space",
        source=snapshot["source"],
        revision=snapshot.get("revision", ""),
        tools=(tool,),
        requirements=("smolagents", "gradio_client"),
    )


def _input(parameter: Any, index: int) -> tuple[InputSpec, list[str]]:
    """One parameter, and the positions of the files in its value (see `model.ToolSpec`: `file_paths`)."""
    if not isinstance(parameter, Mapping):
        raise SchemaError(f"parameter {index} is not an object")
    wire = parameter.get("parameter_name")
    if not isinstance(wire, str) or not wire:
        wire = f"param_{index}"
    component = _text(parameter.get("component"))
    given = parameter["type"] if isinstance(parameter.get("type"), Mapping) else {}
    # Gradio gives each parameter its own `$defs` (FileData...): resolved here, so no reference dangles.
    type_schema, positions = _paths_for_files(schema.resolve_refs(given, given), "")
    description = _text(parameter.get("label"))
    if _text(given.get("description")) and "json" not in given["description"].lower():
        extra = given["description"]
        description = f"{description}: {extra}" if description else extra
    has_default = bool(parameter.get("parameter_has_default"))
    default = parameter.get("parameter_default") if has_default else NO_DEFAULT
    file_kind = _FILE_COMPONENTS.get(component) or ("string" if positions == [""] else None)
    if file_kind is None and positions == ["[*]"] and type_schema.get("type") == "array":
        file_kind = "array"
    if file_kind is None:
        spec = schema.input_spec(wire, type_schema, required=not has_default, description=description, default=default)
        return spec, positions
    note = _FILE_NOTE.get(file_kind, "Local paths or http(s) URLs.")
    annotation = {"image": "Any", "audio": "Any", "string": "str", "array": "list[str]"}[file_kind]
    spec = schema.input_spec(
        wire,
        type_schema,
        required=not has_default,
        description=f"{description}. {note}" if description else note,
        default=default if default is None or isinstance(default, str) else NO_DEFAULT,
        upload=True,
        kind=file_kind,
        annotation=annotation,
    )
    return spec, positions or [""]


# What a file is to whoever calls the tool: a path or a URL (the runtime uploads it).
_PATH_SCHEMA = {"type": "string", "description": "A local path or an http(s) URL."}


def _paths_for_files(node: Any, position: str) -> tuple[Any, list[str]]:
    """`node` with every gradio FileData replaced by a path, and where they were: "" the value
    itself, "[*]" each item, ".name" a property, combined (".files[*]")."""
    if _is_file(node):
        return dict(_PATH_SCHEMA), [position]
    if not isinstance(node, Mapping):
        return node, []
    result = dict(node)
    found: list[str] = []
    for combinator in ("anyOf", "oneOf"):
        if isinstance(node.get(combinator), list):
            branches = [_paths_for_files(branch, position) for branch in node[combinator]]
            result[combinator] = [branch for branch, _ in branches]
            found += [where for _, positions in branches for where in positions if where not in found]
    if isinstance(node.get("items"), Mapping):
        result["items"], positions = _paths_for_files(node["items"], f"{position}[*]")
        found += positions
    if isinstance(node.get("properties"), Mapping):
        properties = {}
        for key, value in node["properties"].items():
            properties[key], positions = _paths_for_files(value, f"{position}.{key}")
            found += positions
        result["properties"] = properties
    return result, found


def _output(value: Any, index: int, alone: bool) -> OutputSpec:
    if not isinstance(value, Mapping):
        raise SchemaError(f"return value {index} is not an object")
    label = _text(value.get("label"))
    component = _text(value.get("component"))
    given: Mapping[str, Any] = value["type"] if isinstance(value.get("type"), Mapping) else {}
    type_schema = schema.resolve_refs(given, given)
    name = naming.module_name(label) if label else f"output_{index}"
    # A single image or audio output is wrapped for the agent; inside a tuple it stays a path.
    if component == "Image" and alone:
        return OutputSpec(name, "image", "AgentImage", label=label, component=component)
    if component == "Audio" and alone:
        return OutputSpec(name, "audio", "AgentAudio | str", label=label, component=component)
    if component in ("Image", "Audio") or _is_file(type_schema):
        return OutputSpec(name, "string", "str", "a local file path", label, component)
    mapped = schema.map_type(type_schema)
    kind = mapped.type if isinstance(mapped.type, str) else "any"
    return OutputSpec(name, kind, mapped.annotation, label=label, component=component)


def _is_file(type_schema: Any) -> bool:
    """gradio's FileData schema (what gradio_client's `_is_file_schema` tests)."""
    if not isinstance(type_schema, Mapping):
        return False
    properties = type_schema.get("properties")
    return isinstance(properties, Mapping) and "path" in properties and "meta" in properties


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
