"""MCP servers as third parties write them (issue 12):

- a TypeScript-style server on the real npm @modelcontextprotocol/sdk and zod (tests/servers/zod_server.cjs):
  unions keep their branches and descriptions; the server's script, inside the project, is stored
  relative to the project root, and the lock's revision is the script's hash;
- @modelcontextprotocol/server-everything started through `npx`: pinned to the version npx ran;
- mcp-server-time (PyPI) through `python -m`: the lock's revision is its distribution's version;
- zod 3's `.default()` shape (required and defaulted) is optional, on the schema a server sends.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.servers import SERVERS_DIR
from tests.test_mcp_source import by_name, check_against_mcpadapt, close, mcpadapt_tools, new_project, vendor
from tests.test_mcp_thirdparty import EVERYTHING, NPM_COMMAND
from vendorgen.sources import mcp as mcp_source

NODE_MODULES = REPO / ".cache/npm/node_modules"
needs_npm = pytest.mark.skipif(
    not (NODE_MODULES / "zod").is_dir() or not EVERYTHING.is_file() or shutil.which("node") is None,
    reason=f"the npm packages are not installed (needs node; `make test` runs `{NPM_COMMAND}`)",
)


def lock_entry(project: Project, name: str) -> dict[str, Any]:
    lock = tomllib.loads((project.root / "vendorgen.lock").read_text())
    return next(entry for entry in lock["module"] if entry["name"] == name)


# ---------------------------------------------------------------------------
# zod: unions; a script inside the project
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def zod(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, ModuleType]]:
    project = new_project(tmp_path_factory, "mcp-zod")
    (project.root / "servers").mkdir()
    shutil.copy(SERVERS_DIR / "zod_server.cjs", project.root / "servers")
    module = vendor(project, f"mcp:stdio:node {project.root}/servers/zod_server.cjs {NODE_MODULES}", "--trust")
    yield project, module
    close(module)


@needs_npm
def test_a_union_keeps_its_branches_their_descriptions_and_a_precise_annotation(zod: tuple[Project, ModuleType]) -> None:
    from smolagents.models import get_tool_json_schema

    _, module = zod
    tool = by_name(module)["find_user"]
    who = tool.inputs["who"]
    assert who["type"] == ["string", "object"]
    # The branches' own descriptions, then the object's shape: a CodeAgent's prompt shows no schema.
    assert who["description"] == 'A user name; or A user by id. An object is one of: {"id": integer}.'
    assert [branch["description"] for branch in who["oneOf"]] == ["A user name", "A user by id"]
    assert who["oneOf"][1]["properties"]["id"]["description"] == "The numeric id"
    assert typing.get_type_hints(type(tool).forward)["who"] == str | module._FindUser_Who_Option1
    assert typing.get_type_hints(module._FindUser_Who_Option1) == {"id": int}
    # The model sees the branches (smolagents leaves a oneOf alone), and so does LangChain.
    assert get_tool_json_schema(tool)["function"]["parameters"]["properties"]["who"]["oneOf"] == who["oneOf"]
    assert tool.to_langchain().args_schema["properties"]["who"]["oneOf"] == who["oneOf"]
    # A `"type": [...]` union has nothing more to keep.
    assert tool.inputs["since"] == {"type": ["string", "number"], "description": "A date or a timestamp", "nullable": True}


@needs_npm
def test_the_zod_server_is_called_with_either_branch(zod: tuple[Project, ModuleType], monkeypatch: pytest.MonkeyPatch) -> None:
    project, module = zod
    monkeypatch.chdir(project.root)  # see test_a_project_script_is_found_from_anywhere
    tool = by_name(module)["find_user"]
    assert json.loads(tool(who="ann")) == {"who": "ann", "limit": 10}
    assert json.loads(tool(who={"id": 7}, limit=2, since=5)) == {"who": {"id": 7}, "limit": 2, "since": 5}


@needs_npm
def test_the_zod_server_matches_mcpadapt(zod: tuple[Project, ModuleType]) -> None:
    from mcp import StdioServerParameters

    _, module = zod
    params = StdioServerParameters(command="node", args=[str(SERVERS_DIR / "zod_server.cjs"), str(NODE_MODULES)])
    theirs, raw = mcpadapt_tools(params)
    check_against_mcpadapt(module.tools(), theirs, raw)


@needs_npm
def test_a_script_inside_the_project_is_stored_relative_to_it(zod: tuple[Project, ModuleType]) -> None:
    project, module = zod
    assert module.SERVER["command"] == "node"
    assert module.SERVER["args"] == ["servers/zod_server.cjs", str(NODE_MODULES)]  # outside the project: as given
    assert module.SERVER["project_paths"] == [1]  # indices into [command, *args]
    entry = lock_entry(project, "zod_shapes")
    assert entry["source"] == f"mcp:stdio:node servers/zod_server.cjs {NODE_MODULES}"
    assert str(project.root) not in (project.root / entry["path"]).read_text()
    # The server's own version is its code: serverInfo says 3.1.4, the file is what runs.
    import hashlib

    digest = hashlib.sha256((project.root / "servers/zod_server.cjs").read_bytes()).hexdigest()[:12]
    assert entry["revision"] == f"zod-shapes sha256:{digest}"
    # Regenerated and re-inspected from a subdirectory: the same.
    (project.root / "sub").mkdir(exist_ok=True)
    assert Project(project.root / "sub").run("check").exit_code == 0
    remote = Project(project.root / "sub").run("check", "--remote")
    assert remote.exit_code == 0, remote.stdout + remote.stderr


@needs_npm
def test_a_project_script_is_found_from_anywhere(zod: tuple[Project, ModuleType], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    _, module = zod
    close(module)
    monkeypatch.chdir(tmp_path)
    try:
        assert json.loads(by_name(module)["find_user"](who="ann"))["who"] == "ann"
    finally:
        close(module)


# ---------------------------------------------------------------------------
# npx and python -m: pinned, and the revision is the package's
# ---------------------------------------------------------------------------


@needs_npm
def test_npx_is_pinned_to_the_version_it_ran(tmp_path_factory: pytest.TempPathFactory,
                                             monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    if shutil.which("npx") is None:
        pytest.skip("npx is not installed")
    project = new_project(tmp_path_factory, "mcp-npx")
    (project.root / "node_modules").symlink_to(NODE_MODULES)  # npx runs the project's own install
    module = vendor(project, "mcp:stdio:npx --offline @modelcontextprotocol/server-everything stdio", "--trust",
                    "--name", "everything")  # fmt: skip
    try:
        assert module.SERVER["args"] == ["--offline", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"]
        assert module.SERVER["package"] == {"name": "@modelcontextprotocol/server-everything", "version": "2026.8.31"}
        entry = lock_entry(project, "everything")
        assert entry["revision"] == "@modelcontextprotocol/server-everything 2026.8.31"  # serverInfo says 2.0.0
        assert entry["source"] == "mcp:stdio:npx --offline @modelcontextprotocol/server-everything@2026.8.31 stdio"
        monkeypatch.chdir(project.root)
        assert by_name(module)["echo"](message="pinned") == "Echo: pinned"
    finally:
        close(module)


@needs_npm
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads processes from /proc (Linux)")
def test_add_leaves_no_server_process_behind(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    # npx exits as soon as its stdin closes; its node child (the server) must not outlive `add`.
    if shutil.which("npx") is None:
        pytest.skip("npx is not installed")
    project = new_project(tmp_path_factory, "mcp-npx-exit")
    (project.root / "node_modules").symlink_to(NODE_MODULES)
    source = "mcp:stdio:npx --offline @modelcontextprotocol/server-everything stdio"
    with (tmp_path / "output").open("w") as output:  # not a pipe: a process left behind would hold it open
        result = subprocess.run([sys.executable, "-m", "vendorgen", "add", source, "--trust"], cwd=project.root,
                                env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=output, stderr=output, timeout=300)  # fmt: skip
    assert result.returncode == 0, (tmp_path / "output").read_text()
    assert running_from(project.root) == []


def running_from(root: Path) -> list[str]:
    """The command lines of the live processes that name `root` (zombies hold nothing)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # exited meanwhile
        if state != "Z" and str(root) in command:
            found.append(command)
    return found


def test_python_m_records_the_distributions_version(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("mcp_server_time", reason="pip install 'mcp-server-time<=2026.10.10'")
    from importlib import metadata

    project = new_project(tmp_path_factory, "mcp-time-revision")
    module = vendor(project, "mcp:stdio:python -m mcp_server_time --local-timezone UTC", "--trust")
    close(module)
    # serverInfo gives "mcp-time" and the mcp SDK's version; the lock names what was installed.
    assert lock_entry(project, "mcp_time")["revision"] == f"mcp-server-time {metadata.version('mcp-server-time')}"


# ---------------------------------------------------------------------------
# zod 3: `.default()` is both required and defaulted
# ---------------------------------------------------------------------------


def test_required_with_a_default_is_optional() -> None:
    # What zod-to-json-schema (zod 3) emits for `limit: z.number().default(10)`.
    tool = {"name": "search", "inputSchema": {"type": "object", "properties": {
        "query": {"type": "string"}, "limit": {"type": "number", "default": 10}}, "required": ["query", "limit"]}}  # fmt: skip
    snapshot = {"kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "s", "prefix": "",
                "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"}, "tools": [tool]}  # fmt: skip
    [spec] = mcp_source.build(snapshot).tools
    query, limit = spec.inputs
    assert (query.name, query.required) == ("query", True)
    assert (limit.name, limit.required, limit.python_default) == ("limit", False, 10)
    assert limit.smolagents_input() == {"type": "number", "description": "", "default": 10, "nullable": True}
