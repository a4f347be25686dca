"""LangChain tools the tests vendor with `vendorgen add langchain:tests.servers.langchain_tools:<attr>`.

One of each shape `<attr>` may have: a `@tool` function, a `StructuredTool` with a pydantic
args_schema, a `StructuredTool` with a JSON-schema dict (names that are not identifiers), a
`BaseTool` subclass built with no arguments, a toolkit (instance and class), factories, and a
tool with an injected argument. Everything is deterministic; `CALLS` records every call so a
test can see exactly what each tool received.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Optional

from langchain_core.tools import BaseTool, BaseToolkit, InjectedToolArg, StructuredTool, tool
from pydantic import BaseModel, Field

CALLS: list[tuple[str, dict[str, Any]]] = []


@tool(parse_docstring=True)
def search_docs(query: str, limit: int = 3, tags: Optional[list[str]] = None,
                mode: Literal["fast", "exact"] = "fast") -> str:  # fmt: skip
    """Search the documentation.

    Args:
        query: What to look for.
        limit: How many hits to return.
        tags: Only hits with all of these tags.
        mode: How to match the query.
    """
    CALLS.append(("search_docs", {"query": query, "limit": limit, "tags": tags, "mode": mode}))
    hits = [f"{query}#{i}" for i in range(limit)]
    return f"{mode}: {', '.join(hits)}" + (f" [{','.join(tags)}]" if tags else "")


class Address(BaseModel):
    """Where to deliver."""

    street: str = Field(description="Street and number")
    city: str = Field(description="City")
    zip_code: Optional[str] = Field(default=None, description="Postal code, if known")


class OrderInput(BaseModel):
    item: str = Field(description="What to order")
    quantity: int = Field(default=1, ge=1, description="How many")
    address: Address = Field(description="Delivery address")
    note: Optional[str] = Field(default=None, description="A note for the courier")
    express: Optional[bool] = Field(default=None, description="Deliver today")


def _place_order(item: str, address: Address | dict, quantity: int = 1, note: str | None = None,
                 express: bool | None = None) -> str:  # fmt: skip
    address = address if isinstance(address, dict) else address.model_dump()
    CALLS.append(("place_order", {"item": item, "quantity": quantity, "address": address, "note": note,
                                  "express": express}))  # fmt: skip
    where = f"{address['street']}, {address['city']}" + (f" {address['zip_code']}" if address.get("zip_code") else "")
    text = f"{quantity} x {item} to {where}"
    if express:
        text += " (express)"
    if note:
        text += f" - {note}"
    return text


place_order = StructuredTool.from_function(
    func=_place_order,
    name="place_order",
    description="Place an order for delivery.",
    args_schema=OrderInput,
)


def _raw_query(**kwargs: Any) -> str:
    CALLS.append(("raw-query", dict(kwargs)))
    return json.dumps(kwargs, sort_keys=True)


# A JSON-schema args_schema: property names a Python function could not take.
raw_query = StructuredTool.from_function(
    func=_raw_query,
    name="raw-query",
    description="Query with names that are keywords or not identifiers.",
    args_schema={
        "type": "object",
        "properties": {
            "from": {"type": "string", "description": "Start"},
            "max-results": {"type": "integer", "default": 5, "description": "Limit"},
            "class": {"type": "string", "enum": ["a", "b"], "description": "Kind"},
        },
        "required": ["from"],
    },
)


class CalculatorInput(BaseModel):
    a: float = Field(description="Left operand")
    b: float = Field(description="Right operand")
    op: Literal["add", "sub", "mul", "div"] = Field(default="add", description="Operation")


class Calculator(BaseTool):
    """A BaseTool subclass that needs no constructor arguments."""

    name: str = "calculator"
    description: str = "Do arithmetic on two numbers."
    args_schema: type[BaseModel] = CalculatorInput

    def _run(self, a: float, b: float, op: str = "add", **kwargs: Any) -> float:
        CALLS.append(("calculator", {"a": a, "b": b, "op": op}))
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]


@tool
def word_count(text: str) -> int:
    """Count the words in a text."""
    CALLS.append(("word_count", {"text": text}))
    return len(text.split())


@tool
def reverse(text: str) -> str:
    """Reverse a text."""
    CALLS.append(("reverse", {"text": text}))
    return text[::-1]


class TextToolkit(BaseToolkit):
    """Two text tools."""

    def get_tools(self) -> list[BaseTool]:
        return [word_count, reverse]


text_toolkit = TextToolkit()


@tool
def whoami(greeting: str, user_id: Annotated[str, InjectedToolArg] = "anonymous") -> str:
    """Greet the current user. The user id is injected by the application, never by the model."""
    CALLS.append(("whoami", {"greeting": greeting, "user_id": user_id}))
    return f"{greeting}, {user_id}"


@tool
def needs_user(text: str, user_id: Annotated[str, InjectedToolArg]) -> str:
    """Needs an injected user id that only a LangChain runtime can give."""
    return f"{user_id}: {text}"


@tool
def shorten(text: str, max_len: Optional[int] = 10, marks: Optional[list[str]] = ["+"]) -> str:  # noqa: B006
    """Cut a text to max_len characters (None: no limit), then append the marks (None: none)."""
    return text[:max_len] + "".join(marks or [])


class AliasedInput(BaseModel):
    query: str = Field(alias="q", description="What to look for")
    page_size: int = Field(default=10, alias="pageSize", description="Hits per page")


def _aliased(query: str, page_size: int = 10) -> str:
    CALLS.append(("aliased", {"query": query, "page_size": page_size}))
    return f"{query}:{page_size}"


# Required and defaulted fields with aliases: `.invoke()` takes the aliases.
aliased = StructuredTool.from_function(func=_aliased, name="aliased", description="Search, with aliased fields.",
                                       args_schema=AliasedInput)  # fmt: skip


async def _fetch_later(url: str, retries: int = 1) -> str:
    CALLS.append(("fetch_later", {"url": url, "retries": retries}))
    return f"fetched {url} ({retries})"


# Only `.ainvoke()` runs it: `.invoke()` raises NotImplementedError.
fetch_later = StructuredTool.from_function(coroutine=_fetch_later, name="fetch_later", description="Fetch, asynchronously.")


class Shape(BaseModel):
    """A box."""

    width: float = Field(description="Width in cm")
    height: float = Field(description="Height in cm")


@tool
def measure(target: Annotated[int | list[int] | Shape, Field(description="An id, several ids, or a shape")]) -> str:
    """Measure one thing: a union of an integer, a list and an object."""
    CALLS.append(("measure", {"target": target if not isinstance(target, Shape) else target.model_dump()}))
    return repr(target)


@tool("Python_REPL")
def python_repl(command: str) -> str:
    """Named like langchain-experimental's PythonREPLTool (mixed case)."""
    return command


def make_calculator() -> BaseTool:
    """A zero-argument factory returning one tool."""
    return Calculator()


def make_toolkit() -> BaseToolkit:
    """A zero-argument factory returning a toolkit."""
    return TextToolkit()


def make_tools() -> list[BaseTool]:
    """A zero-argument factory returning a list of tools."""
    return [search_docs, whoami]


def needs_arguments(flavour: str) -> BaseTool:
    return search_docs


not_a_tool = 42
