"""Example MCP server for vendorgen: a few small, deterministic text and unit tools.

Run it as ``python examples/mcp_server.py http --port 7861`` (streamable-http at
http://127.0.0.1:7861/mcp) or ``python examples/mcp_server.py stdio``. Its vendored form is
committed in generated_example/tools/text_tools.py.
"""

from __future__ import annotations

import argparse
import logging
import re
from collections import Counter
from typing import Literal

import anyio
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("text-tools", log_level="WARNING")

_TO_CELSIUS = {"C": lambda v: v, "F": lambda v: (v - 32) * 5 / 9, "K": lambda v: v - 273.15}
_FROM_CELSIUS = {"C": lambda v: v, "F": lambda v: v * 9 / 5 + 32, "K": lambda v: v + 273.15}


class WordStats(BaseModel):
    words: int = Field(description="Number of words")
    unique: int = Field(description="Number of distinct words, case-insensitive")
    top: list[str] = Field(description="The most frequent words, most frequent first")


@mcp.tool()
def convert_temperature(
    value: float = Field(description="The temperature to convert"),
    unit: Literal["C", "F", "K"] = Field("C", description="Unit of the value"),
    to: Literal["C", "F", "K"] = Field("F", description="Unit to convert to"),
) -> float:
    """Convert a temperature between Celsius, Fahrenheit and Kelvin."""
    return round(_FROM_CELSIUS[to](_TO_CELSIUS[unit](value)), 6)


@mcp.tool()
def word_stats(
    text: str = Field(description="The text to analyse"),
    top: int | None = Field(None, description="How many frequent words to list (default 3)", ge=1, le=20),
) -> WordStats:
    """Count the words of a text and list the most frequent ones."""
    words = re.findall(r"[\w']+", text.lower())
    ranked = sorted(Counter(words).items(), key=lambda item: (-item[1], item[0]))
    return WordStats(words=len(words), unique=len(ranked), top=[word for word, _ in ranked[: top or 3]])


@mcp.tool(name="slugify-title")
def slugify_title(
    title: str = Field(description="A title to turn into a URL slug"),
    separator: Literal["-", "_"] = Field("-", description="Character between words"),
) -> str:
    """Turn a title into a lowercase ASCII URL slug."""
    return separator.join(re.findall(r"[a-z0-9]+", title.lower()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", choices=["stdio", "http"], nargs="?", default="stdio")
    parser.add_argument("--port", type=int, default=7861)
    args = parser.parse_args()
    mcp.settings.host = "127.0.0.1"
    mcp.settings.port = args.port
    # The SDK logs every client's disconnect as an error with a traceback (the stream it was
    # writing to closed): a disconnect is not an error, so it goes unsaid.
    logging.getLogger("mcp.server.streamable_http").addFilter(
        lambda record: not (record.exc_info and isinstance(record.exc_info[1], anyio.ClosedResourceError))
    )
    mcp.run("stdio" if args.transport == "stdio" else "streamable-http")


if __name__ == "__main__":
    main()
