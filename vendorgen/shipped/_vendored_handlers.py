"""The request handlers of the vendored MCP server (`_vendored_server.py` beside this file), one group per
capability, and what a call carries besides its answer: progress, log messages, elicitation, sampling.

`build_server` registers each capability's handlers on the mcp SDK's low-level server: tools (list, call)
and logging (setLevel). A capability added later (resources, prompts, completion) registers its own
handlers there the same way, beside these.

An upstream MCP server's progress notifications reach the client that called (the SDK gives each call of
the shared upstream connection its own progress token). Log messages, elicitation and sampling requests
carry no such token: an upstream connection shared by several clients could not tell whose call they
belong to. So a client that asks for them, by `logging/setLevel` or by declaring elicitation or sampling,
gets upstream connections of its own for its session, declaring what it declared; the others share one.
Shipped with the server and owned with it by the lock; needs the mcp SDK, not vendorgen.
"""

from __future__ import annotations

import contextvars
from typing import Any

# What a client that set no level gets of its own connections' log messages: everything, as from the upstream.
_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class ClientScope:
    """What serve keeps of one client session: its log level, its calls in flight, its own upstream connections."""

    def __init__(self) -> None:
        self.session: Any = None  # the SDK's ServerSession, known from the first request
        self.level: str | None = None
        self.in_flight: list[Any] = []  # request ids of its calls, oldest first
        self.connections: dict[int, Any] = {}  # id(MCPSession) -> future of (client, stop)

    def wants_its_own(self) -> bool:
        """Whether its calls need upstream connections of their own (see the module's docstring)."""
        capabilities = _client_capabilities(self.session)
        return self.level is not None or (
            capabilities is not None and (capabilities.elicitation is not None or capabilities.sampling is not None)
        )

    async def client(self, mcp_session: Any) -> Any:
        """This client's own connection to the upstream of `mcp_session`, opened now on its first call."""
        import asyncio

        opening = self.connections.get(id(mcp_session))
        if opening is None:
            opening = asyncio.ensure_future(self._open(mcp_session))
            self.connections[id(mcp_session)] = opening
        try:
            client, _stop = await asyncio.shield(opening)
        except Exception:
            if self.connections.get(id(mcp_session)) is opening:
                del self.connections[id(mcp_session)]
            raise
        return client

    async def _open(self, mcp_session: Any) -> tuple[Any, Any]:
        client, stop = await mcp_session.connect_here(self.callbacks())
        if self.level is not None:  # the level this client set, as it set it on serve
            await _set_level(client, self.level)
        return client, stop

    def _open_clients(self) -> list[Any]:
        return [
            opening.result()[0]
            for opening in self.connections.values()
            if opening.done() and not opening.cancelled() and opening.exception() is None
        ]

    async def set_level(self, level: str) -> None:
        self.level = level
        for client in self._open_clients():
            await _set_level(client, level)

    def related(self) -> Any:
        """The call an upstream's message belongs to: this client's latest call in flight (None: none)."""
        return self.in_flight[-1] if self.in_flight else None

    def callbacks(self) -> dict[str, Any]:
        """What the upstream connection answers with, each passed on to this client: the SDK ClientSession's
        callbacks, and so its capabilities (elicitation and sampling only where this client declared them)."""
        capabilities = _client_capabilities(self.session)
        found: dict[str, Any] = {"logging_callback": self.log}
        if capabilities is not None and capabilities.elicitation is not None:
            found["elicitation_callback"] = self.elicit
        if capabilities is not None and capabilities.sampling is not None:
            found["sampling_callback"] = self.sample
            found["sampling_capabilities"] = capabilities.sampling
        if "sampling_capabilities" in found and "sampling_capabilities" not in _client_session_parameters():
            del found["sampling_capabilities"]  # an older mcp declares sampling without its details
        return found

    async def log(self, params: Any) -> None:
        if self.level is not None and _LEVELS.index(params.level) < _LEVELS.index(self.level):
            return
        await self.session.send_log_message(params.level, params.data, params.logger, self.related())

    async def elicit(self, context: Any, params: Any) -> Any:
        from mcp import types

        modes = _client_capabilities(self.session).elicitation
        mode = getattr(params, "mode", "form") or "form"
        declared = {name for name in ("form", "url") if getattr(modes, name, None) is not None} or {"form"}
        if mode not in declared:  # a client that declared {} takes forms only, as the spec says
            return types.ErrorData(code=types.INVALID_PARAMS, message=f"the client does not take {mode} elicitation")
        return await self._ask(types.ElicitRequest(params=params), types.ElicitResult)

    async def sample(self, context: Any, params: Any) -> Any:
        from mcp import types

        result = getattr(types, "CreateMessageResultWithTools", None) if params.tools else None
        return await self._ask(types.CreateMessageRequest(params=params), result or types.CreateMessageResult)

    async def _ask(self, request: Any, result_type: Any) -> Any:
        """The client's answer to an upstream's request, or its error as the upstream gets it."""
        from mcp import types
        from mcp.shared.exceptions import McpError
        from mcp.shared.message import ServerMessageMetadata

        metadata = ServerMessageMetadata(related_request_id=self.related())
        try:
            return await self.session.send_request(types.ServerRequest(request), result_type, metadata=metadata)
        except McpError as exc:
            return exc.error

    async def close(self) -> None:
        for opening in self.connections.values():
            if opening.done() and not opening.cancelled() and opening.exception() is None:
                opening.result()[1].set()
            else:
                opening.cancel()
        self.connections.clear()


async def _set_level(client: Any, level: str) -> None:
    """logging/setLevel upstream; an upstream without logging (Method not found) keeps its own: serve filters."""
    from ._vendored_mcp_calls import _mcp_sdk

    try:
        await client.set_logging_level(level)
    except _mcp_sdk().error_type:
        pass


def _client_session_parameters() -> Any:
    import inspect

    from mcp import ClientSession

    return inspect.signature(ClientSession.__init__).parameters


def _client_capabilities(session: Any) -> Any:
    params = getattr(session, "client_params", None)
    return params.capabilities if params is not None else None


_scope: contextvars.ContextVar[ClientScope | None] = contextvars.ContextVar("_scope", default=None)


class CallContext:
    """What Toolset.call needs of the client's request: where progress goes, which upstream connection to use."""

    def __init__(self, scope: ClientScope | None, request: Any) -> None:
        self.scope = scope
        self.request = request  # the SDK's RequestContext

    async def client(self, mcp_session: Any) -> Any:
        """The upstream connection of this call: the client's own, or None for the shared one."""
        if self.scope is None or not self.scope.wants_its_own():
            return None
        return await self.scope.client(mcp_session)

    def progress(self) -> Any:
        """The callback that passes the upstream's progress on to the client, if the client asked for progress."""
        meta = getattr(self.request, "meta", None)
        token = getattr(meta, "progressToken", None) if meta is not None else None
        if token is None:
            return None
        session, related = self.request.session, self.request.request_id

        async def progress(progress: float, total: float | None, message: str | None) -> None:
            await session.send_progress_notification(token, progress, total, message, related_request_id=related)

        return progress


def build_server(toolset: Any, instructions: str | None = None, offers: Any = None) -> Any:
    """The mcp SDK's low-level server over `toolset` (and `offers`, the vendored resources and prompts:
    _vendored_server_offers.py): a failure is an isError result, never a crash.
    `instructions`: what the served MCP modules' servers tell a model (their INSTRUCTIONS, as vendored)."""
    import inspect

    from pydantic import TypeAdapter

    from ._vendored_runtime import _needs

    with _needs("mcp>=1.10"):
        from mcp import types
        from mcp.server.lowlevel import Server

    content_type: Any = (
        getattr(types, "ContentBlock", None) or types.TextContent | types.ImageContent | types.EmbeddedResource
    )
    adapter: Any = TypeAdapter(content_type)
    listing = [types.Tool.model_validate(entry) for entry in toolset.listing()]

    def result(answer: Any) -> Any:
        """A CallToolResult: an upstream MCP tool's as it sent it, or one made of a tool's value."""
        if isinstance(answer, types.CallToolResult):
            return answer
        items, structured = answer
        content = [adapter.validate_python(item) for item in items]
        return types.CallToolResult.model_validate({"content": content, "structuredContent": structured})

    def failed(exc: Exception) -> Any:
        return types.CallToolResult.model_validate({"content": [{"type": "text", "text": str(exc)}], "isError": True})

    told: dict[str, Any] = (
        {"instructions": instructions}
        if instructions and "instructions" in inspect.signature(Server).parameters
        else {}
    )
    if not hasattr(Server, "call_tool"):  # mcp 2.x: handlers given to the constructor, returning whole results
        if offers is not None:
            from ._vendored_server_offers import keywords

            told.update(keywords(offers))
        return _server_of_mcp2(Server, types, listing, toolset, result, failed, told)

    server = Server("vendored-tools", **told)
    scopes: dict[int, ClientScope] = {}

    def scope_of(context: Any) -> ClientScope:
        scope = _scope.get()
        if scope is None:  # a session not started by run() below (none in practice): one scope per session
            scope = scopes.setdefault(id(context.session), ClientScope())
        scope.session = context.session
        return scope

    # -- tools
    async def list_tools(request: Any) -> Any:
        return types.ServerResult(types.ListToolsResult(tools=listing))

    async def call_tool(request: Any) -> Any:
        context = server.request_context
        scope = scope_of(context)
        scope.in_flight.append(context.request_id)
        try:
            answer = await toolset.call(request.params.name, request.params.arguments, CallContext(scope, context))
            return types.ServerResult(result(answer))
        except Exception as exc:  # noqa: BLE001 - the client gets it as the tool's error
            return types.ServerResult(failed(exc))
        finally:
            scope.in_flight.remove(context.request_id)

    server.request_handlers[types.ListToolsRequest] = list_tools
    server.request_handlers[types.CallToolRequest] = call_tool

    # -- logging: the level of a client's log messages, from its own upstream connections
    async def set_level(request: Any) -> Any:
        await scope_of(server.request_context).set_level(request.params.level)
        return types.ServerResult(types.EmptyResult())

    server.request_handlers[types.SetLevelRequest] = set_level

    # -- resources, resource templates, prompts and completion: passed to the upstream that listed each
    if offers is not None:
        from ._vendored_server_offers import install

        install(server, offers)

    # Each client session gets its scope; its own upstream connections close with it.
    run = server.run

    async def run_with_scope(*args: Any, **kwargs: Any) -> None:
        scope = ClientScope()
        token = _scope.set(scope)
        try:
            await run(*args, **kwargs)
        finally:
            _scope.reset(token)
            await scope.close()

    server.run = run_with_scope  # type: ignore[method-assign]
    return server


def _server_of_mcp2(
    server_class: Any, types: Any, listing: list[Any], toolset: Any, result: Any, failed: Any, told: dict[str, Any]
) -> Any:
    """The server on mcp 2.x: tools only; progress, logs, elicitation and sampling are not passed on there yet."""

    async def on_list_tools(context: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=listing)

    async def on_call_tool(context: Any, params: Any) -> Any:
        try:
            return result(await toolset.call(params.name, params.arguments, CallContext(None, None)))
        except Exception as exc:  # noqa: BLE001 - the client gets it as the tool's error
            return failed(exc)

    return server_class("vendored-tools", on_list_tools=on_list_tools, on_call_tool=on_call_tool, **told)
