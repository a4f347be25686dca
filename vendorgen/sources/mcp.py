"""MCP servers (streamable-http, legacy SSE, stdio), read with the mcp SDK's client (mcp 1.10+ and 2.x).

`inspect` connects once, initializes, lists every tool (following `nextCursor`)
and disconnects (`vendorgen/sources/mcp_listing.py`, through `mcp_client.py`, which
says why not through mcpadapt); `build` turns the raw `tools/list` answer into one module per
server. The schema conversion is vendorgen's own (`vendorgen.text.schema`), never
mcpadapt's `SmolAgentsAdapter`: that one drops `required`, leaves `$ref`s as
lazy proxies and returns tool errors as text.

The generated code does not use mcpadapt at all: it talks to the server with the
mcp SDK only (see templates/mcp.py.j2).
"""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from vendorgen import naming
from vendorgen.errors import NotOffered, SchemaError, SourceUnreachable, UsageError
from vendorgen.model import ModuleSpec, OutputSpec, ToolSpec, null_refused_constant
from vendorgen.project import interpreter as project_python
from vendorgen.review.annotations import behaviour, read_only_tools
from vendorgen.review.texts import Text
from vendorgen.sources import mcp_auth, mcp_offers, pins
from vendorgen.sources.base import COMMON_IMPORTS, AddOptions, Inspection, Source, replay_options, seconds_from_env
from vendorgen.sources.mcp_listing import list_offers
from vendorgen.sources.mcp_server import DEFAULT_TIMEOUT, TIMEOUT_ENV, server_label
from vendorgen.sources.mcp_target import bound_fields, parse_target
from vendorgen.sources.portable import Problem, credential_problems, stdio_problems, url_problems
from vendorgen.text import limits, schema
from vendorgen.text.literals import escape_text
from vendorgen.waits import NO_WAITS, Waits

if TYPE_CHECKING:
    from vendorgen.project.config import Config

TRANSPORTS = ("stdio", "streamable-http", "sse")

# What the generated module waits for by default (both can be changed there).
CALL_TIMEOUT = 60.0
CONNECT_TIMEOUT = 30.0


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------


def inspect(target: str, options: AddOptions, root: Path, waits: Waits = NO_WAITS) -> list[dict[str, Any]]:
    server = parse_target(target, options, root)
    if server["transport"] == "stdio":
        # What is written down (the lock, the header) is the portable command line, never this machine's paths.
        target = "stdio:" + shlex.join([server["command"], *server["args"]])
    timeout = seconds_from_env(TIMEOUT_ENV, DEFAULT_TIMEOUT)
    login_name = naming.python_name(options.name) if options.name else ""
    credentials = mcp_auth.credentials(server, login_name)  # a missing variable: said before any request
    wanted = mcp_offers.wanted(options)
    try:
        info, raw_tools, offered_to_capable, listings = list_offers(server, root, timeout, wanted, waits, credentials)
    except SourceUnreachable:
        if not mcp_auth.asked(credentials):
            raise
        mcp_auth.authorize(server, credentials, timeout)  # asks a person (or the browser), then lists again
        info, raw_tools, offered_to_capable, listings = list_offers(server, root, timeout, wanted, waits, credentials)
    server = mcp_auth.recorded(server, credentials)
    instructions = info.pop("instructions", None)  # what the server tells the model: pinned, reviewed
    limits.check_listing(raw_tools, f"the tools/list of the MCP server {server_label(server)}")
    tools = [tool for tool in raw_tools if isinstance(tool, dict)]
    names = [tool.get("name") for tool in tools]
    duplicates = sorted({name for name in names if names.count(name) > 1}, key=str)
    if duplicates:
        raise SchemaError(f"the server lists these tools more than once: {', '.join(map(_show, duplicates))}")
    withheld = _withheld(tools, offered_to_capable)
    tools = [tool for tool in tools if tool.get("name") not in list(withheld)]  # a hostile name may be unhashable
    if options.tools:
        by_either_name = {**{tool_name(name, options.prefix): name for name in withheld}, **{name: name for name in withheld}}
        if refused := [by_either_name[name] for name in options.tools if name in by_either_name]:
            raise UsageError("cannot vendor " + "; ".join(f"{_show(name)}: {withheld[name]}" for name in refused))
        tools = _select(tools, options.tools, options.prefix)
    offers, offers_withheld = mcp_offers.selected(listings, options)
    if not tools and not any(offers.values()):
        raise SchemaError(f"the MCP server at {server_label(server)} lists no tools")
    withheld.update(offers_withheld)
    name = naming.python_name(options.name) if options.name else default_module_name(info, server)
    # What `update` passes to `inspect` to get this module again (never a value of --env).
    again = replay_options(name, trust=server["transport"] == "stdio", env=list(options.env),
                           tools=list(options.tools), prefix=options.prefix, resources=options.resources,
                           resource_names=list(options.resource_names), prompts=options.prompts,
                           prompt_names=list(options.prompt_names), headers=list(options.headers),
                           client_id=options.client_id, client_secret_env=options.client_secret_env,
                           client_metadata_url=options.client_metadata_url)  # fmt: skip
    return [
        {
            "kind": "mcp",
            "source": f"mcp:{target}",
            "name": name,
            "server": server,
            "server_info": info,
            "revision": revision(info, server, root),
            "prefix": options.prefix,
            "tools": tools,
            **offers,
            "options": again,
            **({"instructions": instructions} if instructions else {}),
            # What the server lists and this module leaves out, and why (`add` says so): only for the whole server.
            **({"withheld": withheld} if withheld and not options.tools else {}),
        }
    ]


# Why a tool is not vendored (vendored tools connect as a client that declares no capabilities).
NEEDS_CAPABILITIES = "offered only to clients that declare roots, sampling or elicitation, which vendored tools do not"
NEEDS_TASKS = "execution.taskSupport is required: every call must run as an MCP task, which vendored tools do not"


def _withheld(tools: list[dict[str, Any]], offered_to_capable: set[str] | None) -> dict[str, str]:
    """The tools that vendored code could not call, by name, with the reason, sorted."""
    listed = [tool.get("name") for tool in tools]
    withheld = {name: NEEDS_CAPABILITIES for name in offered_to_capable or () if name not in listed}
    for tool in tools:
        execution = tool.get("execution")
        if isinstance(tool.get("name"), str) and isinstance(execution, Mapping) and execution.get("taskSupport") == "required":
            withheld[tool["name"]] = NEEDS_TASKS
    return dict(sorted(withheld.items()))


def _select(tools: list[dict[str, Any]], wanted: tuple[str, ...], prefix: str) -> list[dict[str, Any]]:
    """The tools named by --tool, by MCP name or by the Python name vendorgen gives them."""
    by_name: dict[str, dict[str, Any]] = {}
    for tool in tools:
        by_name[tool["name"]] = tool
        by_name.setdefault(tool_name(tool["name"], prefix), tool)
    chosen: list[dict[str, Any]] = []
    unknown = [name for name in wanted if name not in by_name]
    if unknown:
        available = ", ".join(_show(tool["name"]) for tool in tools)
        raise NotOffered(f"no tool {', '.join(map(_show, unknown))} on this server; available: {available}")
    for name in wanted:
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    return chosen


def _show(name: Any) -> str:
    return escape_text(str(name))


def default_module_name(info: Mapping[str, Any], server: Mapping[str, Any]) -> str:
    """From the server's own name (`serverInfo.name`), else its host or command."""
    base = info["name"] if isinstance(info.get("name"), str) else ""
    if not base.strip():
        if server["transport"] == "stdio":
            base = os.path.basename(server["command"])
        else:
            base = urlsplit(server["url"]).hostname or "mcp"
    name = naming.module_name(base)
    return f"mcp{name}" if name.startswith("_") else name


def revision(info: Mapping[str, Any], server: Mapping[str, Any] | None = None, root: Path | None = None) -> str:
    """Which version of the server was read: its own, where the command line tells.

    `serverInfo.version` is often not the server's: FastMCP reports the mcp SDK's version. So a
    pinned npx package gives its name and version, `python -m MODULE` the distribution that provides
    MODULE, a script inside the project the server's name and the sha256 of the script; anything else
    (an HTTP server) what it says in `serverInfo`. `root`: the project's, where a script is read (none: no script).
    """
    name = info.get("name") if isinstance(info.get("name"), str) else ""
    version = info.get("version") if isinstance(info.get("version"), str) else ""
    own = _own_revision(server, root) if server is not None and server["transport"] == "stdio" else ""
    if own.startswith("sha256:"):
        return " ".join(part for part in (name, own) if part)
    return own or " ".join(part for part in (name, version) if part)


def _own_revision(server: Mapping[str, Any], root: Path | None) -> str:
    package = server.get("package")
    if isinstance(package, Mapping):
        return f"{package['name']} {package['version']}"
    argv = [server["command"], *server["args"]]
    if server["command"] in ("python", "python3") and argv[1:2] == ["-m"] and len(argv) > 2:
        top = argv[2].split(".")[0]  # the distribution that provides it where the server runs: the project's
        python = project_python.find(root) if root is not None else project_python.own()
        for distribution, version in list(project_python.import_distributions(python, [top])[top]["versions"].items())[:1]:
            if version is not None:
                return f"{distribution} {version}"
    for index in server.get("project_paths", ()) if root is not None else ():
        path = root / argv[index]
        if path.is_file():  # the first file of the project on the command line: the server's code
            return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return ""


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------


def tool_name(mcp_name: str, prefix: str = "") -> str:
    """The smolagents tool name: `get-weather` -> `get_weather`; `--prefix gh` -> `gh_get_weather`."""
    if prefix:
        return naming.tool_name(f"{prefix.rstrip('_')}_{mcp_name}")
    return naming.tool_name(mcp_name)


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    server = snapshot["server"]
    if server.get("transport") not in TRANSPORTS:
        raise SchemaError(f"unknown MCP transport {server.get('transport')!r}")
    info = snapshot.get("server_info") or {}
    server_name = info["name"] if isinstance(info.get("name"), str) else ""
    prefix = snapshot.get("prefix", "")
    listing = limits.listing_budget(f"the MCP server {server_label(server)}")
    tools = [_tool(raw, prefix, server_name, listing) for raw in snapshot["tools"]]
    if any(key in snapshot for key in mcp_offers.KEYS):
        tools += mcp_offers.tools(snapshot, prefix, server_name, listing)
    module_name = naming.python_name(snapshot["name"])
    runtime = {"name": server_name, "version": info.get("version", ""), **server}
    if isinstance(server.get("oauth"), Mapping):  # what a generated tool with no usable token tells to run
        runtime["oauth"] = {**server["oauth"], "module": module_name}
    constants: tuple[tuple[str, Any], ...] = (("SERVER", runtime), ("TIMEOUT", CALL_TIMEOUT), ("CONNECT_TIMEOUT", CONNECT_TIMEOUT))
    instructions = snapshot.get("instructions")
    if isinstance(instructions, str) and instructions.strip():  # model-read: in the module, where review sees it
        limits.check_description(instructions, "the server's instructions")
        constants += (("INSTRUCTIONS", instructions),)
    return ModuleSpec(
        name=module_name,
        kind="mcp",
        source=snapshot["source"],
        revision=snapshot.get("revision", ""),
        tools=tuple(tools),
        constants=constants,
        requirements=MCPSource.requirements,
    )


def _tool(raw: Any, prefix: str, server_name: str, listing: limits.NodeBudget) -> ToolSpec:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise SchemaError("the server lists a tool without a name")
    mcp_name = raw["name"]
    try:
        input_schema = raw.get("inputSchema")
        inputs = schema.inputs_from_object(
            {"type": "object"} if input_schema is None else input_schema, listing, mcp_name
        )
    except SchemaError as exc:
        raise SchemaError(f"tool {_show(mcp_name)!r}: {exc}") from None
    name = tool_name(mcp_name, prefix)
    description, described = _description(raw, mcp_name, server_name)
    output_schema = raw.get("outputSchema")
    said = behaviour(raw["annotations"] if isinstance(raw.get("annotations"), Mapping) else None)
    constants: tuple[tuple[str, Any], ...] = (("mcp_name", mcp_name), *null_refused_constant(inputs), *said.constants())
    if isinstance(output_schema, Mapping):
        try:
            resolved = schema.resolve_refs(
                output_schema, output_schema, limits.NodeBudget("the output schema", within=listing)
            )
        except SchemaError as exc:
            raise SchemaError(f"tool {_show(mcp_name)!r} output schema: {exc}") from None
        outputs = (OutputSpec("result", "object", "dict[str, Any]", "the structured result"),)
        output_type = "object"
        if _wraps_result(resolved):
            # A plain value the server wraps as {"result": value}: the tool returns the value itself.
            mapped = schema.map_type(resolved["properties"][RESULT_KEY])
            output_type = mapped.type if isinstance(mapped.type, str) and mapped.type != "null" else "any"
            annotation = mapped.annotation if output_type != "any" else "Any"
            outputs = (OutputSpec("result", output_type, annotation, "the value the tool returns"),)
            resolved = None
            constants += (("result_key", RESULT_KEY),)
    else:
        resolved = None
        outputs = (OutputSpec("result", "any", "Any", "the content the server returns"),)
        output_type = "any"
    return ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=description,
        generated_description=not described,
        endpoint=mcp_name,
        inputs=inputs,
        outputs=outputs,
        output_type=output_type,
        output_schema=resolved,
        constants=constants,
        behaviour=said.words(),
    )


RESULT_KEY = "result"


def _wraps_result(output_schema: Mapping[str, Any]) -> bool:
    """Whether the structured result is a plain value wrapped as {"result": value}.

    FastMCP 2 marks it (`x-fastmcp-wrap-result`); the mcp SDK's FastMCP does not, but its wrapper
    has one recognisable shape: a model titled `<function>Output`, with no description, whose only,
    required property is `result` titled "Result". Any other object with a `result` field stays a dict.
    """
    properties = output_schema.get("properties")
    if not isinstance(properties, Mapping) or list(properties) != [RESULT_KEY]:
        return False
    if output_schema.get("x-fastmcp-wrap-result") is True:
        return True
    result = properties[RESULT_KEY]
    title = output_schema.get("title")
    return (
        output_schema.get("required") == [RESULT_KEY]
        and isinstance(title, str)
        and title.endswith("Output")
        and "description" not in output_schema
        and isinstance(result, Mapping)
        and result.get("title") == "Result"
    )


def _description(raw: Mapping[str, Any], mcp_name: str, server_name: str) -> tuple[str, bool]:
    """(the description, whether the server gave one)."""
    annotations = raw["annotations"] if isinstance(raw.get("annotations"), Mapping) else {}
    for text in (raw.get("description"), raw.get("title"), annotations.get("title")):
        if isinstance(text, str) and text.strip():
            return schema.description_text(text), True
    where = f" of the MCP server {server_name}" if server_name else ""
    return f"The {mcp_name} tool{where}.", False


# ---------------------------------------------------------------------------
# what a model reads, and what the tools say they may do (vendorgen review)
# ---------------------------------------------------------------------------


def _listed(module: ModuleSpec, snapshot: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(vendored tool name, the tool as the server listed it) for each tool of `module`, from its snapshot."""
    names = {tool.endpoint: tool.name for tool in module.tools}
    tools = snapshot.get("tools")
    for raw in tools if isinstance(tools, list) else ():
        if isinstance(raw, Mapping) and isinstance(raw.get("name"), str) and raw["name"] in names:
            yield names[raw["name"]], raw


def read_texts(module: ModuleSpec, snapshot: Mapping[str, Any]) -> list[Text]:
    """An MCP tool's `title` and `annotations.title`: clients show them, and some pass them to the model."""
    texts = []
    for tool, raw in _listed(module, snapshot):
        annotations = raw["annotations"] if isinstance(raw.get("annotations"), Mapping) else {}
        for field, value in (("title", raw.get("title")), ("annotations.title", annotations.get("title"))):
            if isinstance(value, str) and value:
                texts.append(Text(tool, field, value))
    return texts


def tool_annotations(module: ModuleSpec, snapshot: Mapping[str, Any]) -> dict[str, Mapping[str, Any] | None]:
    """{tool name: its MCP annotations, None where the server gave none}."""
    found: dict[str, Mapping[str, Any] | None] = {tool.name: None for tool in module.tools}
    for tool, raw in _listed(module, snapshot):
        annotations = raw.get("annotations")
        found[tool] = annotations if isinstance(annotations, Mapping) else None
    return found


class MCPSource(Source):
    """MCP servers (streamable-http, legacy SSE, stdio): one module per server.

    The module constant `SERVER` says how to reach the server. What the runtime's MCPTool reads
    from a tool's constants: `mcp_name`; `result_key`, when the server wraps a plain value as
    {result_key: value} in structuredContent (FastMCP): the tool returns the value, typed
    `output_type`; `null_refused` (`model.null_refused_constant`). Resources' and prompts': `mcp_offers`.
    """

    kind = "mcp"
    target = 'mcp:<http(s)://host/mcp> | mcp:sse:<url> | "mcp:stdio:<command line>"'
    help_note = "(stdio needs --trust)"
    options = frozenset({"trust", "env", "tools", "prefix", "name", "resources", "resource_names", "prompts",
                         "prompt_names", "headers", "client_id", "client_secret_env", "client_metadata_url"})  # fmt: skip
    help = """mcp: one module per server, one Tool class per MCP tool, sharing one session;
  stdio runs the command line (python means this interpreter) with --env
  names passed from the environment when it starts (their values are never
  written); VENDORGEN_MCP_TIMEOUT sets the inspection timeout (10 s)."""
    template = "mcp.py.j2"
    allowed_imports = COMMON_IMPORTS | {
        "smolagents.Tool",
        "._vendored_mcp.MCPSession",
        "._vendored_mcp.MCPTool",
        "._vendored_mcp.MCPToolError",
        "._vendored_runtime.NOT_GIVEN",
        "._vendored_mcp.ToolList",
        "._vendored_mcp_offers.PromptTool",
        "._vendored_mcp_offers.ResourceTool",
    }
    # The session and how it reaches a server (stdio, HTTP), its credentials (headers, OAuth), its calls over the
    # SDK, the tools; then what resources, resource templates and prompts add.
    runtime_files = ("_vendored_mcp_transport.py", "_vendored_mcp_auth.py", "_vendored_mcp_calls.py",
                     "_vendored_mcp.py", "_vendored_mcp_offers.py")  # fmt: skip
    annotations = MappingProxyType({"SERVER": "dict[str, Any]", "resources": "dict[str, dict[str, Any]]",
                                    "resource_template": "dict[str, Any]", "prompt": "dict[str, Any]"})  # fmt: skip
    requirements = ("smolagents", "mcp")
    ranges = MappingProxyType({**Source.ranges, "mcp": ">=1.10,<3"})
    served_name_attribute = "mcp_name"

    # Each hook calls this module's function of the same name (a method's body sees the module's names).
    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        return inspect(target, options, context.root, context.waits)

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        return build(snapshot)

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        return bound_fields(target, snapshot)

    def served_definitions(self, snapshot: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        tools = {raw["name"]: (raw.get("description"), raw.get("inputSchema"), raw.get("annotations"),
                               raw.get("outputSchema")) for raw in snapshot["tools"]}  # fmt: skip
        return {**tools, **mcp_offers.served_definitions(snapshot)}

    def project_options(self, config: Config) -> dict[str, Any]:
        return {"resources": config.mcp_resources, "prompts": config.mcp_prompts}

    def added_notes(self, module: ModuleSpec, snapshot: dict[str, Any]) -> list[str]:
        return mcp_auth.authorization_note(module.name, snapshot)

    def read_texts(self, module: ModuleSpec, snapshot: dict[str, Any]) -> list[Text]:
        return read_texts(module, snapshot)

    def tool_annotations(self, module: ModuleSpec, snapshot: dict[str, Any]) -> dict[str, Mapping[str, Any] | None]:
        return tool_annotations(module, snapshot)

    def secrets(self, snapshot: dict[str, Any]) -> list[str]:
        return mcp_auth.secrets(snapshot)

    def log_in(self, name: str, snapshot: dict[str, Any]) -> str:
        return mcp_auth.log_in(name, snapshot, seconds_from_env(TIMEOUT_ENV, DEFAULT_TIMEOUT))

    def log_out(self, name: str, snapshot: dict[str, Any]) -> str:
        return mcp_auth.log_out(name, snapshot)

    def served_read_only(self, snapshot: dict[str, Any]) -> set[str]:
        return read_only_tools(snapshot)

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        server = snapshot.get("server") or {}
        if server.get("transport") == "stdio":
            return stdio_problems(server, root)
        return url_problems(str(server.get("url", "")), "its MCP server") + credential_problems(server)

    def newer_pins(self, snapshot: dict[str, Any], root: Path, prereleases: bool = False) -> tuple[str, ...]:
        return pins.newer(snapshot, root, prereleases)

    def moved_pins(self, uri: str, snapshot: dict[str, Any], root: Path, prereleases: bool = False) -> str:
        return pins.moved(uri, snapshot, root, prereleases)
