"""Keeping vendored modules in sync: `check`, `update`, `diff`, `remove` (the work is in vendorgen.sync)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from vendorgen.cli import report
from vendorgen.cli.context import _complete_names, _refuse_together, _workspace
from vendorgen.cli.output import _counter, _json_mode, _report, _say, _shown
from vendorgen.cli.review import say_flags
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import LOCK_NAME

if TYPE_CHECKING:
    from vendorgen.project.workspace import Workspace

# --trust of the commands that re-inspect (vendorgen.sync.binding).
_TRUST_UNREVIEWED = (
    "Re-inspect a source even when the lock or snapshot says to run something other than what the "
    "reviewed file was generated from (`vendorgen check` names what differs)."
)
# --render-templates of the commands that render without writing (vendorgen.sync.local.unrendered).
_RENDER_TEMPLATES = (
    "Render the project's custom templates even where they differ from what vendorgen.lock records "
    "(a pull request may have changed them; they render sandboxed either way). Read them first."
)
# --pre of the commands that look for a pinned npx/uvx package's newer version (vendorgen.sources.pins).
_PRE = (
    "A pinned stdio package may move to a prerelease (npm: any dist-tag; uvx: --prerelease allow); "
    "without it only to a strictly greater stable version."
)


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--remote", is_flag=True, help="Re-inspect the sources and report upstream schema changes instead.")
@click.option("--allow-edits", is_flag=True, help="Report local edits without failing on them.")
@click.option("--trust", is_flag=True, help=_TRUST_UNREVIEWED)
@click.option("--pre", "prereleases", is_flag=True, help=_PRE)
@click.option("--render-templates", is_flag=True, help=_RENDER_TEMPLATES)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(
    names: tuple[str, ...],
    remote: bool,
    allow_edits: bool,
    trust: bool,
    prereleases: bool,
    render_templates: bool,
    as_json: bool,
) -> None:
    """Check vendored modules against the lock, offline; exit 1 on any difference.

    Regenerates each locked module from its committed snapshot and compares it
    with the file on disk. Reports local edits, vendorgen/template/config drift,
    missing files, vendored-looking files the lock does not list and code in
    an output package that vendorgen did not write, with unified diffs. The
    lock's hashes are never taken as proof: a module is regenerated unless
    your cache (outside the project, $VENDORGEN_CACHE_DIR) remembers what
    exactly its inputs generate. A project without vendorgen.lock is an
    error (exit 2), not a pass.

    With --remote, re-inspects every source instead (each once, several at a
    time) and reports what changed upstream (tools or parameters added or
    removed, types, defaults, enums, descriptions); exit 1 when anything
    changed, 2 when a source is unreachable.

    \b
    Examples:
      vendorgen check                    # CI / pre-commit
      vendorgen check --allow-edits      # edits are yours; only drift fails
      vendorgen check --remote convert
    """
    if as_json:
        _json_mode("check")
    _refuse_together(click.get_current_context(), "remote", "allow_edits", "--remote checks upstream, not local edits")
    for flag, given in (("--trust", trust), ("--pre", prereleases)):
        if given and not remote:
            raise UsageError(f"{flag} applies to --remote: an offline check asks no source")
    workspace = _workspace()
    if remote:
        # Start-up: the sync stage (the pipeline, the lock, asyncio) loads when a command runs, not at `--help`.
        from vendorgen.sync import remote as upstream
        from vendorgen.sync.local import select

        entries = select(workspace.read_lock(), names)
        with _counter(len(entries), "checking sources") as advance:
            results = upstream.check_remote(workspace, entries, advance, trust, prereleases)
        code, errors = upstream.remote_exit_code(results), upstream.source_errors(results)
        if as_json:
            rows = [report.upstream_json(result) for result in results]
            _report(workspace, code == 0, rows, [report.source_error_json(error) for error in errors])
        else:
            _say(report.remote_text(results, errors), nl=False)
    else:
        from vendorgen.sync.check import check as check_offline  # start-up, as above

        result = check_offline(workspace, names, allow_edits, render_templates)
        code = 0 if result.ok else 1
        flagged = _review_counts(workspace, names)
        if as_json:
            _report(workspace, result.ok, [report.check_json(state) for state in result.states],
                    [{"message": problem} for problem in result.shared_tools], extra=result.extra,
                    shadows=list(result.shadows), unowned=list(result.unowned), review=flagged)  # fmt: skip
        else:
            _say(report.check_text(result), nl=False)
            if any(flagged[level] for level in ("high", "medium")):
                counts = ", ".join(f"{flagged[level]} {level}" for level in ("high", "medium", "low"))
                _say(f"review: {counts} flags in what a model reads: `vendorgen review` lists them")
    if code:
        sys.exit(code)


def _review_counts(workspace: Workspace, names: Sequence[str]) -> dict[str, int]:
    """The review's flags by severity, from the committed snapshots (`vendorgen review` lists them)."""
    # Start-up: reviewing builds modules with the kinds; loaded when `check` runs.
    from vendorgen.review.cache import cached_reviews
    from vendorgen.review.project import counts
    from vendorgen.sync.local import select

    try:
        entries = workspace.read_lock()
        return counts(cached_reviews(workspace, select(entries, names), entries))
    except VendorgenError:  # check reports what is wrong with the lock or a snapshot itself
        return {"high": 0, "medium": 0, "low": 0, "silenced": 0}


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--offline", is_flag=True, help="Regenerate from the committed snapshots; do not contact the sources.")
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@click.option(
    "--diff", "show_diff", is_flag=True, help="Print the diff of every file that would change; write nothing."
)
@click.option(
    "--trust", is_flag=True, help=f"Take new upstream code of modules vendored as they are (hub:). {_TRUST_UNREVIEWED}"
)
@click.option("--pre", "prereleases", is_flag=True, help=_PRE)
@click.option("--render-templates", is_flag=True, help=f"With --dry-run or --diff: {_RENDER_TEMPLATES}")
@click.option("--json", "as_json", is_flag=True, help="Print what changed (or would) as JSON.")
def update(
    names: tuple[str, ...],
    offline: bool,
    dry_run: bool,
    show_diff: bool,
    trust: bool,
    prereleases: bool,
    render_templates: bool,
    as_json: bool,
) -> None:
    """Re-inspect sources and regenerate vendored modules, keeping local edits.

    A file vendorgen wrote and nobody touched is replaced. An edited file is
    merged three ways (base: the file as vendorgen wrote it, regenerated or
    found in git; yours: the file; theirs: what the source answers now), so
    your edits survive. Where both changed the same lines, conflict markers
    are written and the command exits 1 naming the files. The lock changes
    only for what is written.

    \b
    Examples:
      vendorgen update                    # every module
      vendorgen update convert --diff     # preview one
      vendorgen update --offline          # after changing templates or [tool.vendorgen]
      vendorgen update shouter --trust    # take a hub tool's new code (read `vendorgen diff` first)
    """
    # Start-up: the sync stage loads when `update` runs, not at `vendorgen --help`.
    from vendorgen.sync.local import select
    from vendorgen.sync.update import apply_update, plan_update

    if as_json:
        _json_mode("update")
    workspace = _workspace()
    entries = select(workspace.read_lock(), names)
    preview = dry_run or show_diff  # writing adopts the project's templates; a preview renders them only if told
    with _counter(len(entries), "reading") as advance:
        plan = plan_update(workspace, entries, offline, trust, progress=advance, prereleases=prereleases,
                           render_changed=render_templates or not preview)  # fmt: skip
    if not preview:
        apply_update(workspace, plan.steps, plan.runtime)
    error = plan.error(preview)
    if as_json:
        modules = [report.step_json(step, step.writes and not preview, show_diff) for step in plan.steps]
        for row, step in zip(modules, plan.steps):  # what a model will read of what it brings in, flagged
            row["flags"] = [flag.to_json() for flag in _step_flags(workspace, step)]
        notes = list(plan.runtime.notes) if plan.runtime else []
        errors = [{"message": str(exc), "source": entry.source, "modules": [entry.name]}
                  for entry, exc in plan.failures]  # fmt: skip
        _report(workspace, error is None, modules, errors, **({"notes": notes} if notes else {}))
    else:
        _print_update(workspace, plan.steps, preview, show_diff, failed=bool(plan.failures))
        for note in plan.runtime.notes if plan.runtime else ():
            _say(f"would {note}" if preview else note)
    if error:
        raise error


def _step_flags(workspace: Workspace, step: Any) -> list[Any]:
    """The flags of the module as `step` leaves it (its new snapshot, else the committed one)."""
    import json

    from vendorgen.review.project import review_snapshot  # start-up: builds with the kinds, when it runs

    snapshot = json.loads(step.snapshot_text) if step.snapshot_text is not None else None
    try:
        snapshot = snapshot or workspace.read_snapshot(step.entry)
    except VendorgenError:
        return []
    return list(review_snapshot(workspace, step.entry.name, snapshot, workspace.read_lock()).flags)


def _print_update(workspace: Workspace, steps: Sequence[Any], preview: bool, show_diff: bool, failed: bool) -> None:
    from vendorgen import sources  # start-up: `vendorgen --help` loads no source module

    if not steps and not failed:  # a failure is said after this
        _say("nothing to update")
    for step in steps:
        if step.action != "up to date":
            _say(report.step_text(step, preview))
            if step.snapshot_text is not None:  # it brings in a new snapshot: what a model will read, flagged
                say_flags(step.entry.name, _step_flags(workspace, step))
        found = sources.load(step.entry.kind).review(step.review) if step.review else None
        if found is not None:
            _say(f"review of the new {_shown(workspace, step.entry.path)} ({step.new_entry.revision[:12]}):")
            for line in found.lines():
                _say(line)
        if show_diff and step.diff():
            _say(step.diff(), nl=False)
    current = sum(step.action == "up to date" for step in steps)
    if current:
        _say(f"{current} module{'s' * (current != 1)} up to date")


@click.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--offline", is_flag=True, help="Show only local edits; do not contact the sources.")
@click.option("--trust", is_flag=True, help=_TRUST_UNREVIEWED)
@click.option("--render-templates", is_flag=True, help=_RENDER_TEMPLATES)
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
def diff(names: tuple[str, ...], offline: bool, trust: bool, render_templates: bool, as_json: bool) -> None:
    """Show each module's upstream changes and local edits, apart.

    Upstream: the locked snapshot against what the source answers now, as a
    schema summary and a diff of the generated code. Local: the code the locked
    snapshot generates against the file on disk. Exits 1 when a source changed
    upstream, 2 when one cannot be read.

    \b
    Examples:
      vendorgen diff convert
      vendorgen diff --offline            # local edits of every module
    """
    # Start-up: the sync stage loads when `diff` runs, not at `vendorgen --help`.
    from vendorgen.sync.diff import diff as diff_modules
    from vendorgen.sync.local import select

    if as_json:
        _json_mode("diff")
    workspace = _workspace()
    entries = select(workspace.read_lock(), names)
    with _counter(0 if offline else len(entries), "reading") as advance:
        diffs = diff_modules(workspace, entries, offline, trust, advance, render_templates)
    failed = [item for item in diffs if item.error is not None]
    if as_json:
        errors = [{"message": str(item.error), "source": item.local.entry.source,
                   "modules": [item.local.entry.name]} for item in failed]  # fmt: skip
        _report(workspace, not failed, [report.diff_json(item) for item in diffs], errors)
    else:
        _say("\n".join(report.diff_text(item) for item in diffs), nl=False)
    if failed:
        worst = max((item.error for item in failed if item.error), key=lambda error: error.exit_code)
        raise type(worst)("; ".join(f"{item.local.entry.name}: {item.error}" for item in failed))
    if any(item.upstream is not None and item.upstream.changes for item in diffs):
        sys.exit(1)  # as `check --remote`: a script can tell that a source changed


@click.command()
@click.argument("names", nargs=-1, required=True, metavar="NAME...", shell_complete=_complete_names)
@click.option("--force", is_flag=True, help="Delete files with local edits too.")
@click.option("--json", "as_json", is_flag=True, help="Print what was removed as JSON.")
def remove(names: tuple[str, ...], force: bool, as_json: bool) -> None:
    """Delete vendored modules: their files, snapshots and lock entries, nothing else.

    A file with local edits is kept (and nothing is removed) unless --force.

    \b
    Example:
      vendorgen remove convert
    """
    # Start-up: the sync stage loads when `remove` runs, not at `vendorgen --help`.
    from vendorgen.sync.local import select
    from vendorgen.sync.remove import remove as remove_modules

    if as_json:
        _json_mode("remove")
    workspace = _workspace()
    chosen = select(workspace.read_lock(), names)
    deleted = remove_modules(workspace, names, force)
    if as_json:
        _report(workspace, True, [report.removed_json(entry, deleted) for entry in chosen])
        return
    for path in deleted:
        _say(f"deleted {_shown(workspace, path)}")
    _say(f"removed {', '.join(dict.fromkeys(names))} from {_shown(workspace, LOCK_NAME)}")
