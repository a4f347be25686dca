# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored LangChain tools (langchain:) share: finding the tool in the user's code, and running it."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

# smolagents ships no type information: to mypy its Tool is Any, and the tools here subclass it.
# mypy: allow-subclassing-any
from smolagents import Tool

from ._vendored_runtime import _needs, _VendoredTool


class LangChainTool(_VendoredTool, Tool):
    """A LangChain tool of the user's own code: found by name in what the module's source gives."""

    lc_name = ""
    # A generated class sets `is_async = True` when only `.ainvoke()` runs its tool (made from a coroutine alone).

    def __init__(self) -> None:
        super().__init__()
        self._lc_tool: Any = None

    def _invoke(self, source: Any, arguments: dict[str, Any]) -> Any:
        """Run the tool with its LangChain argument names; an argument left at NOT_GIVEN is not sent."""
        if self._lc_tool is None:
            found = [tool for tool in langchain_tools(source) if tool.name == self.lc_name]
            if not found:
                raise LookupError(f"{self.name}: its LangChain source no longer gives a tool named {self.lc_name}")
            self._lc_tool = found[0]
        sent = self._sent(arguments)
        if getattr(self, "is_async", False):
            return _run_coroutine(self._lc_tool.ainvoke(sent))
        return self._lc_tool.invoke(sent)


def _run_coroutine(coroutine: Any) -> Any:
    """Run `coroutine` to its end from synchronous code: in a new event loop, or on a thread of
    its own when this thread already runs one (an agent inside async code)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="langchain-ainvoke") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def langchain_tools(value: Any) -> list[Any]:
    """The tools a BaseTool, BaseTool class, toolkit (or its class), list of tools, or factory gives."""
    with _needs("langchain-core>=0.3"):
        from langchain_core.tools import BaseTool, BaseToolkit

    if isinstance(value, type):
        value = value()
    elif not isinstance(value, (BaseTool, BaseToolkit, list, tuple)) and callable(value):
        value = value()
        if isinstance(value, type):
            value = value()
    if isinstance(value, BaseToolkit):
        return list(value.get_tools())
    if isinstance(value, BaseTool):
        return [value]
    return list(value)
