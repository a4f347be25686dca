"""The `vendorgen` command: a thin click layer over the pipeline.

Only click and vendorgen's own light modules load at start-up; every command
imports what it needs, so `vendorgen --help` stays fast.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from vendorgen import __version__
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.literals import terminal_text

if TYPE_CHECKING:  # annotations only: the pipeline loads when a command needs it
    from vendorgen.pipeline import Added, Generated
    from vendorgen.workspace import Workspace

T = TypeVar("T")

_DEBUG = False
SPACE_SDKS = ("gradio",)  # `push`: app.py is a Gradio demo


# -- output ----------------------------------------------------------------------------------------
# Everything the commands print goes through these few functions.


class _Output:
    """What the running command prints: text, or (--json) one JSON report on stdout."""

    command = ""  # set by commands given --json
    json_printed = False


def _say(text: str = "", nl: bool = True) -> None:
    """A line of the command's report (stdout)."""
    _echo(text, nl=nl)


def _note(text: str) -> None:
    """Something the user should know that is not the report itself (stderr)."""
    _echo(f"note: {text}", err=True)


def _echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Every line vendorgen prints goes through here: remote text (file names, requirements, server errors,
    code under review) reaches the terminal with its control characters escaped."""
    click.echo(terminal_text(text), err=err, nl=nl)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
                  line: str | None = None) -> None:  # fmt: skip
    """Python's warnings (huggingface_hub, gradio_client and mcp warn with text their servers sent), escaped."""
    _echo(warnings.formatwarning(message, category, filename, lineno, line), err=True, nl=False)


def _emit_json(value: Any) -> None:
    _echo(json.dumps(value, indent=2, sort_keys=True))


def _json_mode(command: str) -> None:
    """From here on the command reports as JSON: no progress or waits on the terminal."""
    from vendorgen import sources

    _Output.command = command
    sources.show_waits(None)


def _report(workspace: Workspace | None, ok: bool, modules: list[dict[str, Any]],
            errors: Sequence[dict[str, Any]] = (), **extra: Any) -> None:  # fmt: skip
    """The one JSON report every command prints with --json (schema in the README)."""
    _emit_json({"command": _Output.command, "ok": ok, "root": str(workspace.root) if workspace else None,
                "modules": modules, "errors": [_error_json(**error) for error in errors], **extra})  # fmt: skip
    _Output.json_printed = True


def _error_json(message: str, source: str | None = None, modules: Sequence[str] = ()) -> dict[str, Any]:
    return {"message": message, "source": source, "modules": list(modules)}


def _shown(workspace: Workspace, relative: str) -> str:
    """A project path (relative to the root) as seen from where the user stands."""
    return Path(os.path.relpath(workspace.root / relative)).as_posix()


def _progress(items: Sequence[T], label: str) -> Iterator[T]:
    """`items`, with a progress bar on a terminal's stderr while there are several (never with --json)."""
    if len(items) < 2 or _Output.command or not sys.stderr.isatty():
        yield from items
        return
    from vendorgen import sources

    sources.show_waits(None)  # the bar says what is being waited for
    try:
        with click.progressbar(items, label=label, file=sys.stderr, item_show_func=_item_label) as bar:
            yield from bar
    finally:
        sources.show_waits(sys.stderr)


def _item_label(item: object) -> str | None:
    return None if item is None else str(getattr(item, "name", item))


# -- the project -----------------------------------------------------------------------------------


def _workspace(need_lock: bool = True) -> Workspace:
    """The project around the current directory, named once when it is not the current directory.

    `need_lock`: a command about what is vendored refuses a project without a lock.
    """
    from vendorgen.workspace import LOCK_NAME, ROOT_MARKERS, Workspace

    workspace = Workspace.discover()
    if workspace.root != Path.cwd().resolve() and not _Output.command:
        _echo(f"project: {workspace.root}", err=True)
    if need_lock and not (workspace.root / LOCK_NAME).is_file():
        where = f"no {LOCK_NAME} in the project {workspace.root}"
        why = f"(the nearest directory holding one of {', '.join(ROOT_MARKERS)})"
        above = next((str(parent) for parent in workspace.root.parents if (parent / LOCK_NAME).is_file()), None)
        hint = (f"the lock of {above} is above it: run vendorgen there" if above
                else "nothing is vendored here yet: `vendorgen add --help`")  # fmt: skip
        raise UsageError(f"{where} {why}; {hint}")
    return workspace


def _refuse_together(ctx: click.Context, first: str, second: str, why: str) -> None:
    """Two options that contradict each other (parameter names), both given: a usage error."""
    if all(ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE for name in (first, second)):
        flags = [_flag(ctx, name) for name in (first, second)]
        raise UsageError(f"{flags[0]} and {flags[1]} contradict each other: {why}")


def _flag(ctx: click.Context, name: str) -> str:
    return next(param.opts[0] for param in ctx.command.params if param.name == name)


def _complete_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of vendored module names, from the lock here."""
    from vendorgen.workspace import Workspace

    try:
        return [entry.name for entry in Workspace.discover().read_lock() if entry.name.startswith(incomplete)]
    except VendorgenError:
        return []


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="vendorgen")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def cli(debug: bool) -> None:
    """Vendor remote agent tools as typed, reviewable smolagents code.

    \b
    Example:
      vendorgen add space:http://127.0.0.1:7860/ --api-name /convert
      vendorgen list

    \b
    Shell completion (bash; zsh and fish alike, see the README):
      eval "$(_VENDORGEN_COMPLETE=bash_source vendorgen)"
    """
    global _DEBUG
    _DEBUG = debug


class _AddCommand(click.Command):
    """`add`, whose help says which sources there are and which take each option (read when it is shown)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from vendorgen import sources

        registered = sources.registered()
        targets = "\n".join(f"  {source.target:<37} {source.help_note}".rstrip() for source in registered)
        notes = "\n".join(source.help for source in registered if source.help)
        text = inspect.cleandoc(self.help or "").replace("{targets}", targets).replace("{notes}", notes)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(text)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from vendorgen import sources

        registered = sources.registered()
        records = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is None:
                continue
            takers = [source.kind for source in registered if param.name in source.options]
            if param.name in sources.OPTION_FIELDS and len(takers) < len(registered):
                record = (record[0], f"{', '.join(takers)}: {record[1]}")
            records.append(record)
        with formatter.section("Options"):
            formatter.write_dl(records)


@cli.command(cls=_AddCommand)
@click.argument("source")
@click.option("--api-name", help="the endpoint to vendor, e.g. /predict.")
@click.option("--all-endpoints", is_flag=True, help="vendor every named endpoint.")
@click.option(
    "--trust",
    is_flag=True,
    help="acknowledge you trust the source (a stdio server: the command runs now and whenever the tools connect).",
)
@click.option(
    "--env",
    "env",
    multiple=True,
    metavar="NAME",
    help="pass this environment variable to a stdio server, read when it starts; only the name is written, never the value.",
)
@click.option(
    "--tool",
    "tools",
    multiple=True,
    metavar="NAME",
    help="vendor only this tool, by its remote or Python name (repeatable).",
)
@click.option("--prefix", default="", help="prefix every tool name (--prefix gh: get-repo -> gh_get_repo).")
@click.option("--class", "class_name", help="the Tool class to vendor when tool.py has several.")
@click.option("--keep-going", is_flag=True, help="vendor what works of several modules or Spaces, list what failed.")
@click.option("--name", help="Module name (and tool name for single-tool sources).")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=str),
    help="Output directory (default: tools/ or [tool.vendorgen] output_dir).",
)
@click.option(
    "--token",
    help="Hugging Face token for private Spaces and hub tools (default: HF_TOKEN or `hf auth login`; never written). It goes to the Hub and a Space's own *.hf.space host; given here, also to the app URL you name.",
)
@click.option("--dry-run", is_flag=True, help="Print the generated code; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was vendored as JSON.")
@click.option(
    "--python",
    "python",
    metavar="PATH",
    envvar="VENDORGEN_PYTHON",
    help="The project's interpreter (default: $VIRTUAL_ENV, else ./.venv): langchain: inspects with it; the run-time check asks it.",
)
def add(source: str, out_dir: str | None, dry_run: bool, as_json: bool, python: str | None, **options: Any) -> None:
    """Vendor SOURCE into this project.

    \b
    SOURCE is one of:
    {targets}

    \b
    {notes}

    \b
    Examples:
      vendorgen add space:http://127.0.0.1:7860/ --api-name /convert
      vendorgen add space:http://127.0.0.1:7860/ --all-endpoints --out agent/tools
      vendorgen add mcp:http://127.0.0.1:8000/mcp --tool search --prefix web
      vendorgen add "mcp:stdio:npx -y @modelcontextprotocol/server-github" --trust --env GITHUB_TOKEN
      vendorgen add langchain:my_agent.tools:search_toolkit
      vendorgen add hub:owner/tool-space@main --trust        # prints a review of the code
      vendorgen add collection:owner/agent-tools-0123456789abcdef01234567 --trust --keep-going
    """
    from vendorgen import naming, pipeline, sources
    from vendorgen.sources import AddOptions

    from vendorgen import project_python

    if python:
        os.environ[project_python.ENV_VAR] = python  # read where the project's interpreter is needed
    if as_json:
        _json_mode("add")
    ctx = click.get_current_context()
    _refuse_together(ctx, "api_name", "all_endpoints", "give one endpoint, or take them all")
    found, _ = sources.split_uri(source)
    typed = [name for name in options if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
    given = {name: _flag(ctx, name) for name in typed}  # not HF_TOKEN from the environment
    sources.check_options(found, given)
    notes = []
    if options["name"] is not None and naming.python_name(options["name"]) != options["name"]:
        notes.append(f"--name {options['name']} is used as {naming.python_name(options['name'])} (a Python name)")
    for note in [] if as_json else notes:
        _note(note)
    options["env"] = tuple(options["env"])
    options["tools"] = tuple(options["tools"])
    workspace = _workspace(need_lock=False)
    added = pipeline.add(workspace, source, AddOptions(**options), out_dir, dry_run,
                         progress=lambda uris: _progress(uris, "vendoring"))  # fmt: skip
    out = workspace.inside(Path(out_dir or workspace.config.output_dir), "output directory")
    if as_json:
        modules = [
            {
                "name": item.module.name,
                "path": workspace.relative(out / f"{item.module.name}.py"),
                "source": item.module.source,
                "status": "not written" if dry_run else "written",
                "tools": [{"name": tool.name, "class": tool.class_name} for tool in item.module.tools],
                "written": not dry_run,
                **_review_json(item),
            }
            for item in added.generated
        ]
        errors = [{"message": str(failure.error), "source": failure.uri} for failure in added.failed]
        _report(workspace, not added.failed, modules, errors, notes=notes)
    else:
        for item in added.generated:
            path = _shown(workspace, workspace.relative(out / f"{item.module.name}.py"))
            if dry_run:
                _say(f"# --- {path} (not written)")
                _say(item.code, nl=False)
            else:
                _say(f"wrote {path} ({_classes(item)})")
            _print_review(item, path)
        if added.generated and not dry_run:
            _print_runtime_check(workspace, [item.module.requirements for item in added.generated])
    _raise_failures(added)


def _print_runtime_check(workspace: Any, requirement_lists: list[tuple[str, ...]]) -> None:
    """What the code just written needs at run time, and whether the project's interpreter has it."""
    from vendorgen import project_python
    from vendorgen import requirements as runtime

    needed = runtime.union(requirement_lists)
    interpreter = project_python.find(workspace.root)
    statuses = runtime.status(needed, project_python.installed_versions(interpreter, list(runtime.plain(needed))))
    _echo(f"the vendored code needs at run time (Python {runtime.PYTHON}): {' '.join(needed)}")
    _echo(f"checked with {interpreter.executable}, {interpreter.found_by}:")
    for item in statuses:
        _echo(item.line())
    if not all(item.ok for item in statuses):
        _echo(
            "install them there: vendorgen requirements > requirements-vendored.txt; pip install -r requirements-vendored.txt"
        )


def _classes(item: Generated, shown: int = 5) -> str:
    """The module's tool classes, the first few of a long list (a big MCP server has hundreds)."""
    names = [tool.class_name for tool in item.module.tools]
    if len(names) <= shown:
        return ", ".join(names)
    return f"{len(names)} tools: {', '.join(names[:shown - 1])}, ..., {names[-1]}"


def _print_review(item: Generated, path: str) -> None:
    """For a module carrying its author's code: what it imports and what deserves a look, by line of `path`."""
    if not item.module.carried_code:
        return
    from vendorgen.review import review

    _say(f"review of {path} ({item.module.source} at {item.module.revision[:12]}):")
    for line in review(item.code).lines():
        _say(line)
    _say(f"  requirements: {', '.join(item.module.requirements) or 'none declared'}")


def _review_json(item: Generated) -> dict[str, Any]:
    if not item.module.carried_code:
        return {}
    from vendorgen.review import review

    return {"review": review(item.code).to_json(), "requirements": list(item.module.requirements),
            "revision": item.module.revision}  # fmt: skip


def _raise_failures(added: Added) -> None:
    """`--keep-going`: name every source that failed, then exit 1."""
    if not added.failed:
        return
    if not _Output.command:
        for failure in added.failed:
            _echo(f"failed: {failure.uri}: {failure.error}", err=True)
    done = len(added.generated)
    raise VendorgenError(
        f"{len(added.failed)} source{'s' * (len(added.failed) != 1)} failed (listed above); "
        + (f"{done} module{'s' * (done != 1)} vendored" if done else "nothing vendored")
    )


@cli.command()
def requirements() -> None:
    """Print what all vendored code needs at run time, in requirements.txt form.

    The union of every module's requirements in vendorgen.lock, each with the
    version range vendorgen's compatibility matrix runs generated code on.
    Install them in your project's environment, not vendorgen's.

    \b
    Example:
      vendorgen requirements > requirements-vendored.txt
      pip install -r requirements-vendored.txt
    """
    from vendorgen import requirements as runtime
    from vendorgen.workspace import Workspace

    entries = Workspace.discover().read_lock()
    if not entries:
        _echo("nothing vendored yet; try `vendorgen add --help`", err=True)
        return
    _echo(f"# What the code vendorgen wrote needs at run time (Python {runtime.PYTHON}), from vendorgen.lock.")
    for line in runtime.union(entry.requirements for entry in entries):
        _echo(line)


@cli.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_(as_json: bool) -> None:
    """List what is vendored here and the state of each module.

    \b
    Status: clean; edited (local edits); conflict (unresolved merge markers);
    missing; outdated (this vendorgen, the templates or the config would write
    it differently); error (its snapshot cannot be read or regenerated).
    Upstream changes need the network: `vendorgen check --remote`.

    \b
    Example:
      vendorgen list --json
    """
    from vendorgen import report
    from vendorgen.sync.local import local_state

    if as_json:
        _json_mode("list")
    workspace = _workspace(need_lock=False)
    states = [local_state(workspace, entry) for entry in workspace.read_lock()]
    if as_json:
        _report(workspace, True, [report.list_json(state) for state in states])
        return
    if not states:
        _say("nothing vendored yet; try `vendorgen add --help`")
    for state in states:
        entry = state.entry
        _say(f"{entry.name:<24} {state.status:<8} {_shown(workspace, entry.path):<32} {entry.source}")


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--remote", is_flag=True, help="Re-inspect the sources and report upstream schema changes instead.")
@click.option("--allow-edits", is_flag=True, help="Report local edits without failing on them.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(names: tuple[str, ...], remote: bool, allow_edits: bool, as_json: bool) -> None:
    """Check vendored modules against the lock, offline; exit 1 on any difference.

    Regenerates each locked module from its committed snapshot and compares it
    with the file on disk. Reports local edits, vendorgen/template/config drift,
    missing files and vendored-looking files the lock does not list, with
    unified diffs. Modules whose hashes all match are not regenerated. A
    project without vendorgen.lock is an error (exit 2), not a pass.

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
    from vendorgen import report

    if as_json:
        _json_mode("check")
    _refuse_together(click.get_current_context(), "remote", "allow_edits", "--remote checks upstream, not local edits")
    workspace = _workspace()
    if remote:
        from vendorgen.sync import remote as upstream
        from vendorgen.sync.local import select

        entries = select(workspace.read_lock(), names)
        with _counter(len(entries), "checking sources") as advance:
            results = upstream.check_remote(workspace, entries, advance)
        code, errors = upstream.remote_exit_code(results), upstream.source_errors(results)
        if as_json:
            rows = [report.upstream_json(result) for result in results]
            _report(workspace, code == 0, rows, [report.source_error_json(error) for error in errors])
        else:
            _say(report.remote_text(results, errors), nl=False)
    else:
        from vendorgen.sync.check import check as check_offline

        result = check_offline(workspace, names, allow_edits)
        code = 0 if result.ok else 1
        if as_json:
            _report(workspace, result.ok, [report.check_json(state) for state in result.states], extra=result.extra)
        else:
            _say(report.check_text(result), nl=False)
    if code:
        sys.exit(code)


@contextlib.contextmanager
def _counter(total: int, label: str) -> Iterator[Callable[[int], object]]:
    """A progress bar over `total` units on a terminal (see `_progress`); yields the function to advance it."""
    if total < 2 or _Output.command or not sys.stderr.isatty():
        yield lambda done: None
        return
    from vendorgen import sources

    sources.show_waits(None)
    try:
        with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
            yield bar.update
    finally:
        sources.show_waits(sys.stderr)


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--offline", is_flag=True, help="Regenerate from the committed snapshots; do not contact the sources.")
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@click.option(
    "--diff", "show_diff", is_flag=True, help="Print the diff of every file that would change; write nothing."
)
@click.option("--trust", is_flag=True, help="Take new upstream code of modules vendored as they are (hub:).")
@click.option("--json", "as_json", is_flag=True, help="Print what changed (or would) as JSON.")
def update(names: tuple[str, ...], offline: bool, dry_run: bool, show_diff: bool, trust: bool, as_json: bool) -> None:
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
    from vendorgen import report
    from vendorgen.sync.local import select
    from vendorgen.sync.update import apply_update, plan_update

    if as_json:
        _json_mode("update")
    workspace = _workspace()
    entries = select(workspace.read_lock(), names)
    plan = plan_update(workspace, entries, offline, trust, progress=lambda chosen: _progress(chosen, "reading"))
    preview = dry_run or show_diff
    if not preview:
        apply_update(workspace, plan.steps, plan.runtime)
    error = plan.error(preview)
    if as_json:
        modules = [report.step_json(step, step.writes and not preview, show_diff) for step in plan.steps]
        notes = list(plan.runtime.notes) if plan.runtime else []
        errors = [{"message": str(exc), "source": entry.source, "modules": [entry.name]}
                  for entry, exc in plan.failures]  # fmt: skip
        _report(workspace, error is None, modules, errors, **({"notes": notes} if notes else {}))
    else:
        _print_update(workspace, plan.steps, preview, show_diff)
        for note in plan.runtime.notes if plan.runtime else ():
            _say(f"would {note}" if preview else note)
    if error:
        raise error


def _print_update(workspace: Workspace, steps: Sequence[Any], preview: bool, show_diff: bool) -> None:
    from vendorgen.report import step_text

    if not steps:
        _say("nothing to update")
    for step in steps:
        if step.action != "up to date":
            _say(step_text(step, preview))
        if step.review:
            from vendorgen.review import review

            _say(f"review of the new {_shown(workspace, step.entry.path)} ({step.new_entry.revision[:12]}):")
            for line in review(step.review).lines():
                _say(line)
        if show_diff and step.diff():
            _say(step.diff(), nl=False)
    current = sum(step.action == "up to date" for step in steps)
    if current:
        _say(f"{current} module{'s' * (current != 1)} up to date")


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...", shell_complete=_complete_names)
@click.option("--offline", is_flag=True, help="Show only local edits; do not contact the sources.")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
def diff(names: tuple[str, ...], offline: bool, as_json: bool) -> None:
    """Show each module's upstream changes and local edits, apart.

    Upstream: the locked snapshot against what the source answers now, as a
    schema summary and a diff of the generated code. Local: the code the locked
    snapshot generates against the file on disk.

    \b
    Examples:
      vendorgen diff convert
      vendorgen diff --offline            # local edits of every module
    """
    from vendorgen import report
    from vendorgen.sync.diff import diff as diff_modules
    from vendorgen.sync.local import select

    if as_json:
        _json_mode("diff")
    workspace = _workspace()
    diffs = diff_modules(workspace, select(workspace.read_lock(), names), offline)
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


@cli.command()
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
    from vendorgen.sync.local import select
    from vendorgen.sync.remove import remove as remove_modules
    from vendorgen.workspace import LOCK_NAME

    if as_json:
        _json_mode("remove")
    workspace = _workspace()
    chosen = select(workspace.read_lock(), names)
    deleted = remove_modules(workspace, names, force)
    if as_json:
        modules = [{"name": entry.name, "path": entry.path, "source": entry.source, "status": "removed",
                    "deleted": [path for path in deleted if path in (entry.path, entry.schema)]}
                   for entry in chosen]  # fmt: skip
        _report(workspace, True, modules)
        return
    for path in deleted:
        _say(f"deleted {_shown(workspace, path)}")
    _say(f"removed {', '.join(dict.fromkeys(names))} from {_shown(workspace, LOCK_NAME)}")


@cli.command()
@click.option("--output-dir", default=None, help="Where `add` writes modules (default: tools).")
@click.option("--line-length", type=click.IntRange(min=1), help="black's line length for generated code (default: 99).")
def init(output_dir: str | None, line_length: int | None) -> None:
    """Write a commented [tool.vendorgen] table into pyproject.toml.

    For a project that wants the defaults visible. The table goes into the
    project root's pyproject.toml (created if there is none; the rest of the
    file, comments included, is kept). An existing [tool.vendorgen] table is
    never overwritten.

    \b
    Example:
      vendorgen init --output-dir agent/tools
    """
    from vendorgen.config import init_table

    workspace = _workspace(need_lock=False)
    path = init_table(workspace.root, output_dir, line_length)
    _say(f"wrote [tool.vendorgen] to {_shown(workspace, workspace.relative(path))}")


@cli.command()
@click.argument("module", shell_complete=_complete_names)
@click.argument("repo_id", metavar="OWNER/SPACE")
@click.option("--tool", "tool_name", metavar="NAME", help="The tool to push when MODULE has several (one per Space).")
@click.option("--private", is_flag=True, help="Create the Space private (an existing Space keeps its visibility).")
@click.option(
    "--sdk",
    type=click.Choice(SPACE_SDKS),
    default="gradio",
    show_default=True,
    help="The Space SDK (app.py is a Gradio demo).",
)
@click.option(
    "--token",
    envvar="HF_TOKEN",
    show_envvar=True,
    help="Token with write access (default: your `hf auth login`; never written or printed).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write the Space folder here (required with --dry-run).",
)
@click.option("--dry-run", is_flag=True, help="Write the folder to --out and list it; upload nothing.")
@click.option(
    "--force", is_flag=True, help="Push even a tool that cannot work from a Space (a loopback URL, a local script)."
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written and pushed as JSON.")
def push(module: str, repo_id: str, tool_name: str | None, private: bool, sdk: str, token: str | None,
         out_dir: Path | None, dry_run: bool, force: bool, as_json: bool) -> None:  # fmt: skip
    """Publish a vendored tool as a Hub tool Space that smolagents' Tool.from_hub loads.

    MODULE is a vendored module's name or path. The Space gets tool.py (the
    tool as one self-contained file, regenerated from the lock), app.py (a
    Gradio demo for every input type), requirements.txt (distributions pinned
    to the versions installed here) and README.md (Space card, provenance),
    in one commit; the Space is created if it does not exist.

    A tool that needs what only this machine has (an app on a loopback
    address, an MCP server started from a local script) is refused unless
    --force; one that needs something the Space must be given (secrets, a
    package) gets a warning.

    \b
    Examples:
      vendorgen push convert me/convert-tool
      vendorgen push tools/time_server.py me/time --tool get_current_time --dry-run --out space/
    """
    from vendorgen import push as pushing
    from vendorgen import sources
    from vendorgen.portable import hub_problems

    if as_json:
        _json_mode("push")
    if dry_run and out_dir is None:
        raise UsageError("--dry-run writes the Space folder to --out DIR: give the directory")
    workspace = _workspace()
    entry = pushing.find_entry(workspace, module)
    problems = hub_problems(workspace.read_snapshot(entry), workspace.root)
    folder = pushing.build_folder(workspace, module, repo_id, tool_name)
    fatal = [problem.message for problem in problems if problem.fatal]
    if fatal and not dry_run and not force:
        raise UsageError(f"{entry.name} could not work from a Space: {'; '.join(fatal)}; --force pushes it anyway")
    notes = [*folder.notes, *(problem.message for problem in problems)]
    if not as_json:
        for note in notes:
            _note(note)
    written = [path.as_posix() for path in pushing.write_folder(folder, out_dir)] if out_dir is not None else []
    url = commit = None
    if not dry_run:
        with sources.shown_wait(f"the Hub to take {repo_id}"):
            url, commit = pushing.upload(folder, repo_id, token=token, private=private, sdk=sdk)
    if as_json:
        _report(workspace, True, [{"name": entry.name, "path": entry.path, "source": entry.source,
                                   "status": "written" if dry_run else "pushed", "tool": folder.tool.name,
                                   "files": list(folder.files), "written": written, "repo_id": repo_id, "url": url,
                                   "commit": commit}], notes=notes)  # fmt: skip
        return
    for name, text in folder.files.items():
        _say(f"{name:<18} {len(text.encode('utf-8')):>7} bytes")
    if out_dir is not None:
        _say(f"wrote {out_dir.as_posix()}/" + (" (not uploaded: --dry-run)" if dry_run else ""))
    if not dry_run:
        _say(f"pushed {folder.tool.name} to {url} (commit {commit})")


# -- serve ---------------------------------------------------------------------------------------


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--list", "list_only", is_flag=True, help="List the tools that would be served, and exit.")
@click.option("--transport", type=click.Choice(["stdio", "streamable-http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="streamable-http: the address to bind.")
@click.option("--port", type=int, default=8765, show_default=True, help="streamable-http: the port (0: any free one).")
@click.option("--allow-remote", is_flag=True, help="Allow a --host that is not a loopback address.")
@click.option(
    "--token-env",
    metavar="NAME",
    help="streamable-http: require `Authorization: Bearer <$NAME>` (the value is never written).",
)
@click.option(
    "--allow-drift", is_flag=True, help="Call MCP tools whose upstream definition changed since they were vendored."
)
def serve(names: tuple[str, ...], list_only: bool, transport: str, host: str, port: int, allow_remote: bool,
          token_env: str | None, allow_drift: bool) -> None:  # fmt: skip
    """Serve the vendored tools as one MCP server, pinned to what was reviewed.

    Writes (or refreshes) the output package's _vendored_server.py from the
    lock, then runs `python -m <package>._vendored_server` with the project's
    interpreter: ./.venv, else the active $VIRTUAL_ENV, else this Python.
    NAME picks modules or tools (default: all). A tool of an upstream MCP
    server whose description or input schema changed since it was vendored
    is refused, unless --allow-drift.

    \b
    Examples:
      vendorgen serve --list
      vendorgen serve                                   # stdio: an MCP client's command
      vendorgen serve --transport streamable-http --port 8765 --token-env MCP_TOKEN
    """
    import os
    import subprocess

    from vendorgen import serve as serving
    from vendorgen.workspace import Workspace

    workspace = Workspace.discover()
    module = serving.server_module(workspace, workspace.read_lock())
    python = serving.interpreter(workspace.root)
    os.chdir(workspace.root)  # `python -m` finds the package from here
    sys.stdout.flush()
    if list_only:  # a listing writes nothing: the server module's text runs unwritten
        sys.exit(serving.list_unwritten(module, python, names))
    if serving.write(workspace, module):
        _echo(f"wrote {module.path}", err=True)
    args = [python, "-m", module.dotted, *names, "--transport", transport, "--host", host, "--port", str(port)]
    args += ["--allow-remote"] * allow_remote + ["--allow-drift"] * allow_drift
    args += ["--token-env", token_env] if token_env else []
    if os.name == "posix":
        os.execv(python, args)  # the client talks to the server itself, over this process's stdio
    sys.exit(subprocess.call(args))


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: errors become one `error: ...` line and an exit code (2 for every usage error)."""
    from vendorgen import sources

    warnings.showwarning = _show_warning

    _Output.command, _Output.json_printed = "", False
    sources.show_waits(sys.stderr if sys.stderr.isatty() else None)
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="vendorgen", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # `vendorgen` alone: the help, as --help shows it
        _echo(exc.ctx.get_help() if exc.ctx else "")
    except click.exceptions.Abort:
        _echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code, exc)
    except VendorgenError as exc:
        if _DEBUG:
            raise
        _fail(str(exc), exc.exit_code, exc)
    except KeyboardInterrupt:
        _echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: still one line, traceback with --debug
        if _DEBUG:
            raise
        _fail(f"unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)", 1, exc)


def _fail(message: str, code: int, exc: Exception) -> None:
    """One `error: ...` line on stderr (and, under --json, the JSON report if none was printed); exit `code`."""
    message = " ".join(message.split())
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        message = f"{message.rstrip('.')} (see `{exc.ctx.command_path} --help`)"
    if _Output.command and not _Output.json_printed:
        _report(None, False, [], [{"message": message}])
    _echo(f"error: {message}", err=True)
    sys.exit(code)
