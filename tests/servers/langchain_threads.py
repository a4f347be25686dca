"""A LangChain tool that says where it ran: `vendorgen add langchain:tests.servers.langchain_threads:where_run`.

Its value says on which thread the tool was called and, when a server turns the value into
text (`str()`), on which thread that conversion ran: serve's test that tool code never runs on
the event loop reads it.
"""

from __future__ import annotations

import asyncio
import json
import threading

from langchain_core.tools import tool


def _here() -> dict[str, bool]:
    """Whether this thread runs an event loop, and whether it is the main thread."""
    try:
        asyncio.get_running_loop()
        on_a_loop = True
    except RuntimeError:
        on_a_loop = False
    return {"event_loop": on_a_loop, "main_thread": threading.current_thread() is threading.main_thread()}


class WhereRun:
    """The tool's value: where the call ran; where it is turned into text, found when that happens."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.called = _here()

    def __str__(self) -> str:
        return json.dumps({"label": self.label, "called": self.called, "converted": _here()}, sort_keys=True)


@tool(parse_docstring=True)
def where_run(label: str) -> WhereRun:
    """Say on which thread this call ran.

    Args:
        label: Given back, to tell calls apart.
    """
    return WhereRun(label)
