"""FastMCP (mcp 1.x) test server covering every tool-schema case vendorgen must handle.

Run it as one of::

    python -m tests.servers.mcp_server stdio
    python -m tests.servers.mcp_server http --port N   # streamable-http at http://127.0.0.1:N/mcp
    python -m tests.servers.mcp_server sse --port N    # legacy SSE at http://127.0.0.1:N/sse

Every tool is deterministic; the expected results are documented on each tool and
collected in `EXPECTED` at the bottom so that tests can share them.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import zlib
from enum import Enum
from typing import Annotated, Any, Literal, Optional

import anyio
from mcp.server.fastmcp import FastMCP, Image
from mcp.server.fastmcp.tools import Tool
from pydantic import BaseModel, Field

SERVER_NAME = "vendorgen-test"

# Process-level state: one number per server process, so that tests can prove
# that a client reuses one session / one process across calls.
_CALLS = {"count": 0}


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def tiny_png(rgb: tuple[int, int, int] = (255, 0, 0), width: int = 2, height: int = 2) -> bytes:
    """A valid, deterministic RGB PNG of one colour, built without PIL."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width  # filter byte 0 + pixels
    raw = row * height
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# ---------------------------------------------------------------------------
# Models used in schemas ($defs / $ref)
# ---------------------------------------------------------------------------


class Color(str, Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Address(BaseModel):
    street: str = Field(description="Street and number")
    city: str
    zip: Optional[str] = None


class Person(BaseModel):
    name: str = Field(description="Full name")
    age: int = Field(ge=0, description="Age in years")
    address: Address
    tags: list[str] = []


class UserRecord(BaseModel):
    """Structured output: a pydantic model -> outputSchema + structuredContent."""

    id: int
    name: str
    active: bool
    score: float
    tags: list[str]
    address: Address


# ---------------------------------------------------------------------------
# Server
# ---------------------------------------------------------------------------

# Tools whose parameters are not Python identifiers ("from", "lambda",
# "max-results") cannot be written as a plain function. FastMCP builds the
# schema from pydantic aliases (`by_alias=True`) but then calls the function
# with the *alias* as keyword, so the registered `fn` maps aliases back.


def query(
    from_: Annotated[str, Field(alias="from", description="Start of the range")],
    lambda_: Annotated[float, Field(alias="lambda", description="Decay factor")] = 0.5,
    max_results: Annotated[int, Field(alias="max-results", ge=1, le=100, description="How many results")] = 3,
) -> str:
    """Search with parameter names that are Python keywords or not identifiers.

    Returns JSON text of the received values: {"from": ..., "lambda": ..., "max-results": ...}.
    """
    return _dump({"from": from_, "lambda": lambda_, "max-results": max_results})


_QUERY_ALIASES = {"from": "from_", "lambda": "lambda_", "max-results": "max_results"}


def _query_tool() -> Tool:
    tool = Tool.from_function(query, name="query", structured_output=False)

    def call_with_aliases(**kwargs: Any) -> str:
        return query(**{_QUERY_ALIASES.get(k, k): v for k, v in kwargs.items()})

    tool.fn = call_with_aliases
    return tool


mcp = FastMCP(SERVER_NAME, log_level="WARNING", tools=[_query_tool()])


@mcp.tool(structured_output=False)
def echo(text: Annotated[str, Field(description="Text to echo back")]) -> str:
    """Echo the text back unchanged."""
    return text


@mcp.tool(structured_output=False)
def defaults(
    name: str,
    count: int = 2,
    ratio: float = 0.5,
    loud: bool = False,
    greeting: str = "Hello",
) -> str:
    """Required str plus optional int/float/bool/str with defaults.

    Returns JSON text (sorted keys) of the values the server received.
    """
    return _dump({"name": name, "count": count, "ratio": ratio, "loud": loud, "greeting": greeting})


@mcp.tool()
def add(a: int, b: int = 1) -> int:
    """Add two integers. FastMCP wraps the primitive return: outputSchema {result: integer}."""
    return a + b


@mcp.tool(structured_output=False)
def optional_int(value: Optional[int] = None) -> str:
    """Optional[int] = None (anyOf [integer, null]). Returns "none" or "int:<value>"."""
    return "none" if value is None else f"int:{value}"


@mcp.tool(structured_output=False)
def choose(mode: Literal["fast", "slow"], color: Color = Color.GREEN) -> str:
    """A Literal (inline enum) and a str Enum ($defs/$ref). Returns "<mode>/<color>"."""
    return f"{mode}/{Color(color).value}"


@mcp.tool(structured_output=False)
def join_words(words: list[str], sep: str = " ") -> str:
    """list[str] (array with items). Returns the words joined by sep."""
    return sep.join(words)


@mcp.tool()
def mean(values: Annotated[list[float], Field(description="Numbers to average")]) -> float:
    """list[float]. Returns the arithmetic mean (structured {result: number}); [] -> error."""
    if not values:
        raise ValueError("values must not be empty")
    return sum(values) / len(values)


@mcp.tool(structured_output=False)
def describe_person(person: Person) -> str:
    """Nested pydantic model (Person -> Address) via $defs/$ref.

    Returns "<name> (<age>) lives at <street>, <city>[ <zip>] [tags: a,b]".
    """
    text = f"{person.name} ({person.age}) lives at {person.address.street}, {person.address.city}"
    if person.address.zip:
        text += f" {person.address.zip}"
    if person.tags:
        text += f" [tags: {','.join(person.tags)}]"
    return text


@mcp.tool(structured_output=False)
def ping() -> str:
    """A tool with no parameters. Returns "pong"."""
    return "pong"


@mcp.tool(name="get-weather", structured_output=False)
def get_weather(city: str, unit: Literal["c", "f"] = "c", days: Optional[int] = None) -> str:
    """Tool name that is not a Python identifier. Returns "<city>: 20C x<days or 1>" (68F for unit f)."""
    temp = "20C" if unit == "c" else "68F"
    return f"{city}: {temp} x{days or 1}"


@mcp.tool(name="class", structured_output=False)
def class_(name: str) -> str:
    """Tool named like a Python keyword. Returns "class <name>"."""
    return f"class {name}"


@mcp.tool()
def lookup_user(user_id: int) -> UserRecord:
    """Returns a pydantic model: outputSchema (with $defs) and structuredContent."""
    return UserRecord(
        id=user_id,
        name=f"user{user_id}",
        active=user_id % 2 == 0,
        score=user_id / 2,
        tags=["a", "b"],
        address=Address(street=f"{user_id} Main St", city="Springfield"),
    )


@mcp.tool(structured_output=False)
def text_and_image(caption: str = "a red square") -> list:
    """Several content items: a TextContent (the caption) then a 2x2 red PNG ImageContent."""
    return [caption, Image(data=tiny_png((255, 0, 0)), format="png")]


@mcp.tool(structured_output=False)
def make_image(color: Literal["red", "green", "blue"] = "blue", size: int = 2) -> Image:
    """Returns only an image: a size x size PNG of the colour."""
    rgb = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255)}[color]
    return Image(data=tiny_png(rgb, size, size), format="png")


@mcp.tool(structured_output=False)
def fail(message: str = "boom") -> str:
    """Always raises: the result has isError=True and text "Error executing tool fail: <message>"."""
    raise ValueError(message)


@mcp.tool(structured_output=False)
async def sleep(seconds: float) -> str:
    """Sleeps `seconds` then returns "slept <seconds>" (for timeouts)."""
    await anyio.sleep(seconds)
    return f"slept {seconds}"


@mcp.tool(structured_output=False)
def get_env(name: str) -> str:
    """Returns the value of environment variable `name`, or "<unset>"."""
    return os.environ.get(name, "<unset>")


@mcp.tool(structured_output=False)
def call_counter() -> str:
    """Counts calls in this server process. Returns JSON text {"count": n, "pid": pid}."""
    _CALLS["count"] += 1
    return _dump({"count": _CALLS["count"], "pid": os.getpid()})


TOOL_NAMES = [
    "query",
    "echo",
    "defaults",
    "add",
    "optional_int",
    "choose",
    "join_words",
    "mean",
    "describe_person",
    "ping",
    "get-weather",
    "class",
    "lookup_user",
    "text_and_image",
    "make_image",
    "fail",
    "sleep",
    "get_env",
    "call_counter",
]

# (tool, arguments) -> first text content. Shared with tests.
EXPECTED: list[tuple[str, dict[str, Any], str]] = [
    ("echo", {"text": "hi there"}, "hi there"),
    ("defaults", {"name": "Ada"}, '{"count": 2, "greeting": "Hello", "loud": false, "name": "Ada", "ratio": 0.5}'),
    (
        "defaults",
        {"name": "Bob", "count": 3, "ratio": 1.5, "loud": True, "greeting": "Hey"},
        '{"count": 3, "greeting": "Hey", "loud": true, "name": "Bob", "ratio": 1.5}',
    ),
    ("add", {"a": 2, "b": 3}, "5"),
    ("add", {"a": 2}, "3"),
    ("optional_int", {}, "none"),
    ("optional_int", {"value": None}, "none"),
    ("optional_int", {"value": 7}, "int:7"),
    ("choose", {"mode": "fast"}, "fast/green"),
    ("choose", {"mode": "slow", "color": "blue"}, "slow/blue"),
    ("join_words", {"words": ["a", "b", "c"], "sep": "-"}, "a-b-c"),
    ("mean", {"values": [1, 2, 3, 4]}, "2.5"),
    (
        "describe_person",
        {"person": {"name": "Ada", "age": 36, "address": {"street": "1 Main St", "city": "London"}}},
        "Ada (36) lives at 1 Main St, London",
    ),
    (
        "describe_person",
        {
            "person": {
                "name": "Bo",
                "age": 5,
                "address": {"street": "2 High St", "city": "Leeds", "zip": "LS1"},
                "tags": ["x", "y"],
            }
        },
        "Bo (5) lives at 2 High St, Leeds LS1 [tags: x,y]",
    ),
    ("ping", {}, "pong"),
    ("get-weather", {"city": "Paris"}, "Paris: 20C x1"),
    ("get-weather", {"city": "Oslo", "unit": "f", "days": 3}, "Oslo: 68F x3"),
    ("class", {"name": "Foo"}, "class Foo"),
    ("query", {"from": "a"}, '{"from": "a", "lambda": 0.5, "max-results": 3}'),
    ("query", {"from": "b", "lambda": 2, "max-results": 10}, '{"from": "b", "lambda": 2.0, "max-results": 10}'),
    ("sleep", {"seconds": 0}, "slept 0.0"),
    ("get_env", {"name": "VENDORGEN_SURELY_UNSET_VAR"}, "<unset>"),
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", choices=["stdio", "http", "sse"], nargs="?", default="stdio")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    mcp.settings.host = args.host
    mcp.settings.port = args.port
    mcp.run({"stdio": "stdio", "http": "streamable-http", "sse": "sse"}[args.transport])


if __name__ == "__main__":
    main()
