# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from mcp:http://127.0.0.1:7861/mcp
# endpoints convert_temperature, word_stats, slugify-title at revision text-tools 1.30.0 (schema sha256 cb22cfbc93b726801edfafa5426cabf581ea09a40de799ba8d075478e1c93c64).
# Update: vendorgen update text_tools
#
# The tools of one MCP server (streamable-http). They share one session per process (see
# MCPSession in _vendored_mcp.py): it opens on the first call, and closes on close(), at the end
# of a `with` block, or when the process exits. `tools()` returns them all.
from typing import Any, Literal

from smolagents import Tool

from ._vendored_mcp import MCPSession, MCPTool, MCPToolError, ToolList
from ._vendored_runtime import NOT_GIVEN

# How to reach the server.
SERVER: dict[str, Any] = {
    "name": "text-tools",
    "version": "1.30.0",
    "transport": "streamable-http",
    "url": "http://127.0.0.1:7861/mcp",
}
# Seconds a tool call may take (None: no limit), and seconds to connect and initialize.
TIMEOUT = 60.0
CONNECT_TIMEOUT = 30.0


class _ServerTool(MCPTool):
    """What the tools of this module share: one session with SERVER."""

    session = MCPSession(SERVER, CONNECT_TIMEOUT)

    def __init__(self, timeout: float | None = TIMEOUT) -> None:
        super().__init__(timeout)


class ConvertTemperatureTool(_ServerTool):
    """Convert a temperature between Celsius, Fahrenheit and Kelvin.

    Calls convert_temperature on mcp:http://127.0.0.1:7861/mcp.
    May delete or overwrite data; talks to the outside world.
    (The server gives no annotations: these are the MCP spec's defaults.)
    """

    name = "convert_temperature"
    description = "Convert a temperature between Celsius, Fahrenheit and Kelvin."
    inputs: dict[str, dict[str, Any]] = {
        "value": {"type": "number", "description": "The temperature to convert"},
        "unit": {
            "type": "string",
            "description": "Unit of the value",
            "enum": ["C", "F", "K"],
            "default": "C",
            "nullable": True,
        },
        "to": {
            "type": "string",
            "description": "Unit to convert to",
            "enum": ["C", "F", "K"],
            "default": "F",
            "nullable": True,
        },
    }
    output_type = "number"
    mcp_name = "convert_temperature"
    null_refused: dict[str, Any] = {"unit": "C", "to": "F"}
    read_only_hint = False
    destructive_hint = True
    idempotent_hint = False
    open_world_hint = True
    result_key = "result"

    def forward(
        self, value: float, unit: Literal["C", "F", "K"] = "C", to: Literal["C", "F", "K"] = "F"
    ) -> float:
        return self._call({"value": value, "unit": unit, "to": to})


class WordStatsTool(_ServerTool):
    """Count the words of a text and list the most frequent ones.

    Calls word_stats on mcp:http://127.0.0.1:7861/mcp.
    May delete or overwrite data; talks to the outside world.
    (The server gives no annotations: these are the MCP spec's defaults.)
    """

    name = "word_stats"
    description = "Count the words of a text and list the most frequent ones."
    inputs: dict[str, dict[str, Any]] = {
        "text": {"type": "string", "description": "The text to analyse"},
        "top": {
            "type": "integer",
            "description": "How many frequent words to list (default 3)",
            "minimum": 1,
            "maximum": 20,
            "default": None,
            "nullable": True,
        },
    }
    output_type = "object"
    output_schema = {
        "properties": {
            "words": {"description": "Number of words", "title": "Words", "type": "integer"},
            "unique": {
                "description": "Number of distinct words, case-insensitive",
                "title": "Unique",
                "type": "integer",
            },
            "top": {
                "description": "The most frequent words, most frequent first",
                "items": {"type": "string"},
                "title": "Top",
                "type": "array",
            },
        },
        "required": ["words", "unique", "top"],
        "title": "WordStats",
        "type": "object",
    }
    mcp_name = "word_stats"
    read_only_hint = False
    destructive_hint = True
    idempotent_hint = False
    open_world_hint = True

    def forward(self, text: str, top: int | None = NOT_GIVEN) -> dict[str, Any]:
        return self._call({"text": text, "top": top})


class SlugifyTitleTool(_ServerTool):
    """Turn a title into a lowercase ASCII URL slug.

    Calls slugify-title on mcp:http://127.0.0.1:7861/mcp.
    May delete or overwrite data; talks to the outside world.
    (The server gives no annotations: these are the MCP spec's defaults.)
    """

    name = "slugify_title"
    description = "Turn a title into a lowercase ASCII URL slug."
    inputs: dict[str, dict[str, Any]] = {
        "title": {"type": "string", "description": "A title to turn into a URL slug"},
        "separator": {
            "type": "string",
            "description": "Character between words",
            "enum": ["-", "_"],
            "default": "-",
            "nullable": True,
        },
    }
    output_type = "string"
    mcp_name = "slugify-title"
    null_refused: dict[str, Any] = {"separator": "-"}
    read_only_hint = False
    destructive_hint = True
    idempotent_hint = False
    open_world_hint = True
    result_key = "result"

    def forward(self, title: str, separator: Literal["-", "_"] = "-") -> str:
        return self._call({"title": title, "separator": separator})


def tools(timeout: float | None = TIMEOUT) -> list[Tool]:
    """Every tool of this server, sharing one session (what ToolCollection.from_mcp gives at run time)."""
    return ToolList(
        _ServerTool.session,
        [
            ConvertTemperatureTool(timeout),
            WordStatsTool(timeout),
            SlugifyTitleTool(timeout),
        ],
    )
