"""The review comments a generated module carries: one line above each class attribute (or module constant) whose
text vendorgen's own rules flag medium or high, so a pull request's diff shows the flag beside the text.

Only the built-in rules: generated code depends on the snapshot and vendorgen's version, never on a
project's review settings (`vendorgen review` applies those). Low flags (a URL) are left to `vendorgen review`.
"""

from __future__ import annotations

from vendorgen.model import ModuleSpec, ToolSpec
from vendorgen.review import Flag
from vendorgen.review.rules import builtin
from vendorgen.review.scan import scan
from vendorgen.review.texts import Text, tool_texts

SHOWN = ("high", "medium")


def tool_notes(tool: ToolSpec) -> dict[str, list[str]]:
    """{class attribute: its comment lines} for one tool."""
    attributes = tool.class_attributes()
    notes: dict[str, list[str]] = {}
    for flag in _shown(scan("", tool_texts(tool), {}, builtin())):
        head = flag.field.split(".")[0].split("[")[0]
        notes.setdefault(head if head in attributes else "name", []).append(_line(flag))
    return notes


def module_notes(module: ModuleSpec) -> dict[str, list[str]]:
    """{module constant: its comment lines}: the server's instructions."""
    constants = module.constants_dict()
    instructions = constants.get("INSTRUCTIONS")
    if not isinstance(instructions, str):
        return {}
    flags = _shown(scan("", [Text("", "server.instructions", instructions)], {}, builtin()))
    return {"INSTRUCTIONS": [_line(flag) for flag in flags]} if flags else {}


def _shown(flags: list[Flag]) -> list[Flag]:
    return [flag for flag in flags if flag.severity in SHOWN]


def _line(flag: Flag) -> str:
    """No remote text but the field path (escaped by the template's `comment` filter)."""
    message = builtin().rules[flag.rule].message
    return f"review: {flag.severity} {flag.rule} in {flag.field}: {message}"
