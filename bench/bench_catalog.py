"""`vendorgen catalog`: prompt size, retrieval and same calls (issue 22).

- Prompt size: the CodeAgent system prompt given every vendored tool against the one given
  `catalog_tools()`, for five real npm MCP servers (pinned, listed over stdio offline) and for
  ~900 tools (BFCL's pooled functions); for tool-calling agents, the system prompt plus the tool
  schemas the model API is sent, against `catalog_tools(call_tool=True)`.
- Retrieval: each question of BFCL's `multiple` and `live_multiple` asked of `find_tools`; recall@1
  and @5 of the ground-truth function, beside a plain substring search (the floor). Two rules: the
  catalogue holds the question's own definitions of its functions (the ground truth and the others it
  offered) in place of the pool's definitions of those names (the target; one catalogue per distinct set
  of definitions), and the pool as served.
- Same calls: a scripted model's fixed code run by the full agent and by the catalog agent; the
  calls the upstream server records must be the same.

Needs node/npm and the registry for the npm servers and bfcl-eval (installed once into .cache/bench/).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import REPO, row, section, verdict

from bench.bfcl_server import SETS, Question, json_schema, pool, questions

CACHE = REPO / ".cache" / "bench"
BFCL = "bfcl-eval==2026.3.23"
NPM_SERVERS = {  # package@version -> its command in node_modules/.bin
    "@playwright/mcp@0.0.83": "playwright-mcp",
    "@modelcontextprotocol/server-sequential-thinking@2026.8.31": "mcp-server-sequential-thinking",
    "@upstash/context7-mcp@4.1.1": "context7-mcp",
    "@notionhq/notion-mcp-server@2.5.2": "notion-mcp-server",
    "firecrawl-mcp@3.26.0": "firecrawl-mcp",
}
# Enough for the biggest listings here (vendorgen's defaults guard against hostile servers).
LIMITS = {"VENDORGEN_MAX_LISTING_SCHEMA_NODES": "10000000", "VENDORGEN_MCP_TIMEOUT": "120"}
SCRIPT = "final_answer([ChaDri_change_drink(new_preferences={'size': 'large'}), ChaFod(foodItem='pizza')])"


def bfcl_data() -> Path:
    target = CACHE / "bfcl"
    if not (target / "bfcl_eval" / "data").is_dir():  # the data sets only: none of its dependencies
        subprocess.run([sys.executable, "-m", "uv", "pip", "install", "--quiet", "--no-deps", "--target",
                        str(target), BFCL], check=True)  # fmt: skip
    return target / "bfcl_eval" / "data"


def npm_servers() -> Path:
    target = CACHE / "npm"
    if not all((target / "node_modules" / ".bin" / command).exists() for command in NPM_SERVERS.values()):
        target.mkdir(parents=True, exist_ok=True)
        (target / "package.json").write_text('{"private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", *NPM_SERVERS], cwd=target, check=True)
    return target / "node_modules" / ".bin"


def vendorgen(project: Path, *args: str) -> None:
    env = {**os.environ, **LIMITS, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "vendorgen", *args], cwd=project, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"vendorgen {' '.join(args)}: {done.stderr.strip()}")


def load_catalog(project: Path) -> Any:
    sys.path.insert(0, str(project))
    import tools.catalog  # type: ignore[import-not-found]

    return tools.catalog


def code_prompts(catalog: Any, listed: bool | None) -> tuple[int, int]:
    """Characters of the CodeAgent system prompt: every tool as vendored, and catalog_tools(listed=...)."""
    from smolagents import CodeAgent

    model = Scripted("")
    full = CodeAgent(tools=[tool_class() for tool_class in catalog.TOOLS], model=model).system_prompt
    return len(full), len(CodeAgent(tools=catalog.catalog_tools(listed=listed), model=model).system_prompt)


def calling_prompts(catalog: Any) -> tuple[int, int]:
    """Characters a tool-calling agent's model API is sent: system prompt plus tool schemas."""
    from smolagents import ToolCallingAgent
    from smolagents.models import get_tool_json_schema

    def size(tools: list[Any]) -> int:
        agent = ToolCallingAgent(tools=tools, model=Scripted(""))
        schemas = [get_tool_json_schema(tool) for tool in agent.tools.values()]
        return len(agent.system_prompt) + len(json.dumps(schemas))

    return size([tool_class() for tool_class in catalog.TOOLS]), size(catalog.catalog_tools(call_tool=True))


class Scripted:
    """A smolagents Model answering every step with the same code (made a Model subclass on first use)."""

    def __new__(cls, code: str) -> Any:
        from smolagents import Model
        from smolagents.models import ChatMessage, MessageRole

        class ScriptedModel(Model):
            def generate(self, messages: Any, *args: Any, **kwargs: Any) -> ChatMessage:
                return ChatMessage(role=MessageRole.ASSISTANT, content=f"Thought: go.\n<code>\n{code}\n</code>")

        return ScriptedModel(model_id="scripted")


def prompt_rows(name: str, catalog: Any, target: float) -> None:
    tools = len(catalog.TOOLS)
    for listed in (True, False):
        full, shown = code_prompts(catalog, listed)
        saved = 1 - shown / full
        default = listed == (tools <= catalog.LISTED_AT_MOST)
        row(f"{name}: CodeAgent prompt, {tools} tools vs catalog, {'one line each' if listed else 'none listed'}",
            f"{full:,} -> {shown:,} chars", f">= {target:.0%} smaller" if default else "",
            verdict(saved >= target) if default else "", f"{saved:.1%} smaller")  # fmt: skip
    full, shown = calling_prompts(catalog)
    row(f"{name}: tool-calling prompt + schemas vs call_tool=True", f"{full:,} -> {shown:,} chars", "",
        "", f"{1 - shown / full:.1%} smaller")  # fmt: skip


def substring_ranking(texts: dict[str, str], question: str) -> list[str]:
    """The floor: tools ranked by how many of the question's words (3+ letters) their `name description` contains."""
    words = {word for word in re.findall(r"[a-z0-9]{3,}", question.lower())}
    scored = []
    for name, text in texts.items():
        hits = sum(word in text for word in words)
        if hits:
            scored.append((-hits, name))
    return [name for _, name in sorted(scored)]


def index_entry(catalog: Any, tool: str, definition: dict[str, Any]) -> str:
    """The INDEX line vendorgen writes for a BFCL definition served as `tool`, by the catalog's own function."""
    inputs = json_schema(definition["parameters"]).get("properties", {})
    return catalog.index_entry(tool, definition.get("description", ""), inputs)


def found_tools(catalog: Any, index: dict[str, str], asked: list[Question]) -> list[list[str]]:
    """find_tools' five best tool names for each question, over `index` (the catalog's own build and search)."""
    find_tools = catalog.build(catalog.TOOLS, index, call_tool=True, matches=5, listed=False)[0]
    return [re.findall(r"^(\w+)\(", find_tools(query=question.text), re.M) for question in asked]


def own_definition_rankings(
    catalog: Any, pooled: dict[str, dict[str, Any]], texts: dict[str, str], asked: list[Question]
) -> tuple[list[list[str]], list[list[str]]]:
    """find_tools' and the floor's rankings, each question's functions swapped for the question's own definitions.

    Questions with the same definitions share a catalogue, rebuilt in full (BM25's lengths and idf are the whole
    catalogue's); one whose definitions are all the pool's is asked of the pool.
    """
    groups: dict[str, list[int]] = {}
    for number, question in enumerate(asked):
        own = {tool: function for tool, function in question.functions.items() if function != pooled[tool]}
        groups.setdefault(json.dumps(own, sort_keys=True), []).append(number)
    found: list[list[str]] = [[] for _ in asked]
    floor: list[list[str]] = [[] for _ in asked]
    for key, numbers in groups.items():
        own = json.loads(key)
        index = {**catalog.INDEX, **{tool: index_entry(catalog, tool, function) for tool, function in own.items()}}
        shown = {**texts, **{tool: f"{tool} {function.get('description', '')}".lower() for tool, function in own.items()}}
        for number, ranking in zip(numbers, found_tools(catalog, index, [asked[number] for number in numbers])):
            found[number] = ranking
            floor[number] = substring_ranking(shown, asked[number].text)
    return found, floor


def recall(rankings: list[list[str]], asked: list[Question]) -> tuple[float, float]:
    """Recall@1 and @5 of the questions' ground-truth tools."""
    at1 = sum(ranked[:1] == [question.tool] for ranked, question in zip(rankings, asked)) / len(asked)
    at5 = sum(question.tool in ranked[:5] for ranked, question in zip(rankings, asked)) / len(asked)
    return at1, at5


def recalls(*pairs: tuple[float, float]) -> str:
    """`@1 / @5`, a second pair (the floor's) in brackets."""
    shown = [f"{at1:.3f} / {at5:.3f}" for at1, at5 in pairs]
    return shown[0] + "".join(f" ({pair})" for pair in shown[1:])


def recall_rows(catalog: Any, data: Path, pooled: dict[str, dict[str, Any]], names: dict[str, str]) -> None:
    # The swapped-in entries are only comparable if the bench indexes a definition as vendorgen did.
    if differ := [tool for tool, function in pooled.items() if index_entry(catalog, tool, function) != catalog.INDEX[tool]]:
        raise SystemExit(f"vendorgen indexed {', '.join(differ[:3])} otherwise than the bench: no like-for-like swap")
    texts = {tool_class.name: f"{tool_class.name} {tool_class.description}".lower() for tool_class in catalog.TOOLS}
    for set_name in SETS:
        asked = questions(data, set_name, names)
        label = f"{set_name} ({len(asked)} questions)"
        found, floor = own_definition_rankings(catalog, pooled, texts, asked)
        at5 = recall(found, asked)[1]
        target = set_name == "live_multiple"
        row(f"{label}, own definitions: find_tools recall@1 / @5 (floor)", recalls(recall(found, asked), recall(floor, asked)),
            ">= 0.9 @5" if target else "", verdict(at5 >= 0.9) if target else "")  # fmt: skip
        if target:  # the even half tuned the search, the odd half is held out
            for half, start in (("even", 0), ("odd, held out", 1)):
                row(f"{set_name} {half} ({len(asked[start::2])}), own definitions: find_tools recall@1 / @5",
                    recalls(recall(found[start::2], asked[start::2])))  # fmt: skip
        pool_found = found_tools(catalog, catalog.INDEX, asked)
        pool_floor = [substring_ranking(texts, question.text) for question in asked]
        row(f"{label}, first definition pooled: find_tools recall@1 / @5 (floor)",
            recalls(recall(pool_found, asked), recall(pool_floor, asked)))  # fmt: skip


def same_calls(project: Path, catalog: Any) -> None:
    """The full agent and the catalog agent run the same scripted code: the server must log the same calls."""
    from smolagents import CodeAgent

    log = project / "calls.jsonl"
    module = sys.modules[catalog.TOOLS[0].__module__]
    module.SERVER["args"] = [*module.SERVER["args"], "--log", str(log)]  # before the first call starts it
    runs = []
    for tools in ([tool_class() for tool_class in catalog.TOOLS], catalog.catalog_tools()):
        before = log.read_text() if log.exists() else ""
        CodeAgent(tools=tools, model=Scripted(SCRIPT)).run("go")
        runs.append(log.read_text()[len(before) :])
    catalog.TOOLS[0]().close()
    calls = [run.count("\n") for run in runs]
    row("same task, full vs catalog agent: tools/call requests upstream", f"{calls[0]} vs {calls[1]}",
        "identical", verdict(runs[0] == runs[1] and calls[0] == 2))  # fmt: skip


def main() -> None:
    data = bfcl_data()
    with tempfile.TemporaryDirectory() as directory:
        section("catalog: prompt size (characters), five npm MCP servers")
        npm = Path(directory) / "npm"
        npm.mkdir()
        bins = npm_servers()
        for command in NPM_SERVERS.values():
            vendorgen(npm, "add", f"mcp:stdio:{bins / command}", "--trust", "--name", re.sub(r"\W", "_", command))
        vendorgen(npm, "catalog")
        prompt_rows("5 npm servers", load_catalog(npm), 0.85)
        for module in [name for name in sys.modules if name == "tools" or name.startswith("tools.")]:
            del sys.modules[module]
        sys.path.remove(str(npm))

        section("catalog: ~900 tools (BFCL multiple + live_multiple), prompt size and retrieval")
        bfcl = Path(directory) / "bfcl"
        bfcl.mkdir()
        vendorgen(bfcl, "add", f"mcp:stdio:{sys.executable} {REPO / 'bench' / 'bfcl_server.py'} {data}", "--trust",
                  "--name", "bfcl")  # fmt: skip
        vendorgen(bfcl, "catalog")
        catalog = load_catalog(bfcl)
        prompt_rows("BFCL pool", catalog, 0.95)
        recall_rows(catalog, data, *pool(data))
        same_calls(bfcl, catalog)


if __name__ == "__main__":
    main()
