"""Bounds on the work a remote listing can ask of vendorgen.

A hostile or broken source can make inspection arbitrarily slow and large: a
`$defs` chain whose entries each refer to the next twice doubles with every link
(4·2^N nodes from a few KB), a 300 MB description or 20,000 tools each cost
minutes and gigabytes. Every source checks what it read against these limits
and fails with one error that names the limit and how to raise it. Each can be
raised through its environment variable (a positive whole number).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vendorgen.errors import SchemaError, UsageError


@dataclass(frozen=True)
class Limit:
    env: str
    default: int
    unit: str

    def value(self) -> int:
        text = os.environ.get(self.env, "")
        if not text:
            return self.default
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise UsageError(f"{self.env} must be a positive whole number of {self.unit}, not {text!r}")
        return value

    def check(self, amount: int, what: str) -> None:
        """Refuse `amount` (of `what`) above the limit."""
        if amount > (limit := self.value()):
            raise SchemaError(self.exceeded(what, f"{amount:,}", limit))

    def exceeded(self, what: str, amount: str, limit: int) -> str:
        return (
            f"{what} has {amount} {self.unit}, over vendorgen's limit of {limit:,}"
            f" (set {self.env} to raise it if you trust the source)"
        )


# A listing as the source sent it (Gradio's API info, an MCP tools/list, LangChain schemas, a hub tool.py).
LISTING_BYTES = Limit("VENDORGEN_MAX_LISTING_BYTES", 20_000_000, "bytes")
# Tools (MCP tools, LangChain tools, Gradio endpoints, Spaces of a collection) in one listing.
TOOLS = Limit("VENDORGEN_MAX_TOOLS", 1_000, "tools")
# JSON values in one tool's input schema once its `$ref`s are inlined; counted while inlining. The
# generated code grows with it and black's time more than linearly (a 8,000-node schema: a 750 KB
# module, about a minute), so the default is far above real schemas (hundreds to a few thousand)
# and far below that.
SCHEMA_NODES = Limit("VENDORGEN_MAX_SCHEMA_NODES", 10_000, "nodes")
# The same JSON values summed over every tool of one listing (an MCP server's tools, a LangChain
# toolkit, the chosen endpoints of a Gradio app): many tools each just under SCHEMA_NODES would
# otherwise add up without bound (1,000 tools, 10 million nodes, one module). Real servers of 100-150
# tools stay in the low tens of thousands.
LISTING_SCHEMA_NODES = Limit("VENDORGEN_MAX_LISTING_SCHEMA_NODES", 50_000, "nodes")
# Characters of one description (of a tool or of a parameter).
DESCRIPTION = Limit("VENDORGEN_MAX_DESCRIPTION_CHARS", 100_000, "characters")


def check_listing(listing: Any, what: str) -> None:
    """Refuse a listing whose JSON text is over LISTING_BYTES (bytes of str, UTF-8 for text)."""
    if isinstance(listing, bytes):
        size = len(listing)
    elif isinstance(listing, str):
        size = len(listing.encode("utf-8", "surrogatepass"))
    else:
        size = len(json.dumps(listing, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
    LISTING_BYTES.check(size, what)


class ReadBudget:
    """LISTING_BYTES, spent as a listing's bytes arrive, so a source that sends without end is cut
    while it sends, not measured once everything is in memory. The first overrun is kept
    (`exceeded`): a client library may catch what its stream raised and report something else
    (a time-out, a closed connection) or even wait on, so `stop`, called once at the first overrun,
    ends the caller's work; the caller then reports `exceeded`."""

    def __init__(self, what: str) -> None:
        self.limit = LISTING_BYTES.value()
        self.left = self.limit
        self.what = what
        self.exceeded: SchemaError | None = None
        self.stop: Callable[[], Any] = lambda: None

    def spend(self, amount: int) -> None:
        self.left -= amount
        if self.left < 0:
            if self.exceeded is None:
                self.exceeded = SchemaError(LISTING_BYTES.exceeded(self.what, f"more than {self.limit:,}", self.limit))
                self.stop()
            raise SchemaError(str(self.exceeded))


def check_description(text: str, what: str) -> str:
    """`text`, refused if it is longer than DESCRIPTION."""
    DESCRIPTION.check(len(text), what)
    return text


class NodeBudget:
    """A limit on nodes (SCHEMA_NODES unless told), spent one node at a time while a schema is
    expanded, so the limit stops the expansion itself rather than measuring its result. A budget
    `within` another (one tool's within its listing's) spends from both."""

    def __init__(
        self, what: str = "the input schema", limit: Limit = SCHEMA_NODES, within: NodeBudget | None = None
    ) -> None:
        self.rule = limit
        self.limit = limit.value()
        self.left = self.limit
        self.what = what
        self.within = within

    def spend(self, nodes: int = 1) -> None:
        self.left -= nodes
        if self.left < 0:
            raise SchemaError(
                self.rule.exceeded(f"{self.what} (its $refs inlined)", f"more than {self.limit:,}", self.limit)
            )
        if self.within is not None:
            self.within.spend(nodes)


def listing_budget(what: str) -> NodeBudget:
    """The LISTING_SCHEMA_NODES budget of one listing; `what` names the source in the error."""
    return NodeBudget(f"the listing of {what}", LISTING_SCHEMA_NODES)
