"""What the commands print: every line through one escaping echo, the `--json` envelope, progress on a terminal."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vendorgen.text.literals import terminal_text
from vendorgen.waits import Waits

if TYPE_CHECKING:
    from vendorgen.project.workspace import Workspace


T = TypeVar("T")


class _Output:
    """What the running command prints: text, or (--json) one JSON report on stdout."""

    command = ""  # set by commands given --json
    json_printed = False
    root: str | None = None  # the project's root, once found
    waits = Waits()  # where long waits are shown (stderr on a terminal); passed to the project and the pipeline


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
    _Output.command = command
    _Output.waits.stream = None


def _report(workspace: Workspace | None, ok: bool, modules: list[dict[str, Any]],
            errors: Sequence[dict[str, Any]] = (), **extra: Any) -> None:  # fmt: skip
    """The one JSON report every command prints with --json (schema in the README)."""
    _emit_json({"command": _Output.command, "ok": ok, "root": str(workspace.root) if workspace else _Output.root,
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
    _Output.waits.stream = None  # the bar says what is being waited for
    try:
        with click.progressbar(items, label=label, file=sys.stderr, item_show_func=_item_label) as bar:
            yield from bar
    finally:
        _Output.waits.stream = sys.stderr


def _item_label(item: object) -> str | None:
    return None if item is None else str(getattr(item, "name", item))


@contextlib.contextmanager
def _counter(total: int, label: str) -> Iterator[Callable[[int], object]]:
    """A progress bar over `total` units on a terminal (see `_progress`); yields the function to advance it."""
    if total < 2 or _Output.command or not sys.stderr.isatty():
        yield lambda done: None
        return
    _Output.waits.stream = None
    try:
        with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
            yield bar.update
    finally:
        _Output.waits.stream = sys.stderr
