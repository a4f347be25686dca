# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from langchain:examples.langchain_tools:toolkit
# endpoints count_words, paint_needed at revision sha256:5557f5c2f102 (schema sha256 47458d69f8dbca39ec6e61eead1fcfd544f0014e3fab7325c00c443e0ffc5446).
# Update: vendorgen update langchain_tools
#
# LangChain tools from your own code, as smolagents tools. Each forward imports the LangChain
# object where it is used (so importing this module does not import yours) and calls its
# .invoke() with the original argument names (see LangChainTool in _vendored_langchain.py).
from typing import Any

from smolagents import Tool

from ._vendored_langchain import LangChainTool
from ._vendored_runtime import NOT_GIVEN

# Where the LangChain tools come from: `from SOURCE_MODULE import SOURCE_ATTR`.
SOURCE_MODULE = "examples.langchain_tools"
SOURCE_ATTR = "toolkit"


class CountWordsTool(LangChainTool):
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

        return self._invoke(_source, {"text": text, "unique": unique})


class PaintNeededTool(LangChainTool):
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
        self, wall: dict[str, Any], coats: int = 2, litres_per_m2: float | None = NOT_GIVEN
    ) -> float:
        from examples.langchain_tools import toolkit as _source

        return self._invoke(
            _source, {"wall": wall, "coats": coats, "litres_per_m2": litres_per_m2}
        )


def tools() -> list[Tool]:
    """Every tool of this module, ready for an agent."""
    return [CountWordsTool(), PaintNeededTool()]
