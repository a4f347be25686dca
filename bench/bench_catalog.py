"""`vendorgen catalog`: prompt size, retrieval and same calls (issue 22).

- Prompt size: the CodeAgent system prompt given every vendored tool against the one given
  `catalog_tools()`, for five real npm MCP servers (pinned, listed over stdio offline) and for
  ~900 tools (BFCL's pooled functions); for tool-calling agents, the system prompt plus the tool
  schemas the model API is sent, against `catalog_tools(call_tool=True)`.
- Retrieval: each question of BFCL's `multiple` and `live_multiple` asked of `find_tools`; recall@1
  and @5 of the ground-truth function, beside a plain substring search (the floor).
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

from bench.bfcl_server import SETS, pool, questions

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


def substring_ranking(catalog: Any, question: str) -> list[str]:
    """The floor: tools ranked by how many of the question's words (3+ letters) their name or description contains."""
    words = {word for word in re.findall(r"[a-z0-9]{3,}", question.lower())}
    scored = []
    for tool_class in catalog.TOOLS:
        text = f"{tool_class.name} {tool_class.description}".lower()
        hits = sum(word in text for word in words)
        if hits:
            scored.append((-hits, tool_class.name))
    return [name for _, name in sorted(scored)]


def recall_rows(catalog: Any, data: Path, names: dict[str, str]) -> None:
    find_tools = catalog.catalog_tools()[-1]
    for set_name in SETS:
        asked = questions(data, set_name, names)
        found = [re.findall(r"^(\w+)\(", find_tools(query=question), re.M) for question, _ in asked]
        floor = [substring_ranking(catalog, question) for question, _ in asked]
        for label, rankings in (("find_tools", found), ("substring floor", floor)):
            at1 = sum(ranked[:1] == [truth] for ranked, (_, truth) in zip(rankings, asked)) / len(asked)
            at5 = sum(truth in ranked[:5] for ranked, (_, truth) in zip(rankings, asked)) / len(asked)
            target = label == "find_tools" and set_name == "live_multiple"
            row(f"{set_name} ({len(asked)} questions), {label}: recall@1 / @5", f"{at1:.3f} / {at5:.3f}",
                ">= 0.9 @5" if target else "", verdict(at5 >= 0.9) if target else "")  # fmt: skip


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
        recall_rows(catalog, data, pool(data)[1])
        same_calls(bfcl, catalog)


if __name__ == "__main__":
    main()
