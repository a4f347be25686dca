"""`vendorgen catalog`: the output package's catalog.py, for agents with many tools."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import click

from vendorgen.cli.context import _workspace
from vendorgen.cli.output import _note, _say, _shown


@click.command()
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    help="The output directory whose modules to catalog (default: the only one in the lock, else the configured one).",
)
def catalog(out_dir: str | None) -> None:
    """Write the output package's catalog.py, for agents with many tools.

    `catalog_tools()` in it gives an agent every vendored tool of the package under
    its own name, but each in one short line of the system prompt, and a
    `find_tools(query)` tool that returns the full documentation of the best
    matches (an offline search index written into the file).
    `catalog_tools(call_tool=True)` is for tool-calling agents: only find_tools
    and call_tool(name, arguments). The lock owns the file: add, update and
    remove keep it in step, `vendorgen check` compares it.

    \b
    Examples:
      vendorgen catalog
      python -c "from tools.catalog import catalog_tools; print(catalog_tools()[-1]('weather'))"
    """
    from vendorgen.package import catalog as cataloging  # start-up: the workspace and the lock, when it runs

    workspace = _workspace()
    entries = workspace.read_lock()
    directories = sorted({PurePosixPath(entry.path).parent.as_posix() for entry in entries})
    if out_dir is not None:
        directory = workspace.relative(workspace.inside(Path(out_dir), "output directory"))
    elif len(directories) == 1:
        directory = directories[0]
    else:
        directory = workspace.relative(workspace.inside(Path(workspace.config.output_dir), "output directory"))
    beside = [entry for entry in entries if PurePosixPath(entry.path).parent.as_posix() == directory]
    if not beside and entries:
        raise click.UsageError(f"no vendored module is in {directory}/; the lock has modules in {', '.join(directories)}")
    from vendorgen.package.derived import readable  # start-up: as above

    readable_beside, broken = readable(workspace, beside)
    for reason in broken:  # the other modules are cataloged
        _note(f"not in the catalog: {reason}")
    module = cataloging.catalog_module(workspace, readable_beside or beside)
    written = cataloging.write(workspace, module)
    _say(f"{'wrote' if written else 'up to date:'} {_shown(workspace, module.path)} ({module.tools} tools)")
