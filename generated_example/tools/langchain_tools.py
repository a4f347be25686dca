# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from langchain:examples.langchain_tools:toolkit
# endpoints count_words, paint_needed at revision sha256:7b3c399e4138 (schema sha256 212d73668b1012de927e135547b01c1f74cf220876ecfdf0d8467284ed0c2a63).
# Update: vendorgen update langchain_tools
#
# LangChain tools from your own code, as smolagents tools. Each forward imports the LangChain
# object where it is used (so importing this module does not import yours) and calls its
# .invoke() with the original argument names (see LangChainTool in _vendored_langchain.py).
from typing import Any, Literal, NotRequired, TypedDict

from smolagents import Tool

from ._vendored_langchain import LangChainTool
from ._vendored_runtime import NOT_GIVEN

# The shapes an argument may take: one TypedDict per object of a union (smolagents reads them as objects).
_PaintNeeded_Wall_Rectangle = TypedDict(
    "_PaintNeeded_Wall_Rectangle",
    {"shape": NotRequired[Literal["rectangle"]], "width": float, "height": float},
)
_PaintNeeded_Wall_Triangle = TypedDict(
    "_PaintNeeded_Wall_Triangle", {"shape": Literal["triangle"], "base": float, "height": float}
)


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
    null_refused: dict[str, Any] = {"unique": False}

    def forward(self, text: str, unique: bool = False) -> int:
        from examples.langchain_tools import toolkit as _source

        return self._invoke(_source, {"text": text, "unique": unique})


class PaintNeededTool(LangChainTool):
    """Litres of paint needed for a wall.

    Calls paint_needed on langchain:examples.langchain_tools:toolkit.
    wall takes one of the shapes defined above: _PaintNeeded_Wall_Rectangle or _PaintNeeded_Wall_Triangle.
    """

    name = "paint_needed"
    description = "Litres of paint needed for a wall."
    inputs: dict[str, dict[str, Any]] = {
        "wall": {
            "type": "object",
            "description": 'The wall to paint: a rectangle, or the triangle of a gable. An object is one of: {"shape"?: "rectangle", "width": number, "height": number} or {"shape": "triangle", "base": number, "height": number}.',
            "anyOf": [
                {
                    "properties": {
                        "shape": {
                            "const": "rectangle",
                            "default": "rectangle",
                            "title": "Shape",
                            "type": "string",
                        },
                        "width": {
                            "description": "Width in metres",
                            "title": "Width",
                            "type": "number",
                        },
                        "height": {
                            "description": "Height in metres",
                            "title": "Height",
                            "type": "number",
                        },
                    },
                    "required": ["width", "height"],
                    "title": "Box",
                    "type": "object",
                },
                {
                    "properties": {
                        "shape": {"const": "triangle", "title": "Shape", "type": "string"},
                        "base": {
                            "description": "Base in metres",
                            "title": "Base",
                            "type": "number",
                        },
                        "height": {
                            "description": "Height in metres",
                            "title": "Height",
                            "type": "number",
                        },
                    },
                    "required": ["shape", "base", "height"],
                    "title": "Gable",
                    "type": "object",
                },
            ],
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
    null_refused: dict[str, Any] = {"coats": 2}

    def forward(
        self,
        wall: _PaintNeeded_Wall_Rectangle | _PaintNeeded_Wall_Triangle,
        coats: int = 2,
        litres_per_m2: float | None = NOT_GIVEN,
    ) -> float:
        from examples.langchain_tools import toolkit as _source

        return self._invoke(
            _source, {"wall": wall, "coats": coats, "litres_per_m2": litres_per_m2}
        )


def tools() -> list[Tool]:
    """Every tool of this module, ready for an agent."""
    return [CountWordsTool(), PaintNeededTool()]
