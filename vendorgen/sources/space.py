"""Gradio apps (Hugging Face Spaces or any URL), read through `view_api`.

The Hub token goes to the Hub and to the Space's own *.hf.space host only
(hub_client.token_allowed); an app URL gets a token only when it is given with
`--token` on the command line. A URL with `user:password@` is refused: it would
be written into the module, the lock and any pushed Space.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vendorgen import naming
from vendorgen.errors import NotOffered, SchemaError, SourceUnreachable, UsageError, VendorgenError
from vendorgen.model import NO_DEFAULT, InputSpec, ModuleSpec, OutputSpec, ToolSpec, null_refused_constant, returns_note
from vendorgen.sources.base import COMMON_IMPORTS, AddOptions, Inspection, Source
from vendorgen.sources.credentials import refuse_url_credentials
from vendorgen.sources.hub_client import REPO_ID, app_token, bound_hub_requests, first_line, hub_errors, within_deadline
from vendorgen.sources.portable import Problem, url_problems
from vendorgen.text import limits, schema

# Components whose value is a file: sent through handle_file, as smolagents type.
_FILE_COMPONENTS = {"Image": "image", "Audio": "audio"}


def inspect(target: str, options: AddOptions) -> list[dict[str, Any]]:
    space_id = _space_id(target)
    # The Hub says where a Space runs (and at which commit); a URL is where the app runs.
    revision, app_url = _locate(space_id, options.token) if space_id else ("", target)
    api = _view_api(app_url, app_token(app_url, space_id, options.token), target, options.token)
    limits.check_listing(api, f"the Gradio API of {target}")
    endpoints = api.get("named_endpoints") or {}
    if not endpoints:
        raise SchemaError(f"the app at {target} has no named endpoints (give its events an api_name)")
    if not isinstance(endpoints, Mapping):
        raise SchemaError(f"the app at {target} lists its named endpoints as something other than an object")
    limits.TOOLS.check(len(endpoints), f"the Gradio app at {target}")
    if options.api_name:
        api_name = endpoint_path(options.api_name)
        if api_name not in endpoints:
            raise NotOffered(f"no endpoint {api_name} in {target}; available: {', '.join(endpoints)}")
        chosen = [api_name]
    elif options.all_endpoints or len(endpoints) == 1:
        chosen = list(endpoints)
    else:
        raise UsageError(
            f"{target} has {len(endpoints)} endpoints ({', '.join(endpoints)}); "
            "pick one with --api-name or take all with --all-endpoints"
        )
    listing = limits.listing_budget(f"the Gradio app at {target}")
    for api_name in chosen:
        _charge(endpoints[api_name], listing)
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


def bound_fields(target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The app the generated code calls (and sends a token to) is the one `space:<target>` names."""
    return {"src": target}


def _charge(endpoint: Any, listing: limits.NodeBudget) -> None:
    """Spend from `listing` what the endpoint's types cost once their `$ref`s are inlined (as `build`
    will). Anything else wrong with them is for `build` to say, endpoint by endpoint (`--keep-going`)."""
    if not isinstance(endpoint, Mapping):
        return
    for values in (endpoint.get("parameters"), endpoint.get("returns")):
        for value in values if isinstance(values, list) else ():
            given = value.get("type") if isinstance(value, Mapping) else None
            try:
                if isinstance(given, Mapping):
                    schema.resolve_refs(given, given, listing)
            except SchemaError:
                if listing.left < 0:
                    raise
                return


@functools.cache  # one request per app and run: `check --remote` and `update` read each app once
def _space_id(target: str) -> str | None:
    """`owner/name` for a Space on the Hub, None for an app URL (refused if it carries credentials)."""
    if target.startswith(("http://", "https://")):
        refuse_url_credentials(target)
        return None
    if not REPO_ID.fullmatch(target):
        # `127.0.0.1:7860/`, `localhost:7860`: an address without its scheme.
        hint = f"; for an app at that address, use space:http://{target}" if ":" in target else ""
        raise UsageError(f"space:{target} is neither owner/name nor an http(s) URL{hint}")
    return target


def _view_api(app_url: str, token: str | bool, target: str, explicit_token: str | None) -> dict[str, Any]:
    """The app's API as gradio_client describes it. `token` is what `app_token` allows (False: none,
    which also keeps gradio_client from sending the machine's token by itself)."""
    from gradio_client import Client  # heavy; only `add space:` pays for it

    received = limits.ReadBudget(f"what the Gradio app at {target} sent")

    def read() -> Any:
        client = Client(app_url, token=token, verbose=False, analytics_enabled=False,
                        httpx_kwargs={"auth": _counted_reads(received)})  # fmt: skip
        return client.view_api(return_format="dict", print_info=False)

    try:
        api = within_deadline(read, f"the Gradio app at {target}")
    except VendorgenError:  # the deadline, a bad VENDORGEN_HUB_TIMEOUT, the byte limit
        raise
    except Exception as exc:  # gradio_client raises anything from httpx errors to ValueError
        if received.exceeded is not None:  # however gradio_client reported the body that was cut
            raise received.exceeded from None
        raise SourceUnreachable(f"cannot read the Gradio API of {target}: {first_line(exc, explicit_token)}") from None
    if not isinstance(api, dict):
        raise SourceUnreachable(f"{target} did not describe a Gradio API")
    return api


def _counted_reads(received: limits.ReadBudget) -> Any:
    """An httpx `Auth` that adds no credentials: every response body passes through `received`
    as it is read. gradio_client reads the app's config and API info with `httpx.get(...,
    **httpx_kwargs)`, which takes no transport and no event hooks; an auth flow is the one thing
    those keyword arguments reach that sees each response before its body is read."""
    import httpx

    class Counted(httpx.SyncByteStream):
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        def __iter__(self) -> Any:
            for chunk in self.stream:
                received.spend(len(chunk))
                yield chunk

        def close(self) -> None:
            self.stream.close()

    class Counting(httpx.Auth):
        def auth_flow(self, request: Any) -> Any:
            response = yield request
            response.stream = Counted(response.stream)

    return Counting()


def _locate(space_id: str, token: str | None) -> tuple[str, str]:
    """The Space's commit sha and the URL it runs at, from the Hub; the Hub's errors as hub: gives them."""
    from huggingface_hub import HfApi

    timeout = bound_hub_requests()
    api = HfApi(token=token or None)  # None: HF_TOKEN or the token of `hf auth login`, if any
    with hub_errors(f"the Space {space_id}"):
        info = within_deadline(
            lambda: api.space_info(space_id, timeout=timeout), f"the Hub at {api.endpoint} for the Space {space_id}"
        )
    if not info.host:
        raise SourceUnreachable(f"the Hub names no address for the Space {space_id}: is it running?")
    return info.sha or "", info.host


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    endpoint = snapshot["endpoint"]
    api_name = snapshot["api_name"]
    if not isinstance(endpoint, Mapping):
        raise SchemaError(f"endpoint {api_name} is not described by an object")
    refuse_url_credentials(str(snapshot["src"]))  # a snapshot from before the check, or edited by hand
    parameters = endpoint.get("parameters") or []
    nodes = limits.NodeBudget(f"the types of {api_name}")  # one budget for the whole endpoint, as for one MCP tool
    shapes_prefix = "_" + (schema.pascal_case(api_name) or "Tool")  # names the TypedDicts of its unions of objects
    read = [_input(parameter, index, nodes, shapes_prefix) for index, parameter in enumerate(parameters)]
    inputs = schema.order_inputs([spec for spec, _ in read])
    returns = endpoint.get("returns") or []
    outputs = tuple(_output(value, index, len(returns) == 1, nodes) for index, value in enumerate(returns))
    name = snapshot["name"]
    description = limits.check_description(_text(endpoint.get("description")), f"the description of {api_name}")
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
        ("parameter_order", [spec.wire_name for spec, _ in read]),  # wire names: overrides rename Python ones
    )
    if file_paths := {spec.wire_name: positions for spec, positions in read if positions}:
        constants += (("file_paths", file_paths),)
    # What an argument left at NOT_GIVEN is sent as: the app's default when it was vendored, so a
    # tool does not change with the app and asks it nothing more at run time.
    pinned = {spec.wire_name: parameter.get("parameter_default")
              for (spec, _), parameter in zip(read, parameters) if spec.python_default is None}  # fmt: skip
    if pinned:
        constants += (("parameter_defaults", pinned),)
    constants += null_refused_constant(inputs)
    tool = ToolSpec(
        name=naming.tool_name(name),  # the module's name, unless an agent's own tool has it
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
        requirements=SpaceSource.requirements,
    )


def _input(parameter: Any, index: int, nodes: limits.NodeBudget, shapes_prefix: str) -> tuple[InputSpec, list[str]]:
    """One parameter, and the positions of the files in its value (see `model.ToolSpec`: `file_paths`);
    a union of objects is typed as TypedDicts named from `shapes_prefix`, as an MCP tool's (`schema.input_spec`)."""
    if not isinstance(parameter, Mapping):
        raise SchemaError(f"parameter {index} is not an object")
    wire = parameter.get("parameter_name")
    if not isinstance(wire, str) or not wire:
        wire = f"param_{index}"
    component = _text(parameter.get("component"))
    given = parameter["type"] if isinstance(parameter.get("type"), Mapping) else {}
    # Gradio gives each parameter its own `$defs` (FileData...): resolved here, so no reference dangles.
    type_schema, positions = _paths_for_files(schema.resolve_refs(given, given, nodes), "")
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
        spec = schema.input_spec(
            wire, type_schema, required=not has_default, description=description, default=default,
            shapes_prefix=shapes_prefix,
        )  # fmt: skip
        return spec, positions
    from vendorgen.shipped._vendored_server import PYTHON_FILE_NOTES  # lazy: 30 ms, for file inputs only

    note = PYTHON_FILE_NOTES.get(file_kind, "Local paths or http(s) URLs.")
    annotation = {"image": "Any", "audio": "Any", "string": "str", "array": "list[str]"}[file_kind]
    spec = schema.input_spec(
        wire,
        type_schema,
        required=not has_default,
        description=f"{description}. {note}" if description else note,
        default=default if default is None or isinstance(default, str) else NO_DEFAULT,
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


def _output(value: Any, index: int, alone: bool, nodes: limits.NodeBudget) -> OutputSpec:
    if not isinstance(value, Mapping):
        raise SchemaError(f"return value {index} is not an object")
    label = _text(value.get("label"))
    component = _text(value.get("component"))
    given: Mapping[str, Any] = value["type"] if isinstance(value.get("type"), Mapping) else {}
    type_schema = schema.resolve_refs(given, given, nodes)
    name = naming.module_name(label) if label else f"output_{index}"
    # The component (Textbox, Image...) says what the value is in the returns note of several outputs.
    # A single image or audio output is wrapped for the agent; inside a tuple it stays a path. What
    # is not a file the runtime downloaded (a path the app names on this machine) stays text.
    if component == "Image" and alone:
        return OutputSpec(name, "image", "AgentImage | str", component)
    if component == "Audio" and alone:
        return OutputSpec(name, "audio", "AgentAudio | str", component)
    if component in ("Image", "Audio") or _is_file(type_schema):
        return OutputSpec(name, "string", "str", "a local file path")
    mapped = schema.map_type(type_schema)
    kind = mapped.type if isinstance(mapped.type, str) else "any"
    return OutputSpec(name, kind, mapped.annotation, component)


def _is_file(type_schema: Any) -> bool:
    """gradio's FileData schema (what gradio_client's `_is_file_schema` tests)."""
    if not isinstance(type_schema, Mapping):
        return False
    properties = type_schema.get("properties")
    return isinstance(properties, Mapping) and "path" in properties and "meta" in properties


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


class SpaceSource(Source):
    """Gradio apps (Hugging Face Spaces or any URL): one module per endpoint.

    What the runtime's SpaceTool reads from a tool's constants: `src`, `api_name`;
    `parameter_order`, the wire names of the inputs in the app's order (`inputs` puts required
    ones first), for sending by position (an app parameter may be called `headers` or
    `fn_index`, which Client.predict takes as its own); `file_paths`, only when an input holds
    files: {wire name: [position, ...]}, each position a path into the value: "" the value
    itself, "[*]" each item of a list, ".key" a property of an object, chained (".files[*]",
    "[*].background"); each file found there goes through gradio_client.handle_file. The
    input's schema shows such a file as a string (a local path or an http(s) URL).
    `parameter_defaults`, only when an input's signature default is NOT_GIVEN: {wire name: the
    app's default when vendored}, sent for an argument not given (pinned: no look-up at run
    time); `null_refused`, as for every source (`model.null_refused_constant`). Wire names,
    because `Config.apply` renames Python names after `build`; forward passes its arguments to
    the runtime by wire name.
    """

    kind = "space"
    target = "space:<owner/name | http(s)://host:port/>"
    options = frozenset({"api_name", "all_endpoints", "name", "token", "keep_going"})
    template = "space.py.j2"
    allowed_imports = COMMON_IMPORTS | {
        "smolagents.agent_types.AgentAudio",
        "smolagents.agent_types.AgentImage",
        "._vendored_gradio.SpaceTool",
        "._vendored_runtime.NOT_GIVEN",
        "._vendored_gradio.audio_result",
        "._vendored_gradio.image_result",
    }
    runtime_files = ("_vendored_gradio.py",)
    annotations = MappingProxyType(
        {"parameter_order": "list[str]", "file_paths": "dict[str, list[str]]", "parameter_defaults": "dict[str, Any]"}
    )
    requirements = ("smolagents", "gradio_client")
    ranges = MappingProxyType({**Source.ranges, "gradio_client": ">=1.8,<3"})

    # Each hook calls this module's function of the same name (a method's body sees the module's names).
    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        return inspect(target, options)

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        return build(snapshot)

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        return bound_fields(target, snapshot)

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        return url_problems(str(snapshot.get("src", "")), "its Gradio app")

    def same_module(self, recorded: AddOptions, given: AddOptions) -> bool:
        api_name = given.api_name and endpoint_path(given.api_name)
        return super().same_module(recorded, replace(given, api_name=api_name))


def endpoint_path(api_name: str) -> str:
    """`--api-name convert` names the endpoint `/convert`."""
    return api_name if api_name.startswith("/") else f"/{api_name}"
