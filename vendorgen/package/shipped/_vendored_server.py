"""The vendored tools of this package as one MCP server: `python -m <package>._vendored_server`.

It serves what was reviewed: each tool under its vendored name, description and schemas, called through
its vendored class. Before the first call into an upstream MCP server on a connection, the server's listing
is compared with the definitions pinned below (sha256 of each tool's description and input schema as
vendored); a tool whose definition changed is refused, naming the change, unless run with --allow-drift.
Needs the mcp SDK 1.10+ (with uvicorn and starlette for streamable-http) and what the tools need.
How it meets its clients (stdio, streamable HTTP and its guard) is in `_vendored_transport.py` beside it.
"""

from __future__ import annotations

import argparse
import contextvars
import hashlib
import ipaddress
import json
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

# What a client sends for a file input (image and audio have no JSON Schema type: a string too).
_FILE_INPUT = "A data: URI, an http(s) URL, or the path of a file in a directory the server was given with --files."
# What the generated code says a file input takes, by kind (vendorgen's Space source ends its description so):
# a Python caller's options, not a client's of this server.
PYTHON_FILE_NOTES = {
    "image": "A local path, an http(s) URL or a PIL image.",
    "audio": "A local path or an http(s) URL.",
    "string": "A local path or an http(s) URL.",
}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
# The MCP annotations a vendored MCP tool class carries, by hint.
_HINTS = {"readOnlyHint": "read_only_hint", "destructiveHint": "destructive_hint", "idempotentHint": "idempotent_hint",
          "openWorldHint": "open_world_hint"}  # fmt: skip
# Calls of non-MCP tools running at once, each in a worker thread; more wait for one (anyio's default bound).
_WORKERS = 40


def _runtime() -> Any:
    """The runtime beside this file, on first use: vendorgen imports this file for definition_hashes alone."""
    from . import _vendored_runtime

    return _vendored_runtime


def _content() -> Any:
    """How a call's values cross between client and tool (`_vendored_content.py` beside this file), on first use:
    `serve --list` runs this module before that file is written."""
    from . import _vendored_content

    return _vendored_content


def _mcp_runtime() -> Any:
    """The MCP part of the runtime beside this file, once a served module imported it (None: no MCP tool here)."""
    return sys.modules.get(f"{__package__}._vendored_mcp")


def _is_mcp_tool(tool: Any) -> bool:
    return isinstance(tool, getattr(_mcp_runtime(), "MCPTool", ()))


def definition_hashes(description: Any, input_schema: Any, annotations: Any = None) -> dict[str, str]:
    """What is pinned of an upstream MCP tool: the sha256 of its description, its input schema and its
    annotations (what it says it may do: a tool served as read-only must stay so)."""
    return {"description": _sha256(description), "inputSchema": _sha256(input_schema), "annotations": _sha256(annotations)}


def _sha256(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def input_schema(inputs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A smolagents `inputs` dict as the JSON Schema of an MCP tool's arguments (null for a nullable one counts as
    left out); a file input as a string, with what serve takes for it."""
    properties = {key: _runtime()._json_schema(spec, media="string") for key, spec in inputs.items()}
    for key, spec in inputs.items():
        if description := _served_description(spec):
            properties[key]["description"] = description
    required = [key for key, spec in inputs.items() if not spec.get("nullable")]
    return {"type": "object", "properties": properties, "required": required}


def _served_description(spec: dict[str, Any]) -> str | None:
    """A file input's description as serve's clients read it, in place of what the generated code tells a Python
    caller it takes (a PIL image, any local path); None for other inputs."""
    description = str(spec.get("description", ""))
    note = next((note for note in PYTHON_FILE_NOTES.values() if description.endswith(note)), None)
    if note is None and not _content().is_media(spec):
        return None
    return f"{description.removesuffix(note or '').rstrip()} {_FILE_INPUT}".strip()


class ToolRefused(RuntimeError):
    """A call the server does not make: unknown tool, bad arguments, drifted upstream definition."""


class Pins:
    """The upstream MCP definitions as vendored, and what each upstream connection lists now."""

    def __init__(self, pinned: dict[str, dict[str, str]], allow_drift: bool) -> None:
        self.pinned = pinned
        self.allow_drift = allow_drift
        # id(session) -> (the client that was listed, the listing task: {mcp name: definition hashes}).
        # One task per connection: concurrent first calls wait for the same listing.
        self.listed: dict[int, tuple[Any, Any]] = {}

    async def refusal(self, tool: Any) -> str | None:
        """Why `tool` must not be called now, or None: its upstream definition changed since it was vendored."""
        import asyncio

        if self.allow_drift or not _is_mcp_tool(tool):
            return None
        pinned = self.pinned.get(tool.name)
        if pinned is None:
            return f"{tool.name} has no pinned definition: run `vendorgen serve` to regenerate this server"
        client, _ = await tool.session.here()
        key = id(tool.session)
        listed = self.listed.get(key)
        if listed is None or listed[0] is not client:
            # Part of the first call, so bound by its time-out (the connect time-out for calls without one).
            seconds = tool.timeout or tool.session.connect_timeout
            listed = (client, asyncio.ensure_future(_listing(client, tool.session.describe(), seconds)))
            self.listed[key] = listed
        try:
            now = (await asyncio.shield(listed[1])).get(tool.mcp_name)
        except Exception as exc:
            if self.listed.get(key) is listed:
                del self.listed[key]  # the next call lists again
            if isinstance(exc, ToolRefused):  # the listing was over a bound
                raise ToolRefused(f"refused {tool.name}: {exc}; its pinned definition cannot be checked") from None
            raise
        where = f"the MCP server {tool.session.describe()}"
        module = type(tool).__module__.rpartition(".")[2]
        advice = f"review it with `vendorgen diff {module}`, take it with `vendorgen update {module}`, or serve it anyway with --allow-drift"
        if now is None:
            return f"refused {tool.name}: {where} no longer lists {tool.mcp_name!r}; {advice}"
        changed = [part for part in ("description", "inputSchema", "annotations") if part in pinned and pinned[part] != now[part]]
        if changed:
            what = " and ".join("input schema" if part == "inputSchema" else part for part in changed)
            return (
                f"refused {tool.name}: {where} changed the {what} of {tool.mcp_name!r} since it was vendored; {advice}"
            )
        return None


# What an upstream's listing may take before its calls fail: vendorgen's own bounds when it vendors
# (VENDORGEN_MAX_TOOLS, VENDORGEN_MAX_LISTING_BYTES), so an upstream that pages or grows without end
# costs a bounded amount of memory.
_LISTING_PAGES = 1_000
_LISTING_BYTES = 20_000_000


async def _listing(client: Any, where: str, seconds: float) -> dict[str, dict[str, str]]:
    """Every tool the upstream session lists (all pages), by name, as definition hashes; within bounds."""
    import asyncio

    try:
        return await asyncio.wait_for(_pages(client, where), seconds)
    except TimeoutError:
        raise ToolRefused(f"the MCP server {where} did not list its tools within {seconds:g} s") from None


async def _pages(client: Any, where: str) -> dict[str, dict[str, str]]:
    listing = {}
    cursor = None
    size = 0
    for _page in range(_LISTING_PAGES):
        result = await (client.list_tools(cursor=cursor) if cursor else client.list_tools())
        for tool in result.tools:
            raw = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
            size += len(json.dumps(raw, ensure_ascii=False).encode("utf-8", "surrogatepass"))
            if size > _LISTING_BYTES:
                raise ToolRefused(f"the MCP server {where} lists more than {_LISTING_BYTES:,} bytes of tools")
            listing[raw["name"]] = definition_hashes(raw.get("description"), raw.get("inputSchema"), raw.get("annotations"))
        cursor = _mcp_runtime()._field(result, "nextCursor")
        if not cursor:
            return listing
    raise ToolRefused(f"the MCP server {where} lists its tools in more than {_LISTING_PAGES:,} pages")


class Toolset:
    """The served tools by name, and how a call reaches one: checked, run, converted.

    An MCP tool's call is awaited on the server's event loop (no thread between the client's
    request and the upstream server) and its answer passed on item by item. Any other tool runs
    in a worker thread, with its argument check and the conversion of its value (decoding and
    encoding images, reading files), so that a slow or large one holds up no other call.
    """

    def __init__(self, tools: Sequence[Any], pins: Pins, files: Sequence[str] = ()) -> None:
        import jsonschema  # installed with mcp

        self.tools = {tool.name: tool for tool in tools}
        self.schemas = {tool.name: input_schema(tool.inputs) for tool in tools}
        # One validator per tool, built once: checking the schema itself on every call costs milliseconds.
        self.validators = {
            name: jsonschema.validators.validator_for(schema)(schema) for name, schema in self.schemas.items()
        }
        self.pins = pins
        # A client is another trust domain: local files only inside --files; others come as data: URIs.
        self.file_roots = [os.path.realpath(path) for path in files]
        for tool in tools:
            if hasattr(tool, "file_roots"):  # Gradio tools: every file argument, however nested
                tool.file_roots = self.file_roots
        # A tool connects on its first call: once, not once per thread. One lock per tool, so that an
        # upstream slow to connect holds up only the calls that need it.
        self.setup_locks = {name: threading.Lock() for name in self.tools}
        # MCP tool classes whose forward() does more than return its call's value (edited after vendoring):
        # those run in a worker thread, like any other tool.
        self.uses_its_value: set[type] = set()
        # Made once and kept: a call hands its work to an idle thread. anyio.to_thread cost more per call
        # (a capacity limiter and two more turns of the loop; bench/README.md's serve section).
        self.workers = ThreadPoolExecutor(_WORKERS, thread_name_prefix="vendored-tool")

    def listing(self) -> list[dict[str, Any]]:
        listed = []
        for tool in self.tools.values():
            entry = {"name": tool.name, "description": tool.description, "inputSchema": self.schemas[tool.name]}
            if getattr(tool, "output_schema", None):
                entry["outputSchema"] = tool.output_schema
            hints = {hint: getattr(tool, attribute) for hint, attribute in _HINTS.items()
                     if isinstance(getattr(tool, attribute, None), bool)}  # fmt: skip
            if hints:  # as vendored (clients ask before calling a tool that is not read-only)
                entry["annotations"] = hints
            listed.append(entry)
        return listed

    async def call(self, name: str, arguments: dict[str, Any] | None) -> tuple[list[Any], Any]:
        """Run the tool; (content items, structured content or None). Raises on failure."""
        import asyncio

        try:
            if _is_mcp_tool(self.tools.get(name)):
                tool, checked = self._checked(name, arguments)
                refusal = await self.pins.refusal(tool)
                if refusal:
                    raise ToolRefused(refusal)
                request = self._request(tool, checked)
                if request is not None:
                    return _passed_on(tool, await request.answer())
            # In a copy of this context, as asyncio.to_thread does: what a tool sets ends with its call.
            in_a_copy = contextvars.copy_context().run
            return await asyncio.get_running_loop().run_in_executor(
                self.workers, in_a_copy, self._served, name, arguments
            )
        except ToolRefused:
            raise
        except Exception as exc:
            raise RuntimeError(f"{name} failed: {_runtime()._reason(exc)}") from None

    def _checked(self, name: str, arguments: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
        """The tool and its arguments as it takes them; refused if unknown, missing or of the wrong type."""
        tool = self.tools.get(name)
        if tool is None:
            raise ToolRefused(f"unknown tool {name!r}; this server has: {', '.join(sorted(self.tools))}")
        arguments = {
            key: value
            for key, value in (arguments or {}).items()
            if value is not None or key not in tool.inputs or not tool.inputs[key].get("nullable")
        }
        unknown = sorted(set(arguments) - set(tool.inputs))
        if unknown:
            raise ToolRefused(f"{name} takes no argument {', '.join(map(repr, unknown))}")
        missing = [key for key, spec in tool.inputs.items() if not spec.get("nullable") and key not in arguments]
        if missing:
            raise ToolRefused(f"{tool.name} needs the argument {', '.join(map(repr, missing))}")
        error = next(iter(self.validators[tool.name].iter_errors(arguments)), None)
        if error is not None:
            where = ".".join(str(part) for part in error.absolute_path) or "arguments"
            raise ToolRefused(f"{tool.name}: bad argument {where}: {error.message}")
        for key, spec in tool.inputs.items():
            if _content().is_media(spec) and isinstance(value := arguments.get(key), str):
                try:  # for every tool, the rule the Gradio tools hold any file argument to
                    arguments[key] = _content().file_argument(value, spec, self.file_roots)
                except (PermissionError, ValueError) as exc:
                    raise ToolRefused(f"{tool.name}: {exc}") from None
        return tool, arguments

    def _request(self, tool: Any, arguments: dict[str, Any]) -> MCPRequest | None:
        """The MCP tool's call as its forward() hands it back, unsent; None if forward() was edited to use the value."""
        if type(tool) in self.uses_its_value:
            return None
        hand_back = _mcp_runtime()._hand_back
        handing_back = hand_back.set(MCPRequest)  # forward() runs here and hands back its request, unsent
        try:
            request = tool(**arguments)
        except Exception:  # an edited forward() that used the value: it runs for real in _served
            request = None
        finally:
            hand_back.reset(handing_back)
        if isinstance(request, MCPRequest):
            return request
        self.uses_its_value.add(type(tool))
        return None

    def _served(self, name: str, arguments: dict[str, Any] | None) -> tuple[list[Any], Any]:
        """In a worker thread: check, set up and call the tool, and convert its value."""
        tool, arguments = self._checked(name, arguments)
        with self.setup_locks[tool.name]:
            if not tool.is_initialized:
                tool.setup()
        value = tool(**arguments)
        if getattr(tool, "output_schema", None) and isinstance(value, dict):
            return [_content().text_item(json.dumps(value, ensure_ascii=False, default=str))], value
        return _content().content(value, tool.output_type), None


def _passed_on(tool: Any, result: Any) -> tuple[list[Any], Any]:
    """An upstream MCP tool's answer as the client gets it: each content item as the upstream sent it (text,
    image, audio, resource link, embedded resource, with its URI and MIME type); structured content where
    the tool has an output schema. An error answer raises MCPToolError with the upstream's text."""
    if _mcp_runtime()._field(result, "isError") or getattr(tool, "output_schema", None):
        value = tool._value(result)
        return list(result.content), value if isinstance(value, dict) else None
    return list(result.content), None


class MCPRequest(NamedTuple):
    """An MCP tool's call that its forward() handed back unsent, to make on the server's event loop."""

    tool: Any
    arguments: dict[str, Any]

    async def answer(self) -> Any:
        """The upstream's CallToolResult as it sent it: every content item with its own type."""
        tool = self.tool
        return await tool.session.call_here(tool.mcp_name, self.arguments, tool.timeout)


def build_server(toolset: Toolset, instructions: str | None = None, offers: Any = None) -> Any:
    """The mcp SDK's low-level server over `toolset` (and `offers`, the vendored resources and prompts:
    _vendored_server_offers.py): a failure is an isError result, never a crash.
    `instructions`: what the served MCP modules' servers tell a model (their INSTRUCTIONS, as vendored)."""
    import inspect

    from pydantic import TypeAdapter

    with _runtime()._needs("mcp>=1.10"):
        from mcp import types
        from mcp.server.lowlevel import Server

    content_type: Any = (
        getattr(types, "ContentBlock", None) or types.TextContent | types.ImageContent | types.EmbeddedResource
    )
    adapter: Any = TypeAdapter(content_type)
    listing = [types.Tool.model_validate(entry) for entry in toolset.listing()]

    async def call(name: str, arguments: dict[str, Any] | None) -> tuple[list[Any], Any]:
        items, structured = await toolset.call(name, arguments)
        return [adapter.validate_python(item) for item in items], structured

    told: dict[str, Any] = {"instructions": instructions} if instructions and "instructions" in inspect.signature(Server).parameters else {}
    if hasattr(Server, "call_tool"):  # mcp 1.x: handlers by decorator; one that raises gives an isError result
        server = Server("vendored-tools", **told)

        @server.list_tools()  # type: ignore[misc, no-untyped-call]
        async def list_tools() -> list[Any]:
            return listing

        @server.call_tool(validate_input=False)  # type: ignore[misc]  # Toolset.call checks them, with null for optional
        async def call_tool(name: str, arguments: dict[str, Any] | None) -> Any:
            content, structured = await call(name, arguments)
            return (content, structured) if structured is not None else content

        if offers is not None:
            from ._vendored_server_offers import install

            install(server, offers)
        return server

    # mcp 2.x: handlers given to the constructor, returning whole results.
    async def on_list_tools(context: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listing)

    async def on_call_tool(context: Any, params: Any) -> Any:
        try:
            content, structured = await call(params.name, params.arguments)
        except Exception as exc:  # noqa: BLE001 - the client gets it as the tool's error
            return types.CallToolResult.model_validate({"content": [_content().text_item(str(exc))], "isError": True})
        return types.CallToolResult.model_validate({"content": content, "structuredContent": structured})

    if offers is not None:
        from ._vendored_server_offers import keywords

        told.update(keywords(offers))
    make: Any = Server  # typed as the mcp installed, which may be 1.x
    return make("vendored-tools", on_list_tools=on_list_tools, on_call_tool=on_call_tool, **told)


def _instructions(chosen: Sequence[Any]) -> str | None:
    """The instructions of the served tools' upstream MCP servers, as vendored (a module's INSTRUCTIONS), by module."""
    said = {}
    for cls in chosen:
        text = getattr(sys.modules.get(cls.__module__), "INSTRUCTIONS", None)
        if isinstance(text, str):
            said[cls.__module__.rpartition(".")[2]] = text
    return "\n\n".join(f"{module}: {text}" for module, text in said.items()) or None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(
    tools: Sequence[Any], pinned: dict[str, dict[str, str]], argv: Sequence[str] | None = None, read_only: Sequence[str] = ()
) -> None:
    """Parse the command line, pick the tools, serve them; a bad command line is one `error:` line.

    `read_only`: the tools whose pinned MCP annotations say read-only, all `--read-only` serves."""
    parser = argparse.ArgumentParser(prog="vendorgen serve", description="Serve the vendored tools over MCP.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="serve only these modules or tools")
    parser.add_argument("--list", action="store_true", help="list the tools that would be served, and exit")
    parser.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--allow-remote", action="store_true", help="bind an address other than loopback")
    parser.add_argument("--token-env", metavar="NAME", help="require the token $NAME (default: one made now)")
    parser.add_argument("--no-token", action="store_true", help="require no token: your own auth is in front")
    parser.add_argument("--allow-drift", action="store_true", help="serve MCP tools whose upstream changed")
    parser.add_argument("--files", action="append", default=[], metavar="DIR", help="let clients name files in DIR")
    parser.add_argument("--read-only", action="store_true", help="serve only tools pinned as read-only")
    args = parser.parse_args(argv)

    def fail(message: str) -> None:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)

    chosen = [cls for cls in tools if not args.names or {cls.name, cls.__module__.rpartition(".")[2]} & set(args.names)]
    known = {cls.name for cls in tools} | {cls.__module__.rpartition(".")[2] for cls in tools}
    if unknown := [name for name in args.names if name not in known]:
        fail(f"nothing vendored is named {', '.join(unknown)}; `vendorgen serve --list` shows what is")
    if args.read_only:  # by the annotations pinned when vendored; drift of them is refused like a description's
        chosen = [cls for cls in chosen if cls.name in set(read_only)]
        if not chosen:
            fail("--read-only: none of these tools is annotated read-only (readOnlyHint) where it was vendored")
    modules: dict[str, list[str]] = {}
    for cls in chosen:
        modules.setdefault(cls.name, []).append(cls.__module__.rpartition(".")[2])
    if clashes := {name: found for name, found in modules.items() if len(found) > 1}:
        name, found = sorted(clashes.items())[0]
        fail(
            f"the modules {' and '.join(found)} both have a tool named {name}: serve one (by module name) or re-add one with --prefix"
        )
    if args.list:  # columns as wide as their longest entry: a long name does not push the rest out of line
        rows = [(cls.name, cls.__module__.rpartition(".")[2], " ".join(str(cls.description).split())) for cls in chosen]
        widths = [max((len(row[column]) for row in rows), default=0) for column in (0, 1)]
        for name, module, summary in rows:
            print(f"{name:<{widths[0]}}  {module:<{widths[1]}}  {summary[:70]}")
        return
    if not _is_loopback(args.host) and not args.allow_remote:
        fail(f"--host {args.host} is not a loopback address: add --allow-remote to serve other machines")
    from ._vendored_transport import run_http, run_stdio, token_of

    token, made = token_of(args, fail)
    try:
        instances = [cls() for cls in chosen]
    except Exception as exc:
        fail(f"cannot create the tools: {_runtime()._reason(exc)}")
    if missing := [path for path in args.files if not os.path.isdir(path)]:
        fail(f"--files {missing[0]}: not a directory")
    from ._vendored_server_offers import OfferRefused, Offers, is_offer  # served as resources and prompts, not tools

    offers = [tool for tool in instances if is_offer(tool)]
    tools = [tool for tool in instances if not is_offer(tool)]
    try:
        served = Offers(offers, pinned, args.allow_drift, definition_hashes) if offers else None
    except OfferRefused as exc:
        fail(str(exc))
    toolset = Toolset(tools, Pins(pinned, args.allow_drift), args.files)
    server = build_server(toolset, _instructions(chosen), served)
    if args.transport == "stdio":
        run_stdio(server)
        return
    hosts = set(_LOOPBACK_NAMES) | ({args.host} if args.allow_remote else set())
    try:
        run_http(server, args.host, args.port, hosts, token, shown=made)
    except OSError as exc:
        fail(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
