"""`vendorgen add mcp:` against real MCP servers: vendor through the CLI, import, instantiate, call.

The servers are tests/servers/mcp_server.py (FastMCP, every schema case), mcp_lowlevel.py
(pagination, recursive and hostile schemas) and mcp_many.py, over stdio, streamable-http
and SSE. The third-party servers are in test_mcp_thirdparty.py; both files compare what
vendorgen builds with what mcpadapt's SmolAgentsAdapter builds (`check_against_mcpadapt`).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
import time
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, Project, mypy
from tests.servers import OFFLINE_ENV, free_port, mcp_lowlevel, mcp_server, server_process
from vendorgen import naming
from vendorgen.errors import SchemaError
from vendorgen.model import NO_DEFAULT, ModuleSpec
from vendorgen.project.config import load_config
from vendorgen.sources import AddOptions, load, mcp_listing
from vendorgen.sources import mcp as mcp_source

SERVER_SCRIPT = str(REPO / "tests" / "servers" / "mcp_server.py")
# The FastMCP server runs as a script (it imports nothing from tests); the others as modules, so
# their server process needs PYTHONPATH, passed with --env.
FASTMCP_STDIO = f"mcp:stdio:python {SERVER_SCRIPT} stdio"
LOWLEVEL_STDIO = "mcp:stdio:python -m tests.servers.mcp_lowlevel stdio"
SECRET = "s3cret-value-never-written"


@pytest.fixture(autouse=True)
def _server_pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the generated modules read at run time for --env PYTHONPATH.
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("VENDORGEN_TEST_VAR", "from the agent's environment")


def server_env(**extra: str) -> dict[str, str]:
    return {**os.environ, **OFFLINE_ENV, "PYTHONPATH": str(REPO), **extra}


def new_project(tmp_path_factory: pytest.TempPathFactory, name: str) -> Project:
    root = tmp_path_factory.mktemp(name) / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)


def vendor(project: Project, uri: str, *args: str, env: dict[str, str] | None = None) -> ModuleType:
    """`vendorgen add URI ARGS --json` in `project`, then import the module it wrote."""
    result = project.run("add", uri, *args, "--json", env=env)
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["modules"]
    return project.import_module(entry["path"])


def by_name(module: ModuleType) -> dict[str, Any]:
    return {tool.name: tool for tool in module.tools()}


def close(module: ModuleType) -> None:
    module._ServerTool.session.close()


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    args = [SERVER_SCRIPT, "http", "--port", str(port)]
    with server_process(args, url, env=server_env(VENDORGEN_TEST_VAR="the server's own")):
        yield url


@pytest.fixture(scope="module")
def sse_url() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/sse"
    with server_process([SERVER_SCRIPT, "sse", "--port", str(port)], url, env=server_env()):
        yield url


@pytest.fixture(scope="module")
def stdio_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = new_project(tmp_path_factory, "mcp-stdio")
    result = project.run("add", FASTMCP_STDIO, "--trust", "--env", "VENDORGEN_TEST_VAR", "--json",
                         env={"VENDORGEN_TEST_VAR": SECRET})  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return project


@pytest.fixture(scope="module")
def stdio_module(stdio_project: Project) -> Iterator[ModuleType]:
    module = stdio_project.import_module("tools/vendorgen_test.py")
    yield module
    close(module)


@pytest.fixture(scope="module")
def http_module(http_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    module = vendor(new_project(tmp_path_factory, "mcp-http"), f"mcp:{http_url}", "--name", "over_http")
    yield module
    close(module)


# ---------------------------------------------------------------------------
# What mcpadapt's SmolAgentsAdapter builds, and every intentional difference
# ---------------------------------------------------------------------------

PLACEHOLDER = "see tool description"  # mcpadapt's text for a property without a description


def plain(value: Any) -> Any:
    """mcpadapt's inputs with its jsonref proxies turned into plain dicts."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def mcpadapt_tools(params: Any) -> tuple[list[Any], list[Any]]:
    """(SmolAgentsAdapter tools, raw mcp tools) for one server, through MCPAdapt."""
    from mcpadapt.core import MCPAdapt
    from mcpadapt.smolagents_adapter import SmolAgentsAdapter

    adapter = MCPAdapt(params, SmolAgentsAdapter(), client_session_timeout_seconds=20.0)
    tools = adapter.__enter__()
    try:
        return tools, [tool for group in adapter.mcp_tools for tool in group]
    finally:
        adapter.__exit__(None, None, None)


def expected_from_mcpadapt(theirs: Any, raw: dict[str, Any], required: bool) -> dict[str, Any]:
    """vendorgen's `inputs` entry, derived from mcpadapt's for the same property.

    Each line is one intentional difference; whatever is not changed here must be equal.
    """
    expected = plain(theirs)
    resolved = dict(expected)
    if "$ref" in raw:
        # 1. jsonref puts the $ref target in place and drops the keys beside the $ref (a default,
        #    a description); vendorgen keeps them, and the result is a plain dict.
        siblings = {key: value for key, value in raw.items() if key != "$ref"}
        expected.update(siblings)
        resolved.update(siblings)
    # 2. mcpadapt fills a missing description with a placeholder; vendorgen uses the schema's
    #    description, else its title, else "".
    if expected.get("description") == PLACEHOLDER and "description" not in raw:
        expected.pop("description")
    expected["description"] = expected.get("description") or expected.get("title") or ""
    # 3. titles, and keywords outside vendorgen's list, are not repeated in `inputs`.
    kept = {"type", "description", "enum", "default", *mcp_source.schema._KEPT_KEYWORDS}
    accepts_null = False
    # 4. anyOf [X, null]: mcpadapt keeps the anyOf and forces type "string"; vendorgen types it X
    #    (and nullable).
    if isinstance(expected.get("anyOf"), list):
        branches = expected.pop("anyOf")
        concrete = [branch for branch in branches if branch.get("type") != "null"]
        accepts_null = len(concrete) < len(branches)
        if len(concrete) == 1:
            expected.pop("type")
            expected.update({key: value for key, value in concrete[0].items() if key in kept})
        else:
            # 4b. a union of several types: a type list, the branches' descriptions when the
            #     property has none, and the branches themselves (as oneOf when their types differ).
            expected["type"] = [branch["type"] for branch in concrete]
            if "description" not in raw:
                expected["description"] = "; or ".join(branch["description"] for branch in branches if branch.get("description"))
            assert len(set(expected["type"])) == len(concrete), "overlapping branches: not modelled here"
            expected["oneOf"] = branches
            kept = {*kept, "oneOf"}
            # 4c. objects with properties among them: the description ends with their shapes (a
            #     CodeAgent's prompt shows an input's description, not its schema).
            if shapes := [branch for branch in concrete if branch.get("type") == "object" and branch.get("properties")]:
                said = expected["description"].rstrip()
                said += "" if not said or said.endswith(".") else "."
                summary = " or ".join(map(mcp_source.schema._shape_summary, shapes))
                expected["description"] = f"{said} An object is one of: {summary}.".lstrip()
    # 5. no type at all: mcpadapt says "string"; vendorgen says "any".
    elif "type" not in raw and "$ref" not in raw and "enum" not in resolved:
        expected["type"] = "any"
    expected = {key: value for key, value in expected.items() if key in kept}
    # 6. `nullable` exactly where the argument may be left out or be null; mcpadapt never sets
    #    it, so ToolCallingAgent takes every argument as required.
    if not required or accepts_null:
        expected["nullable"] = True
    return expected


def check_against_mcpadapt(ours: list[Any], theirs: list[Any], raw_tools: list[Any]) -> None:
    """Assert that vendorgen's tools equal mcpadapt's but for the intentional differences."""
    import jsonref

    ours_by_mcp = {tool.mcp_name: tool for tool in ours}
    theirs_by_name = {tool.name: tool for tool in theirs}
    assert len(theirs_by_name) == len(theirs)
    for raw in raw_tools:
        mine = ours_by_mcp[raw.name]
        # Tool names: the same sanitizing (get-weather -> get_weather, class -> class_).
        their = theirs_by_name[mine.name]
        # 7. mcpadapt's output_type is always "object"; vendorgen's is "object" only with an
        #    outputSchema (then a structured dict comes back), else "any" (text, images...); a plain
        #    value FastMCP wraps as {"result": value} has the value's type, and `result_key` says so.
        assert their.output_type == "object"
        if raw.outputSchema and mcp_source._wraps_result(raw.outputSchema):
            inner = mcp_source.schema.map_type(raw.outputSchema["properties"]["result"]).type
            assert mine.output_type == (inner if isinstance(inner, str) else "any")
            assert mine.result_key == "result" and mine.output_schema is None
        else:
            assert mine.output_type == ("object" if raw.outputSchema else "any")
            assert not hasattr(mine, "result_key")
        if raw.outputSchema and not hasattr(mine, "result_key"):
            assert mine.output_schema is not None and "$ref" not in json.dumps(mine.output_schema)
        # 8. descriptions: the same words, without the indentation a Python server's docstring
        #    keeps; a tool without one gets its title or a sentence naming it (never "").
        assert their.description == (raw.description or "")
        if raw.description:
            assert mine.description.split() == raw.description.split() and mine.description == mine.description.strip()
            assert not any(line.startswith("    ") for line in mine.description.splitlines())
        else:
            assert mine.description
        properties = raw.inputSchema.get("properties", {})
        required = set(raw.inputSchema.get("required", []))
        # 9. mcpadapt keeps the wire names as argument names (`from`, `max-results`); vendorgen's
        #    are Python identifiers and the wire names are used in the call.
        assert list(their.inputs) == list(properties)
        assert sorted(mine.inputs) == sorted(naming.parameter_name(wire) for wire in properties)
        # 10. vendorgen's inputs are plain JSON; mcpadapt's hold jsonref proxies where there was a $ref.
        json.dumps(mine.inputs)
        if any("$ref" in json.dumps(prop) for prop in properties.values()):
            assert any(isinstance(value, jsonref.JsonRef) for value in their.inputs.values())
            with pytest.raises(TypeError):
                json.dumps(their.inputs)
        for wire, prop in properties.items():
            # 11. a property both required and defaulted (zod 3's `.default()`) may be left out.
            expected = expected_from_mcpadapt(their.inputs[wire], prop, wire in required and "default" not in prop)
            assert mine.inputs[naming.parameter_name(wire)] == expected, (raw.name, wire)


def test_fastmcp_inputs_match_mcpadapt_but_for_the_intentional_differences(stdio_module: ModuleType) -> None:
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[SERVER_SCRIPT, "stdio"], env=server_env())
    theirs, raw = mcpadapt_tools(params)
    check_against_mcpadapt(stdio_module.tools(), theirs, raw)
    # The differences that matter at run time, shown on one tool.
    weather = {tool.name: tool for tool in theirs}["get_weather"]
    from smolagents.models import get_tool_json_schema
    from smolagents.tools import validate_tool_arguments

    assert get_tool_json_schema(weather)["function"]["parameters"]["required"] == ["city", "unit", "days"]
    with pytest.raises(ValueError, match="unit is required"):
        validate_tool_arguments(weather, {"city": "Paris"})
    ours = by_name(stdio_module)["get_weather"]
    assert get_tool_json_schema(ours)["function"]["parameters"]["required"] == ["city"]
    validate_tool_arguments(ours, {"city": "Paris"})


# ---------------------------------------------------------------------------
# Schema mapping, one case at a time (pure: `build` on a snapshot)
# ---------------------------------------------------------------------------


def build_one(input_schema: Any, **tool: Any) -> Any:
    snapshot = {
        "kind": "mcp",
        "source": "mcp:http://127.0.0.1:1/mcp",
        "name": "cases",
        "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
        "server_info": {"name": "cases", "version": "1"},
        "tools": [{"name": "t", "inputSchema": input_schema, **tool}],
    }
    return mcp_source.build(snapshot).tools[0]


def spec(tool: Any, name: str) -> Any:
    return {item.name: item for item in tool.inputs}[name]


def test_required_argument_is_not_nullable() -> None:
    tool = build_one({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    assert tool.smolagents_inputs()["q"] == {"type": "string", "description": ""}
    assert spec(tool, "q").python_default is NO_DEFAULT and spec(tool, "q").annotation == "str"


def test_optional_argument_is_nullable_with_the_schema_default_or_none() -> None:
    tool = build_one({"type": "object", "properties": {"n": {"type": "integer", "default": 3}, "m": {"type": "integer"}}})
    assert tool.smolagents_inputs()["n"] == {"type": "integer", "description": "", "default": 3, "nullable": True}
    assert tool.smolagents_inputs()["m"] == {"type": "integer", "description": "", "nullable": True}
    assert (spec(tool, "n").python_default, spec(tool, "m").python_default) == (3, None)
    assert spec(tool, "m").annotation == "int | None"


def test_any_of_x_null_is_x_and_nullable() -> None:
    tool = build_one({"type": "object", "properties": {"v": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
                      "required": ["v"]})  # fmt: skip
    assert tool.smolagents_inputs()["v"] == {"type": "integer", "description": "", "nullable": True}
    assert spec(tool, "v").annotation == "int | None" and spec(tool, "v").python_default is NO_DEFAULT


def test_enum_is_literal_and_keeps_enum() -> None:
    tool = build_one({"type": "object", "properties": {"m": {"type": "string", "enum": ["a", "b"]}}, "required": ["m"]})
    assert tool.smolagents_inputs()["m"]["enum"] == ["a", "b"]
    assert spec(tool, "m").annotation == "Literal['a', 'b']"


def test_refs_are_resolved_into_plain_dicts_keeping_the_keys_beside_them() -> None:
    schema = {
        "$defs": {"Color": {"type": "string", "enum": ["r", "g"]}, "P": {"type": "object", "properties": {"c": {"$ref": "#/$defs/Color"}}}},
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/P", "description": "a P"}, "c": {"$ref": "#/$defs/Color", "default": "g"}},
    }  # fmt: skip
    inputs = build_one(schema).smolagents_inputs()
    assert inputs["p"] == {"type": "object", "description": "a P", "nullable": True,
                           "properties": {"c": {"type": "string", "enum": ["r", "g"]}}}  # fmt: skip
    assert inputs["c"] == {"type": "string", "description": "", "enum": ["r", "g"], "default": "g", "nullable": True}
    assert "$ref" not in json.dumps(inputs)


def test_a_recursive_schema_is_an_object_that_keeps_its_schema() -> None:
    schema = mcp_lowlevel.TREE_SCHEMA
    inputs = build_one(schema).smolagents_inputs()
    assert inputs["tree"]["type"] == "object"
    assert inputs["tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/TreeNode"}
    assert inputs["tree"]["$defs"]["TreeNode"]["required"] == ["value"]


def test_arrays_keep_items_and_nested_objects_keep_their_schema() -> None:
    schema = {"type": "object", "properties": {
        "words": {"type": "array", "items": {"type": "string"}},
        "obj": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]},
    }, "required": ["words", "obj"]}  # fmt: skip
    tool = build_one(schema)
    assert tool.smolagents_inputs()["words"] == {"type": "array", "description": "", "items": {"type": "string"}}
    assert spec(tool, "words").annotation == "list[str]"
    assert tool.smolagents_inputs()["obj"] == {"type": "object", "description": "", "required": ["k"],
                                               "properties": {"k": {"type": "integer"}}}  # fmt: skip
    assert spec(tool, "obj").annotation == "dict[str, Any]"


@pytest.mark.parametrize("schema", [{"type": "object"}, {"type": "object", "properties": {}}, None])
def test_a_tool_without_properties_has_no_inputs(schema: Any) -> None:
    assert build_one(schema).inputs == ()


def test_names_that_are_keywords_or_not_identifiers_are_sanitized_with_wire_names() -> None:
    schema = {"type": "object", "properties": {"from": {"type": "string"}, "max-results": {"type": "integer"},
                                               "self": {"type": "string"}, "1st": {"type": "boolean"}}}  # fmt: skip
    tool = build_one(schema, name="get-data")
    assert (tool.name, tool.class_name, tool.endpoint) == ("get_data", "GetDataTool", "get-data")
    assert dict((item.name, item.wire_name) for item in tool.inputs) == {
        "from_": "from", "max_results": "max-results", "self_": "self", "_1st": "1st"}  # fmt: skip
    # Optional, and null refused: None is as if not given (by wire name, as the runtime sends them).
    refused = {"from": None, "max-results": None, "self": None, "1st": None}
    no_annotations = {"read_only_hint": False, "destructive_hint": True, "idempotent_hint": False, "open_world_hint": True}
    assert dict(tool.constants) == {"mcp_name": "get-data", "null_refused": refused, **no_annotations}
    assert build_one({}, name="class").name == "class_"


def test_colliding_names_fail_naming_both(tmp_path: Path) -> None:
    """Collisions are refused where every source's names are checked: after [tool.vendorgen] overrides."""
    config = load_config(tmp_path)
    tool = build_one({"type": "object", "properties": {"max-results": {}, "max_results": {}}})
    module = ModuleSpec("cases", "mcp", "mcp:x", "", (tool,))
    with pytest.raises(SchemaError, match="'max-results' and 'max_results' both become 'max_results'"):
        config.apply(module)
    snapshot = {"kind": "mcp", "source": "mcp:x", "name": "m", "server": {"transport": "stdio", "command": "x",
                "args": [], "env": []}, "tools": [{"name": "get-data"}, {"name": "get_data"}]}  # fmt: skip
    with pytest.raises(SchemaError, match="'get-data' and 'get_data' both become 'get_data'"):
        config.apply(mcp_source.build(snapshot))


def test_output_schema_gives_an_object_with_a_resolved_schema() -> None:
    output = {"$defs": {"A": {"type": "object", "properties": {"x": {"type": "integer"}}}},
              "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}  # fmt: skip
    tool = build_one({}, outputSchema=output)
    assert tool.output_type == "object" and tool.return_annotation == "dict[str, Any]"
    assert tool.output_schema == {"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "integer"}}}}}
    plain_tool = build_one({})
    assert plain_tool.output_type == "any" and plain_tool.output_schema is None


def test_prefix_and_descriptions() -> None:
    assert mcp_source.tool_name("get-data", "gh") == "gh_get_data" == mcp_source.tool_name("get-data", "gh_")
    assert build_one({}, description="  Indented\n    docstring\n      kept relative  ").description == (
        "Indented\ndocstring\n  kept relative"
    )
    assert build_one({}, title="A title").description == "A title"
    assert build_one({}).description == "The t tool of the MCP server cases."


# ---------------------------------------------------------------------------
# URIs and options (no server needed)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("http://127.0.0.1:8000/mcp", {"transport": "streamable-http", "url": "http://127.0.0.1:8000/mcp"}),
        ("https://example.org/mcp", {"transport": "streamable-http", "url": "https://example.org/mcp"}),
        ("sse:http://127.0.0.1:8000/sse", {"transport": "sse", "url": "http://127.0.0.1:8000/sse"}),
        ("stdio:python -m my_server --flag 'two words'",
         {"transport": "stdio", "command": "python", "args": ["-m", "my_server", "--flag", "two words"], "env": []}),
    ],
)  # fmt: skip
def test_parse_target(target: str, expected: dict[str, Any]) -> None:
    assert mcp_source.parse_target(target, AddOptions(trust=True), REPO) == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mcp:stdio:python -m my_server"], "--trust"),
        (["mcp:stdio:", "--trust"], "needs a command line"),
        (["mcp:stdio:python 'unclosed", "--trust"], "cannot split"),
        (["mcp:http://127.0.0.1:9/mcp", "--env", "TOKEN"], "--env passes variables to a stdio server"),
        (["mcp:stdio:python -m x", "--trust", "--env", "A=b"], "--env takes a variable name"),
        (["mcp:ftp://host/x"], "names no transport"),
        (["mcp:sse:not a url"], "is not an http(s) URL"),
        (["mcp:http://user:pw@127.0.0.1:9/mcp"], "carries credentials"),
        (["mcp:http://127.0.0.1:9/mcp", "--api-name", "/x"], "--api-name does not apply"),
    ],
)
def test_usage_errors_exit_2_and_write_nothing(project: Project, args: list[str], message: str) -> None:
    before = project.snapshot()
    result = project.run("add", *args)
    assert result.exit_code == 2, result
    assert message in result.stderr and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert project.snapshot() == before


def test_stdio_without_trust_runs_nothing(project: Project, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    result = project.run("add", f"mcp:stdio:touch {marker}")
    assert result.exit_code == 2 and "pass --trust" in result.stderr
    assert not marker.exists()


def test_help_says_what_trust_and_env_mean(project: Project) -> None:
    result = project.run("add", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "mcp:stdio" in text and "--trust" in text and "--env" in text and "never written" in text


# ---------------------------------------------------------------------------
# Failing fast, with one clear line (exit 2)
# ---------------------------------------------------------------------------


def run_failing(project: Project, *args: str, env: dict[str, str] | None = None) -> tuple[str, None]:
    """`add` that must fail with one error line. Unless a test sets its own, the MCP time-out is far
    longer than the run may take (a subprocess time-out, as a hang guard): a failure that waited for
    the time-out instead of seeing the cause fails the test, with no timing in it."""
    result = project.run("add", *args, env={"VENDORGEN_MCP_TIMEOUT": "600", **(env or {})}, timeout=120)
    assert result.exit_code == 2, result
    assert result.stderr.strip().splitlines()[-1].startswith("error: ")
    assert not (project.root / "vendorgen.lock").exists()
    return result.stderr.strip().splitlines()[-1], None


@pytest.mark.parametrize("uri", ["mcp:http://127.0.0.1:{port}/mcp", "mcp:sse:http://127.0.0.1:{port}/sse"])
def test_connection_refused(project: Project, uri: str) -> None:
    line, _ = run_failing(project, uri.format(port=free_port()))
    assert "cannot connect to http://127.0.0.1:" in line


def test_not_an_mcp_endpoint(project: Project, gradio_app: str) -> None:
    line, _ = run_failing(project, f"mcp:{gradio_app}mcp")
    assert "answered HTTP 405" in line or "answered HTTP 404" in line
    assert "mcp:sse:URL" in line


def test_command_not_found(project: Project) -> None:
    line, _ = run_failing(project, "mcp:stdio:vendorgen-no-such-command --x", "--trust")
    assert "command 'vendorgen-no-such-command' not found" in line


def test_server_that_exits_at_once(project: Project) -> None:
    line, _ = run_failing(project, "mcp:stdio:python -c 'import sys; sys.exit(3)'", "--trust")
    assert "exited or closed its output before answering" in line


def test_server_that_never_answers_times_out(project: Project) -> None:
    line, _ = run_failing(project, "mcp:stdio:python -c 'import time; time.sleep(600)'", "--trust",
                          env={"VENDORGEN_MCP_TIMEOUT": "1.5"})  # fmt: skip
    assert "no answer from the MCP server" in line and "within 1.5 s" in line


def test_bad_timeout_setting(project: Project) -> None:
    line, _ = run_failing(project, FASTMCP_STDIO, "--trust", env={"VENDORGEN_MCP_TIMEOUT": "soon"})
    assert "VENDORGEN_MCP_TIMEOUT must be a positive number" in line


def test_env_variable_missing_at_inspection(project: Project) -> None:
    env = {key: value for key, value in os.environ.items() if key != "VENDORGEN_UNSET_VAR"}
    result = project.run("add", FASTMCP_STDIO, "--trust", "--env", "VENDORGEN_UNSET_VAR", env=env)
    assert result.exit_code == 2 and "--env VENDORGEN_UNSET_VAR: not set here" in result.stderr


def test_unknown_tool_lists_what_is_there(project: Project) -> None:
    result = project.run("add", LOWLEVEL_STDIO, "--trust", "--env", "PYTHONPATH", "--tool", "nope")
    assert result.exit_code == 2
    assert "no tool nope on this server; available: tree_sum, hostile_text," in result.stderr
    assert "bidi\\u202eexe.txt" in result.stderr and "\u202e" not in result.stderr


def test_name_collisions_fail_naming_both(project: Project) -> None:
    result = project.run("add", LOWLEVEL_STDIO, "--trust", "--env", "PYTHONPATH", "--tool", "get-data", "--tool", "get_data")
    assert result.exit_code == 1
    assert "tools 'get-data' and 'get_data' both become 'get_data'" in result.stderr
    result = project.run("add", LOWLEVEL_STDIO, "--trust", "--env", "PYTHONPATH", "--tool", "weird_params")
    assert "parameters of weird_params 'max-results' and 'max_results' both become 'max_results'" in result.stderr
    assert not (project.root / "tools").exists()
    # the error names the fix, and the fix works
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '[tool.vendorgen.overrides.weird_params]\nparams = { "max-results" = "limit" }\n')
    result = project.run("add", LOWLEVEL_STDIO, "--trust", "--env", "PYTHONPATH", "--tool", "weird_params")
    assert result.exit_code == 0, result.stderr


# ---------------------------------------------------------------------------
# FastMCP over stdio: every case called for real
# ---------------------------------------------------------------------------


def python_arguments(module: ModuleType, tool_name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The server's wire-name arguments as the vendored tool's Python names."""
    tool = by_name(module)[tool_name]
    return {naming.parameter_name(key): value for key, value in arguments.items()} if tool.inputs else {}


@pytest.mark.parametrize(("mcp_name", "arguments", "expected"), mcp_server.EXPECTED)
def test_every_expected_call(stdio_module: ModuleType, mcp_name: str, arguments: dict[str, Any], expected: str) -> None:
    tool = {tool.mcp_name: tool for tool in stdio_module.tools()}[mcp_name]
    result = tool(**{naming.parameter_name(key): value for key, value in arguments.items()})
    if hasattr(tool, "result_key"):  # FastMCP wraps a primitive result as {"result": ...}: unwrapped
        assert json.dumps(result) == expected
    else:
        assert result == expected


def test_lock_snapshot_and_module(stdio_project: Project) -> None:
    lock = (stdio_project.root / "vendorgen.lock").read_text()
    assert 'kind = "mcp"' in lock and 'revision = "vendorgen-test ' in lock
    snapshot = json.loads((stdio_project.root / ".vendorgen/schemas/vendorgen_test.json").read_text())
    assert snapshot["server"] == {"transport": "stdio", "command": "python", "args": [SERVER_SCRIPT, "stdio"],
                                  "env": ["VENDORGEN_TEST_VAR"]}  # fmt: skip
    assert snapshot["options"] == {"name": "vendorgen_test", "trust": True, "env": ["VENDORGEN_TEST_VAR"]}
    assert [tool["name"] for tool in snapshot["tools"]] == mcp_server.TOOL_NAMES


def test_env_values_are_never_written(stdio_project: Project) -> None:
    for path in stdio_project.root.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path


def test_env_is_read_at_run_time_and_passed_to_the_server(stdio_module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VENDORGEN_TEST_VAR", "value at run time")
    close(stdio_module)
    assert by_name(stdio_module)["get_env"](name="VENDORGEN_TEST_VAR") == "value at run time"
    # Only the named variables reach the server (plus the mcp SDK's minimal defaults).
    monkeypatch.setenv("VENDORGEN_OTHER_VAR", "not passed")
    close(stdio_module)
    assert by_name(stdio_module)["get_env"](name="VENDORGEN_OTHER_VAR") == "<unset>"
    monkeypatch.delenv("VENDORGEN_TEST_VAR")
    close(stdio_module)
    with pytest.raises(RuntimeError, match="set VENDORGEN_TEST_VAR in the environment"):
        by_name(stdio_module)["echo"](text="x")
    monkeypatch.setenv("VENDORGEN_TEST_VAR", "back")


def test_every_tool_passes_smolagents_validation_and_keeps_types(stdio_module: ModuleType) -> None:
    from smolagents import Tool
    from smolagents.tools import validate_tool_arguments

    tools = by_name(stdio_module)
    assert sorted(tools) == sorted(mcp_source.tool_name(name) for name in mcp_server.TOOL_NAMES)
    assert all(isinstance(tool, Tool) for tool in tools.values())
    weather = tools["get_weather"]
    assert weather.inputs["unit"] == {"type": "string", "description": "Unit", "enum": ["c", "f"], "default": "c",
                                      "nullable": True}  # fmt: skip
    hints = typing.get_type_hints(type(weather).forward)
    assert hints["unit"] == typing.Literal["c", "f"] and hints["days"] == int | None
    validate_tool_arguments(weather, {"city": "Oslo"})
    assert tools["lookup_user"].output_type == "object"
    assert tools["lookup_user"].output_schema["properties"]["address"]["properties"]["city"] == {"title": "City", "type": "string"}
    assert tools["echo"].output_type == "any" and tools["echo"].output_schema is None


def test_arguments_not_given_take_the_servers_defaults(stdio_module: ModuleType) -> None:
    tools = by_name(stdio_module)
    assert json.loads(tools["defaults"](name="Ada")) == {
        "count": 2, "greeting": "Hello", "loud": False, "name": "Ada", "ratio": 0.5}  # fmt: skip
    assert tools["get_weather"](city="Rome") == "Rome: 20C x1"
    assert tools["get_weather"](city="Rome", days=None) == "Rome: 20C x1"  # null, which it takes
    assert tools["optional_int"](value=None) == tools["optional_int"]() == "none"


def test_wire_names_are_used(stdio_module: ModuleType) -> None:
    query = by_name(stdio_module)["query"]
    assert list(query.inputs) == ["from_", "lambda_", "max_results"]
    assert json.loads(query(from_="z", lambda_=1.0, max_results=7)) == {"from": "z", "lambda": 1.0, "max-results": 7}
    assert by_name(stdio_module)["class_"](name="X") == "class X"
    assert "Renamed arguments: from_ is sent as from" in type(query).__doc__


def test_structured_content_comes_back_as_a_dict(stdio_module: ModuleType) -> None:
    tools = by_name(stdio_module)
    user = tools["lookup_user"](user_id=4)
    assert user == {"id": 4, "name": "user4", "active": True, "score": 2.0, "tags": ["a", "b"],
                    "address": {"street": "4 Main St", "city": "Springfield", "zip": None}}  # fmt: skip


def test_a_wrapped_plain_value_is_typed_as_the_value(stdio_module: ModuleType) -> None:
    # FastMCP sends `-> int` as structuredContent {"result": 42} under a wrapper outputSchema.
    add = by_name(stdio_module)["add"]
    assert (add.output_type, add.result_key, add.output_schema) == ("integer", "result", None)
    assert typing.get_type_hints(type(add).forward)["return"] is int
    mean = by_name(stdio_module)["mean"]
    assert (mean.output_type, mean.result_key) == ("number", "result")


def test_a_wrapped_plain_value_comes_back_unwrapped(stdio_module: ModuleType) -> None:
    assert by_name(stdio_module)["add"](a=40, b=2) == 42


def test_images_and_several_content_items(stdio_module: ModuleType) -> None:
    from PIL import Image
    from smolagents.agent_types import AgentImage

    tools = by_name(stdio_module)
    image = tools["make_image"](color="green", size=3)
    assert isinstance(image, Image.Image) and image.size == (3, 3)
    assert image.convert("RGB").getpixel((1, 1)) == (0, 255, 0)
    assert AgentImage(image).to_raw() is image
    both = tools["text_and_image"](caption="hello")
    assert isinstance(both, list) and both[0] == "hello"
    assert isinstance(both[1], Image.Image) and both[1].convert("RGB").getpixel((0, 0)) == (255, 0, 0)


def test_is_error_raises_with_the_servers_message(stdio_module: ModuleType) -> None:
    tools = by_name(stdio_module)
    with pytest.raises(stdio_module.MCPToolError, match="^Error executing tool fail: kaput$"):
        tools["fail"](message="kaput")
    with pytest.raises(stdio_module.MCPToolError, match="validation error"):
        tools["add"](a="not a number")
    assert issubclass(stdio_module.MCPToolError, RuntimeError)


def test_per_call_timeout(stdio_module: ModuleType) -> None:
    sleep = stdio_module.SleepTool(timeout=0.5)
    with pytest.raises(TimeoutError, match="did not answer within 0.5 s"):
        sleep(seconds=30)
    # The session survives a timed-out call (a tool of the same session, with a time-out no load reaches).
    assert stdio_module.SleepTool()(seconds=0.1) == "slept 0.1"
    assert stdio_module.SleepTool().timeout == stdio_module.TIMEOUT == 60.0
    assert all(tool.timeout == 2.5 for tool in stdio_module.tools(timeout=2.5))


def counter(module: ModuleType) -> dict[str, int]:
    return json.loads(by_name(module)["call_counter"]())


def test_one_session_for_every_call_tool_and_thread(stdio_module: ModuleType) -> None:
    first = counter(stdio_module)
    assert first["pid"] != os.getpid()
    assert by_name(stdio_module)["echo"](text="x") == "x"
    results: list[dict[str, int]] = []
    threads = [threading.Thread(target=lambda: results.append(counter(stdio_module))) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {result["pid"] for result in results} == {first["pid"]}
    assert sorted(result["count"] for result in results) == list(range(first["count"] + 1, first["count"] + 17))


def test_concurrent_first_calls_open_one_session(stdio_project: Project) -> None:
    module = stdio_project.import_module("tools/vendorgen_test.py")  # a fresh copy: not connected yet
    tool = module.CallCounterTool()
    barrier = threading.Barrier(8)
    results: list[dict[str, int]] = []

    def call() -> None:
        barrier.wait()
        results.append(json.loads(tool()))

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({result["pid"] for result in results}) == 1
    assert sorted(result["count"] for result in results) == list(range(1, 9))
    close(module)


def test_reconnects_once_when_the_server_went_away(stdio_module: ModuleType) -> None:
    before = counter(stdio_module)
    os.kill(before["pid"], signal.SIGKILL)
    time.sleep(0.2)
    after = counter(stdio_module)
    assert after["pid"] != before["pid"] and after["count"] == 1


def test_awaited_calls_have_their_own_connection_and_reconnect_once(stdio_module: ModuleType) -> None:
    """What the vendored server does with an MCP tool: forward() hands back its call where `_hand_back` is
    set, and the call is awaited over a connection on the running loop, reconnected once if the server died."""
    runtime = sys.modules[stdio_module.MCPSession.__module__]
    counting = by_name(stdio_module)["call_counter"]

    async def count() -> dict[str, int]:
        handing_back = runtime._hand_back.set(lambda tool, arguments: (tool, arguments))
        try:
            tool, arguments = counting()  # nothing was sent yet
        finally:
            runtime._hand_back.reset(handing_back)
        return json.loads(tool._value(await tool.session.call_here(tool.mcp_name, arguments, tool.timeout)))

    async def twice() -> tuple[dict[str, int], dict[str, int]]:
        first = await count()
        os.kill(first["pid"], signal.SIGKILL)
        await asyncio.sleep(0.2)
        return first, await count()

    first, second = asyncio.run(twice())
    assert first["pid"] != counter(stdio_module)["pid"]  # not the session thread's connection
    assert second["pid"] != first["pid"] and second["count"] == 1


def test_close_context_manager_and_tools_list(stdio_module: ModuleType) -> None:
    pid = counter(stdio_module)["pid"]
    with stdio_module.EchoTool() as echo:
        assert echo(text="in") == "in"
    assert stdio_module._ServerTool.session.connection is None
    with stdio_module.tools() as tools:
        assert isinstance(tools, list) and len(tools) == len(mcp_server.TOOL_NAMES)
        new_pid = counter(stdio_module)["pid"]
    assert new_pid != pid and stdio_module._ServerTool.session.connection is None
    # The closed server process is gone.
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(new_pid, 0)


def test_construction_opens_no_connection(stdio_project: Project) -> None:
    module = stdio_project.import_module("tools/vendorgen_test.py")  # a fresh copy: its own session
    threads = threading.active_count()
    tools = module.tools()
    assert len(tools) == len(mcp_server.TOOL_NAMES)
    assert module._ServerTool.session.connection is None and threading.active_count() == threads
    assert tools[1](text="now") == "now"
    assert module._ServerTool.session.connection is not None
    close(module)


def test_process_exit_closes_the_server(stdio_project: Project, tmp_path: Path) -> None:
    script = tmp_path / "use.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(stdio_project.root)!r})\n"
        "from tools.vendorgen_test import CallCounterTool\n"
        "print(json.loads(CallCounterTool()())['pid'])\n"
    )
    import subprocess

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "VENDORGEN_TEST_VAR": "x"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.strip())
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_result_conversion(stdio_project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    import base64

    from mcp import types

    module = stdio_project.import_module("tools/vendorgen_test.py")  # a fresh copy, never connected
    answers: list[Any] = []
    monkeypatch.setattr(module._ServerTool.session, "call", lambda name, arguments, timeout: answers.pop(0))

    def text(value: str) -> Any:
        return types.TextContent(type="text", text=value)

    lookup, echo = module.LookupUserTool(), module.EchoTool()
    answers.append(types.CallToolResult(content=[text('{"id": 1}')]))  # no structuredContent: the JSON text
    assert lookup(user_id=1) == {"id": 1}
    answers.append(types.CallToolResult(content=[text("not JSON")]))
    with pytest.raises(module.MCPToolError, match="lookup_user returned no structured content"):
        lookup(user_id=1)
    audio = types.AudioContent(type="audio", data=base64.b64encode(b"RIFF0000WAVE").decode(), mimeType="audio/wav")
    blob = types.EmbeddedResource(type="resource", resource=types.BlobResourceContents(
        uri="memo://b", blob=base64.b64encode(b"\x00\x01").decode(), mimeType="application/octet-stream"))  # fmt: skip
    answers.append(types.CallToolResult(content=[audio, blob]))
    path, data = echo(text="x")
    assert path.endswith(".wav") and Path(path).read_bytes() == b"RIFF0000WAVE" and data == b"\x00\x01"
    os.remove(path)
    answers.append(types.CallToolResult(content=[], isError=True))
    with pytest.raises(module.MCPToolError, match="echo failed and said nothing"):
        echo(text="x")


def test_connect_timeout_at_run_time(stdio_project: Project) -> None:
    module = stdio_project.import_module("tools/vendorgen_test.py")  # a fresh copy to change
    module.SERVER["args"] = ["-c", "import time; time.sleep(60)"]
    module._ServerTool.session.connect_timeout = 1.0
    with pytest.raises(TimeoutError, match="did not answer within 1.0 s"):
        module.EchoTool()(text="x")
    module.SERVER["command"] = "vendorgen-no-such-command"
    with pytest.raises(ConnectionError, match="cannot connect to the MCP server vendorgen-test"):
        module.EchoTool()(text="x")


def test_a_code_agent_calls_a_vendored_mcp_tool(stdio_module: ModuleType) -> None:
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, Model

    class ScriptedModel(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = 'report = get_weather(city="Oslo", unit="f", days=3)\nfinal_answer(report)'
            return ChatMessage(role="assistant", content=f"Thought: ask the tool.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=stdio_module.tools(), model=ScriptedModel(), max_steps=2)
    assert agent.run("Weather in Oslo?") == "Oslo: 68F x3"


def test_a_tool_calling_agent_may_leave_optional_arguments_out(stdio_module: ModuleType) -> None:
    from smolagents import ToolCallingAgent
    from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, Model

    class ScriptedModel(Model):
        def __init__(self) -> None:
            super().__init__()
            self.step = 0

        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            self.step += 1
            name, arguments = ("get_weather", {"city": "Rome"}) if self.step == 1 else ("final_answer", {"answer": "done"})
            call = ChatMessageToolCall(id=str(self.step), type="function",
                                       function=ChatMessageToolCallFunction(name=name, arguments=arguments))  # fmt: skip
            return ChatMessage(role="assistant", content="", tool_calls=[call])

    agent = ToolCallingAgent(tools=stdio_module.tools(), model=ScriptedModel(), max_steps=3)
    assert agent.run("Weather in Rome?") == "done"
    observations = [step.observations for step in agent.memory.steps if getattr(step, "observations", None)]
    assert any("Rome: 20C x1" in text for text in observations)


# ---------------------------------------------------------------------------
# streamable-http and SSE
# ---------------------------------------------------------------------------


def test_http_module_is_the_stdio_module_but_for_the_server(stdio_project: Project, http_module: ModuleType) -> None:
    def body(path: Path, source: str) -> list[str]:
        code = path.read_text().replace(source, "<source>")
        code = code[: code.index("SERVER: dict[str, Any] = ")] + code[code.index("\n# Seconds a tool call") :]
        return [line for line in code.splitlines() if not line.startswith("#")]

    stdio_path = stdio_project.root / "tools/vendorgen_test.py"
    assert body(stdio_path, FASTMCP_STDIO) == body(Path(http_module.__file__), f"mcp:{http_module.SERVER['url']}")
    assert http_module.SERVER == {"name": "vendorgen-test", "version": http_module.SERVER["version"],
                                  "transport": "streamable-http", "url": http_module.SERVER["url"]}  # fmt: skip


def test_http_calls(http_module: ModuleType) -> None:
    tools = by_name(http_module)
    assert tools["get_weather"](city="Oslo", unit="f", days=3) == "Oslo: 68F x3"
    assert tools["lookup_user"](user_id=2)["name"] == "user2"
    assert tools["get_env"](name="VENDORGEN_TEST_VAR") == "the server's own"
    first, second = counter(http_module), counter(http_module)
    assert first["pid"] != os.getpid()  # answered by the server process, not in this one
    assert second["count"] == first["count"] + 1  # each call reached it once


def test_http_reconnects_after_a_server_restart(tmp_path_factory: pytest.TempPathFactory) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    args = [SERVER_SCRIPT, "http", "--port", str(port)]
    with server_process(args, url, env=server_env()):
        module = vendor(new_project(tmp_path_factory, "mcp-restart"), f"mcp:{url}")
        first = counter(module)
    with pytest.raises(ConnectionError, match="cannot connect to the MCP server"):
        by_name(module)["echo"](text="nobody there")
    with server_process(args, url, env=server_env()):
        again = counter(module)
        assert again["pid"] != first["pid"] and again["count"] == 1
    close(module)


def test_http_construction_needs_no_server(tmp_path_factory: pytest.TempPathFactory) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with server_process([SERVER_SCRIPT, "http", "--port", str(port)], url, env=server_env()):
        module = vendor(new_project(tmp_path_factory, "mcp-gone"), f"mcp:{url}", "--tool", "echo")
    tools = module.tools()  # the server is gone: building the tools must not notice
    with pytest.raises(ConnectionError, match="cannot connect to the MCP server"):
        tools[0](text="x")


def test_sse(sse_url: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    module = vendor(new_project(tmp_path_factory, "mcp-sse"), f"mcp:sse:{sse_url}", "--tool", "get-weather",
                    "--tool", "call_counter", "--prefix", "legacy")  # fmt: skip
    tools = by_name(module)
    assert sorted(tools) == ["legacy_call_counter", "legacy_get_weather"]
    assert tools["legacy_get_weather"](city="Rome", days=2) == "Rome: 20C x2"
    first = json.loads(tools["legacy_call_counter"]())
    assert json.loads(tools["legacy_call_counter"]())["pid"] == first["pid"]
    assert module.SERVER["transport"] == "sse"
    close(module)


# ---------------------------------------------------------------------------
# Low-level server: pagination, hostile schemas and names, odd results
# ---------------------------------------------------------------------------

HOSTILE_NAMES = ["1st-tool", "dotted.name", "import", "self", 'say "hi" it\'s', "back\\slash", "café",
                 "bidi\u202eexe.txt", "line\u2028sep", "nul\x00name", "get-data"]  # fmt: skip
LOWLEVEL_TOOLS = ["tree_sum", "hostile_text", "no_properties", "no_description", "odd_types", "structured",
                  "empty_result", "error_result", "resources", *HOSTILE_NAMES]  # fmt: skip


@pytest.fixture(scope="module")
def lowlevel_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    project = new_project(tmp_path_factory, "mcp-lowlevel")
    # A command line cannot hold a NUL: that tool is picked by the Python name vendorgen gives it.
    args = [arg for name in LOWLEVEL_TOOLS for arg in ("--tool", name.replace("\x00", "_"))]
    result = project.run("add", LOWLEVEL_STDIO, "--trust", "--env", "PYTHONPATH", *args)
    assert result.exit_code == 0, result.stderr
    return project


@pytest.fixture(scope="module")
def lowlevel(lowlevel_project: Project) -> Iterator[ModuleType]:
    module = lowlevel_project.import_module("tools/vendorgen_lowlevel.py")
    yield module
    close(module)


def test_every_page_is_read(lowlevel: ModuleType) -> None:
    # The server lists 2 tools a page; the last tools are on page 11.
    assert [tool.mcp_name for tool in lowlevel.tools()] == LOWLEVEL_TOOLS


def test_mcpadapt_alone_reads_only_the_first_page() -> None:
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "tests.servers.mcp_lowlevel", "stdio"],
                                   env=server_env())  # fmt: skip
    theirs, _ = mcpadapt_tools(params)
    assert [tool.name for tool in theirs] == ["tree_sum", "hostile_text"]
    info, everything, _ = mcp_listing.list_tools({"transport": "stdio", "command": "python",
                                              "args": params.args, "env": ["PYTHONPATH"]}, REPO)  # fmt: skip
    assert [tool["name"] for tool in everything] == mcp_lowlevel.TOOL_NAMES
    assert info["name"] == "vendorgen-lowlevel"


def test_pagination_loop_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    class Page:
        def __init__(self) -> None:
            self.tools = []
            self.nextCursor = "same"

    class Session:
        async def list_tools(self, cursor: str | None) -> Page:
            return Page()

    with pytest.raises(SchemaError, match="pagination does not end"):
        asyncio.run(mcp_listing._all_pages(Session()))


def test_recursive_schema_is_called_for_real(lowlevel: ModuleType) -> None:
    tool = by_name(lowlevel)["tree_sum"]
    assert tool.inputs["tree"]["$defs"]["TreeNode"]["properties"]["children"]["items"] == {"$ref": "#/$defs/TreeNode"}
    tree = {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}, {"value": 4}]}
    assert tool(tree=tree) == "10"


def test_hostile_text_is_kept_exactly_and_sent_back(lowlevel: ModuleType, lowlevel_project: Project) -> None:
    tool = by_name(lowlevel)["hostile_text"]
    assert tool.description == mcp_lowlevel.HOSTILE
    assert tool.inputs["note"]["default"] == mcp_lowlevel.HOSTILE_DEFAULT
    echoed = json.loads(tool(text=mcp_lowlevel.HOSTILE))
    assert echoed == {"tool": "hostile_text", "args": {"text": mcp_lowlevel.HOSTILE, "note": mcp_lowlevel.HOSTILE_DEFAULT}}
    code = (lowlevel_project.root / "tools/vendorgen_lowlevel.py").read_text()
    for character in "\u202e\x00\u2028\u2029\r":
        assert character not in code


@pytest.mark.parametrize("mcp_name", HOSTILE_NAMES)
def test_hostile_tool_names_are_sanitized_and_called_by_their_wire_name(lowlevel: ModuleType, mcp_name: str) -> None:
    tool = {tool.mcp_name: tool for tool in lowlevel.tools()}[mcp_name]
    assert tool.name.isidentifier() and tool.name.isascii()
    assert json.loads(tool(v="q")) == {"tool": mcp_name, "args": {"v": "q"}}


def test_odd_results(lowlevel: ModuleType) -> None:
    tools = by_name(lowlevel)
    assert tools["no_properties"]() == "ok"
    assert tools["no_description"](x=1) == mcp_lowlevel.echo_text("no_description", {"x": 1})
    assert tools["no_description"].description == "Has a title but no description"
    assert tools["structured"](n=3) == {"n": 3, "squares": [0, 1, 4], "meta": {"even": False}}
    assert tools["empty_result"]() is None
    assert tools["resources"]() == ["see resources", "resource text", "memo://two"]
    with pytest.raises(lowlevel.MCPToolError, match="^custom failure: why$"):
        tools["error_result"](reason="why")


def test_odd_types_are_sent_as_given(lowlevel: ModuleType) -> None:
    tool = by_name(lowlevel)["odd_types"]
    assert tool.inputs["multi"]["type"] == ["integer", "string"]
    assert tool.inputs["const"]["enum"] == ["fixed"]
    arguments = {"untyped": [1], "multi": "two", "tuple": ["a", 1], "matrix": [[1.5]], "int_enum": 3}
    sent = tool(**{naming.parameter_name(key): value for key, value in arguments.items()})  # tuple_
    assert json.loads(sent) == {"tool": "odd_types", "args": arguments}


def test_a_null_is_sent_only_where_the_schema_allows_it(lowlevel: ModuleType) -> None:
    tool = by_name(lowlevel)["odd_types"]
    assert type(tool).forward.__defaults__[0] is lowlevel.NOT_GIVEN  # untyped: optional, no default
    assert json.loads(tool(nullable_str=None))["args"] == {"nullable_str": None, "int_enum": 2}
    assert json.loads(tool(untyped=None))["args"] == {"untyped": None, "int_enum": 2}  # any JSON value
    assert json.loads(tool(multi=1))["args"] == {"multi": 1, "int_enum": 2}
    # The server refuses null for these: None means "as if not given" (left out; the default sent).
    assert json.loads(tool(multi=None))["args"] == {"int_enum": 2}
    assert json.loads(tool(multi=1, int_enum=None))["args"] == {"multi": 1, "int_enum": 2}


def test_many_tools_over_pages(tmp_path_factory: pytest.TempPathFactory) -> None:
    project = new_project(tmp_path_factory, "mcp-many")
    result = project.run("add", "mcp:stdio:python -m tests.servers.mcp_many stdio --count 50 --page-size 20",
                         "--trust", "--env", "PYTHONPATH", "--name", "many")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    # 50 class names would make a line nobody reads.
    summary = "50 tools: Tool0000StrTool, Tool0001DefaultsTool, Tool0002EnumTool, Tool0003ArraysTool, ..., Tool0049DefaultsTool"
    assert result.stdout.splitlines()[0] == f"wrote tools/many.py ({summary})"  # then what it needs at run time
    module = project.import_module("tools/many.py")
    tools = module.tools()
    assert len(tools) == 50
    keywords = {tool.mcp_name: tool for tool in tools}["tool-0007-keywords"]
    assert keywords.name == "tool_0007_keywords"
    assert json.loads(keywords(from_="a")) == {"tool": "tool-0007-keywords", "args": {"from": "a", "max-results": 5}}
    close(module)


# ---------------------------------------------------------------------------
# The gate on MCP modules
# ---------------------------------------------------------------------------


def generated(input_schema: Any, **tool: Any) -> tuple[str, Any]:
    from vendorgen.generate.render import render_module
    from vendorgen.text.formatter import format_source

    snapshot = {
        "kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "cases",
        "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
        "server_info": {"name": "cases", "version": "1"},
        "tools": [{"name": "t", "inputSchema": input_schema, **tool}],
    }  # fmt: skip
    module = mcp_source.build(snapshot)
    return format_source(render_module(module, "0" * 64, load("mcp"))), module


def test_gate_accepts_the_module_and_refuses_tampering() -> None:
    from vendorgen.errors import GateError
    from vendorgen.generate.gate import check_module

    schema = {"type": "object", "properties": {"note": {"type": "string", "default": mcp_lowlevel.HOSTILE_DEFAULT}}}
    code, module = generated(schema, description="A tab\there, a bidi \u202e, a NUL \x00.")
    check_module(code, module, load("mcp"))
    tampered = {
        "runtime base": code.replace("class TTool(_ServerTool):", "class TTool(ToolList):"),
        "runtime import": code.replace("MCPToolError, ToolList\n", "MCPToolError, ToolList, _require\n"),
        "forward default": code.split("def forward")[0] + "def forward" + code.split("def forward")[1].replace(" end'", " END'", 1),
        "server": code.replace('"url": "http://127.0.0.1:1/mcp"', '"url": "http://127.0.0.1:2/mcp"', 1),
        "import": code.replace("from smolagents import Tool\n", "from smolagents import Tool\nimport subprocess\n"),
        "tool name": code.replace('mcp_name = "t"', 'mcp_name = "u"'),
    }
    for what, changed in tampered.items():
        assert changed != code, what
        with pytest.raises(GateError):
            check_module(changed, module, load("mcp"))


def test_generated_code_escapes_hostile_text() -> None:
    code, _ = generated({}, name="x\u2028y", description=mcp_lowlevel.HOSTILE)
    for character in "\u202e\x00\u2028\u2029\r":
        assert character not in code
    compile(code, "cases.py", "exec")



def test_the_stdio_module_type_checks(stdio_project: Project) -> None:
    """mypy passes a stdio module too (generated_example's MCP module is streamable-http)."""
    result = mypy("tools/vendorgen_test.py", stdio_project.root)
    assert result.returncode == 0, result.stdout + result.stderr
