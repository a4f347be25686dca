"""An MCP tool's annotations as a reviewer and `serve --read-only` read them, with the spec's defaults.

The spec's defaults (2025-06-18, ToolAnnotations): readOnlyHint false, destructiveHint true,
idempotentHint false, openWorldHint true, so a tool without annotations may change or delete data
and talks to the outside world. They are hints a server gives about itself: a reviewer's reading,
never a guarantee.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# hint -> (the generated class attribute, the spec's default)
HINTS = {
    "readOnlyHint": ("read_only_hint", False),
    "destructiveHint": ("destructive_hint", True),
    "idempotentHint": ("idempotent_hint", False),
    "openWorldHint": ("open_world_hint", True),
}


@dataclass(frozen=True)
class Behaviour:
    read_only: bool
    destructive: bool  # meaningful only when not read-only (the spec's rule)
    idempotent: bool
    open_world: bool
    declared: frozenset[str]  # the hints the server gave

    def constants(self) -> tuple[tuple[str, bool], ...]:
        """The generated class's attributes, one per hint (the spec's default where the server gave none)."""
        values = (self.read_only, self.destructive, self.idempotent, self.open_world)
        return tuple((attribute, value) for (attribute, _), value in zip(HINTS.values(), values))

    def words(self) -> str:
        """One sentence for the docstring: read-only / may delete / talks to the outside world."""
        if self.read_only:
            what = "Read-only: it changes nothing"
        elif self.destructive:
            what = "May delete or overwrite data"
        else:
            what = "May change data, but only adds to it (not destructive)"
            what += "; repeating a call changes nothing more" if self.idempotent else ""
        world = "talks to the outside world" if self.open_world else "works in a closed domain"
        if not self.declared:
            return f"{what}; {world}.\n(The server gives no annotations: these are the MCP spec's defaults.)"
        gave = ", ".join(name for name in HINTS if name in self.declared)
        return f"{what}; {world}.\n(As its annotations say: {gave}; hints, not guarantees.)"


def behaviour(annotations: Mapping[str, Any] | None) -> Behaviour:
    """What `annotations` (an MCP tool's, None when absent) say, with the spec's defaults for what they leave out.

    A hint that is not a boolean counts as absent.
    """
    given = {name: value for name, value in (annotations or {}).items() if name in HINTS and isinstance(value, bool)}
    value = {name: given.get(name, default) for name, (_, default) in HINTS.items()}
    if value["readOnlyHint"]:  # the spec: destructiveHint means something only for a tool that is not read-only
        value["destructiveHint"] = False
    return Behaviour(value["readOnlyHint"], value["destructiveHint"], value["idempotentHint"],
                     value["openWorldHint"], frozenset(given))  # fmt: skip


def read_only_tools(snapshot: Mapping[str, Any]) -> set[str]:
    """The remote names of the tools an MCP snapshot pins as read-only (readOnlyHint true); `serve --read-only`."""
    found = set()
    tools = snapshot.get("tools")
    for raw in tools if isinstance(tools, list) else ():
        annotations = raw.get("annotations") if isinstance(raw, Mapping) else None
        if isinstance(annotations, Mapping) and annotations.get("readOnlyHint") is True and isinstance(raw.get("name"), str):
            found.add(raw["name"])
    return found
