"""`vendorgen add langchain:` against the tools in tests/servers/langchain_tools.py.

Every shape `<attr>` may have is vendored through the CLI, imported, built with smolagents
and called for real; `CALLS` in the LangChain module shows what each tool received.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import typing
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.servers import langchain_tools as lt
from vendorgen.sources import AddOptions
from vendorgen.sources import langchain as langchain_source
from vendorgen.sources.base import Inspection

MODULE = "tests.servers.langchain_tools"
ATTRS = ["search_docs", "place_order", "raw_query", "Calculator", "text_toolkit", "TextToolkit", "whoami",
         "make_calculator", "make_toolkit", "make_tools"]  # fmt: skip
NAMES = {"make_calculator": "calc_factory", "TextToolkit": "text_toolkit_class"}  # --name where defaults would clash
# Tools that several attributes give (three toolkits, a factory's list): add refuses a tool name twice.
PREFIXES = {"TextToolkit": "cls", "make_toolkit": "made", "make_tools": "listed"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("langchain") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    for attr in ATTRS:
        extra = ["--name", NAMES[attr]] if attr in NAMES else []
        extra += ["--prefix", PREFIXES[attr]] if attr in PREFIXES else []
        result = project.run("add", f"langchain:{MODULE}:{attr}", "--json", *extra)
        assert result.exit_code == 0, (attr, result.stderr)
    return project


def module(project: Project, name: str) -> ModuleType:
    return project.import_module(f"tools/{name}.py")


def tools(project: Project, name: str) -> dict[str, Any]:
    return {tool.name: tool for tool in module(project, name).tools()}


@pytest.fixture(autouse=True)
def _fresh_calls() -> None:
    lt.CALLS.clear()


def test_parse_docstring_tool(project: Project) -> None:
    tool = tools(project, "search_docs")["search_docs"]
    assert tool.description == "Search the documentation."
    assert tool.inputs == {
        "query": {"type": "string", "description": "What to look for."},
        "limit": {"type": "integer", "description": "How many hits to return.", "default": 3, "nullable": True},
        "tags": {"type": "array", "description": "Only hits with all of these tags.", "items": {"type": "string"},
                 "default": None, "nullable": True},
        "mode": {"type": "string", "description": "How to match the query.", "enum": ["fast", "exact"],
                 "default": "fast", "nullable": True},
    }  # fmt: skip
    assert tool.output_type == "string"
    hints = typing.get_type_hints(type(tool).forward)
    assert hints["mode"] == typing.Literal["fast", "exact"] and hints["tags"] == list[str] | None
    assert tool(query="q") == "fast: q#0, q#1, q#2"
    assert lt.CALLS[-1] == ("search_docs", {"query": "q", "limit": 3, "tags": None, "mode": "fast"})
    assert tool(query="x", limit=1, tags=["a", "b"], mode="exact") == "exact: x#0 [a,b]"
    # None where the schema refuses null means the default; where it allows null, None is sent.
    assert tool(query="n", limit=None, tags=None, mode=None) == "fast: n#0, n#1, n#2"
    assert lt.CALLS[-1] == ("search_docs", {"query": "n", "limit": 3, "tags": None, "mode": "fast"})


def test_structured_tool_with_nested_model_and_optionals(project: Project) -> None:
    tool = tools(project, "place_order")["place_order"]
    assert list(tool.inputs) == ["item", "address", "quantity", "note", "express"]
    address = tool.inputs["address"]
    assert address["type"] == "object" and "nullable" not in address
    assert address["properties"]["zip_code"]["description"] == "Postal code, if known"
    assert address["required"] == ["street", "city"] and "$ref" not in json.dumps(tool.inputs)
    assert tool.inputs["note"] == {"type": "string", "description": "A note for the courier", "default": None,
                                   "nullable": True}  # fmt: skip
    assert tool.inputs["quantity"]["minimum"] == 1
    assert tool(item="tea", address={"street": "1 High St", "city": "Leeds"}) == "1 x tea to 1 High St, Leeds"
    assert lt.CALLS[-1][1]["note"] is None and lt.CALLS[-1][1]["express"] is None
    text = tool(item="tea", address={"street": "1 High St", "city": "Leeds", "zip_code": "LS1"}, quantity=2,
                note="ring twice", express=True)  # fmt: skip
    assert text == "2 x tea to 1 High St, Leeds LS1 (express) - ring twice"


def test_json_schema_tool_names_are_sanitized_and_sent_by_wire_name(project: Project) -> None:
    tool = tools(project, "raw_query")["raw_query"]
    assert list(tool.inputs) == ["from_", "max_results", "class_"]
    assert json.loads(tool(from_="a")) == {"from": "a", "max-results": 5}
    assert json.loads(tool(from_="a", max_results=2, class_="b")) == {"class": "b", "from": "a", "max-results": 2}
    assert "Renamed arguments: from_ is sent as from, max_results is sent as max-results" in type(tool).__doc__
    assert tool.lc_name == "raw-query"


@pytest.mark.parametrize("name", ["calculator", "calc_factory"])
def test_base_tool_subclass_and_factory(project: Project, name: str) -> None:
    [tool] = module(project, name).tools()
    assert tool.name == name  # --name names the one tool too
    assert tool.output_type == "number" and tool.lc_name == "calculator"
    assert tool(a=6, b=7, op="mul") == 42.0 and tool(a=1, b=2) == 3.0
    assert lt.CALLS == [("calculator", {"a": 6.0, "b": 7.0, "op": "mul"}), ("calculator", {"a": 1.0, "b": 2.0, "op": "add"})]


@pytest.mark.parametrize(("name", "prefix"), [("text_toolkit", ""), ("text_toolkit_class", "cls_"), ("make_toolkit", "made_")])
def test_toolkits(project: Project, name: str, prefix: str) -> None:
    found = tools(project, name)
    assert sorted(found) == [f"{prefix}reverse", f"{prefix}word_count"]
    assert found[f"{prefix}word_count"](text="one two three") == 3
    assert found[f"{prefix}word_count"].output_type == "integer"
    assert found[f"{prefix}reverse"](text="abc") == "cba"


def test_factory_returning_a_list_and_injected_arguments(project: Project) -> None:
    found = tools(project, "make_tools")
    assert sorted(found) == ["listed_search_docs", "listed_whoami"]
    whoami = tools(project, "whoami")["whoami"]
    assert list(whoami.inputs) == ["greeting"]  # the injected user_id is left out
    assert whoami(greeting="hello") == "hello, anonymous"
    assert found["listed_whoami"](greeting="hi") == "hi, anonymous"


def test_every_tool_passes_smolagents_validation(project: Project) -> None:
    from smolagents import Tool
    from smolagents.tools import validate_tool_arguments

    names = ["search_docs", "place_order", "raw_query", "calculator", "text_toolkit", "whoami", "make_tools"]
    built = [tool for name in names for tool in module(project, name).tools()]
    assert all(isinstance(tool, Tool) for tool in built)
    validate_tool_arguments(tools(project, "search_docs")["search_docs"], {"query": "x"})


def test_lock_and_snapshot(project: Project) -> None:
    lock = (project.root / "vendorgen.lock").read_text()
    assert 'source = "langchain:tests.servers.langchain_tools:text_toolkit"' in lock
    assert 'revision = "sha256:' in lock
    snapshot = json.loads((project.root / ".vendorgen/schemas/text_toolkit.json").read_text())
    assert snapshot["shape"] == "toolkit" and [tool["name"] for tool in snapshot["tools"]] == ["word_count", "reverse"]
    assert snapshot["options"] == {"name": "text_toolkit"}
    shapes = {name: json.loads((project.root / f".vendorgen/schemas/{name}.json").read_text())["shape"]
              for name in ["search_docs", "calculator", "text_toolkit_class", "calc_factory", "make_tools"]}  # fmt: skip
    assert shapes == {"search_docs": "tool", "calculator": "tool_class", "text_toolkit_class": "toolkit_class",
                      "calc_factory": "factory", "make_tools": "factory"}  # fmt: skip


def test_importing_the_module_does_not_import_the_langchain_code(project: Project) -> None:
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(project.root)!r})\n"
        "from tools.search_docs import SearchDocsTool\n"
        "tool = SearchDocsTool()\n"
        f"assert {MODULE!r} not in sys.modules and 'langchain_core' not in sys.modules\n"
        "print(tool(query='z', limit=1))\n"
        f"assert {MODULE!r} in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "fast: z#0"


def test_the_forward_imports_the_object_and_invokes_it(project: Project) -> None:
    code = (project.root / "tools/search_docs.py").read_text()
    assert "        from tests.servers.langchain_tools import search_docs as _source\n" in code
    assert "return self._invoke(" in code and "_source," in code
    assert "import tests.servers" not in code.split("class SearchDocsTool")[0]


def test_a_code_agent_calls_a_vendored_langchain_tool(project: Project) -> None:
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, Model

    class ScriptedModel(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = 'hits = search_docs(query="mcp", limit=2)\nfinal_answer(hits)'
            return ChatMessage(role="assistant", content=f"Thought: search.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=module(project, "search_docs").tools(), model=ScriptedModel(), max_steps=2)
    assert agent.run("Find mcp") == "fast: mcp#0, mcp#1"


# ---------------------------------------------------------------------------
# The source tool is never changed (smolagents' from_langchain changes it)
# ---------------------------------------------------------------------------


def schema_state(tool: Any) -> str:
    args_schema = tool.args_schema if isinstance(tool.args_schema, dict) else tool.args_schema.model_json_schema()
    call_schema = tool.tool_call_schema
    call_schema = call_schema if isinstance(call_schema, dict) else call_schema.model_json_schema()
    return json.dumps([tool.name, tool.description, tool.args, args_schema, call_schema], sort_keys=True, default=str)


@pytest.mark.parametrize("attr", ["search_docs", "place_order", "raw_query", "text_toolkit", "whoami"])
def test_inspecting_never_changes_the_source_tool(attr: str) -> None:
    found = langchain_source.tools_of(getattr(lt, attr), attr)[1]
    before = [schema_state(tool) for tool in found]
    snapshot = langchain_source.LangChainSource().inspect(f"{MODULE}:{attr}", AddOptions(), Inspection(REPO))[0]
    spec = langchain_source.build(snapshot)
    spec.tools[0].smolagents_inputs()["x"] = "mutating the spec"  # even this must not reach the source
    for tool in spec.tools:
        for item in tool.inputs:
            item.schema.setdefault("touched", True)
    assert [schema_state(tool) for tool in found] == before


def test_smolagents_from_langchain_changes_the_source_tool_but_vendorgen_does_not() -> None:
    from langchain_core.tools import tool as lc_tool
    from smolagents import Tool

    def make():
        @lc_tool(parse_docstring=True)
        def lookup(query: str, limit: int = 2) -> str:
            """Look something up.

            Args:
                query: What to look up.
                limit: How many.
            """
            return query * limit

        return lookup

    theirs = make()
    before = copy.deepcopy(theirs.args)
    Tool.from_langchain(theirs)
    assert theirs.args != before and theirs.args["query"]["description"] == ""
    ours = make()
    before = copy.deepcopy(ours.args)
    langchain_source.describe(ours)
    assert ours.args == before


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "code", "message"),
    [
        (f"{MODULE}:nope", 2, "has no attribute nope; it has Calculator, TextToolkit,"),
        (f"{MODULE}:not_a_tool", 2, "not_a_tool is a int, not a LangChain tool"),
        (f"{MODULE}:needs_arguments", 2, "is a function that needs arguments (flavour)"),
        (f"{MODULE}:needs_user", 1, "needs injected argument(s) user_id with no default"),
        ("no_such_package.tools:x", 2, "cannot import no_such_package.tools: no module no_such_package here"),
        ("just_a_module", 2, "should be langchain:<module>:<attr>"),
        ("tests.servers.langchain_tools:class", 2, "'class' is not a Python identifier"),
        ("os.path;rm:x", 2, "is not a Python identifier"),
    ],
)
def test_errors(tmp_path: Any, target: str, code: int, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    result = Project(tmp_path).run("add", f"langchain:{target}")
    assert result.exit_code == code, result
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "tools").exists()


def test_tool_subset_prefix_and_name(tmp_path: Any) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(tmp_path)
    result = project.run("add", f"langchain:{MODULE}:text_toolkit", "--tool", "reverse", "--prefix", "txt", "--json")
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["modules"]
    assert entry["name"] == "txt_reverse" and [tool["name"] for tool in entry["tools"]] == ["txt_reverse"]
    result = project.run("add", f"langchain:{MODULE}:search_docs", "--name", "find")
    assert result.exit_code == 0, result.stderr
    assert tools(project, "find")["find"](query="q", limit=1) == "fast: q#0"
    result = project.run("add", f"langchain:{MODULE}:text_toolkit", "--tool", "nope")
    assert result.exit_code == 2 and "available: word_count, reverse" in result.stderr
    result = project.run("add", f"langchain:{MODULE}:search_docs", "--env", "X")
    assert result.exit_code == 2 and "--env does not apply to langchain" in result.stderr


def test_an_argument_named_like_the_import_alias_is_renamed() -> None:
    snapshot = {"kind": "langchain", "source": "langchain:m:a", "name": "m", "module": "m", "attr": "a", "shape": "tool",
                "tools": [{"name": "t", "schema": {"type": "object", "properties": {"_source": {"type": "string"}}}}]}  # fmt: skip
    [spec] = langchain_source.build(snapshot).tools[0].inputs
    assert (spec.name, spec.wire_name) == ("source", "_source")  # the generated forward uses `_source` itself


def test_a_single_tool_is_unchanged_right_after_add_and_diff_exits_1_once_it_changes(tmp_path: Any) -> None:
    """Issue 21 item 6: `update` replays the module's name; it must not read as a --name for the tool."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    source = (REPO / "examples" / "langchain_tools.py").read_text()
    (root / "mytools.py").write_text(source)
    project = Project(root)
    for target in ("mytools:count_words", "mytools:paint_needed"):
        assert project.run("add", f"langchain:{target}").exit_code == 0
    renamed = project.run("add", "langchain:mytools:count_words", "--name", "words")  # the tool's name too
    assert renamed.exit_code == 0 and "(WordsTool)" in renamed.stdout, renamed.stderr

    checked = project.run("check", "--remote")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    unchanged = project.run("diff")
    assert unchanged.exit_code == 0, unchanged.stdout + unchanged.stderr
    assert unchanged.stdout.count("upstream changes to") == 3 and "tool_name" not in unchanged.stdout

    (root / "mytools.py").write_text(source.replace("Count the words of a text.", "Count the words of a text, fast."))
    changed = project.run("diff", "count_words")
    assert changed.exit_code == 1, changed.stdout + changed.stderr
    assert "fast" in changed.stdout
    assert project.run("check", "--remote").exit_code == 1
