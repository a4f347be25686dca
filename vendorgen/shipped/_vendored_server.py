"""The vendored tools of this package as one MCP server: `python -m <package>._vendored_server`.

It serves what was reviewed: each tool under its vendored name, description and schemas, called through
its vendored class. Before the first call into an upstream MCP server on a connection, the server's listing
is compared with the definitions pinned below (sha256 of each tool's description, schemas and annotations as
vendored; `_vendored_pins.py`); a tool whose definition changed is refused, naming the change, unless run
with --allow-drift. Needs the mcp SDK 1.10+ (with uvicorn and starlette for streamable-http) and what the
tools need. Beside it: how it meets its clients (stdio, streamable HTTP and its guard) in
`_vendored_transport.py`, its request handlers in `_vendored_handlers.py`, values as MCP content in
`_vendored_content.py`.
"""

from __future__ import annotations

import argparse
import contextvars
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


def _pins() -> Any:
    """The pins and the drift check beside this file, on first use: `serve --list` runs this file alone."""
    from . import _vendored_pins

    return _vendored_pins


def _refused(message: str) -> Exception:
    """A call the server does not make (ToolRefused): unknown tool, bad arguments, drifted upstream definition."""
    return _pins().ToolRefused(message)  # type: ignore[no-any-return]


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


class Toolset:
    """The served tools by name, and how a call reaches one: checked, run, converted.

    An MCP tool's call is awaited on the server's event loop (no thread between the client's
    request and the upstream server) and its answer passed on item by item. Any other tool runs
    in a worker thread, with its argument check and the conversion of its value (decoding and
    encoding images, reading files), so that a slow or large one holds up no other call.
    """

    def __init__(
        self, tools: Sequence[Any], pins: Any, files: Sequence[str] = (), listed: dict[str, Any] | None = None
    ) -> None:
        import jsonschema  # installed with mcp

        self.tools = {tool.name: tool for tool in tools}
        # An upstream MCP tool's definition as listed (`listed`, from its snapshot): its schemas are served as they
        # are, and its arguments checked against them and passed on as sent. Others' from smolagents' inputs.
        self.listed = listed or {}
        self.schemas = {
            tool.name: self.listed[tool.name]["inputSchema"] if tool.name in self.listed else input_schema(tool.inputs)
            for tool in tools
        }
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
            output_schema = self.listed[tool.name].get("outputSchema") if tool.name in self.listed else None
            if output_schema is not None or getattr(tool, "output_schema", None):
                entry["outputSchema"] = output_schema if tool.name in self.listed else tool.output_schema
            hints = {hint: getattr(tool, attribute) for hint, attribute in _HINTS.items()
                     if isinstance(getattr(tool, attribute, None), bool)}  # fmt: skip
            if hints:  # as vendored (clients ask before calling a tool that is not read-only)
                entry["annotations"] = hints
            listed.append(entry)
        return listed

    async def call(self, name: str, arguments: dict[str, Any] | None, context: Any = None) -> Any:
        """Run the tool: an upstream MCP tool's CallToolResult as it sent it, or (content items, structured content
        or None). Raises on failure. `context` (_vendored_handlers.CallContext): the client's progress token and
        the upstream connection its calls take."""
        import asyncio

        try:
            if name in self.pins.pinned and not _is_mcp_tool(self.tools[name]):  # a pin is never ignored
                refusal = await self.pins.refusal(self.tools[name])
                if refusal:
                    raise _refused(refusal)
            if _is_mcp_tool(self.tools.get(name)):
                tool, checked = self._checked(name, arguments)
                refusal = await self.pins.refusal(tool)
                if refusal:
                    raise _refused(refusal)
                request = self._request(tool, checked)
                if request is not None and name in self.listed:  # as sent: the nulls and what forward() ignores too
                    sent = {
                        **request.arguments,
                        **{key: value for key, value in (arguments or {}).items() if key not in request.arguments},
                    }
                    request = MCPRequest(tool, sent)
                if request is not None:
                    progress = context.progress() if context is not None else None
                    client = await context.client(tool.session) if context is not None else None
                    answer = await tool.session.call_here(
                        tool.mcp_name, request.arguments, tool.timeout, progress, client
                    )
                    return answer if name in self.listed else _content().passed_on(tool, answer)
            # In a copy of this context, as asyncio.to_thread does: what a tool sets ends with its call.
            in_a_copy = contextvars.copy_context().run
            return await asyncio.get_running_loop().run_in_executor(
                self.workers, in_a_copy, self._served, name, arguments
            )
        except _pins().ToolRefused:
            raise
        except Exception as exc:
            raise RuntimeError(f"{name} failed: {_runtime()._reason(exc)}") from None

    def _checked(self, name: str, arguments: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
        """The tool and its arguments as it takes them; refused if unknown, missing or of the wrong type."""
        tool = self.tools.get(name)
        if tool is None:
            raise _refused(f"unknown tool {name!r}; this server has: {', '.join(sorted(self.tools))}")
        if name in self.listed:  # checked against the schema the client was given; the upstream takes what it takes
            error = next(iter(self.validators[name].iter_errors(arguments or {})), None)
            if error is not None:
                where = ".".join(str(part) for part in error.absolute_path) or "arguments"
                raise _refused(f"{tool.name}: bad argument {where}: {error.message}")
            return tool, {key: value for key, value in (arguments or {}).items() if key in tool.inputs}
        arguments = {
            key: value
            for key, value in (arguments or {}).items()
            if value is not None or key not in tool.inputs or not tool.inputs[key].get("nullable")
        }
        unknown = sorted(set(arguments) - set(tool.inputs))
        if unknown:
            raise _refused(f"{name} takes no argument {', '.join(map(repr, unknown))}")
        missing = [key for key, spec in tool.inputs.items() if not spec.get("nullable") and key not in arguments]
        if missing:
            raise _refused(f"{tool.name} needs the argument {', '.join(map(repr, missing))}")
        error = next(iter(self.validators[tool.name].iter_errors(arguments)), None)
        if error is not None:
            where = ".".join(str(part) for part in error.absolute_path) or "arguments"
            raise _refused(f"{tool.name}: bad argument {where}: {error.message}")
        for key, spec in tool.inputs.items():
            if _content().is_media(spec) and isinstance(value := arguments.get(key), str):
                try:  # for every tool, the rule the Gradio tools hold any file argument to
                    arguments[key] = _content().file_argument(value, spec, self.file_roots)
                except (PermissionError, ValueError) as exc:
                    raise _refused(f"{tool.name}: {exc}") from None
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
        if name in self.listed and "outputSchema" in self.listed[name] and getattr(tool, "result_key", None):
            # Served with its upstream's output schema, which wraps a plain value (an edited forward()'s too).
            return _content().content(value, tool.output_type), {tool.result_key: value}
        if (getattr(tool, "output_schema", None) or "outputSchema" in self.listed.get(name, {})) and isinstance(
            value, dict
        ):
            return [_content().text_item(json.dumps(value, ensure_ascii=False, default=str))], value
        return _content().content(value, tool.output_type), None


class MCPRequest(NamedTuple):
    """An MCP tool's call that its forward() handed back unsent, to make on the server's event loop."""

    tool: Any
    arguments: dict[str, Any]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listed_definitions(
    tools: Sequence[Any], pinned: dict[str, dict[str, str]], snapshots: dict[str, str]
) -> dict[str, Any]:
    """Each pinned MCP tool's definition as its upstream listed it, from the committed snapshot of its module,
    by served name; one whose snapshot is not here, or does not match its pins, is left out (with a warning):
    its schemas are then derived from its inputs."""
    root = _runtime()._project_root()
    found: dict[str, Any] = {}
    for module, path in snapshots.items():
        file = (root / path).resolve()
        try:
            if not file.is_relative_to(root.resolve()):
                raise ValueError("outside the project")
            snapshot = json.loads(file.read_text(encoding="utf-8"))
            by_name = {raw["name"]: raw for raw in snapshot["tools"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"warning: {path}: {exc}; the schemas of {module} are derived from its inputs", file=sys.stderr)
            continue
        for tool in tools:
            raw = by_name.get(getattr(tool, "mcp_name", None)) if tool.__module__.rpartition(".")[2] == module else None
            if raw is None or tool.name not in pinned:
                continue
            hashes = _pins()._listed_hashes(raw)
            if any(hashes[part] != value for part, value in pinned[tool.name].items()):
                print(f"warning: {path} does not match the pins of {tool.name}: run `vendorgen serve`", file=sys.stderr)
                continue
            found[tool.name] = raw
    return found


def _instructions(chosen: Sequence[Any]) -> str | None:
    """The instructions of the served tools' upstream MCP servers, as vendored (a module's INSTRUCTIONS), by module."""
    said = {}
    for cls in chosen:
        text = getattr(sys.modules.get(cls.__module__), "INSTRUCTIONS", None)
        if isinstance(text, str):
            said[cls.__module__.rpartition(".")[2]] = text
    return "\n\n".join(f"{module}: {text}" for module, text in said.items()) or None




def main(
    tools: Sequence[Any],
    pinned: dict[str, dict[str, str]],
    argv: Sequence[str] | None = None,
    read_only: Sequence[str] = (),
    snapshots: dict[str, str] | None = None,
) -> None:
    """Parse the command line, pick the tools, serve them; a bad command line is one `error:` line.

    `read_only`: the tools whose pinned MCP annotations say read-only, all `--read-only` serves; `snapshots`: the
    committed snapshot of each MCP module, whose schemas are served as listed."""
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
    parser.add_argument(
        "--stateless", action="store_true", help="streamable-http: no session between requests (for replicas)"
    )
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
    from ._vendored_handlers import build_server
    from ._vendored_server_offers import OfferRefused, Offers, is_offer  # served as resources and prompts, not tools

    offers = [tool for tool in instances if is_offer(tool)]
    served = [tool for tool in instances if not is_offer(tool)]
    try:
        offered = Offers(offers, pinned, args.allow_drift, _pins().definition_hashes) if offers else None
    except OfferRefused as exc:
        fail(str(exc))
    listed = listed_definitions(chosen, pinned, snapshots or {})
    toolset = Toolset(served, _pins().Pins(pinned, args.allow_drift), args.files, listed)
    server = build_server(toolset, _instructions(chosen), offered)
    if args.transport == "stdio":
        run_stdio(server)
        return
    hosts = set(_LOOPBACK_NAMES) | ({args.host} if args.allow_remote else set())
    try:
        run_http(server, args.host, args.port, hosts, token, args.stateless, shown=made)
    except OSError as exc:
        fail(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
