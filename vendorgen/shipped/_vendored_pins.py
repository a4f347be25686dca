"""What the vendored MCP server (`_vendored_server.py` beside this file) pins of each upstream MCP tool, and the
check before the first call into an upstream on a connection: its listing now against those pins (a changed
description, schema or annotations is refused unless --allow-drift). Shipped with the server and owned with it by
the lock; vendorgen imports `definition_hashes` from here (through the server module) to write the pins.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any


def definition_hashes(
    description: Any, input_schema: Any, annotations: Any = None, output_schema: Any = None
) -> dict[str, str]:
    """What is pinned of an upstream MCP tool: the sha256 of its description, its input schema, its annotations
    (what it says it may do: a tool served as read-only must stay so) and its output schema (the schemas are
    served as they are listed)."""
    return {
        "description": _sha256(description),
        "inputSchema": _sha256(input_schema),
        "annotations": _sha256(annotations),
        "outputSchema": _sha256(output_schema),
    }


_PARTS = {"description": "description", "inputSchema": "input schema", "annotations": "annotations",
          "outputSchema": "output schema"}  # fmt: skip


def _listed_hashes(raw: dict[str, Any]) -> dict[str, str]:
    """definition_hashes of a tool as an MCP server lists it."""
    return definition_hashes(
        raw.get("description"), raw.get("inputSchema"), raw.get("annotations"), raw.get("outputSchema")
    )


def _sha256(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
        """Why the MCP tool `tool` must not be called now, or None: its upstream definition changed since it was
        vendored."""
        import asyncio

        if self.allow_drift:
            return None
        pinned = self.pinned.get(tool.name)
        if pinned is None:
            return f"{tool.name} has no pinned definition: run `vendorgen serve` to regenerate this server"
        if not hasattr(getattr(tool, "session", None), "here"):  # checked only against what an MCP session lists
            return f"refused {tool.name}: its pinned definition cannot be checked: its upstream is not an MCP session"
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
        changed = [part for part in _PARTS if part in pinned and pinned[part] != now[part]]
        if changed:
            what = " and ".join(_PARTS[part] for part in changed)
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
            listing[raw["name"]] = _listed_hashes(raw)
        cursor = sys.modules[f"{__package__}._vendored_mcp"]._field(result, "nextCursor")
        if not cursor:
            return listing
    raise ToolRefused(f"the MCP server {where} lists its tools in more than {_LISTING_PAGES:,} pages")
