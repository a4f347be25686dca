"""The `vendorgen` command: a thin click layer over the pipeline.

Only click and vendorgen's own light modules load at start-up; every command
imports what it needs, so `vendorgen --help` stays fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from vendorgen import __version__
from vendorgen.errors import VendorgenError

if TYPE_CHECKING:  # annotations only: the pipeline loads when a command needs it
    from vendorgen.pipeline import Added, Generated

_DEBUG = False
SPACE_SDKS = ("gradio",)  # `push`: app.py is a Gradio demo


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
@click.option("--token", help="Hugging Face token for private Spaces and hub tools (default: HF_TOKEN or `hf auth login`; never written). It goes to the Hub and a Space's own *.hf.space host; given here, also to the app URL you name.")
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
    hub, collection: VENDORGEN_HUB_TIMEOUT sets the time-out of each request
      to the Hub (30 s).

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
    from vendorgen import pipeline
    from vendorgen.sources import AddOptions
    from vendorgen.workspace import Workspace

    options["env"] = tuple(options["env"])
    options["tools"] = tuple(options["tools"])
    workspace = Workspace.discover()
    added = pipeline.add(workspace, source, AddOptions(**options), out_dir, dry_run, progress=_counted)
    out = Path(out_dir or workspace.config.output_dir)
    if as_json:
        _emit_json(
            [
                {
                    "name": item.module.name,
                    "path": (out / f"{item.module.name}.py").as_posix(),
                    "tools": [{"name": tool.name, "class": tool.class_name} for tool in item.module.tools],
                    "written": not dry_run,
                    **_review_json(item),
                }
                for item in added.generated
            ]
        )
    else:
        for item in added.generated:
            path = (out / f"{item.module.name}.py").as_posix()
            if dry_run:
                click.echo(f"# --- {path} (not written)")
                click.echo(item.code, nl=False)
            else:
                click.echo(f"wrote {path} ({_classes(item)})")
            _print_review(item, path)
    _raise_failures(added)


def _classes(item: Generated, shown: int = 5) -> str:
    """The module's tool classes, the first few of a long list (a big MCP server has hundreds)."""
    names = [tool.class_name for tool in item.module.tools]
    if len(names) <= shown:
        return ", ".join(names)
    return f"{len(names)} tools: {', '.join(names[:shown - 1])}, ..., {names[-1]}"


def _counted(uris: list[str]) -> Iterator[str]:
    """Progress on stderr when a source stands for several (a collection's Spaces): one line per source."""
    for index, uri in enumerate(uris, 1):
        if len(uris) > 1:
            click.echo(f"[{index}/{len(uris)}] {uri}", err=True)
        yield uri


def _print_review(item: Generated, path: str) -> None:
    """For code vendored as it is (hub): what it imports and what deserves a look, by line of `path`."""
    if not item.module.original_source:
        return
    from vendorgen.review import review

    click.echo(f"review of {path} ({item.module.source} at {item.module.revision[:12]}):")
    for line in review(item.code).lines():
        click.echo(line)
    click.echo(f"  requirements: {', '.join(item.module.requirements) or 'none declared'}")


def _review_json(item: Generated) -> dict[str, Any]:
    if not item.module.original_source:
        return {}
    from vendorgen.review import review

    return {"review": review(item.code).to_json(), "requirements": list(item.module.requirements),
            "revision": item.module.revision}  # fmt: skip


def _raise_failures(added: Added) -> None:
    """`--keep-going`: name every source that failed, then exit 1."""
    if not added.failed:
        return
    for failure in added.failed:
        click.echo(f"failed: {failure.uri}: {failure.error}", err=True)
    done = len(added.generated)
    raise VendorgenError(
        f"{len(added.failed)} source{'s' * (len(added.failed) != 1)} failed (listed above); "
        + (f"{done} module{'s' * (done != 1)} vendored" if done else "nothing vendored")
    )


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
    from vendorgen import sync
    from vendorgen.workspace import Workspace

    workspace = Workspace.discover()
    rows = []
    for entry in workspace.read_lock():
        state = sync.local_state(workspace, entry)
        rows.append({"name": entry.name, "source": entry.source, "tools": list(entry.tools), "path": entry.path,
                     "revision": entry.revision, "status": state.status, "problems": state.problems})  # fmt: skip
    if as_json:
        _emit_json(rows)
        return
    if not rows:
        click.echo("nothing vendored yet; try `vendorgen add --help`")
    for row in rows:
        click.echo(f"{row['name']:<24} {row['status']:<8} {row['path']:<32} {row['source']}")


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--remote", is_flag=True, help="Re-inspect the sources and report upstream schema changes instead.")
@click.option("--allow-edits", is_flag=True, help="Report local edits without failing on them.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(names: tuple[str, ...], remote: bool, allow_edits: bool, as_json: bool) -> None:
    """Check vendored modules against the lock, offline; exit 1 on any difference.

    Regenerates each locked module from its committed snapshot and compares it
    with the file on disk. Reports local edits, vendorgen/template/config drift,
    missing files and vendored-looking files the lock does not list, with
    unified diffs. Modules whose hashes all match are not regenerated.

    With --remote, re-inspects every source instead and reports what changed
    upstream (tools or parameters added or removed, types, defaults, enums,
    descriptions); exit 1 when anything changed, 2 when a source is unreachable.

    \b
    Examples:
      vendorgen check                    # CI / pre-commit
      vendorgen check --allow-edits      # edits are yours; only drift fails
      vendorgen check --remote convert
    """
    from vendorgen import sync
    from vendorgen.workspace import Workspace

    workspace = Workspace.discover()
    if remote:
        results = sync.check_remote(workspace, sync.select(workspace.read_lock(), names))
        code = sync.remote_exit_code(results)
        if as_json:
            _emit_json({"ok": code == 0, "modules": [result.to_json() for result in results]})
        else:
            click.echo(sync.render_remote(results), nl=False)
    else:
        report = sync.check(workspace, names, allow_edits)
        code = 0 if report.ok else 1
        if as_json:
            _emit_json(report.to_json())
        else:
            click.echo(report.render(), nl=False)
    if code:
        sys.exit(code)


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--offline", is_flag=True, help="Regenerate from the committed snapshots; do not contact the sources.")
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the diff of every file that would change; write nothing.")
@click.option("--trust", is_flag=True, help="Take new upstream code of modules vendored as they are (hub:).")
def update(names: tuple[str, ...], offline: bool, dry_run: bool, show_diff: bool, trust: bool) -> None:
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
    from vendorgen import sync
    from vendorgen.workspace import Workspace

    workspace = Workspace.discover()
    entries = workspace.read_lock()
    if not entries:
        click.echo("nothing vendored yet; try `vendorgen add --help`")
        return
    plan = sync.plan_update(workspace, sync.select(entries, names), offline, trust)
    preview = dry_run or show_diff
    for step in plan.steps:
        if step.action != "up to date":
            click.echo(step.render(preview))
        if step.review:
            from vendorgen.review import review

            click.echo(f"review of the new {step.entry.path} ({step.new_entry.revision[:12]}):")
            for line in review(step.review).lines():
                click.echo(line)
        if show_diff and step.diff():
            click.echo(step.diff(), nl=False)
    for note in plan.runtime.notes if plan.runtime else ():
        click.echo(f"would {note}" if preview else note)
    current = sum(step.action == "up to date" for step in plan.steps)
    if current:
        click.echo(f"{current} module{'s' * (current != 1)} up to date")
    if not preview:
        sync.apply_update(workspace, plan.steps, plan.runtime)
    if error := plan.error(preview):
        raise error


@cli.command()
@click.argument("name")
@click.option("--offline", is_flag=True, help="Show only local edits; do not contact the source.")
def diff(name: str, offline: bool) -> None:
    """Show NAME's upstream changes and your local edits, separately.

    Upstream: the locked snapshot against what the source answers now, as a
    schema summary and a diff of the generated code. Local: the code the locked
    snapshot generates against the file on disk.

    \b
    Example:
      vendorgen diff convert
    """
    from vendorgen import sync
    from vendorgen.workspace import Workspace

    workspace = Workspace.discover()
    text, error = sync.diff_report(workspace, sync.select(workspace.read_lock(), [name])[0], offline)
    click.echo(text, nl=False)
    if error is not None:
        raise error


@cli.command()
@click.argument("names", nargs=-1, required=True, metavar="NAME...")
@click.option("--force", is_flag=True, help="Delete files with local edits too.")
def remove(names: tuple[str, ...], force: bool) -> None:
    """Delete vendored modules: their files, snapshots and lock entries, nothing else.

    A file with local edits is kept (and nothing is removed) unless --force.

    \b
    Example:
      vendorgen remove convert
    """
    from vendorgen import sync
    from vendorgen.workspace import LOCK_NAME, Workspace

    for path in sync.remove(Workspace.discover(), names, force):
        click.echo(f"deleted {path}")
    click.echo(f"removed {', '.join(dict.fromkeys(names))} from {LOCK_NAME}")


@cli.command()
@click.argument("module")
@click.argument("repo_id", metavar="OWNER/SPACE")
@click.option("--tool", "tool_name", metavar="NAME", help="The tool to push when MODULE has several (one per Space).")
@click.option("--private", is_flag=True, help="Create the Space private (an existing Space keeps its visibility).")
@click.option("--sdk", type=click.Choice(SPACE_SDKS), default="gradio", show_default=True, help="The Space SDK (app.py is a Gradio demo).")
@click.option("--token", envvar="HF_TOKEN", show_envvar=True, help="Token with write access (default: your `hf auth login`; never written or printed).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), help="Also write the Space folder here (required with --dry-run).")
@click.option("--dry-run", is_flag=True, help="Write the folder to --out and list it; upload nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written and pushed as JSON.")
def push(module: str, repo_id: str, tool_name: str | None, private: bool, sdk: str, token: str | None,
         out_dir: Path | None, dry_run: bool, as_json: bool) -> None:  # fmt: skip
    """Publish a vendored tool as a Hub tool Space that smolagents' Tool.from_hub loads.

    MODULE is a vendored module's name or path. The Space gets tool.py (the
    tool as one self-contained file, regenerated from the lock), app.py (a
    Gradio demo for every input type), requirements.txt (distributions pinned
    to the versions installed here) and README.md (Space card, provenance),
    in one commit; the Space is created if it does not exist.

    \b
    Examples:
      vendorgen push convert me/convert-tool
      vendorgen push tools/time_server.py me/time --tool get_current_time --dry-run --out space/
    """
    from vendorgen import push as pushing
    from vendorgen.errors import UsageError
    from vendorgen.workspace import Workspace

    if dry_run and out_dir is None:
        raise UsageError("--dry-run writes the Space folder to --out DIR: give the directory")
    folder = pushing.build_folder(Workspace.discover(), module, repo_id, tool_name)
    for note in folder.notes:
        click.echo(f"note: {note}", err=True)
    written = [path.as_posix() for path in pushing.write_folder(folder, out_dir)] if out_dir is not None else []
    url = commit = None
    if not dry_run:
        url, commit = pushing.upload(folder, repo_id, token=token, private=private, sdk=sdk)
    if as_json:
        _emit_json({"tool": folder.tool.name, "files": list(folder.files), "written": written, "repo_id": repo_id,
                    "url": url, "commit": commit})  # fmt: skip
        return
    for name, text in folder.files.items():
        click.echo(f"{name:<18} {len(text.encode('utf-8')):>7} bytes")
    if out_dir is not None:
        click.echo(f"wrote {out_dir.as_posix()}/" + (" (not uploaded: --dry-run)" if dry_run else ""))
    if not dry_run:
        click.echo(f"pushed {folder.tool.name} to {url} (commit {commit})")


# -- serve ---------------------------------------------------------------------------------------


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--list", "list_only", is_flag=True, help="List the tools that would be served, and exit.")
@click.option("--transport", type=click.Choice(["stdio", "streamable-http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="streamable-http: the address to bind.")
@click.option("--port", type=int, default=8765, show_default=True, help="streamable-http: the port (0: any free one).")
@click.option("--allow-remote", is_flag=True, help="Allow a --host that is not a loopback address.")
@click.option("--token-env", metavar="NAME", help="streamable-http: require `Authorization: Bearer <$NAME>` (the value is never written).")
@click.option("--allow-drift", is_flag=True, help="Call MCP tools whose upstream definition changed since they were vendored.")
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
    if serving.write(workspace, module):
        click.echo(f"wrote {module.path}", err=True)
    python = serving.interpreter(workspace.root)
    args = [python, "-m", module.dotted, *names, "--transport", transport, "--host", host, "--port", str(port)]
    args += ["--list"] * list_only + ["--allow-remote"] * allow_remote + ["--allow-drift"] * allow_drift
    args += ["--token-env", token_env] if token_env else []
    sys.stdout.flush()
    os.chdir(workspace.root)  # `python -m` finds the package from here
    if os.name == "posix":
        os.execv(python, args)  # the client talks to the server itself, over this process's stdio
    sys.exit(subprocess.call(args))


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
