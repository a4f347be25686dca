"""What changed between two versions of a module, in lines a reviewer reads.

`+` added, `-` removed, `~` changed. Tools are matched by their remote name and
parameters by their wire name, so a rename upstream reads as one removed and one
added. Remote text is shown as escaped Python literals: a description cannot
smuggle terminal escapes into the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vendorgen.errors import SchemaError
from vendorgen.model import NO_DEFAULT, InputSpec, ModuleSpec, ToolSpec
from vendorgen.text.literals import python_literal

MAX_SHOWN = 80  # characters of a value before it is cut
MAX_SNAPSHOT_LINES = 20

_TOOL_FIELDS = ("name", "class_name", "description", "output_type", "return_annotation", "output_schema")
_INPUT_FIELDS = ("name", "type", "enum", "default", "accepts_null", "description", "schema")


def describe(old: ModuleSpec, new: ModuleSpec) -> list[str]:
    """Every difference between two specs of one module; [] when they generate the same tools."""
    lines = [f"~ {line}" for line in _changed("revision", old.revision, new.revision)]
    lines += _changed_mapping("module constant", old.constants_dict(), new.constants_dict())
    old_tools = {tool.endpoint: tool for tool in old.tools}
    new_tools = {tool.endpoint: tool for tool in new.tools}
    for endpoint, tool in old_tools.items():
        if endpoint not in new_tools:
            lines.append(f"- tool {tool.name} ({_show(endpoint)})")
    for endpoint, tool in new_tools.items():
        if endpoint not in old_tools:
            lines.append(f"+ tool {tool.name} ({_show(endpoint)}): {_show(tool.description)}")
            continue
        if changes := _tool_changes(old_tools[endpoint], tool):
            lines.append(f"~ tool {tool.name} ({_show(endpoint)}):")
            lines += [f"    {line}" for line in changes]
    return lines


def _tool_changes(old: ToolSpec, new: ToolSpec) -> list[str]:
    lines: list[str] = []
    for field in _TOOL_FIELDS:
        lines += [f"~ {line}" for line in _changed(field.replace("_", " "), getattr(old, field), getattr(new, field))]
    lines += _changed_mapping("constant", dict(old.constants), dict(new.constants))
    old_inputs = {spec.wire_name: spec for spec in old.inputs}
    new_inputs = {spec.wire_name: spec for spec in new.inputs}
    for wire in old_inputs:
        if wire not in new_inputs:
            lines.append(f"- parameter {_show(wire)}")
    for wire, spec in new_inputs.items():
        if wire not in old_inputs:
            lines.append(f"+ parameter {_show(wire)}: {_summary(spec)}")
        else:
            lines += [f"~ parameter {_show(wire)}: {line}" for line in _input_changes(old_inputs[wire], spec)]
    kept = [wire for wire in old_inputs if wire in new_inputs]
    if kept != [wire for wire in new_inputs if wire in old_inputs]:
        lines.append("~ parameter order: " + ", ".join(spec.name for spec in new.inputs))
    return lines


def _input_changes(old: InputSpec, new: InputSpec) -> list[str]:
    lines = []
    if old.required != new.required:
        lines.append("now required" if new.required else "now optional")
    for field in _INPUT_FIELDS:
        lines += _changed(field.replace("_", " "), getattr(old, field), getattr(new, field))
    return lines


def _summary(spec: InputSpec) -> str:
    kind = " | ".join(spec.type) if isinstance(spec.type, tuple) else spec.type
    text = f"{kind}, required" if spec.required else f"{kind}, default {_show(spec.default)}"
    return f"{text}, enum {_show(spec.enum)}" if spec.enum is not None else text


def _changed(what: str, old: Any, new: Any) -> list[str]:
    return [] if old == new else [f"{what} {_show(old)} -> {_show(new)}"]


def _changed_mapping(what: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Keys removed, added and changed; a changed dict or list by what differs inside it (cut to
    MAX_SHOWN, two long values would read the same on both sides of the arrow)."""
    lines = [f"- {what} {key}" for key in old if key not in new]
    lines += [f"+ {what} {key} = {_show(new[key])}" for key in new if key not in old]
    for key in new:
        if key not in old or old[key] == new[key]:
            continue
        if isinstance(old[key], (dict, list)) and isinstance(new[key], type(old[key])):
            lines += _json_changes(old[key], new[key], f"{what} {key}")
        else:
            lines.append(f"~ {what} {key}: {_show(old[key])} -> {_show(new[key])}")
    return lines


def snapshot_changes(old: Any, new: Any) -> list[str]:
    """A JSON-path diff of two snapshots, for changes the specs do not show."""
    lines = list(_json_changes(old, new, "snapshot"))
    if len(lines) > MAX_SNAPSHOT_LINES:
        lines = lines[:MAX_SNAPSHOT_LINES] + [f"... and {len(lines) - MAX_SNAPSHOT_LINES} more"]
    return lines


def _json_changes(old: Any, new: Any, path: str) -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        lines = [f"- {_member(path, key)}" for key in old if key not in new]
        lines += [f"+ {_member(path, key)}: {_show(new[key])}" for key in new if key not in old]
        for key in old.keys() & new.keys():
            lines += _json_changes(old[key], new[key], _member(path, key))
        return sorted(lines, key=lambda line: line[2:])
    if isinstance(old, list) and isinstance(new, list):  # item by item; the longer one's rest added or removed
        lines = [line for index, pair in enumerate(zip(old, new)) for line in _json_changes(*pair, f"{path}[{index}]")]
        lines += [f"- {path}[{index}]" for index in range(len(new), len(old))]
        return lines + [f"+ {path}[{index}]: {_show(new[index])}" for index in range(len(old), len(new))]
    return [] if old == new and type(old) is type(new) else [f"~ {path}: {_show(old)} -> {_show(new)}"]


def _member(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() and key.isascii() else f"{path}[{_show(key)}]"


def _show(value: Any) -> str:
    """A value as an escaped literal, cut to MAX_SHOWN characters."""
    if value is NO_DEFAULT:
        return "(none)"
    try:
        text = python_literal(value)
    except (ValueError, SchemaError):  # NaN, a non-string key: no literal, so Python's own form
        text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
