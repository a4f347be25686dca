"""`vendorgen review` and the review aids of add, check --remote, diff, update and serve, on a real MCP server
that pulls the rug (tests/servers/mcp_rugpull.py: `read_notes` turns from read-only to not, its description
gains an instruction to the model, the server's instructions an <IMPORTANT> block)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Project, new_project
from tests.test_serve import stdio_parameters, without_pin

SERVER = "mcp:stdio:python -m tests.servers.mcp_rugpull"
BEFORE, AFTER = {"RUGPULL_STAGE": "before"}, {"RUGPULL_STAGE": "after"}


def git(project: Project, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
                          cwd=project.root, capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """A git project that vendored the server before the rug pull, committed."""
    root = tmp_path_factory.mktemp("review")
    project = new_project(root)
    cache = {"XDG_CACHE_HOME": str(root / "cache")}
    project.run = _with_env(project.run, cache)  # type: ignore[method-assign]
    git(project, "init", "-q", "-b", "main")
    added = project.run("add", SERVER, "--trust", "--env", "RUGPULL_STAGE", "--json", env=BEFORE)
    assert added.exit_code == 0, added.stderr
    (row,) = json.loads(added.stdout)["modules"]
    assert [(flag["tool"], flag["rule"], flag["severity"]) for flag in row["flags"]] == [
        ("delete_note", "destructive", "medium")]  # fmt: skip
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "vendor notes")
    yield project


def _with_env(run, extra):  # type: ignore[no-untyped-def]
    return lambda *args, env=None, **options: run(*args, env={**extra, **(env or {})}, **options)


def test_the_generated_class_carries_the_annotations_and_says_them(notes: Project) -> None:
    module = notes.import_module("tools/notes.py")
    read, delete = module.ReadNotesTool, module.DeleteNoteTool
    assert (read.read_only_hint, read.destructive_hint, read.open_world_hint) == (True, False, False)
    assert (delete.read_only_hint, delete.destructive_hint, delete.open_world_hint) == (False, True, True)
    assert "Read-only: it changes nothing; works in a closed domain." in read.__doc__
    assert "May delete or overwrite data; talks to the outside world." in delete.__doc__
    assert module.INSTRUCTIONS == "Notes of the current project."  # pinned from initialize
    assert json.loads((notes.root / ".vendorgen/schemas/notes.json").read_text())["instructions"] == module.INSTRUCTIONS
    assert notes.run("check").exit_code == 0


def test_review_exits_1_only_on_a_high_flag_and_a_project_changes_and_silences_rules(notes: Project) -> None:
    plain = notes.run("review")
    assert plain.exit_code == 0, plain.stdout
    assert "medium: notes.delete_note annotations: destructive" in plain.stdout
    assert "review: 0 high, 1 medium, 0 low flags in 1 vendored module" in plain.stdout
    pyproject = notes.root / "pyproject.toml"
    original = pyproject.read_text()
    try:
        pyproject.write_text(original + '[tool.vendorgen.review]\nseverity = { destructive = "high" }\n')
        strict = notes.run("review", "--json")
        assert strict.exit_code == 1 and json.loads(strict.stdout)["ok"] is False
        assert json.loads(strict.stdout)["modules"][0]["flags"][0]["severity"] == "high"
        assert "1 high" in notes.run("check").stdout  # check says so, and still passes: it checks sync
        pyproject.write_text(original + '[tool.vendorgen.review]\nseverity = { destructive = "high" }\n'
                             '[[tool.vendorgen.review.silence]]\nrule = "destructive"\ntool = "delete_note"\n'
                             'reason = "deleting notes is its job"\n')  # fmt: skip
        silenced = notes.run("review")
        assert silenced.exit_code == 0
        assert "silenced (deleting notes is its job): notes.delete_note annotations: destructive" in silenced.stdout
        pyproject.write_text(original + '[[tool.vendorgen.review.silence]]\nrule = "destructive"\n')
        unexplained = notes.run("review")
        assert unexplained.exit_code == 2
        assert "tool.vendorgen.review.silence[0] needs a reason" in unexplained.stderr
    finally:
        pyproject.write_text(original)


@pytest.mark.parametrize(
    ("stage", "error"),
    [
        ("gone", "refused read_notes: the MCP server notes (stdio) no longer lists 'read_notes'; review it with"
                 " `vendorgen diff notes`, take it with `vendorgen update notes`, or serve it anyway with --allow-drift"),
        ("broken", "read_notes failed: McpError: this listing is broken"),  # the upstream's own error, passed on
        ("gone", None),  # with --allow-drift: the call goes through (so above it was refused, not failed)
    ],
)  # fmt: skip
def test_serve_refuses_a_pinned_tool_its_upstream_no_longer_lists_or_cannot_list(
    notes: Project, stage: str, error: str | None
) -> None:
    """Before the first call on a connection `serve` lists the upstream's tools and checks the pins: a tool it
    stops listing, or a listing it cannot give, is refused with one error to the client; the tool is not called
    (the server still answers it: without the check the call would return its notes)."""

    async def served() -> object:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        args = () if error else ("--allow-drift",)
        async with stdio_client(stdio_parameters(notes, *args, env={"RUGPULL_STAGE": stage})) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await session.call_tool("read_notes", {"words": "plan"})

    result = asyncio.run(asyncio.wait_for(served(), 300))
    assert result.isError is (error is not None) and len(result.content) == 1, result  # type: ignore[attr-defined]
    assert result.content[0].text == (error or "notes about plan"), result  # type: ignore[attr-defined]


def test_a_server_module_without_the_pin_of_a_pinned_tool_refuses_it(notes: Project) -> None:
    """A server module whose pins lack one of its MCP tools (written before the tool was vendored, or edited) does
    not call that tool unchecked: the client is told to regenerate the server, and the other tools are served."""

    async def served() -> tuple[object, object]:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        async with stdio_client(without_pin(notes, "read_notes", BEFORE)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return (await session.call_tool("read_notes", {"words": "plan"}),
                        await session.call_tool("delete_note", {"title": "plan"}))  # fmt: skip

    try:
        refused, served_ = asyncio.run(asyncio.wait_for(served(), 300))
    finally:
        (notes.root / "tools/_stale_server.py").unlink()
    assert refused.isError and len(refused.content) == 1, refused  # type: ignore[attr-defined]
    text = refused.content[0].text  # type: ignore[attr-defined]
    assert text == "read_notes has no pinned definition: run `vendorgen serve` to regenerate this server", refused
    assert served_.content[0].text == "deleted plan", served_  # type: ignore[attr-defined]


def test_a_rug_pull_is_said_first_by_check_remote_diff_and_update_and_refused_by_serve(notes: Project) -> None:
    remote = notes.run("check", "--remote", env=AFTER)
    assert remote.exit_code == 1
    for output in (remote.stdout, notes.run("diff", "notes", env=AFTER).stdout):
        changes = [line.strip() for line in output.splitlines() if line.startswith("  ")]
        review = [index for index, line in enumerate(changes) if line.startswith("!")]
        schema = [index for index, line in enumerate(changes) if line[:2] in ("~ ", "+ ", "- ")]
        assert review and schema and max(review) < min(schema), output  # the review's lines come first
        assert changes[0] == "! tool read_notes: annotation readOnlyHint true -> false", output
        assert "! tool read_notes: annotation destructiveHint false (read-only) -> true (by default)" in changes
        assert any(line.startswith("! tool read_notes: description changed: added ' <IMPORTANT>") for line in changes)
        assert any(line.startswith("! the server's instructions changed: added ' <IMPORTANT>") for line in changes)
        assert any(line.startswith("! new high flag: read_notes description: sensitive-file") for line in changes)

    async def served(*args: str) -> tuple[object, list[object], object]:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        async with stdio_client(stdio_parameters(notes, *args, env=AFTER)) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                listed = (await session.list_tools()).tools
                return initialized, listed, await session.call_tool("read_notes", {"words": "plan"})

    initialized, listed, refused = asyncio.run(served("--read-only"))
    assert [tool.name for tool in listed] == ["read_notes"]  # pinned read-only when vendored; the flip is drift
    assert listed[0].annotations.readOnlyHint is True and listed[0].annotations.openWorldHint is False
    assert initialized.instructions == "notes: Notes of the current project."  # as vendored, not as the server says now
    text = refused.content[0].text  # type: ignore[attr-defined]
    assert refused.isError and "changed the description and annotations of 'read_notes' since it was vendored" in text
    base = notes.run("review", "--format", "markdown", "--base", "main")
    assert base.exit_code == 0 and "No tool added, removed or changed." in base.stdout

    update = notes.run("update", "notes", env=AFTER)
    assert update.exit_code == 0, update.stderr
    lines = update.stdout.splitlines()
    assert lines[0] == "updated tools/notes.py" and lines[1] == "  ! tool read_notes: annotation readOnlyHint true -> false"
    assert "review of notes: " in update.stdout and "high: notes.read_notes description: hidden-markup" in update.stdout
    code = (notes.root / "tools/notes.py").read_text()
    assert "    # review: high sensitive-file in description: names a file that holds secrets" in code
    assert "# review: high hidden-markup in server.instructions" in code
    summary = notes.run("review", "--format", "markdown", "--base", "main")
    assert summary.exit_code == 1  # high flags now
    assert "| <code>notes</code> | <code>read&#95;notes</code> | changed |" in summary.stdout
    assert "annotation readOnlyHint true -&#62; false" in summary.stdout
    assert "| new | high | <code>notes.read&#95;notes</code> |" in summary.stdout
    (Path(notes.root) / "review.md").write_text(summary.stdout)  # what CI would post (README quotes one)
    after = notes.run("serve", "--read-only", "--list")
    assert after.exit_code == 2 and "none of these tools is annotated read-only" in after.stderr
