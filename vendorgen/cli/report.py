"""How the results of the commands read: text for people (check, list, diff, update, check --remote), and every
--json row (add, remove and push too; the envelope around them is cli/output.py's `_report`).

Only the CLI uses this module; vendorgen.sync returns data and says nothing itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from vendorgen.errors import Excluded
from vendorgen.project.paths import LOCK_NAME

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Generated
    from vendorgen.project.fingerprint import Drift
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.publish.push import SpaceFolder
    from vendorgen.sync.check import CheckResult
    from vendorgen.sync.diff import ModuleDiff
    from vendorgen.sync.local import LocalState
    from vendorgen.sync.remote import SourceError, Upstream
    from vendorgen.sync.update import Step


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


# -- one module here -------------------------------------------------------------------------------


def drift_reason(entry: LockEntry, drift: Drift) -> str:
    """Why the lock no longer describes what this vendorgen writes, in words."""
    if drift.part == "generator":
        return f"written by {drift.locked}, this is {drift.current}"
    if drift.part == "templates":
        return f"built-in templates changed (version {drift.locked} -> {drift.current})"
    if drift.part == "custom_templates":
        if not drift.locked:
            return "custom templates now override the built-in ones"
        return "custom templates no longer apply" if not drift.current else "custom templates changed"
    if drift.part == "settings":
        return "[tool.vendorgen] settings for it changed"
    if drift.part == "snapshot":
        return f"{entry.schema} changed since {LOCK_NAME} was written"
    if drift.part == "binding":  # what runs: re-inspection refuses it without --trust
        return f"{drift.locked} {drift.current}, so it runs something other than what was reviewed"
    return f"{LOCK_NAME} records the hash of code its snapshot does not generate (a hand-edited lock?)"  # "code"


def local_error(state: LocalState) -> str | None:
    """Why the module cannot be regenerated at all, with what to do about it; None when it can."""
    if state.error is None:
        return None
    if state.unreadable:
        return str(state.error)
    if isinstance(state.error, Excluded):
        return f"{state.error}; `vendorgen remove {state.entry.name}` drops it"
    return f"cannot regenerate it: {state.error}"


def drift_lines(state: LocalState) -> list[str]:
    return [drift_reason(state.entry, drift) for drift in state.drift]


def problems(state: LocalState) -> list[str]:
    """What is wrong with one module, each with what to do about it."""
    entry, name = state.entry, state.entry.name
    error = local_error(state)
    found = [error] if error is not None else []
    if state.on_disk is None:
        found.append(f"{entry.path} is missing: `vendorgen update --offline {name}` restores it from its snapshot")
    elif state.edited and state.on_disk == state.base:  # the file is what vendorgen writes: the lock's hash is off
        return [f"{LOCK_NAME} records another sha256 for {entry.path}, which is exactly what its snapshot generates:"
                f" the lock was edited (`git diff {LOCK_NAME}`); `vendorgen update --offline {name}` rewrites the entry"]  # fmt: skip
    elif state.status == "conflict":
        found.append("unresolved merge conflict markers")
    elif state.edited:
        found.append(f"local edits: `vendorgen diff {name}` shows them, `vendorgen update` keeps them")
    found += drift_lines(state)
    if state.outdated and state.error is None:
        if state.keeps_code:
            found.append(f"its code stays the same: `vendorgen update --offline {name}` updates the lock")
        else:
            found.append(f"`vendorgen update --offline {name}` regenerates it")
    return found


def _module(entry: LockEntry) -> dict[str, Any]:
    return {"name": entry.name, "path": entry.path, "source": entry.source}


def list_json(state: LocalState) -> dict[str, Any]:
    entry = state.entry
    return {**_module(entry), "status": state.status, "tools": list(entry.tools), "revision": entry.revision,
            "problems": problems(state)}  # fmt: skip


# -- add, remove, push ----------------------------------------------------------------------------


def added_json(item: Generated, path: str, dry_run: bool) -> dict[str, Any]:
    """One module `add` wrote at `path` (or, `dry_run`, would have); with its review when it carries code."""
    module = item.module
    row: dict[str, Any] = {
        "name": module.name,
        "path": path,
        "source": module.source,
        "status": "not written" if dry_run else "written",
        "tools": [{"name": tool.name, "class": tool.class_name} for tool in module.tools],
        "written": not dry_run,
        "withheld": item.snapshot.get("withheld", {}),  # tools the server offers only to other clients, and why
    }
    found = item.source.review(item.code)
    if found is not None:
        row.update(review=found.to_json(), requirements=list(module.requirements), revision=module.revision)
    return row


def removed_json(entry: LockEntry, deleted: Sequence[str]) -> dict[str, Any]:
    deleted_here = [path for path in deleted if path in (entry.path, entry.schema)]
    return {**_module(entry), "status": "removed", "deleted": deleted_here}


def pushed_json(
    entry: LockEntry, folder: SpaceFolder, written: list[str], repo_id: str, url: str | None, commit: str | None
) -> dict[str, Any]:
    """The module `push` wrote as a Space folder (`url` None: not uploaded, --dry-run)."""
    return {
        **_module(entry),
        "status": "written" if url is None else "pushed",
        "tool": folder.tool.name,
        "files": list(folder.files),
        "written": written,
        "repo_id": repo_id,
        "url": url,
        "commit": commit,
    }


# -- check -----------------------------------------------------------------------------------------


def check_json(state: LocalState) -> dict[str, Any]:
    return {**_module(state.entry), "status": state.status, "problems": problems(state), "diff": state.diff()}


def check_text(result: CheckResult) -> str:
    lines = []
    for state in result.failing:
        lines.append(f"{state.entry.name} ({state.entry.path}): {state.status}")
        lines += [f"  - {problem}" for problem in problems(state)]
        if diff := state.diff():
            lines.append(diff.rstrip("\n"))
    for path in result.extra:
        lines.append(f"{path}: extra: it says it is vendored, but {LOCK_NAME} does not list it")
    lines += [f"runtime: {problem}" for problem in result.runtime]
    lines += [f"shadow: {problem}" for problem in result.shadows]
    lines += [f"tools: {problem}" for problem in result.shared_tools]
    lines += [f"unowned: {problem}" for problem in result.unowned]
    total = len(result.states)
    if result.ok:
        edited = sum(state.status == "edited" for state in result.states)
        allowed = f" ({edited} with local edits, allowed)" if edited else ""
        lines.append(f"{_plural(total, 'vendored module')} in sync{allowed}")
    else:
        extra = f", {_plural(len(result.extra), 'extra file')}" if result.extra else ""
        extra += ", the runtime module differs" if result.runtime else ""
        extra += f", {_plural(len(result.shadows), 'file')} shadowing vendored ones" if result.shadows else ""
        extra += f", {_plural(len(result.shared_tools), 'tool name')} used twice" if result.shared_tools else ""
        extra += f", {_plural(len(result.unowned), 'file')} of code vendorgen did not write" if result.unowned else ""
        lines.append(f"check failed: {len(result.failing)} of {total} vendored modules differ{extra}")
    return "\n".join(lines) + "\n"


# -- check --remote --------------------------------------------------------------------------------


def upstream_json(result: Upstream) -> dict[str, Any]:
    return {**_module(result.entry), "status": result.status, "changed": bool(result.changes),
            "changes": list(result.changes), "error": str(result.error) if result.error else None}  # fmt: skip


def source_error_json(error: SourceError) -> dict[str, Any]:
    return {"source": error.source, "modules": error.modules, "message": error.message}


def remote_text(results: Sequence[Upstream], errors: Sequence[SourceError]) -> str:
    lines = []
    for error in errors:
        lines.append(f"{error.source}: cannot check {', '.join(error.modules)}: {error.message}")
    for result in results:
        if result.changes:
            lines.append(f"{result.entry.name} ({result.entry.source}): changed upstream")
            lines += [f"  {change}" for change in result.changes]
    changed = sum(bool(result.changes) for result in results)
    failed = sum(result.error is not None for result in results)
    if not changed and not failed:
        lines.append(f"no upstream changes in {_plural(len(results), 'vendored module')}")
    else:
        summary = f"{changed} of {len(results)} vendored modules changed upstream"
        summary += f", {failed} could not be checked" if failed else ""
        lines.append(summary + ("; `vendorgen update` brings the changes in, keeping local edits" if changed else ""))
    return "\n".join(lines) + "\n"


# -- diff ------------------------------------------------------------------------------------------


def _diff_drift(local: LocalState) -> list[str]:
    error = local_error(local)
    return [*([error] if error else []), *drift_lines(local)]


def diff_text(report: ModuleDiff) -> str:
    entry, local, upstream = report.local.entry, report.local, report.upstream
    sections = []
    if upstream is not None:
        heading = f"upstream changes to {entry.name} since it was locked ({entry.source}):"
        if upstream.error is not None:
            body = [f"  cannot tell: {upstream.error}"]
        elif upstream.changes:
            body = [f"  {change}" for change in upstream.changes] + [upstream.diff().rstrip("\n")]
        else:
            body = ["  none"]
        sections.append("\n".join([heading, *body]))
    heading = f"local edits in {entry.path} (generated from the locked snapshot -> on disk):"
    if local.edited and local.base is not None:
        body = [local.diff().rstrip("\n")]
    else:
        body = ["  none" if local.on_disk is not None else f"  none: {entry.path} is missing"]
    sections.append("\n".join([heading, *body]))
    if drift := _diff_drift(local):
        heading = f"drift: the lock no longer describes what this vendorgen writes for {entry.name}:"
        body = [f"  - {problem}" for problem in drift]
        if not local.edited and local.diff():
            body.append(local.diff().rstrip("\n"))
        sections.append("\n".join([heading, *body]))
    return "\n\n".join(sections) + "\n"


def diff_json(report: ModuleDiff) -> dict[str, Any]:
    entry, local, upstream = report.local.entry, report.local, report.upstream
    return {
        **_module(entry), "status": local.status,
        "upstream": None if upstream is None else {"status": upstream.status, "changes": list(upstream.changes),
                                                   "diff": upstream.diff(), "error": str(upstream.error or "")
                                                   or None},
        "local": local.diff() if local.edited else "",
        "drift": _diff_drift(local),
    }  # fmt: skip


# -- update ----------------------------------------------------------------------------------------


def update_note(step: Step) -> str:
    if not step.base_lost:
        return ""
    return (f"{step.entry.path} has local edits and was generated with another vendorgen, other templates or settings,"
            f" and no version of it in git has the sha256 {LOCK_NAME} records; their changes to it were not merged"
            " (`vendorgen diff --offline` shows the file against them)")  # fmt: skip


def step_json(step: Step, written: bool, show_diff: bool) -> dict[str, Any]:
    return {**_module(step.entry), "status": step.action, "written": written, "changes": list(step.changes),
            "note": update_note(step) or None, "diff": step.diff() if show_diff else None}  # fmt: skip


def step_text(step: Step, dry_run: bool = False) -> str:
    path, name = step.entry.path, step.entry.name
    blocks = f"{_plural(step.conflicts, 'conflict block')} to resolve between <<<<<<< and >>>>>>>"
    done, planned = {
        "restored": (f"restored {path}", f"would restore {path}"),
        "updated": (f"updated {path}", f"would update {path}"),
        "merged": (f"merged {path}, your edits kept", f"would merge {path}, keeping your edits"),
        "conflict": (f"conflict in {path}: {blocks}", f"would conflict in {path}: {blocks}"),
        "refreshed": (f"refreshed the lock entry of {name}", f"would refresh the lock entry of {name}"),
        "up to date": (f"{name} is up to date", f"{name} is up to date"),
    }[step.action]
    lines = [planned if dry_run else done]
    lines += [f"  {change}" for change in step.changes]
    if note := update_note(step):
        lines.append(f"  note: {note}")
    return "\n".join(lines)
