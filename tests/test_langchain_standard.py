"""LangChain's own standard tool tests (the `langchain-tests` package) on `to_langchain()` of a vendored
tool of each kind that runs offline: a Gradio tool (the example app), an MCP tool (the test server over
stdio) and a LangChain tool (tests/servers/langchain_tools.py), each vendored once through the CLI.

The standard tests accept any input model (`assert tool.get_input_schema()`), so the tests at the end
check that it names the vendored tool's arguments (issue 21 item 3).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from tests.test_to_langchain import check_same_schema, gradio_convert, mcp_module, new_project, vendor  # noqa: F401 (fixtures)

# The standard tests' async half runs on anyio's plugin, as the suite's other async tests do.
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def langchain_order(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return vendor(new_project(tmp_path_factory, "lc-langchain"), "langchain:tests.servers.langchain_tools:place_order")


# Per kind: the fixture that vendors it, the class of the tool, the arguments of an example call.
KINDS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "gradio": ("gradio_convert", "ConvertTool", {"value": 2, "from_unit": "km", "to_unit": "m"}),
    "mcp": ("mcp_module", "GetWeatherTool", {"city": "Oslo", "days": 2}),
    "langchain": ("langchain_order", "PlaceOrderTool",
                  {"item": "tea", "quantity": 2, "address": {"street": "1 Main St", "city": "Oslo"}}),
}  # fmt: skip


@pytest.fixture(params=list(KINDS))
def vendored_call(request: pytest.FixtureRequest) -> tuple[Any, dict[str, Any]]:
    """A vendored tool of each kind (its module made once per file) and the arguments of an example call."""
    fixture, class_name, arguments = KINDS[request.param]
    return getattr(request.getfixturevalue(fixture), class_name)(), arguments


class VendoredTool:
    """What the standard tests take: the LangChain tool and an example call, for each kind."""

    @pytest.fixture(autouse=True)
    def _kind(self, vendored_call: tuple[Any, dict[str, Any]]) -> None:
        self.vendored_tool, self.example = vendored_call

    @property
    def tool_constructor(self) -> Any:
        return self.vendored_tool.to_langchain()

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return self.example


class TestUnit(VendoredTool, ToolsUnitTests):
    pass


class TestIntegration(VendoredTool, ToolsIntegrationTests):
    pass


def test_the_input_model_names_the_arguments(vendored_call: tuple[Any, dict[str, Any]]) -> None:
    """What LangChain and LangGraph read the arguments from is the vendored tool's own argument list."""
    vendored, _ = vendored_call
    lc_tool = vendored.to_langchain()
    check_same_schema(vendored, lc_tool)
    model = lc_tool.get_input_schema()
    assert list(model.model_fields) == list(vendored.inputs)
    required = [key for key, field in model.model_fields.items() if field.is_required()]
    assert required == [key for key, spec in vendored.inputs.items() if not spec.get("nullable")]


def test_an_example_call_answers_as_the_tool_does(vendored_call: tuple[Any, dict[str, Any]]) -> None:
    vendored, example = vendored_call
    assert vendored.to_langchain().invoke(example) == vendored(**example)
