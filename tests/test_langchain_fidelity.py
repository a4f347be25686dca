"""LangChain tools as people write them and as langchain-community ships them (issue 12).

- aliased pydantic fields: `tool_call_schema` names them by Python name, `.invoke()` wants the alias;
- an async-only tool (`StructuredTool.from_function(coroutine=...)`): recorded as `is_async`;
- a union argument keeps its branches;
- a mixed-case tool name gives a lower snake case module file;
- langchain-community's FileManagementToolkit, field by field against smolagents' `Tool.from_langchain`,
  and called both ways.
"""

from __future__ import annotations

import asyncio
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.servers import langchain_tools as lt

MODULE = "tests.servers.langchain_tools"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("langchain-fidelity") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)


def vendored(project: Project, attr: str, *extra: str) -> Any:
    result = project.run("add", f"langchain:{attr}", *extra)
    assert result.exit_code == 0, result.stderr
    path = result.stdout.split("wrote ", 1)[1].split()[0]
    return project.import_module(path)


@pytest.fixture(autouse=True)
def _fresh_calls() -> None:
    lt.CALLS.clear()


def test_aliased_fields_are_sent_by_alias(project: Project) -> None:
    module = vendored(project, f"{MODULE}:aliased")
    tool = module.tools()[0]
    assert list(tool.inputs) == ["query", "page_size"]
    assert tool.inputs["query"] == {"type": "string", "description": "What to look for"}
    assert tool(query="cats", page_size=3) == "cats:3"
    assert tool(query="dogs") == "dogs:10"
    assert tool(query="eels", page_size=None) == "eels:10"  # null refused: the default, found by its alias
    assert lt.CALLS == [("aliased", {"query": "cats", "page_size": 3}), ("aliased", {"query": "dogs", "page_size": 10}),
                        ("aliased", {"query": "eels", "page_size": 10})]  # fmt: skip
    assert "query is sent as q" in type(tool).__doc__


def test_an_async_only_tool_is_recorded_as_async(project: Project) -> None:
    tool = vendored(project, f"{MODULE}:fetch_later").tools()[0]
    assert tool.is_async is True
    assert tool.output_type == "string"  # the coroutine's return annotation
    assert not hasattr(vendored(project, f"{MODULE}:search_docs").tools()[0], "is_async")


def test_an_async_only_tool_can_be_called(project: Project) -> None:
    tool = vendored(project, f"{MODULE}:fetch_later", "--name", "fetch_later_call").tools()[0]
    assert tool(url="u", retries=2) == "fetched u (2)"

    async def inside_a_running_loop() -> Any:  # an agent driven from async code
        return tool(url="v")

    assert asyncio.run(inside_a_running_loop()) == "fetched v (1)"


def test_an_explicit_none_is_sent_and_an_argument_not_given_is_not(project: Project) -> None:
    tool = vendored(project, f"{MODULE}:shorten").tools()[0]
    text = "abcdefghijklmnop"
    assert tool(text=text) == "abcdefghij+"  # both defaults are LangChain's own
    assert tool(text=text, max_len=None) == text + "+"
    assert tool(text=text, marks=None) == "abcdefghij"
    assert tool.to_langchain().invoke({"text": text, "max_len": None}) == text + "+"


def test_a_union_keeps_its_branches(project: Project) -> None:
    tool = vendored(project, f"{MODULE}:measure").tools()[0]
    target = tool.inputs["target"]
    assert target["type"] == ["integer", "array", "object"]
    assert target["description"] == (
        'An id, several ids, or a shape. An object is one of: {"width": number, "height": number}.'
    )
    # Distinct JSON types: kept as oneOf, which smolagents' get_tool_json_schema leaves alone.
    branches = target["oneOf"]
    assert branches[0] == {"type": "integer"} and branches[1] == {"items": {"type": "integer"}, "type": "array"}
    assert branches[2]["properties"]["width"] == {"description": "Width in cm", "title": "Width", "type": "number"}
    hint = typing.get_type_hints(type(tool).forward)["target"]
    module = sys.modules[type(tool).__module__]
    assert set(typing.get_args(hint)) == {int, list[int], module._Measure_Target_Shape}  # its `title`
    from smolagents.models import get_tool_json_schema

    assert get_tool_json_schema(tool)["function"]["parameters"]["properties"]["target"]["oneOf"] == branches
    schema = tool.to_langchain().args_schema
    assert schema["properties"]["target"]["oneOf"] == branches
    assert tool(target={"width": 2, "height": 3}) == "Shape(width=2.0, height=3.0)"
    assert tool(target=[1, 2]) == "[1, 2]"


def test_a_mixed_case_tool_name_gives_a_lower_case_module(project: Project) -> None:
    result = project.run("add", f"langchain:{MODULE}:python_repl")
    assert result.exit_code == 0, result.stderr
    assert (project.root / "tools/python_repl.py").is_file()
    tool = project.import_module("tools/python_repl.py").tools()[0]
    assert tool.name == "Python_REPL"  # the tool keeps its LangChain name


# ---------------------------------------------------------------------------
# langchain-community
# ---------------------------------------------------------------------------

TOOLKIT = "langchain_community.agent_toolkits.file_management.toolkit:FileManagementToolkit"


def test_community_file_tools_match_smolagents_but_for_the_documented_differences(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("langchain_community", reason="pip install 'langchain-community>=0.4,<0.5'")
    from langchain_community.agent_toolkits import FileManagementToolkit
    from smolagents import Tool

    ours = {tool.name: tool for tool in vendored(project, TOOLKIT, "--name", "file_tools").tools()}
    theirs = {tool.name: Tool.from_langchain(tool) for tool in FileManagementToolkit().get_tools()}
    assert list(ours) == list(theirs)
    for name, their in theirs.items():
        mine = ours[name]
        assert mine.description == their.description
        assert mine.output_type == their.output_type == "string"
        # Required arguments come first in vendorgen's (a Python signature needs them there).
        assert sorted(mine.inputs) == sorted(their.inputs)
        for key, entry in their.inputs.items():
            # Differences: smolagents drops every description (vendorgen keeps the schema's) and
            # leaves out `nullable` (so ToolCallingAgent takes a defaulted argument as required).
            assert entry["description"] == "" and mine.inputs[key]["description"]
            expected = {**entry, "description": mine.inputs[key]["description"]}
            if "default" in entry:
                expected["nullable"] = True
            assert mine.inputs[key] == expected, (name, key)
    # Called both ways, in a scratch directory (the toolkit works relative to the current one).
    monkeypatch.chdir(tmp_path)
    assert ours["write_file"](file_path="a.txt", text="hello") == "File written successfully to a.txt."
    assert theirs["write_file"](file_path="b.txt", text="hello") == "File written successfully to b.txt."
    assert ours["read_file"](file_path="b.txt") == theirs["read_file"](file_path="a.txt") == "hello"
    assert ours["write_file"](file_path="a.txt", text="!", append=True).startswith("File written successfully")
    assert (tmp_path / "a.txt").read_text() == "hello!"
    assert sorted(ours["list_directory"]().split("\n")) == ["a.txt", "b.txt"]
