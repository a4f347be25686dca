"""The comment CI posts on a pull request: `vendorgen review --format markdown [--base REF]`.

One comment: the flags (high first; new ones marked against the base), the tools added, removed and
changed, the annotation flips and changed texts (`changes.review_changes`), and the silenced flags with
their reasons. Every piece of remote text is made visible and escaped: a description cannot add markup,
links, images or hidden HTML comments to the page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from vendorgen.review import severity_rank
from vendorgen.review.changes import review_changes
from vendorgen.review.project import ModuleReview, built
from vendorgen.review.scan import visible
from vendorgen.review.specdiff import describe

if TYPE_CHECKING:
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.project.workspace import Workspace
    from vendorgen.review.base import Base

MAX_ROWS = 50  # flags shown in the table; the rest are counted
# What markdown or HTML reads in a table cell: emphasis, code, links, images, tags, entities, cells; `:` and `@`
# because GitHub links URLs and e-mail addresses by themselves, and mentions (notifies) @names.
_MARKDOWN = set("\\`*_{}[]#!|<>&\"~:@")


def md(text: str) -> str:
    """Remote text as inert markdown: visible, one line, every character markdown or HTML reads as an entity."""
    escaped = "".join(f"&#{ord(char)};" if char in _MARKDOWN else char for char in visible(text))
    return re.sub(r"(?i)(www)\.", r"\1&#46;", escaped)  # GitHub links www.host by itself too


def summary(
    workspace: Workspace,
    entries: Sequence[LockEntry],
    reviews: Sequence[ModuleReview],
    base: Base | None,
    base_reviews: Sequence[ModuleReview] = (),
) -> str:
    flags = [flag for review in reviews for flag in review.flags]
    active = sorted((flag for flag in flags if flag.active), key=lambda flag: severity_rank(flag.severity))
    before = {flag.key for review in base_reviews for flag in review.flags}
    counts = {level: sum(flag.severity == level for flag in active) for level in ("high", "medium", "low")}
    against = f" against <code>{md(base.revision)}</code>" if base is not None else ""
    lines = ["## vendorgen review", ""]
    headline = ", ".join(f"{count} {level}" for level, count in counts.items())
    verdict = "**needs a close look**" if counts["high"] else "no high flag"
    modules = f"{len(entries)} vendored module{'s' * (len(entries) != 1)}"
    lines += [f"{verdict}: {headline} flags in {modules}{against}.", ""]
    if base is not None:
        lines += _changes(workspace, entries, base)
    if active:
        lines += ["### Flags", "", "| | severity | where | field | rule | excerpt |", "|---|---|---|---|---|---|"]
        for flag in active[:MAX_ROWS]:
            new = "new" if base is not None and flag.key not in before else ""
            lines.append(f"| {new} | {flag.severity} | <code>{md(flag.where)}</code> | <code>{md(flag.field)}</code> | {flag.rule} "
                         f"| {md(flag.excerpt)} |")  # fmt: skip
        if len(active) > MAX_ROWS:
            lines.append(f"\n... and {len(active) - MAX_ROWS} more: `vendorgen review` lists them all.")
        lines.append("")
    silenced = [flag for flag in flags if not flag.active]
    if silenced:
        lines += [f"<details><summary>{len(silenced)} silenced flags</summary>", ""]
        lines += [f"- <code>{md(flag.where)}</code> <code>{md(flag.field)}</code> {flag.rule}: silenced: {md(flag.silenced or '')}"
                  for flag in silenced]  # fmt: skip
        lines += ["", "</details>", ""]
    errors = [review for review in reviews if review.error]
    lines += [f"- {md(review.name)}: {md(review.error or '')}" for review in errors]
    lines.append("<sub>Offline, from the committed snapshots: `vendorgen review --format markdown`.</sub>")
    return "\n".join(lines) + "\n"


def _changes(workspace: Workspace, entries: Sequence[LockEntry], base: Base) -> list[str]:
    old_names = {entry.name for entry in base.entries}
    new_names = {entry.name for entry in entries}
    rows: list[str] = []
    callouts: list[str] = []
    for entry in base.entries:
        if entry.name not in new_names:
            rows.append(f"| <code>{md(entry.name)}</code> | | module removed |")
    for entry in entries:
        snapshot = workspace.read_snapshot(entry)
        new = _built(workspace, snapshot)
        if new is None:
            continue
        if entry.name not in old_names or entry.name not in base.snapshots:
            for tool in new.tools:
                rows.append(f"| <code>{md(entry.name)}</code> | <code>{md(tool.name)}</code> | added{_words(tool.behaviour)} |")
            continue
        old_snapshot = base.snapshots[entry.name]
        old = _built(workspace, old_snapshot)
        if old is None:
            continue
        old_tools = {tool.endpoint: tool for tool in old.tools}
        new_tools = {tool.endpoint: tool for tool in new.tools}
        rows += [f"| <code>{md(entry.name)}</code> | <code>{md(tool.name)}</code> | removed |" for key, tool in old_tools.items()
                 if key not in new_tools]  # fmt: skip
        for key, tool in new_tools.items():
            if key not in old_tools:
                rows.append(f"| <code>{md(entry.name)}</code> | <code>{md(tool.name)}</code> | added{_words(tool.behaviour)} |")
        changed = describe(old, new)
        for key, tool in new_tools.items():
            if key in old_tools and any(line.startswith(f"~ tool {tool.name} ") for line in changed):
                rows.append(f"| <code>{md(entry.name)}</code> | <code>{md(tool.name)}</code> | changed |")
        if old.constants_dict().get("INSTRUCTIONS") != new.constants_dict().get("INSTRUCTIONS"):
            rows.append(f"| <code>{md(entry.name)}</code> | | the server's instructions changed |")
        callouts += [f"- <code>{md(entry.name)}</code>: {md(line.removeprefix('! '))}"
                     for line in review_changes(old, old_snapshot, new, snapshot) if " flag: " not in line]  # fmt: skip
    lines: list[str] = []
    if rows:
        lines += ["### Tools", "", "| module | tool | |", "|---|---|---|", *rows, ""]
    else:
        lines += ["No tool added, removed or changed.", ""]
    if callouts:
        lines += ["### Annotation flips and changed texts", "", *callouts, ""]
    return lines


def _built(workspace: Workspace, snapshot: dict[str, Any]) -> Any:
    try:
        return built(workspace, snapshot)
    except Exception:  # noqa: BLE001 - reported by the review's own error line
        return None


def _words(behaviour: str) -> str:
    return f": {md(behaviour)}" if behaviour else ""

