"""Both ways: every tool vendorgen writes (Space, MCP, LangChain) offers `to_langchain()`, a LangChain
StructuredTool with the same argument schema that calls the vendored tool; a Hub tool is its author's
class, kept as written, and has no such method. Shown for a vendored Gradio tool and a
vendored MCP tool, each called for real through LangChain's `.invoke`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.conftest import REPO, Project

SERVER_SCRIPT = str(REPO / "tests" / "servers" / "mcp_server.py")


def new_project(tmp_path_factory: pytest.TempPathFactory, name: str) -> Project:
    root = tmp_path_factory.mktemp(name) / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)


def vendor(project: Project, *args: str) -> ModuleType:
    result = project.run("add", *args, "--json")
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["modules"]
    return project.import_module(entry["path"])


@pytest.fixture(scope="module")
def gradio_convert(gradio_app: str, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return vendor(new_project(tmp_path_factory, "lc-space"), f"space:{gradio_app}", "--api-name", "/convert")


@pytest.fixture(scope="module")
def mcp_module(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    project = new_project(tmp_path_factory, "lc-mcp")
    module = vendor(project, f"mcp:stdio:python {SERVER_SCRIPT} stdio", "--trust", "--tool", "get-weather",
                    "--tool", "query", "--tool", "lookup_user", "--tool", "fail")  # fmt: skip
    yield module
    module._ServerTool.session.close()


def check_same_schema(vendored, lc_tool) -> None:
    """The LangChain tool shows the model the vendored tool's arguments, types and requirements."""
    from langchain_core.tools import StructuredTool

    assert isinstance(lc_tool, StructuredTool)
    assert (lc_tool.name, lc_tool.description) == (vendored.name, vendored.description)
    schema = lc_tool.tool_call_schema
    schema = schema if isinstance(schema, dict) else schema.model_json_schema()
    assert list(schema["properties"]) == list(vendored.inputs)
    assert schema["required"] == [key for key, spec in vendored.inputs.items() if not spec.get("nullable")]
    for key, spec in vendored.inputs.items():
        expected = {k: v for k, v in spec.items() if k != "nullable"}
        if spec.get("nullable"):  # an optional argument admits null, as a strict client reads the schema
            expected.update(anyOf=[{"type": expected.pop("type")}, {"type": "null"}])
        assert schema["properties"][key] == expected
    # LangChain's input model (what LangGraph and `input_schema` read) describes the same arguments.
    arguments = lc_tool.get_input_schema().model_json_schema()
    assert (arguments["properties"], arguments["required"]) == (schema["properties"], schema["required"])


def test_gradio_tool_to_langchain(gradio_convert: ModuleType) -> None:
    vendored = gradio_convert.ConvertTool()
    lc_tool = vendored.to_langchain()
    check_same_schema(vendored, lc_tool)
    assert lc_tool.invoke({"value": 2, "from_unit": "km", "to_unit": "m"}) == 2000.0
    # Arguments left out take the vendored tool's defaults (1 m in ft).
    assert lc_tool.invoke({}) == pytest.approx(3.280839895, rel=1e-9)


def test_mcp_tool_to_langchain(mcp_module: ModuleType) -> None:
    weather = mcp_module.GetWeatherTool()
    lc_tool = weather.to_langchain()
    check_same_schema(weather, lc_tool)
    assert lc_tool.invoke({"city": "Oslo"}) == "Oslo: 20C x1"
    assert lc_tool.invoke({"city": "Oslo", "unit": "f", "days": 3}) == "Oslo: 68F x3"
    # Python names on the LangChain side, wire names on the MCP side.
    query = mcp_module.QueryTool().to_langchain()
    assert json.loads(query.invoke({"from_": "a", "max_results": 9})) == {"from": "a", "lambda": 0.5, "max-results": 9}
    # A structured result comes back as the dict.
    assert mcp_module.LookupUserTool().to_langchain().invoke({"user_id": 6})["name"] == "user6"


def test_unions_and_null_are_single_types_a_strict_client_takes(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A union is anyOf of one type each (clients of one-`type` dialects refuse a type list), an optional argument
    admits null: the same schema as `vendorgen serve` gives (tests/test_inspector.py checks it with --strict)."""
    import jsonschema

    project = new_project(tmp_path_factory, "lc-unions")
    module = vendor(project, "mcp:stdio:python -m tests.servers.mcp_lowlevel stdio", "--tool", "odd_types", "--trust")
    try:
        properties = module.OddTypesTool().to_langchain().get_input_schema().model_json_schema()["properties"]
    finally:
        module.OddTypesTool.session.close()
    assert properties["multi"]["anyOf"] == [{"type": "integer"}, {"type": "string"}, {"type": "null"}]  # optional
    assert properties["nullable_str"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert properties["one_of"]["oneOf"] == [{"type": "integer"}, {"type": "boolean"}, {"type": "null"}]
    for prop in properties.values():
        assert not isinstance(prop.get("type"), list), prop
        jsonschema.Draft202012Validator.check_schema(prop)
    jsonschema.validate({"multi": 1, "nullable_str": None, "one_of": None}, {"properties": properties})


def test_mcp_tool_to_langchain_in_a_tool_call(mcp_module: ModuleType) -> None:
    from langchain_core.messages import ToolMessage

    lc_tool = mcp_module.GetWeatherTool().to_langchain()
    message = lc_tool.invoke({"name": "get_weather", "args": {"city": "Rome", "days": 2}, "id": "call-1", "type": "tool_call"})
    assert isinstance(message, ToolMessage)
    assert message.content == "Rome: 20C x2" and message.tool_call_id == "call-1"


def test_mcp_tool_errors_reach_langchain(mcp_module: ModuleType) -> None:
    lc_tool = mcp_module.FailTool().to_langchain()
    with pytest.raises(mcp_module.MCPToolError, match="Error executing tool fail: nope"):
        lc_tool.invoke({"message": "nope"})
