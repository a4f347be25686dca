"""The `vendorgen` command: a thin click layer over the pipeline.

Only click and vendorgen's own light modules load at start-up; every command
imports what it needs, so `vendorgen --help` stays fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from vendorgen import __version__
from vendorgen.errors import VendorgenError

_DEBUG = False


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="vendorgen")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
def cli(debug: bool) -> None:
    """Vendor remote agent tools as typed, reviewable smolagents code.

    \b
    Example:
      vendorgen add space:http://127.0.0.1:7860/ --api-name /convert
      vendorgen list
    """
    global _DEBUG
    _DEBUG = debug


@cli.command()
@click.argument("source")
@click.option("--api-name", help="space: the endpoint to vendor, e.g. /predict.")
@click.option("--all-endpoints", is_flag=True, help="space: vendor every named endpoint.")
@click.option("--trust", is_flag=True, help="hub, collection, mcp stdio: acknowledge you trust the source (stdio: the command runs now and whenever the tools connect).")
@click.option("--env", "env", multiple=True, metavar="NAME", help="mcp stdio: pass this environment variable to the server, read when it starts; only the name is written, never the value.")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="mcp, langchain: vendor only this tool, by its remote or Python name (repeatable).")
@click.option("--prefix", default="", help="mcp, langchain: prefix every tool name (--prefix gh: get-repo -> gh_get_repo).")
@click.option("--class", "class_name", help="hub: the Tool class to vendor when tool.py has several.")
@click.option("--keep-going", is_flag=True, help="collection: vendor what works and list what failed.")
@click.option("--name", help="Module name (and tool name for single-tool sources).")
@click.option("--out", "out_dir", type=click.Path(path_type=str), help="Output directory (default: tools/ or [tool.vendorgen] output_dir).")
@click.option("--token", envvar="HF_TOKEN", show_envvar=True, help="Hugging Face token for private Spaces (never written).")
@click.option("--dry-run", is_flag=True, help="Print the generated code; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was vendored as JSON.")
def add(source: str, out_dir: str | None, dry_run: bool, as_json: bool, **options: Any) -> None:
    """Vendor SOURCE into this project.

    \b
    SOURCE is one of:
      space:<owner/name | http(s)://host:port/>
      hub:<owner/space>[@revision]          (needs --trust)
      collection:<owner/slug>               (needs --trust)
      mcp:<http(s)://host/mcp> | mcp:sse:<url> | "mcp:stdio:<command line>" (stdio needs --trust)
      langchain:<module>:<attr>

    \b
    mcp: one module per server, one Tool class per MCP tool, sharing one session;
      stdio runs the command line (python means this interpreter) with --env
      names passed from the environment when it starts (their values are never
      written); VENDORGEN_MCP_TIMEOUT sets the inspection timeout (10 s).
    langchain: imports <module> (from this directory first) and runs its code,
      as your own program would; <attr> is a BaseTool, a BaseTool class, a
      toolkit, or a function returning one of those or a list of tools.

    \b
    Examples:
      vendorgen add space:http://127.0.0.1:7860/ --api-name /convert
      vendorgen add space:http://127.0.0.1:7860/ --all-endpoints --out agent/tools
      vendorgen add mcp:http://127.0.0.1:8000/mcp --tool search --prefix web
      vendorgen add "mcp:stdio:npx -y @modelcontextprotocol/server-github" --trust --env GITHUB_TOKEN
      vendorgen add langchain:my_agent.tools:search_toolkit
    """
    from vendorgen import pipeline
    from vendorgen.sources import AddOptions
    from vendorgen.workspace import Workspace

    options["env"] = tuple(options["env"])
    options["tools"] = tuple(options["tools"])
    workspace = Workspace.discover()
    generated = pipeline.add(workspace, source, AddOptions(**options), out_dir, dry_run)
    out = Path(out_dir or workspace.config.output_dir)
    if as_json:
        _emit_json(
            [
                {
                    "name": item.module.name,
                    "path": (out / f"{item.module.name}.py").as_posix(),
                    "tools": [{"name": tool.name, "class": tool.class_name} for tool in item.module.tools],
                    "written": not dry_run,
                }
                for item in generated
            ]
        )
        return
    for item in generated:
        path = (out / f"{item.module.name}.py").as_posix()
        if dry_run:
            click.echo(f"# --- {path} (not written)")
            click.echo(item.code, nl=False)
        else:
            classes = ", ".join(tool.class_name for tool in item.module.tools)
            click.echo(f"wrote {path} ({classes})")


@cli.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def list_(as_json: bool) -> None:
    """List what is vendored here and whether each file is clean or edited.

    \b
    Example:
      vendorgen list --json
    """
    from vendorgen.workspace import Workspace, sha256_text

    workspace = Workspace.discover()
    rows = []
    for entry in workspace.read_lock():
        path = workspace.root / entry.path
        if not path.is_file():
            status = "missing"
        elif sha256_text(path.read_text(encoding="utf-8")) == entry.sha256:
            status = "clean"
        else:
            status = "edited"
        rows.append({"name": entry.name, "source": entry.source, "tools": list(entry.tools), "path": entry.path,
                     "revision": entry.revision, "status": status})  # fmt: skip
    if as_json:
        _emit_json(rows)
        return
    if not rows:
        click.echo("nothing vendored yet; try `vendorgen add --help`")
    for row in rows:
        click.echo(f"{row['name']:<24} {row['status']:<8} {row['path']:<32} {row['source']}")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: errors become one `error: ...` line and an exit code."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="vendorgen", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except VendorgenError as exc:
        if _DEBUG:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: still one line, traceback with --debug
        if _DEBUG:
            raise
        click.echo(f"error: unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)", err=True)
        sys.exit(1)
