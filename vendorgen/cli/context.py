"""What every command takes from where it runs: the project, its module names, the options given together."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from vendorgen.cli.output import _echo, _Output
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import LOCK_NAME, ROOT_MARKERS

if TYPE_CHECKING:
    from vendorgen.project.workspace import Workspace


def _workspace(need_lock: bool = True) -> Workspace:
    """The project around the current directory, named once when it is not the current directory.

    `need_lock`: a command about what is vendored refuses a project without a lock.
    """
    # Start-up: the workspace (the lock, the journal, the config) loads when a command runs, not at `--help`.
    from vendorgen.project.workspace import Workspace

    workspace = Workspace.discover(waits=_Output.waits)
    if workspace.root != Path.cwd().resolve() and not _Output.command:
        _echo(f"project: {workspace.root}", err=True)
    markers = [marker for marker in ROOT_MARKERS if (workspace.root / marker).exists()]
    if markers:  # the --json report's root, also when the command fails
        _Output.root = str(workspace.root)
    if need_lock and not (workspace.root / LOCK_NAME).is_file():
        if markers:
            where = f"no {LOCK_NAME} in the project {workspace.root} (the nearest directory holding {markers[0]})"
        else:  # no project around here: the root is where the user stands, and names no file
            where = f"no {LOCK_NAME}, {' or '.join(ROOT_MARKERS[1:])} in {workspace.root} or above it: not a project"
        above = next((str(parent) for parent in workspace.root.parents if (parent / LOCK_NAME).is_file()), None)
        hint = (f"the lock of {above} is above it: run vendorgen there" if above
                else "nothing is vendored here yet: `vendorgen add --help`")  # fmt: skip
        raise UsageError(f"{where}; {hint}")
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
    from vendorgen.project.workspace import Workspace  # start-up, as in `_workspace`

    try:
        return [entry.name for entry in Workspace.discover().read_lock() if entry.name.startswith(incomplete)]
    except VendorgenError:
        return []
