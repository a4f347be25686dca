"""The project's own commands: `requirements`, `list`, `init`."""

from __future__ import annotations

import click

from vendorgen.cli import report
from vendorgen.cli.context import _workspace
from vendorgen.cli.output import _echo, _json_mode, _report, _say, _shown
from vendorgen.project import requirements as runtime


@click.command()
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
    from vendorgen import sources  # start-up: every kind, for its ranges, when the command runs

    entries = _workspace().read_lock()  # outside a project: where it looked
    if not entries:
        _echo("nothing vendored yet; try `vendorgen add --help`", err=True)
        return
    _echo(f"# What the code vendorgen wrote needs at run time (Python {runtime.PYTHON}), from vendorgen.lock.")
    for line in runtime.union((entry.requirements for entry in entries), sources.requirement_ranges()):
        _echo(line)


@click.command(name="list")
@click.option(
    "--render-templates",
    is_flag=True,
    help="Render the project's custom templates even where they differ from what vendorgen.lock records.",
)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_(render_templates: bool, as_json: bool) -> None:
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
    from vendorgen.sync.local import local_state  # start-up: the sync stage loads when the command runs

    if as_json:
        _json_mode("list")
    workspace = _workspace(need_lock=False)
    states = [local_state(workspace, entry, render_changed=render_templates) for entry in workspace.read_lock()]
    if as_json:
        _report(workspace, True, [report.list_json(state) for state in states])
        return
    if not states:
        _say("nothing vendored yet; try `vendorgen add --help`")
    for state in states:
        entry = state.entry
        _say(f"{entry.name:<24} {state.status:<8} {_shown(workspace, entry.path):<32} {entry.source}")


@click.command()
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
    from vendorgen.project.config import init_table  # start-up: the config reads TOML when the command runs

    workspace = _workspace(need_lock=False)
    path = init_table(workspace.root, output_dir, line_length)
    _say(f"wrote [tool.vendorgen] to {_shown(workspace, workspace.relative(path))}")
