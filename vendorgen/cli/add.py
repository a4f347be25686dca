"""`vendorgen add`: vendor a source, then say what the code needs at run time and review carried code."""

from __future__ import annotations

import inspect
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from vendorgen.cli import report, review
from vendorgen.cli.context import _flag, _refuse_together, _workspace
from vendorgen.cli.output import _echo, _json_mode, _note, _Output, _progress, _report, _say, _shown
from vendorgen.errors import VendorgenError
from vendorgen.project import requirements as runtime
from vendorgen.project.paths import LOCK_NAME, ROOT_MARKERS

if TYPE_CHECKING:
    from vendorgen.generate.pipeline import Added, Generated


class _AddCommand(click.Command):
    """`add`, whose help says which sources there are and which take each option (read when it is shown)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from vendorgen import sources  # every kind: paid by `add --help`, not by `vendorgen --help`

        registered = sources.registered()
        targets = "\n".join(f"  {source.target:<37} {source.help_note}".rstrip() for source in registered)
        notes = "\n".join(source.help for source in registered if source.help)
        text = inspect.cleandoc(self.help or "").replace("{targets}", targets).replace("{notes}", notes)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(text)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from vendorgen import sources  # every kind: paid by `add --help`, not by `vendorgen --help`

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


@click.command(cls=_AddCommand)
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
@click.option("--resources", is_flag=True, help="also vendor the server's resources and resource templates, as read tools.")
@click.option(
    "--resource",
    "resource_names",
    multiple=True,
    metavar="NAME",
    help="vendor this resource or resource template, by its name, URI (template) or Python name (repeatable).",
)
@click.option("--prompts", is_flag=True, help="also vendor the server's prompts, as tools returning their messages.")
@click.option(
    "--prompt", "prompt_names", multiple=True, metavar="NAME", help="vendor this prompt, by its name (repeatable)."
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
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="NAME=VALUE",
    help="send this header to an HTTP MCP server; ${VARIABLE} parts are read from the environment at each connection and only their names are written (single-quote it so the shell leaves them).",
)
@click.option(
    "--bearer-env",
    metavar="VARIABLE",
    help="send 'Authorization: Bearer ${VARIABLE}' to an HTTP MCP server (the same as that --header).",
)
@click.option("--client-id", help="the OAuth client id registered for you with the server's authorization server.")
@click.option(
    "--client-secret-env", metavar="VARIABLE", help="the variable holding that client's secret (its name is written)."
)
@click.option("--client-metadata-url", metavar="URL", help="your OAuth client's metadata document (an https URL).")
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
      vendorgen add mcp:https://api.githubcopilot.com/mcp/ --bearer-env GITHUB_TOKEN
      vendorgen add mcp:https://host/mcp --header 'X-API-Key=${HOST_KEY}'
      vendorgen add "mcp:stdio:npx -y @modelcontextprotocol/server-github" --trust --env GITHUB_TOKEN
      vendorgen add langchain:my_agent.tools:search_toolkit
      vendorgen add hub:owner/tool-space@main --trust        # prints a review of the code
      vendorgen add collection:owner/agent-tools-0123456789abcdef01234567 --trust --keep-going
    """
    # Start-up: the pipeline and every kind load when `add` runs, not when `vendorgen --help` lists it.
    from vendorgen import naming, sources
    from vendorgen.generate import pipeline
    from vendorgen.project import interpreter as project_python
    from vendorgen.sources import AddOptions

    if python:
        os.environ[project_python.ENV_VAR] = python  # read where the project's interpreter is needed
    if as_json:
        _json_mode("add")
    ctx = click.get_current_context()
    _refuse_together(ctx, "api_name", "all_endpoints", "give one endpoint, or take them all")
    found, _ = sources.split_uri(source)
    typed = [name for name in options if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
    given = {name: _flag(ctx, name) for name in typed}  # not HF_TOKEN from the environment
    if bearer := options.pop("bearer_env"):
        given.pop("bearer_env")
        given.setdefault("headers", "--bearer-env")
        options["headers"] = (*options["headers"], f"Authorization=Bearer ${{{bearer}}}")
    sources.check_options(found, given)
    notes = []
    if options["name"] is not None and naming.python_name(options["name"]) != options["name"]:
        notes.append(f"--name {options['name']} is used as {naming.python_name(options['name'])} (a Python name)")
    for note in [] if as_json else notes:
        _note(note)
    options["env"] = tuple(options["env"])
    for field in ("tools", "resource_names", "prompt_names", "headers"):
        options[field] = tuple(options[field])
    workspace = _workspace(need_lock=False)
    new_project = not any((workspace.root / marker).exists() for marker in ROOT_MARKERS)
    for field, value in found.project_options(workspace.config).items():  # recorded in the snapshot, as if given
        options[field] = options[field] or value
    added = pipeline.add(workspace, source, AddOptions(**options), out_dir, dry_run,
                         progress=lambda uris: _progress(uris, "vendoring"))  # fmt: skip
    out = workspace.inside(Path(out_dir or workspace.config.output_dir), "output directory")
    if as_json:
        modules = [report.added_json(item, workspace.relative(out / f"{item.module.name}.py"), dry_run)
                   for item in added.generated]  # fmt: skip
        for row, item in zip(modules, added.generated):  # what a model will read, flagged
            row["flags"] = [flag.to_json() for flag in review.brought_in(workspace, item.module.name, item.module,
                                                                           item.snapshot)]  # fmt: skip
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
            for note in item.source.added_notes(item.module, item.snapshot):
                _note(note)
            if withheld := _withheld_text(item):
                _note(f"{item.module.name} leaves out what {item.module.source} lists: {withheld}")
            _print_review(item, path)
            review.say_flags(item.module.name, review.brought_in(workspace, item.module.name, item.module, item.snapshot))
        if added.runtime_written:  # to be committed with the modules: they import it
            shown = ", ".join(_shown(workspace, path) for path in added.runtime_written)
            _say(f"wrote {shown} (run-time code vendored modules share)")
        if new_project and added.generated and not dry_run:
            _say_new_project(workspace)
        if added.generated and not dry_run:
            _print_runtime_check(workspace, [item.module.requirements for item in added.generated])
    _raise_failures(added)


def _say_new_project(workspace: Any) -> None:
    """Outside any project, the directory `add` wrote to became one: said, with how to choose another."""
    _note(f"there was no project here or above (no {LOCK_NAME}, pyproject.toml or .git): {workspace.root} is one now,"
          f" marked by its {LOCK_NAME} (to vendor into another project, run vendorgen in it)")  # fmt: skip


def _withheld_text(item: Generated) -> str:
    """The tools a source lists and the module leaves out (`withheld` in its snapshot), grouped by why."""
    withheld = item.snapshot.get("withheld", {})
    by_reason: dict[str, list[str]] = {}
    for name, reason in withheld.items():
        by_reason.setdefault(reason, []).append(name)
    return "; ".join(f"{', '.join(names)} ({reason})" for reason, names in by_reason.items())


def _print_runtime_check(workspace: Any, requirement_lists: list[tuple[str, ...]]) -> None:
    """What the code just written needs at run time, and whether the project's interpreter has it."""
    # Start-up, as in `add`: every kind, and the probe of the project's Python.
    from vendorgen import sources
    from vendorgen.project import interpreter as project_python

    needed = runtime.union(requirement_lists, sources.requirement_ranges())
    interpreter = project_python.find(workspace.root)
    installed = project_python.installed_versions(interpreter, [*runtime.plain(needed), "pip"])
    statuses = runtime.status(needed, installed)
    _echo(f"the vendored code needs at run time (Python {runtime.PYTHON}): {' '.join(needed)}")
    _echo(f"checked with {interpreter.executable}, {interpreter.found_by}:")
    for item in statuses:
        _echo(item.line())
    if not all(item.ok for item in statuses):
        command = project_python.install_command(interpreter, installed["pip"] is not None, "requirements-vendored.txt")
        _echo(f"install them there: vendorgen requirements > requirements-vendored.txt; {command}")


def _classes(item: Generated, shown: int = 5) -> str:
    """The module's tool classes, the first few of a long list (a big MCP server has hundreds)."""
    names = [tool.class_name for tool in item.module.tools]
    if len(names) <= shown:
        return ", ".join(names)
    return f"{len(names)} tools: {', '.join(names[: shown - 1])}, ..., {names[-1]}"


def _print_review(item: Generated, path: str) -> None:
    """For a module whose kind asks for a review (its author's code): what deserves a look, by line of `path`."""
    found = item.source.review(item.code)
    if found is None:
        return
    _say(f"review of {path} ({item.module.source} at {item.module.revision[:12]}):")
    for line in found.lines():
        _say(line)
    _say(f"  requirements: {', '.join(item.module.requirements) or 'none declared'}")


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
