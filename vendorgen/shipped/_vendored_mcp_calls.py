# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""How a vendored MCP tool's call goes over the mcp SDK (1.x or 2.x), and what its server may send the call
besides the answer: progress and log messages, requests for the user's input (elicitation, form and URL
mode) and for a completion of the client's model (sampling).

Progress and log messages go to Python `logging`, to the logger of the tool's module (`tools.<module>`):
log messages at their level, progress at DEBUG; and to the callbacks a user sets with `set_handlers`.
An elicitation goes to the user's handler; without one it is declined, and the decline logged as a
warning, so the server answers the model that the user gave nothing. A sampling request goes to the
user's handler; without one the session does not declare sampling, so the server does not ask.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ._vendored_runtime import _needs

_SDK = "mcp>=1.10"  # as pip spells it
# MCP's log levels as Python's.
_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "notice": logging.INFO + 5, "warning": logging.WARNING,
           "error": logging.ERROR, "critical": logging.CRITICAL, "alert": logging.CRITICAL + 5,
           "emergency": logging.CRITICAL + 9}  # fmt: skip


class CallHandlers:
    """What a module's session does with what its server sends besides answers (see the module's docstring).

    `progress(progress, total, message)`, `log(level, data, logger)`: called as they come, with MCP's values.
    `elicitation(params)`: the server's ElicitRequestParams (`message`; `requestedSchema` in form mode, `url`
    in URL mode); returns {"action": "accept", "content": {...}}, {"action": "decline"} or {"action": "cancel"}
    (or an ElicitResult). A form's fields the answer leaves out take the schema's defaults (SEP-1034).
    `sampling(params)`: the server's CreateMessageRequestParams; returns a CreateMessageResult or its dict.
    The handlers run in a worker thread, so one may wait for a person.
    """

    def __init__(self) -> None:
        self.logger = logging.getLogger(__name__)
        self.progress: Callable[[float, float | None, str | None], Any] | None = None
        self.log: Callable[[str, Any, str | None], Any] | None = None
        self.elicitation: Callable[[Any], Any] | None = None
        self.sampling: Callable[[Any], Any] | None = None

    def callbacks(self) -> dict[str, Any]:
        """The mcp ClientSession's callbacks: what the session declares and answers."""
        found: dict[str, Any] = {"logging_callback": self.on_log, "elicitation_callback": self.on_elicitation}
        if self.sampling is not None:
            found["sampling_callback"] = self.on_sampling
        return found

    def on_progress(self, name: str) -> Callable[[float, float | None, str | None], Any]:
        async def progress(progress: float, total: float | None, message: str | None) -> None:
            self.logger.debug("%s: progress %s of %s%s", name, progress, total, f": {message}" if message else "")
            if self.progress is not None:
                await asyncio.to_thread(self.progress, progress, total, message)

        return progress

    async def on_log(self, params: Any) -> None:
        self.logger.log(_LEVELS.get(params.level, logging.INFO), "%s", params.data)
        if self.log is not None:
            await asyncio.to_thread(self.log, params.level, params.data, params.logger)

    async def on_elicitation(self, context: Any, params: Any) -> Any:
        types = _mcp_sdk().types
        if self.elicitation is None:
            self.logger.warning(
                "declined the MCP server's request for the user's input (%s): no elicitation handler is set;"
                " set one with set_handlers(elicitation=...)",
                params.message,
            )
            return types.ElicitResult(action="decline")
        answer = await asyncio.to_thread(self.elicitation, params)
        result = answer if isinstance(answer, types.ElicitResult) else types.ElicitResult.model_validate(answer)
        schema = getattr(params, "requestedSchema", None) or getattr(params, "requested_schema", None)
        if result.action == "accept" and isinstance(schema, dict):
            result.content = with_defaults(schema, result.content or {})
        return result

    async def on_sampling(self, context: Any, params: Any) -> Any:
        types = _mcp_sdk().types
        assert self.sampling is not None  # declared only with a handler
        answer = await asyncio.to_thread(self.sampling, params)
        return answer if not isinstance(answer, dict) else types.CreateMessageResult.model_validate(answer)


def with_defaults(schema: dict[str, Any], content: dict[str, Any]) -> dict[str, Any]:
    """An accepted form's content with each field it leaves out that has a default in `schema` set to it (SEP-1034)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return content
    defaults = {
        key: spec["default"]
        for key, spec in properties.items()
        if isinstance(spec, dict) and "default" in spec and key not in content
    }
    return {**content, **defaults}


class _MCPSDK:
    """What differs between mcp 1.x and 2.x, found once by looking at what is there."""

    def __init__(self) -> None:
        with _needs(_SDK):
            from mcp import types
            from mcp.shared import exceptions

        self.types = types
        self.two = not hasattr(exceptions, "McpError")  # mcp 2 renamed it MCPError
        self.error_type: type[Exception] = getattr(exceptions, "MCPError" if self.two else "McpError")
        self.connection_closed = types.CONNECTION_CLOSED
        # A request timed out: 408 in mcp 1.x, REQUEST_TIMEOUT in 2.x.
        self.timeout_codes = {408, getattr(types, "REQUEST_TIMEOUT", 408)}

    def error_of(self, exc: Exception) -> tuple[int, str]:
        error = exc.error  # type: ignore[attr-defined]
        return error.code, error.message

    async def send(
        self, client: Any, method: str, params: dict[str, Any], timeout: float | None, progress: Any = None
    ) -> Any:
        """A request (one of _REQUESTS) with `params` as the protocol spells them, and its result; tools/call
        without the SDK's own output-schema check (which lists every tool first). `progress` is awaited with
        each progress notification of the request (the SDK sends a progress token then)."""
        types, name = self.types, _REQUESTS[method]
        request = getattr(types, f"{name}Request")(
            method=method, params=getattr(types, f"{name}RequestParams").model_validate(params)
        )
        result_type = getattr(types, f"{name}Result", types.EmptyResult)  # (un)subscribing returns nothing
        if self.two:  # seconds as a float, the request itself
            return await client.send_request(request, result_type, timeout, progress_callback=progress)
        from datetime import timedelta

        wait = None if timeout is None else timedelta(seconds=timeout)
        return await client.send_request(types.ClientRequest(request), result_type, wait, progress_callback=progress)


# The requests a session sends, by method: the stem of their mcp types' names.
_REQUESTS = {"tools/call": "CallTool", "resources/read": "ReadResource", "prompts/get": "GetPrompt",
             "completion/complete": "Complete", "resources/subscribe": "Subscribe", "resources/unsubscribe": "Unsubscribe"}  # fmt: skip


_sdk: _MCPSDK | None = None


def _mcp_sdk() -> _MCPSDK:
    global _sdk
    if _sdk is None:
        _sdk = _MCPSDK()
    return _sdk
