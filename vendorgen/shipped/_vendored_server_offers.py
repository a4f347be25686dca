"""The vendored resources, resource templates and prompts of this package, served as MCP (beside its tools).

`resources/list`, `resources/templates/list` and `prompts/list` answer from what was reviewed: the
constants of the vendored classes. `resources/read`, `resources/subscribe`/`unsubscribe`, `prompts/get`
and `completion/complete` are passed to the upstream server that listed the resource or prompt, and only
for a vendored URI (a static one, or one its vendored template makes), prompt or template: nothing else is
ever asked of an upstream, and no URI is opened here. Before the first such request on a connection, the
upstream's listing is compared with the definitions pinned by `vendorgen serve` (as a tool's are); a
resource or prompt whose definition changed is refused, naming the change, unless run with --allow-drift.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

# What an upstream's listings may take before its requests fail (as the server bounds its tools/list).
_LISTING_PAGES = 1_000
_LISTING_BYTES = 20_000_000


class OfferRefused(RuntimeError):
    """A request the server does not pass on: an unknown resource or prompt, bad arguments, drift."""


def _offers_runtime() -> Any:
    return sys.modules.get(f"{__package__}._vendored_mcp_offers")


def is_offer(tool: Any) -> bool:
    """A vendored resource, resource template or prompt (served as such, not as a tool)."""
    runtime = _offers_runtime()
    return runtime is not None and isinstance(tool, (runtime.ResourceTool, runtime.PromptTool))


class Offers:
    """The served resources, templates and prompts, and how a request reaches the upstream that listed one."""

    def __init__(
        self, tools: Sequence[Any], pinned: dict[str, dict[str, str]], allow_drift: bool, hashes: Callable[..., Any]
    ) -> None:
        runtime = _offers_runtime()
        resources = [tool for tool in tools if isinstance(tool, runtime.ResourceTool)] if runtime else []
        static = [(uri, tool) for tool in resources if not tool.resource_template for uri in tool.resources]
        templates = [(tool.resource_template["uriTemplate"], tool) for tool in resources if tool.resource_template]
        prompts = [(tool.prompt["name"], tool) for tool in tools if runtime and isinstance(tool, runtime.PromptTool)]
        # Served under their upstream names and URIs (what a client asks for), which two servers may share.
        for what, served in (("resource", static), ("resource template", templates), ("prompt", prompts)):
            modules: dict[str, list[str]] = {}
            for key, tool in served:
                modules.setdefault(key, []).append(type(tool).__module__.rpartition(".")[2])
            if clash := next(((key, found) for key, found in modules.items() if len(found) > 1), None):
                raise OfferRefused(
                    f"the modules {' and '.join(clash[1])} both have the {what} {clash[0]!r}: serve one (by module name)"
                )
        self.static, self.templates, self.prompts = dict(static), dict(templates), dict(prompts)
        self.pinned = pinned
        self.allow_drift = allow_drift
        self.hashes = hashes  # the server's definition_hashes: what `vendorgen serve` pinned is made so
        # id(session) -> (the client that was listed, the listing task: {mcp_name: definition hashes}).
        self.listed: dict[int, tuple[Any, Any]] = {}

    # -- listings, from the reviewed classes --------------------------------------------------------------

    def resources(self) -> list[dict[str, Any]]:
        return [{"uri": uri, **tool.resources[uri]} for uri, tool in self.static.items()]

    def resource_templates(self) -> list[dict[str, Any]]:
        return [tool.resource_template for tool in self.templates.values()]

    def prompt_listing(self) -> list[dict[str, Any]]:
        return [tool.prompt for tool in self.prompts.values()]

    # -- requests, passed on ------------------------------------------------------------------------------

    def owner(self, uri: str) -> Any:
        """The vendored tool that reads `uri`: a static resource's, else the first template that makes it."""
        runtime = _offers_runtime()
        found = self.static.get(uri) or next(
            (t for key, t in self.templates.items() if runtime.matches(key, uri)), None
        )
        if found is None:
            raise OfferRefused(f"unknown resource {uri!r}: this server serves only the resources vendored here")
        return found

    async def read(self, uri: str) -> Any:
        return await self._passed(self.owner(uri), "resources/read", {"uri": uri})

    async def subscription(self, method: str, uri: str) -> Any:
        """resources/subscribe or resources/unsubscribe, passed to the upstream (which must support it)."""
        return await self._passed(self.owner(uri), method, {"uri": uri})

    async def prompt(self, name: str, arguments: dict[str, Any] | None) -> Any:
        tool = self.prompts.get(name)
        if tool is None:
            raise OfferRefused(f"unknown prompt {name!r}; this server has: {', '.join(sorted(self.prompts)) or 'none'}")
        arguments = arguments or {}
        declared = {argument["name"]: argument for argument in tool.prompt.get("arguments", [])}
        if unknown := sorted(set(arguments) - set(declared)):
            raise OfferRefused(f"{name} takes no argument {', '.join(map(repr, unknown))}")
        if missing := [key for key, spec in declared.items() if spec.get("required") and key not in arguments]:
            raise OfferRefused(f"{name} needs the argument {', '.join(map(repr, missing))}")
        if not all(isinstance(value, str) for value in arguments.values()):
            raise OfferRefused(f"{name}: a prompt's arguments are strings")
        return await self._passed(tool, "prompts/get", {"name": name, "arguments": arguments})

    async def complete(self, ref: dict[str, Any], argument: dict[str, Any], context: Any) -> Any:
        """The upstream's completion for a vendored prompt or template; None (no values) for anything else."""
        if ref.get("type") == "ref/prompt":
            tool = self.prompts.get(ref.get("name", ""))
        else:
            tool = self.templates.get(ref.get("uri", ""))
        if tool is None:
            return None
        params = {"ref": ref, "argument": argument, **({"context": context} if context else {})}
        return await self._passed(tool, "completion/complete", params)

    async def _passed(self, tool: Any, method: str, params: dict[str, Any]) -> Any:
        if refusal := await self.refusal(tool):
            raise OfferRefused(refusal)
        return await tool.session.request_here(method, params, tool.timeout)

    # -- pins ---------------------------------------------------------------------------------------------

    async def refusal(self, tool: Any) -> str | None:
        """Why `tool`'s resource or prompt must not be served now, or None: its upstream definition changed."""
        if self.allow_drift:
            return None
        pinned = self.pinned.get(tool.name)
        if pinned is None:
            return f"{tool.name} has no pinned definition: run `vendorgen serve` to regenerate this server"
        client, _ = await tool.session.here()
        key = id(tool.session)
        listed = self.listed.get(key)
        if listed is None or listed[0] is not client:
            seconds = tool.timeout or tool.session.connect_timeout
            listed = (client, asyncio.ensure_future(asyncio.wait_for(self._definitions(client, tool), seconds)))
            self.listed[key] = listed
        try:
            now = (await asyncio.shield(listed[1])).get(tool.mcp_name)
        except Exception as exc:
            if self.listed.get(key) is listed:
                del self.listed[key]  # the next request lists again
            raise OfferRefused(f"refused {tool.name}: its pinned definition cannot be checked ({exc})") from None
        where = f"the MCP server {tool.session.describe()}"
        module = type(tool).__module__.rpartition(".")[2]
        advice = f"review it with `vendorgen diff {module}`, take it with `vendorgen update {module}`, or serve it anyway with --allow-drift"
        if now is None:
            return f"refused {tool.name}: {where} no longer lists {tool.mcp_name!r}; {advice}"
        changed = [part for part in ("description", "inputSchema") if pinned[part] != now[part]]
        if changed:
            what = "description" if changed == ["description"] else "definition"
            return (
                f"refused {tool.name}: {where} changed the {what} of {tool.mcp_name!r} since it was vendored; {advice}"
            )
        return None

    async def _definitions(self, client: Any, tool: Any) -> dict[str, dict[str, str]]:
        """What the upstream of `tool`'s session lists now, as the pins are made (vendorgen's mcp_offers)."""
        session = tool.session
        found: dict[str, dict[str, str]] = {}
        for static in {id(other): other for other in self.static.values() if other.session is session}.values():
            listed = {item["uri"]: item for item in await _all(client, "list_resources", "resources")}
            now = {uri: _definition(listed[uri], "uri") for uri in static.resources if uri in listed}
            if len(now) == len(static.resources):  # else: no longer listed
                found[static.mcp_name] = self.hashes(None, now)
        if any(other.session is session for other in self.templates.values()):
            for item in await _all(client, "list_resource_templates", "resourceTemplates"):
                definition = _definition(item, "uriTemplate")
                found[f"resources/read {item.get('uriTemplate')}"] = self.hashes(item.get("description"), definition)
        if any(other.session is session for other in self.prompts.values()):
            for item in await _all(client, "list_prompts", "prompts"):
                definition = _definition(item, "arguments")
                found[f"prompts/get {item.get('name')}"] = self.hashes(item.get("description"), definition)
        return found


def _definition(item: dict[str, Any], key: str) -> dict[str, Any]:
    """What is pinned of a listed resource, template or prompt beside its description (as vendorgen pins it)."""
    return {name: item.get(name) for name in ("name", key, "mimeType")}


async def _all(client: Any, method: str, field: str) -> list[dict[str, Any]]:
    """Every item of one of the upstream's listings (all pages, within bounds), as the JSON it sent."""
    import inspect

    field_of = sys.modules[f"{__package__}._vendored_mcp"]._field  # a protocol field, as mcp 1.x or 2.x spells it
    items: list[dict[str, Any]] = []
    cursor, size = None, 0
    for _page in range(_LISTING_PAGES):
        list_method = getattr(client, method)
        if not cursor:
            page = await list_method()
        elif "cursor" in inspect.signature(list_method).parameters:  # mcp 1.x
            page = await list_method(cursor=cursor)
        else:
            from mcp import types

            page = await list_method(params=types.PaginatedRequestParams(cursor=cursor))
        for item in field_of(page, field):
            raw = item.model_dump(mode="json", by_alias=True, exclude_none=True)
            size += len(json.dumps(raw, ensure_ascii=False).encode("utf-8", "surrogatepass"))
            if size > _LISTING_BYTES:
                raise OfferRefused(f"the upstream lists more than {_LISTING_BYTES:,} bytes of {field}")
            items.append(raw)
        cursor = field_of(page, "nextCursor")
        if not cursor:
            return items
    raise OfferRefused(f"the upstream lists its {field} in more than {_LISTING_PAGES:,} pages")


def answers(offers: Offers) -> dict[str, Any]:
    """How each method is answered, by the keyword of its handler in mcp 2.x's low-level Server: params -> result.

    Each hands on the upstream's result as it is; a failure is the request's error.
    """
    from mcp import types

    async def list_resources(params: Any) -> Any:
        return types.ListResourcesResult.model_validate({"resources": offers.resources()})

    async def list_templates(params: Any) -> Any:
        return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": offers.resource_templates()})

    async def read(params: Any) -> Any:
        return await offers.read(str(params.uri))

    async def subscribe(params: Any) -> Any:
        await offers.subscription("resources/subscribe", str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(params: Any) -> Any:
        await offers.subscription("resources/unsubscribe", str(params.uri))
        return types.EmptyResult()

    async def list_prompts(params: Any) -> Any:
        return types.ListPromptsResult.model_validate({"prompts": offers.prompt_listing()})

    async def get_prompt(params: Any) -> Any:
        return await offers.prompt(params.name, params.arguments)

    async def complete(params: Any) -> Any:
        asked = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        result = await offers.complete(asked["ref"], asked["argument"], asked.get("context"))
        return result if result is not None else types.CompleteResult.model_validate({"completion": {"values": []}})

    found: dict[str, Any] = {}
    if offers.static or offers.templates:
        found.update({"on_list_resources": list_resources, "on_list_resource_templates": list_templates,
                      "on_read_resource": read, "on_subscribe_resource": subscribe,
                      "on_unsubscribe_resource": unsubscribe})  # fmt: skip
    if offers.prompts:
        found.update({"on_list_prompts": list_prompts, "on_get_prompt": get_prompt})
    if offers.prompts or offers.templates:
        found["on_completion"] = complete
    return found


# The request each handler answers, in mcp 1.x's terms.
_REQUESTS = {"on_list_resources": "ListResourcesRequest", "on_list_resource_templates": "ListResourceTemplatesRequest",
             "on_read_resource": "ReadResourceRequest", "on_subscribe_resource": "SubscribeRequest",
             "on_unsubscribe_resource": "UnsubscribeRequest", "on_list_prompts": "ListPromptsRequest",
             "on_get_prompt": "GetPromptRequest", "on_completion": "CompleteRequest"}  # fmt: skip


def _protocol_error(refused: OfferRefused) -> Exception:
    """A refusal as the SDK's JSON-RPC error (invalid params), which a server answers without logging a traceback."""
    from mcp import types
    from mcp.shared import exceptions

    if hasattr(exceptions, "McpError"):  # mcp 1.x
        return exceptions.McpError(types.ErrorData(code=types.INVALID_PARAMS, message=str(refused)))
    return exceptions.MCPError(types.INVALID_PARAMS, str(refused))  # type: ignore[attr-defined, no-any-return]


def keywords(offers: Offers) -> dict[str, Any]:
    """The handlers for mcp 2.x's low-level Server, which takes them as keywords: (context, params) -> result."""

    def handler(answer: Any) -> Any:
        async def handle(context: Any, params: Any) -> Any:
            try:
                return await answer(params)
            except OfferRefused as refused:
                raise _protocol_error(refused) from None

        return handle

    return {keyword: handler(answer) for keyword, answer in answers(offers).items()}


def install(server: Any, offers: Offers) -> None:
    """The handlers on mcp 1.x's low-level `server`, which keeps them by request type: request -> ServerResult."""
    from mcp import types

    def handler(answer: Any) -> Any:
        async def handle(request: Any) -> Any:
            try:
                return types.ServerResult(await answer(request.params))
            except OfferRefused as refused:
                raise _protocol_error(refused) from None

        return handle

    found = answers(offers)
    server.request_handlers.update({getattr(types, _REQUESTS[key]): handler(answer) for key, answer in found.items()})
    if "on_subscribe_resource" in found:
        declared = server.get_capabilities

        def capabilities(*args: Any, **kwargs: Any) -> Any:
            """mcp 1.x declares no subscriptions whatever the handlers (2.x does); they are passed to the upstream."""
            capabilities = declared(*args, **kwargs)
            if capabilities.resources is not None:
                capabilities.resources.subscribe = True
            return capabilities

        server.get_capabilities = capabilities
