# Vendored by vendorgen 0.1.0 from langchain:examples.langchain_tools:toolkit
# endpoints count_words, paint_needed at revision sha256:5557f5c2f102 (schema sha256 47458d69f8db).
# Review it as code you run. Update: vendorgen update langchain_tools
#
# LangChain tools from your own code, as smolagents tools. Each forward imports the LangChain
# object where it is used (so importing this module does not import yours) and calls its
# .invoke() with the original argument names. Needs smolagents and langchain-core.
from __future__ import annotations

from typing import Any

from smolagents import Tool

# Where the LangChain tools come from: `from SOURCE_MODULE import SOURCE_ATTR`.
SOURCE_MODULE = "examples.langchain_tools"
SOURCE_ATTR = "toolkit"


class _LangChainTool(Tool):
    """What every tool of this module shares: finding its LangChain tool, the call, to_langchain()."""

    lc_name = ""

    def __init__(self) -> None:
        super().__init__()
        self._lc_tool: Any = None

    def _tool(self, source: Any) -> Any:
        """The LangChain tool named lc_name in what SOURCE_ATTR is (found once, then kept)."""
        if self._lc_tool is None:
            found = [tool for tool in _langchain_tools(source) if tool.name == self.lc_name]
            if not found:
                raise LookupError(
                    f"{SOURCE_MODULE}.{SOURCE_ATTR} no longer gives a tool named {self.lc_name}"
                )
            self._lc_tool = found[0]
        return self._lc_tool

    @staticmethod
    def _arguments(required: dict[str, Any], optional: dict[str, Any]) -> dict[str, Any]:
        """The arguments by their LangChain names; an optional one that is None is left out."""
        return {**required, **{key: value for key, value in optional.items() if value is not None}}

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with the same argument schema."""
        from langchain_core.tools import StructuredTool

        properties = {}
        for key, spec in self.inputs.items():
            properties[key] = {k: v for k, v in spec.items() if k != "nullable"}
            if properties[key]["type"] in ("image", "audio", "any"):
                del properties[key]["type"]
        required = [key for key, spec in self.inputs.items() if not spec.get("nullable")]
        return StructuredTool.from_function(
            func=lambda **arguments: self(**arguments),
            name=self.name,
            description=self.description,
            args_schema={"type": "object", "properties": properties, "required": required},
        )


def _langchain_tools(value: Any) -> list[Any]:
    """The tools a BaseTool, BaseTool class, toolkit (or its class), list of tools, or factory gives."""
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


class CountWordsTool(_LangChainTool):
    """Count the words of a text.

    Calls count_words on langchain:examples.langchain_tools:toolkit.
    """

    name = "count_words"
    description = "Count the words of a text."
    inputs: dict[str, dict[str, Any]] = {
        "text": {"type": "string", "description": "The text to count."},
        "unique": {
            "type": "boolean",
            "description": "Count each distinct word once.",
            "default": False,
            "nullable": True,
        },
    }
    output_type = "integer"
    lc_name = "count_words"

    def forward(self, text: str, unique: bool = False) -> int:
        from examples.langchain_tools import toolkit as _source

        return self._tool(_source).invoke(self._arguments({"text": text}, {"unique": unique}))


class PaintNeededTool(_LangChainTool):
    """Litres of paint needed for a wall.

    Calls paint_needed on langchain:examples.langchain_tools:toolkit.
    """

    name = "paint_needed"
    description = "Litres of paint needed for a wall."
    inputs: dict[str, dict[str, Any]] = {
        "wall": {
            "type": "object",
            "description": "The wall to paint",
            "properties": {
                "width": {"description": "Width in metres", "title": "Width", "type": "number"},
                "height": {"description": "Height in metres", "title": "Height", "type": "number"},
            },
            "required": ["width", "height"],
        },
        "coats": {
            "type": "integer",
            "description": "Number of coats",
            "minimum": 1,
            "default": 2,
            "nullable": True,
        },
        "litres_per_m2": {
            "type": "number",
            "description": "Coverage; 0.1 l/m² when not given",
            "default": None,
            "nullable": True,
        },
    }
    output_type = "number"
    lc_name = "paint_needed"

    def forward(
        self, wall: dict[str, Any], coats: int = 2, litres_per_m2: float | None = None
    ) -> float:
        from examples.langchain_tools import toolkit as _source

        return self._tool(_source).invoke(
            self._arguments({"wall": wall}, {"coats": coats, "litres_per_m2": litres_per_m2})
        )


def tools() -> list[Tool]:
    """Every tool of this module, ready for an agent."""
    return [CountWordsTool(), PaintNeededTool()]
