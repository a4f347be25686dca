"""`vendorgen push`: publish a vendored tool as a Hub tool Space (the work is in vendorgen.publish)."""

from __future__ import annotations

from pathlib import Path

import click

from vendorgen.cli import report
from vendorgen.cli.context import _complete_names, _workspace
from vendorgen.cli.output import _json_mode, _note, _report, _say
from vendorgen.errors import UsageError

SPACE_SDKS = ("gradio",)  # `push`: app.py is a Gradio demo


@click.command()
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
    "--force",
    is_flag=True,
    help="Push even a tool that cannot work from a Space (a loopback URL, a local script), or without its file's local edits.",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written and pushed as JSON.")
@click.option(
    "--python",
    "python",
    metavar="PATH",
    envvar="VENDORGEN_PYTHON",
    help="The project's interpreter, whose installed versions requirements.txt pins (default: $VIRTUAL_ENV, else ./.venv).",
)
def push(module: str, repo_id: str, tool_name: str | None, private: bool, sdk: str, token: str | None,
         out_dir: Path | None, dry_run: bool, force: bool, as_json: bool, python: str | None) -> None:  # fmt: skip
    """Publish a vendored tool as a Hub tool Space that smolagents' Tool.from_hub loads.

    MODULE is a vendored module's name or path. The Space gets tool.py (the
    tool as one self-contained file, regenerated from the lock), app.py (a
    Gradio demo for every input type), requirements.txt (distributions pinned
    to the versions installed for the project's interpreter, as `add` finds
    it) and README.md (Space card, provenance), in one commit; the Space is
    created if it does not exist.

    A tool that needs what only this machine has (an app on a loopback
    address, an MCP server started from a local script) is refused unless
    --force; one that needs something the Space must be given (secrets, a
    package) gets a warning.

    \b
    Examples:
      vendorgen push convert me/convert-tool
      vendorgen push tools/time_server.py me/time --tool get_current_time --dry-run --out space/
    """
    import os

    # Start-up: publishing (the gate's libcst, the Hub client) and every kind load when `push` runs.
    from vendorgen import sources
    from vendorgen.project import interpreter as project_python
    from vendorgen.publish import push as pushing

    if python:
        os.environ[project_python.ENV_VAR] = python  # read where the project's interpreter is needed
    if as_json:
        _json_mode("push")
    if dry_run and out_dir is None:
        raise UsageError("--dry-run writes the Space folder to --out DIR: give the directory")
    workspace = _workspace()
    entry = pushing.find_entry(workspace, module)
    snapshot = workspace.read_snapshot(entry)
    problems = sources.load(snapshot["kind"]).push_problems(snapshot, workspace.root)
    folder = pushing.build_folder(workspace, module, repo_id, tool_name)
    if folder.edited and not dry_run and not force:  # not what the user reviewed
        raise UsageError(f"{folder.notes[0]}; --force pushes the locked version without them")
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
        with workspace.waits.shown(f"the Hub to take {repo_id}"):
            url, commit = pushing.upload(folder, repo_id, token=token, private=private, sdk=sdk)
    if as_json:
        _report(workspace, True, [report.pushed_json(entry, folder, written, repo_id, url, commit)], notes=notes)
        return
    for name, text in folder.files.items():
        _say(f"{name:<18} {len(text.encode('utf-8')):>7} bytes")
    if out_dir is not None:
        _say(f"wrote {out_dir.as_posix()}/" + (" (not uploaded: --dry-run)" if dry_run else ""))
    if not dry_run:
        _say(f"pushed {folder.tool.name} to {url} (commit {commit})")
