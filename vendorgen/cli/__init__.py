"""The `vendorgen` command: a thin click layer over the pipeline.

Only click and vendorgen's own light modules load at start-up; every command
imports what it needs, so `vendorgen --help` stays fast.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence

import click

from vendorgen import __version__
from vendorgen.cli import add, catalog, login, project, push, review, serve, sync
from vendorgen.cli.output import _echo, _Output, _report, _show_warning
from vendorgen.errors import VendorgenError

_DEBUG = False


class _Group(click.Group):
    """`vendorgen --help` lists each command with its whole first sentence, wrapped, never cut with `...`."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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


for command in (add.add, project.requirements, project.list_, project.init, push.push, serve.serve, catalog.catalog):
    cli.add_command(command)
for command in (sync.check, sync.update, sync.diff, sync.remove, review.review, login.login, login.logout):
    cli.add_command(command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: errors become one `error: ...` line and an exit code (2 for every usage error); a reader
    that stopped early (`vendorgen list | head -1`) a quiet exit, as for any filter."""
    try:
        try:
            _main(argv)
        finally:  # here, not at exit, where a closed stdout would be a message no one can silence
            sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left unflushed goes nowhere
        sys.exit(1)


def _main(argv: Sequence[str] | None) -> None:
    warnings.showwarning = _show_warning

    _Output.command, _Output.json_printed, _Output.root = "", False, None
    _Output.waits.stream = sys.stderr if sys.stderr.isatty() else None
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="vendorgen", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # `vendorgen` alone: the help, as --help shows it
        _echo(exc.ctx.get_help() if exc.ctx else "")
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):  # click makes Ctrl-C an Abort
            _echo("interrupted", err=True)
            sys.exit(130)
        _echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        hint = _quote_hint(exc, argv)
        _fail(exc.format_message().rstrip(".") + hint if hint else exc.format_message(), exc.exit_code, exc)
    except VendorgenError as exc:
        if _DEBUG:
            raise
        _fail(str(exc), exc.exit_code, exc)
    except KeyboardInterrupt:
        _echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        raise
    except Exception as exc:  # a bug: still one line, traceback with --debug
        if _DEBUG:
            raise
        _fail(f"unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)", 1, exc)


def _quote_hint(exc: click.ClickException, argv: Sequence[str] | None) -> str:
    """An option click does not know after an unquoted stdio command line (`mcp:stdio:npx -y pkg`) is the
    server's: the whole command line is one argument."""
    words = list(argv) if argv is not None else sys.argv[1:]
    stdio = next((word for word in words if word.startswith("mcp:stdio:")), None)
    if not isinstance(exc, click.NoSuchOption) or stdio is None:
        return ""
    return f'; quote the server\'s command line as one argument: vendorgen add "{stdio} {exc.option_name} ..." --trust'



def _fail(message: str, code: int, exc: Exception) -> None:
    """One `error: ...` line on stderr (and, under --json, the JSON report if none was printed); exit `code`."""
    message = " ".join(message.split())
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        message = f"{message.rstrip('.')} (see `{exc.ctx.command_path} --help`)"
    if _Output.command and not _Output.json_printed:
        _report(None, False, [], [{"message": message}])
    _echo(f"error: {message}", err=True)
    sys.exit(code)
