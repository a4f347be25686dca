"""`vendorgen review`: what a model reads of the vendored tools, flagged, offline (the work is in vendorgen.review)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from vendorgen.cli.context import _complete_names, _workspace
from vendorgen.cli.output import _json_mode, _report, _say
from vendorgen.errors import UsageError
from vendorgen.review import severity_rank

if TYPE_CHECKING:
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.review import Flag
    from vendorgen.review.project import ModuleReview


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--json", "as_json", is_flag=True, help="Print the flags as JSON.")
@click.option("--format", "output_format", type=click.Choice(["text", "markdown"]), default="text", show_default=True,
              help="markdown: the comment CI posts on a pull request.")  # fmt: skip
@click.option("--base", metavar="REF", help="Compare with what the git revision REF vendors (e.g. origin/main).")
def review(names: tuple[str, ...], as_json: bool, output_format: str, base: str | None) -> None:
    """Flag what a model reads of the vendored tools; exit 1 when a flag is high.

    Reads every text a model reads (descriptions, parameter descriptions, enum
    values, defaults, titles, an MCP server's instructions and prompts) from
    the committed snapshots, offline, and flags invisible characters, text
    addressed to the model (hidden instructions, demands to read files or
    secrets or send data elsewhere), mentions of other vendored modules' tools,
    URLs, e-mail addresses and paths, long descriptions, and what MCP
    annotations say a tool may do. [tool.vendorgen.review] adds rules, changes
    severities and silences flags with a reason.

    \b
    Examples:
      vendorgen review
      vendorgen review text_tools --json
      vendorgen review --format markdown --base origin/main   # CI, on a pull request
    """
    # Start-up: reviewing builds modules with the kinds and reads the lock: loaded when the command runs.
    from vendorgen.review.project import review_entries
    from vendorgen.sync.local import select

    if as_json:
        if output_format != "text":
            raise UsageError("--json and --format markdown contradict each other: pick one output")
        _json_mode("review")
    workspace = _workspace()
    entries = workspace.read_lock()
    chosen = select(entries, names)
    reviews = review_entries(workspace, chosen, entries)
    high = any(review.high or review.error for review in reviews)
    if output_format == "markdown":
        # Start-up: git and the summary's diffs, for --format markdown alone.
        from vendorgen.review.base import read_base
        from vendorgen.review.markdown import summary

        found = read_base(workspace, base) if base else None
        if found is not None and names:  # the modules named, as they were there
            found = replace(found, entries=[entry for entry in found.entries if entry.name in names])
        before = _base_reviews(workspace, found, names) if found else []
        _say(summary(workspace, chosen, reviews, found, before), nl=False)
    elif base:
        raise UsageError("--base applies to --format markdown")
    elif as_json:
        paths = {entry.name: entry for entry in chosen}
        rows = [_row(paths[review.name], review) for review in reviews]
        errors = [{"message": review.error, "modules": [review.name]} for review in reviews if review.error]
        _report(workspace, not high, rows, errors)
    else:
        _say(text(reviews, chosen), nl=False)
    if high:
        sys.exit(1)


def _base_reviews(workspace: Any, base: Any, names: Sequence[str]) -> list[ModuleReview]:
    from vendorgen.review.project import review_snapshot, rules_of  # start-up, as in `review`

    rules = rules_of(workspace)
    return [review_snapshot(workspace, entry.name, base.snapshots[entry.name], base.entries, rules)
            for entry in base.entries if entry.name in base.snapshots and (not names or entry.name in names)]  # fmt: skip


def _row(entry: LockEntry, review: ModuleReview) -> dict[str, Any]:
    status = "error" if review.error else "flagged" if review.active else "clean"
    return {"name": entry.name, "path": entry.path, "source": entry.source, "status": status,
            "flags": [flag.to_json() for flag in review.flags]}  # fmt: skip


def text(reviews: Sequence[ModuleReview], entries: Sequence[LockEntry]) -> str:
    paths = {entry.name: entry.path for entry in entries}
    lines = []
    for review in reviews:
        if review.error:
            lines.append(f"{review.name} ({paths[review.name]}): {review.error}")
        if review.flags:
            lines.append(f"{review.name} ({paths[review.name]}):")
            lines += [f"  {line}" for line in flag_lines(review.flags)]
    lines.append(totals([flag for review in reviews for flag in review.flags], len(reviews)))
    return "\n".join(lines) + "\n"


def flag_lines(flags: Sequence[Flag]) -> list[str]:
    """Highest first, silenced last."""
    ordered = sorted(flags, key=lambda flag: (not flag.active, severity_rank(flag.severity)))
    return [flag.line() for flag in ordered]


def totals(flags: Sequence[Flag], modules: int) -> str:
    active = [flag for flag in flags if flag.active]
    counts = ", ".join(f"{sum(flag.severity == level for flag in active)} {level}" for level in ("high", "medium", "low"))
    silenced = len(flags) - len(active)
    tail = f" ({silenced} silenced)" if silenced else ""
    return f"review: {counts} flags in {modules} vendored module{'s' * (modules != 1)}{tail}"


def brought_in(workspace: Any, name: str, module: Any, snapshot: dict[str, Any]) -> list[Flag]:
    """The flags of what `add` or `update` brings in (for its report)."""
    from vendorgen.review.project import review_generated  # start-up, as in `review`

    return review_generated(workspace, name, module, snapshot)


def say_flags(name: str, flags: Sequence[Flag]) -> None:
    """`add` and `update`: the high and medium flags of a module they bring in, one a line, and how many low ones."""
    active = [flag for flag in flags if flag.active]
    if not active:
        return
    shown = [flag for flag in active if flag.severity in ("high", "medium")]
    counts = ", ".join(f"{count} {level}" for level in ("high", "medium", "low")
                       if (count := sum(flag.severity == level for flag in active)))  # fmt: skip
    more = f" (`vendorgen review {name}` lists them all)" if len(shown) < len(active) else ""
    _say(f"review of {name}: {counts} flag{'s' * (len(active) != 1)}{more}")
    if shown:
        _say("\n".join(f"  {line}" for line in flag_lines(shown)))
