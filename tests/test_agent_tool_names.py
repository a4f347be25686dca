"""Upstream tools named like the agent's own tools (issue 27 item 5), through the real CLI and a real CodeAgent.

An MCP server lists `final_answer` and `find_tools`: vendored, they become `final_answer_` and `find_tools_`
(the MCP names kept on the wire), so `CodeAgent(tools=catalog_tools())` starts and its final answer is
smolagents' own, never sent to the server. A name given as it is (an override) is refused, and the shipped
catalog refuses a module that still has one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from smolagents import CodeAgent
from smolagents.default_tools import FinalAnswerTool

from tests.conftest import Project
from tests.servers.mcp_raw import serving
from tests.test_catalog import Scripted

TOOLS = [
    {"name": name, "description": f"Upstream's {name}.",
     "inputSchema": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}}
    for name in ("final_answer", "find_tools", "lookup")
]  # fmt: skip


def test_tools_named_like_the_agents_own_are_renamed_and_the_agent_keeps_its_own(
    tmp_path: Path, project: Project
) -> None:
    with serving(tmp_path, TOOLS) as url:
        added = project.run("add", f"mcp:{url}", "--name", "upstream", "--json")
        assert added.exit_code == 0, added.stderr
        [entry] = json.loads(added.stdout)["modules"]
        assert sorted(tool["name"] for tool in entry["tools"]) == ["final_answer_", "find_tools_", "lookup"]
        assert project.run("catalog").exit_code == 0
        module = project.import_module("tools/upstream.py")
        tools = module.tools()
        assert {tool.name: tool.mcp_name for tool in tools}["final_answer_"] == "final_answer"
        catalog_tools = project.import_module("tools/catalog.py").catalog_tools()
        for given, search in ((tools, "'no find_tools here'"), (catalog_tools, "find_tools('lookup')")):
            code = f"final_answer([final_answer_(answer='up'), find_tools_(answer='x'), {search}])"
            agent = CodeAgent(tools=given, model=Scripted(code))
            assert isinstance(agent.tools["final_answer"], FinalAnswerTool)
            echoed, found, searched = agent.run("go")  # the agent's own final answer: the list, as it is
            assert json.loads(echoed) == {"tool": "final_answer", "args": {"answer": "up"}}
            assert json.loads(found)["tool"] == "find_tools"
            assert searched == "no find_tools here" or searched.startswith("lookup(answer: string)")
        for tool in [*tools, *catalog_tools]:
            getattr(tool, "close", lambda: None)()
    assert project.run("check").exit_code == 0


def test_a_name_given_as_it_is_is_refused_and_the_catalog_refuses_one(tmp_path: Path, project: Project) -> None:
    with serving(tmp_path, TOOLS[2:]) as url:
        assert project.run("add", f"mcp:{url}", "--name", "upstream").exit_code == 0
    assert project.run("catalog").exit_code == 0
    with (project.root / "pyproject.toml").open("a") as pyproject:
        pyproject.write('\n[tool.vendorgen.overrides.lookup]\nname = "call_tool"\n')
    before = project.snapshot()
    refused = project.run("update", "--offline")
    assert refused.exit_code != 0
    assert "'call_tool' is one an agent gives its own tool" in refused.stderr, refused.stderr
    assert project.snapshot() == before

    catalog = project.import_module("tools/catalog.py")
    catalog.TOOLS[0].name = "final_answer"  # as a module edited by hand would name it
    try:
        catalog.catalog_tools()
    except ValueError as exc:
        refusal: Any = str(exc)
    assert "the tools final_answer have names an agent gives its own tools" in refusal


def test_the_reserved_names_hold_every_default_tool_of_smolagents() -> None:
    from smolagents import default_tools

    from vendorgen.naming import AGENT_TOOL_NAMES
    from vendorgen.shipped import _vendored_catalog

    names = {getattr(default_tools, name).name for name in default_tools.__all__}
    assert "final_answer" in names and names | set(default_tools.TOOL_MAPPING) <= AGENT_TOOL_NAMES
    assert _vendored_catalog.AGENT_TOOL_NAMES == AGENT_TOOL_NAMES  # the shipped catalog refuses the same names
