"""An agent from vendored MCP modules against one built at run time: how soon is it ready?

Run: PYTHONPATH=. .venv/bin/python bench/bench_agent_start.py   (vendors five servers first; a few minutes)

Five MCP servers of the kinds the tests run (tests/servers/mcp_server.py, FastMCP, over
stdio, streamable-http and legacy SSE; tests/servers/mcp_many.py, the low-level server,
over stdio and streamable-http). Each side is a fresh Python process that has imported
smolagents already and then, timed, makes a ready `CodeAgent` holding every tool:
- vendored: import the five generated modules, call their `tools()`, build the agent;
- at run time: five `ToolCollection.from_mcp` (start or reach each server, initialize,
  list, adapt), then the agent.
The vendored side runs twice per round: from a copy of the project byte-compiled first, as
installed libraries are (and as a project is from its second run on), and from a copy left as
source, imported with PYTHONDONTWRITEBYTECODE=1 so that each import compiles it again (a first
run, or an environment that writes no bytecode). The three run in turn, round after round, so a
change of load hits them alike; the figures are medians.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import REPO, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

RUNS = int(os.environ.get("VENDORGEN_BENCH_RUNS", "5"))
TARGET = 30
MANY_STDIO = 40
MANY_HTTP = 20
ENV = {**os.environ, **OFFLINE_ENV, "PYTHONPATH": str(REPO)}

# Both sides start here: smolagents imported, a model that is never called.
PRELUDE = """
import json, sys, time
from smolagents import CodeAgent, Model
model = Model(model_id="never-called")
"""
VENDORED = PRELUDE + """
import importlib
sys.path.insert(0, sys.argv[1])
names = json.loads(sys.argv[2])
start = time.perf_counter()
modules = [importlib.import_module("tools." + name) for name in names]
imported = time.perf_counter()
tools = [tool for module in modules for tool in module.tools()]
built = time.perf_counter()
agent = CodeAgent(tools=tools, model=model)
ready = time.perf_counter()
print(json.dumps({"import": imported - start, "construct": built - imported, "agent": ready - built,
                  "total": ready - start, "tools": len(tools)}))
"""
AT_RUN_TIME = PRELUDE + """
from contextlib import ExitStack
start = time.perf_counter()
from mcp import StdioServerParameters
from smolagents import ToolCollection
servers = json.loads(sys.argv[1])
with ExitStack() as stack:
    tools = []
    for name, server in servers.items():
        params = StdioServerParameters(**server) if "command" in server else server
        collection = stack.enter_context(ToolCollection.from_mcp(params, trust_remote_code=True, structured_output=False))
        for tool in collection.tools:  # the same servers' tools twice: prefixed, as the vendored ones are
            tool.name = f"{name}_{tool.name}"
        tools += collection.tools
    connected = time.perf_counter()
    agent = CodeAgent(tools=tools, model=model)
    ready = time.perf_counter()
    print(json.dumps({"connect, list, adapt": connected - start, "agent": ready - connected,
                      "total": ready - start, "tools": len(tools)}))
"""


def stdio(module: str, *args: str) -> tuple[str, dict[str, object]]:
    """A stdio server as `vendorgen add` and as `from_mcp` take it."""
    command = [sys.executable, "-m", module, "stdio", *args]
    return f"mcp:stdio:{' '.join(command)}", {
        "command": command[0],
        "args": command[1:],
        "env": {"PYTHONPATH": str(REPO)},
    }


def remote(url: str, transport: str) -> tuple[str, dict[str, object]]:
    return f"mcp:{'sse:' if transport == 'sse' else ''}{url}", {"url": url, "transport": transport}


def vendor(project: Path, servers: dict[str, tuple[str, dict[str, object]]]) -> Path:
    """Vendor `servers` into `project` (left as source); returns a byte-compiled copy of it."""
    (project / "pyproject.toml").write_text('[project]\nname = "bench"\n')
    for name, (uri, _) in servers.items():
        options = ["--trust", "--env", "PYTHONPATH"] if uri.startswith("mcp:stdio:") else []
        command = [sys.executable, "-m", "vendorgen", "add", *options, "--name", name, "--prefix", f"{name}_", uri]
        subprocess.run(command, cwd=project, env=ENV, check=True, capture_output=True)
    # Bytecode, as the libraries of the other side have it since they were installed.
    compiled = project.with_name(project.name + "-compiled")
    shutil.copytree(project, compiled)
    compileall.compile_dir(compiled / "tools", quiet=1)
    return compiled


def measure(script: str, *args: str, env: dict[str, str] = ENV) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the measured process failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    section("Agent start: vendored MCP modules against `ToolCollection.from_mcp` (bench/bench_agent_start.py)")
    fast_port, sse_port, many_port = free_port(), free_port(), free_port()
    fast_url, many_url = f"http://127.0.0.1:{fast_port}/mcp", f"http://127.0.0.1:{many_port}/mcp"
    sse_url = f"http://127.0.0.1:{sse_port}/sse"
    fast_args = ["-m", "tests.servers.mcp_server", "http", "--port", str(fast_port)]
    sse_args = ["-m", "tests.servers.mcp_server", "sse", "--port", str(sse_port)]
    many_args = ["-m", "tests.servers.mcp_many", "http", "--port", str(many_port), "--count", str(MANY_HTTP)]
    env = {"PYTHONPATH": str(REPO)}
    with (
        tempfile.TemporaryDirectory() as directory,
        server_process(fast_args, fast_url, env=env),
        server_process(sse_args, sse_url, env=env),
        server_process(many_args, many_url, env=env),
    ):
        servers = {
            "fastmcp_stdio": stdio("tests.servers.mcp_server"),
            "fastmcp_http": remote(fast_url, "streamable-http"),
            "fastmcp_sse": remote(sse_url, "sse"),
            "many_stdio": stdio("tests.servers.mcp_many", "--count", str(MANY_STDIO)),
            "many_http": remote(many_url, "streamable-http"),
        }
        source = Path(directory) / "project"
        source.mkdir()
        compiled = vendor(source, servers)
        names = json.dumps(list(servers))
        runtime_args = (json.dumps({name: params for name, (_, params) in servers.items()}),)
        no_bytecode = {**ENV, "PYTHONDONTWRITEBYTECODE": "1"}
        samples: dict[str, list[dict[str, float]]] = {"vendored": [], "source": [], "runtime": []}
        for _ in range(RUNS):
            samples["vendored"].append(measure(VENDORED, str(compiled), names))
            samples["source"].append(measure(VENDORED, str(source), names, env=no_bytecode))
            samples["runtime"].append(measure(AT_RUN_TIME, *runtime_args))
        assert not list(source.rglob("__pycache__")), "the source side must compile at each import"

    def median(side: str, part: str) -> float:
        return statistics.median(sample[part] for sample in samples[side])

    count = int(samples["vendored"][0]["tools"])
    assert all(samples[side][0]["tools"] == count for side in samples), "every side must hold the same tools"
    runtime = median("runtime", "total")
    row(f"five `ToolCollection.from_mcp` + `CodeAgent`, {count} tools (median of {RUNS}): the anchor", ms(runtime))
    for part in ("connect, list, adapt", "agent"):
        row(f"  of which {part}", ms(median("runtime", part)))
    for side, how in (("vendored", "byte-compiled"), ("source", "as source, compiled by each import")):
        vendored = median(side, "total")
        row(f"vendored ({how}): import five modules, `tools()`, `CodeAgent`, {count} tools (median of {RUNS})",
            ms(vendored, 1), f">= {TARGET}x faster", verdict(runtime / vendored >= TARGET),
            f"{times(runtime / vendored)} faster")  # fmt: skip
        for part in ("import", "construct", "agent"):
            row(f"  of which {part}", ms(median(side, part), 1), anchor=f"{median(side, part) / vendored:.0%}")


if __name__ == "__main__":
    main()
