"""What a new version of a module changes for a reviewer, said before the schema details.

`check --remote`, `diff` and `update` print these lines first (`vendorgen.sync.remote.upstream_changes`):
an annotation that flips (readOnlyHint true -> false), a description or the server's instructions that
change (the text added and removed, invisible characters made visible), and every flag the new version
has that the old one had not. Lines start with `!`, apart from the `+`/`-`/`~` of the schema summary.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vendorgen import sources
from vendorgen.model import ModuleSpec, ToolSpec
from vendorgen.review import Flag, severity_rank
from vendorgen.review.annotations import HINTS, Behaviour, behaviour
from vendorgen.review.rules import builtin
from vendorgen.review.scan import ALONE, scan, visible
from vendorgen.review.texts import module_texts

MAX_SHOWN = 160


def review_changes(
    old: ModuleSpec, old_snapshot: Mapping[str, Any], new: ModuleSpec, new_snapshot: Mapping[str, Any]
) -> list[str]:
    lines: list[str] = []
    old_annotations = sources.load(old.kind).tool_annotations(old, dict(old_snapshot))
    new_annotations = sources.load(new.kind).tool_annotations(new, dict(new_snapshot))
    old_tools = {tool.endpoint: tool for tool in old.tools}
    for tool in new.tools:
        before = old_tools.get(tool.endpoint)
        if before is None:
            if tool.behaviour:
                lines.append(f"! new tool {tool.name}: {' '.join(tool.behaviour.split())}")
            continue
        lines += _annotation_changes(tool, old_annotations.get(before.name), new_annotations.get(tool.name))
        lines += _description_changes(before, tool)
    old_text, new_text = old_snapshot.get("instructions"), new_snapshot.get("instructions")
    if old_text != new_text:
        lines += [f"! the server's instructions changed: {change}" for change in text_change(_str(old_text), _str(new_text))]
    lines += [f"! new {flag.severity} flag: {_where(flag)}: {flag.rule}: {flag.message}: {flag.excerpt}"
              for flag in new_flags(old, old_snapshot, new, new_snapshot)]  # fmt: skip
    return lines


def new_flags(
    old: ModuleSpec, old_snapshot: Mapping[str, Any], new: ModuleSpec, new_snapshot: Mapping[str, Any]
) -> list[Flag]:
    """The flags (vendorgen's own rules) of `new` that `old` did not have, highest first."""
    before = {_key(flag) for flag in _flags(old, old_snapshot)}
    added = [flag for flag in _flags(new, new_snapshot) if _key(flag) not in before]
    return sorted(added, key=lambda flag: severity_rank(flag.severity))


def _flags(module: ModuleSpec, snapshot: Mapping[str, Any]) -> list[Flag]:
    source = sources.load(module.kind)
    texts = module_texts(module, snapshot, source)
    return scan(module.name, texts, source.tool_annotations(module, dict(snapshot)), builtin(), ALONE)


def _key(flag: Flag) -> tuple[str, str, str]:
    return (flag.tool, flag.field, flag.rule)


def _where(flag: Flag) -> str:
    return f"{flag.tool} {flag.field}" if flag.tool else flag.field


def _annotation_changes(tool: ToolSpec, old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> list[str]:
    if old == new:
        return []
    was, now = behaviour(old), behaviour(new)
    flips = []
    for hint, (attribute, _) in HINTS.items():
        before, after = getattr(was, attribute.removesuffix("_hint")), getattr(now, attribute.removesuffix("_hint"))
        if before != after:
            flips.append(f"{hint} {_hint(before, hint, was)} -> {_hint(after, hint, now)}")
    if not flips:
        return []
    now_said = " ".join(tool.behaviour.split())
    return [f"! tool {tool.name}: annotation {flip}" for flip in flips] + [f"! tool {tool.name} now: {now_said}"]


def _hint(value: bool, hint: str, said: Behaviour) -> str:
    if hint == "destructiveHint" and said.read_only:
        return "false (read-only)"
    return str(value).lower() + ("" if hint in said.declared else " (by default)")


def _description_changes(old: ToolSpec, new: ToolSpec) -> list[str]:
    lines = [f"! tool {new.name}: description changed: {change}" for change in text_change(old.description, new.description)]
    old_inputs = {spec.wire_name: spec for spec in old.inputs}
    for spec in new.inputs:
        before = old_inputs.get(spec.wire_name)
        if before is not None and before.description != spec.description:
            lines += [f"! tool {new.name}: description of {visible(spec.wire_name)} changed: {change}"
                      for change in text_change(before.description, spec.description)]  # fmt: skip
    return lines


def text_change(old: str, new: str) -> list[str]:
    """What `new` adds to and removes from `old`, as the span between their common start and end."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    removed, added = old[start : len(old) - end], new[start : len(new) - end]
    return [f"{sign} '{_cut(visible(text))}'" for sign, text in (("removed", removed), ("added", added)) if text]


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
