"""The source kinds vendorgen ships, declared without importing their code.

Each class says what the rest of vendorgen needs to know (`vendorgen.sources.Source`);
`inspect`, `build` and `members` import the kind's module on first use, so declaring
(and `vendorgen --help`) costs no client library and none of the kinds' own code.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

from vendorgen.project.paths import GRADIO_FILE, LANGCHAIN_FILE, MCP_FILE, MCP_OFFERS_FILE, RUNTIME_FILE
from vendorgen.sources import AddOptions, Source

if TYPE_CHECKING:
    from vendorgen.model import ModuleSpec
    from vendorgen.publish.portable import Problem

# What every generated module may import, whatever its source.
_COMMON_IMPORTS = frozenset(
    {"__future__.annotations", "typing.Any", "typing.Literal", "typing.NotRequired", "typing.TypedDict"}
)
_TRUST_NOTE = "(needs --trust)"


class _Shipped(Source):
    """A kind whose code is the module `vendorgen.sources.<kind>`, imported on first use."""

    def _code(self) -> ModuleType:
        return importlib.import_module(f"vendorgen.sources.{self.kind}")

    def inspect(self, target: str, options: AddOptions) -> list[dict[str, Any]]:
        return self._code().inspect(target, options)  # type: ignore[no-any-return]

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        return self._code().build(snapshot)  # type: ignore[no-any-return]

    def members(self, target: str, options: AddOptions) -> list[str]:
        code = self._code()
        return code.members(target, options) if hasattr(code, "members") else super().members(target, options)

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        code = self._code()
        return code.bound_fields(target, snapshot) if hasattr(code, "bound_fields") else {}


class SpaceSource(_Shipped):
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
    allowed_imports = _COMMON_IMPORTS | {
        "smolagents.agent_types.AgentAudio",
        "smolagents.agent_types.AgentImage",
        "._vendored_gradio.SpaceTool",
        "._vendored_runtime.NOT_GIVEN",
        "._vendored_gradio.audio_result",
        "._vendored_gradio.image_result",
    }
    package_files = (RUNTIME_FILE, GRADIO_FILE)
    annotations = MappingProxyType(
        {"parameter_order": "list[str]", "file_paths": "dict[str, list[str]]", "parameter_defaults": "dict[str, Any]"}
    )
    requirements = ("smolagents", "gradio_client")

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        from vendorgen.publish.portable import url_problems

        return url_problems(str(snapshot.get("src", "")), "its Gradio app")
    def same_module(self, recorded: AddOptions, given: AddOptions) -> bool:
        api_name = given.api_name and endpoint_path(given.api_name)
        return super().same_module(recorded, replace(given, api_name=api_name))


def endpoint_path(api_name: str) -> str:
    """`--api-name convert` names the endpoint `/convert`."""
    return api_name if api_name.startswith("/") else f"/{api_name}"


class HubSource(_Shipped):
    """A smolagents tool.py from a Hub Space, vendored as it is: it carries code the user reviews."""

    kind = "hub"
    target = "hub:<owner/space>[@revision]"
    help_note = _TRUST_NOTE
    options = frozenset({"trust", "name", "class_name", "token"})
    help = "hub: VENDORGEN_HUB_TIMEOUT sets the time-out of each request to the Hub (30 s)."
    template = "hub.py.j2"
    # None: the module is the author's code, which the gate checks is unchanged, not against a list.


class CollectionSource(_Shipped):
    """A Hub collection: stands for the `hub:` source of each tool Space it lists."""

    kind = "collection"
    target = "collection:<owner/slug>"
    help_note = _TRUST_NOTE
    options = frozenset({"trust", "keep_going", "token"})
    help = "collection: each tool Space it lists is vendored as a hub: source."
    options_hint = "to name one Space's module or pick its class, vendor that Space with hub:owner/space"


class MCPSource(_Shipped):
    """MCP servers (streamable-http, legacy SSE, stdio): one module per server.

    The module constant `SERVER` says how to reach the server. What the runtime's MCPTool reads
    from a tool's constants: `mcp_name`; `result_key`, when the server wraps a plain value as
    {result_key: value} in structuredContent (FastMCP): the tool returns the value, typed
    `output_type`; `null_refused` (`model.null_refused_constant`). A resource template's read tool:
    `resource_template` (what the server listed: `uriTemplate`, whose variables are the arguments, `name`...);
    the one tool reading the static resources: `resources` ({uri: what the server listed}); a prompt's tool:
    `prompt` (what the server listed: `name`, `arguments`...). Each of those also has `mcp_name`, the request it makes
    ("resources/read URI-TEMPLATE", "resources/read", "prompts/get NAME"), which `serve` pins by.
    """

    kind = "mcp"
    target = 'mcp:<http(s)://host/mcp> | mcp:sse:<url> | "mcp:stdio:<command line>"'
    help_note = "(stdio needs --trust)"
    options = frozenset({"trust", "env", "tools", "prefix", "name", "resources", "resource_names", "prompts", "prompt_names"})
    help = """mcp: one module per server, one Tool class per MCP tool, sharing one session;
  stdio runs the command line (python means this interpreter) with --env
  names passed from the environment when it starts (their values are never
  written); VENDORGEN_MCP_TIMEOUT sets the inspection timeout (10 s)."""
    template = "mcp.py.j2"
    allowed_imports = _COMMON_IMPORTS | {
        "smolagents.Tool",
        "._vendored_mcp.MCPSession",
        "._vendored_mcp.MCPTool",
        "._vendored_mcp.MCPToolError",
        "._vendored_runtime.NOT_GIVEN",
        "._vendored_mcp.ToolList",
        "._vendored_mcp_offers.PromptTool",
        "._vendored_mcp_offers.ResourceTool",
    }
    package_files = (RUNTIME_FILE, MCP_FILE, MCP_OFFERS_FILE)
    annotations = MappingProxyType(
        {
            "SERVER": "dict[str, Any]",
            "resources": "dict[str, dict[str, Any]]",
            "resource_template": "dict[str, Any]",
            "prompt": "dict[str, Any]",
        }
    )
    requirements = ("smolagents", "mcp")
    served_name_attribute = "mcp_name"

    def served_definitions(self, snapshot: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
        from vendorgen.sources.mcp_offers import served_definitions

        tools = {raw["name"]: (raw.get("description"), raw.get("inputSchema")) for raw in snapshot["tools"]}
        return {**tools, **served_definitions(snapshot)}

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        from vendorgen.publish.portable import stdio_problems, url_problems

        server = snapshot.get("server") or {}
        if server.get("transport") == "stdio":
            return stdio_problems(server, root)
        return url_problems(str(server.get("url", "")), "its MCP server")

    def newer_pins(self, snapshot: dict[str, Any], prereleases: bool = False) -> tuple[str, ...]:
        from vendorgen.sources import pins  # a registry look-up: only for `check --remote`

        return pins.newer(snapshot, prereleases)

    def moved_pins(self, uri: str, snapshot: dict[str, Any], prereleases: bool = False) -> str:
        from vendorgen.sources import pins

        return pins.moved(uri, snapshot, prereleases)


class LangChainSource(_Shipped):
    """LangChain tools from the user's own code: the module imports that code at call time.

    What the runtime's LangChainTool reads from a tool's constants: `lc_name`; `is_async`
    (True only), when only `.ainvoke()` runs the tool; `null_refused` (`model.null_refused_constant`).
    """

    kind = "langchain"
    target = "langchain:<module>:<attr>"
    options = frozenset({"tools", "prefix", "name"})
    help = """langchain: imports <module> (from this directory first) and runs its code,
  as your own program would; <attr> is a BaseTool, a BaseTool class, a
  toolkit, or a function returning one of those or a list of tools."""
    template = "langchain.py.j2"
    allowed_imports = _COMMON_IMPORTS | {
        "smolagents.Tool",
        "._vendored_langchain.LangChainTool",
        "._vendored_runtime.NOT_GIVEN",
    }
    package_files = (RUNTIME_FILE, LANGCHAIN_FILE)
    requirements = ("smolagents", "langchain-core")

    def imports_allowed(self, module: ModuleSpec) -> frozenset[str]:
        """Also the user's object the module's tools come from."""
        constants = module.constants_dict()
        return self.allowed_imports | {f"{constants['SOURCE_MODULE']}.{constants['SOURCE_ATTR']}"}


BUILTIN: tuple[Source, ...] = (SpaceSource(), HubSource(), CollectionSource(), MCPSource(), LangChainSource())
