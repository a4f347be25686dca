"""Example LangChain tools for vendorgen: `vendorgen add langchain:examples.langchain_tools:toolkit`.

Their vendored form is committed in generated_example/tools/langchain_tools.py.
"""

from __future__ import annotations

from typing import Literal

from langchain_core.tools import BaseTool, StructuredTool, tool
from pydantic import BaseModel, Field


@tool(parse_docstring=True)
def count_words(text: str, unique: bool = False) -> int:
    """Count the words of a text.

    Args:
        text: The text to count.
        unique: Count each distinct word once.
    """
    words = text.lower().split()
    return len(set(words)) if unique else len(words)


class Box(BaseModel):
    shape: Literal["rectangle"] = "rectangle"
    width: float = Field(description="Width in metres")
    height: float = Field(description="Height in metres")


class Gable(BaseModel):
    shape: Literal["triangle"]
    base: float = Field(description="Base in metres")
    height: float = Field(description="Height in metres")


class PaintArgs(BaseModel):
    # A union of objects told apart by `shape` (its `const`): vendored as a union of TypedDicts.
    wall: Box | Gable = Field(description="The wall to paint: a rectangle, or the triangle of a gable")
    coats: int = Field(2, description="Number of coats", ge=1)
    litres_per_m2: float | None = Field(None, description="Coverage; 0.1 l/m² when not given")


def _paint_needed(wall: Box | Gable, coats: int = 2, litres_per_m2: float | None = None) -> float:
    area = wall.width * wall.height if isinstance(wall, Box) else wall.base * wall.height / 2
    return round(area * coats * (litres_per_m2 or 0.1), 3)


paint_needed = StructuredTool.from_function(
    _paint_needed, name="paint_needed", description="Litres of paint needed for a wall.", args_schema=PaintArgs
)


def toolkit() -> list[BaseTool]:
    """The example tools, as a zero-argument factory (one of the shapes vendorgen accepts)."""
    return [count_words, paint_needed]
