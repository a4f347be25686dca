"""The shipped server checks every pin `vendorgen serve` wrote, whatever the tool (issue 28): an MCP tool's against
its upstream's listing now (tests/test_serve.py), any other pinned tool is refused, since nothing lists what its
upstream offers now; a pin is never written and then ignored. Unpinned tools run as they are."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from smolagents import Tool

from vendorgen.shipped import _vendored_pins as pins
from vendorgen.shipped import _vendored_server as server


class ShoutTool(Tool):
    name = "shout"
    description = "Shouts the text back."
    inputs = {"text": {"type": "string", "description": "What to shout."}}
    output_type = "string"

    def forward(self, text: str) -> str:
        return text.upper()


def _call(pinned: dict[str, dict[str, str]], allow_drift: bool = False) -> Any:
    tool = ShoutTool()
    toolset = server.Toolset([tool], pins.Pins(pinned, allow_drift))
    try:
        return asyncio.run(toolset.call("shout", {"text": "hi"}))
    finally:
        toolset.workers.shutdown()


PIN = {"shout": pins.definition_hashes("Shouts the text back.", {"type": "object"})}


def test_a_pinned_tool_without_an_mcp_upstream_is_refused() -> None:
    with pytest.raises(pins.ToolRefused, match="refused shout: its pinned definition cannot be checked"):
        _call(PIN)


def test_an_unpinned_tool_runs_and_so_does_a_pinned_one_with_allow_drift() -> None:
    for pinned, allow_drift in (({}, False), (PIN, True)):
        items, structured = _call(pinned, allow_drift)
        assert items == [{"type": "text", "text": "HI"}] and structured is None
