"""MCP source: vendoring a 200-tool server by phase, call latency, construction.

Run: .venv/bin/python bench/bench_mcp.py   (starts tests/servers/mcp_many.py over stdio and
streamable-http on loopback; takes about a minute)

1. `vendorgen add` of a 200-tool server, time per phase (inspect / build / render / format /
   gate / write), against black alone formatting the same rendered text.
2. Median latency of one tool call: the vendored tool, the same tool through smolagents'
   `ToolCollection.from_mcp` (mcpadapt), a raw persistent `mcp.ClientSession`, and a new
   session per call.
3. Building all 200 tools from the vendored module, and proof that it opens no connection.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

from _common import REPO, median_seconds, row, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)
os.environ["PYTHONPATH"] = str(REPO)  # the server runs as `python -m tests.servers.mcp_many`
warnings.filterwarnings("ignore")

COUNT = 200
CALLS = 200
STDIO = ["-m", "tests.servers.mcp_many", "stdio", "--count", str(COUNT)]
TOOL = "tool_0000_str"
ARGUMENTS = {"text": "hello"}


def children() -> set[int]:
    """This process's child processes (Linux /proc)."""
    pids: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        try:
            pids.update(int(pid) for pid in Path(f"/proc/self/task/{task}/children").read_text().split())
        except OSError:
            pass
    return pids


def phases(project: Path) -> None:
    import black

    from vendorgen.formatter import format_source
    from vendorgen.gate import check_module
    from vendorgen.pipeline import snapshot_text
    from vendorgen.render import render_module
    from vendorgen.sources import AddOptions, mcp
    from vendorgen.workspace import SCHEMAS_DIR, Workspace, canonical_json, sha256_text

    times: dict[str, float] = {}
    start = time.perf_counter()
    [snapshot] = mcp.inspect("stdio:python " + " ".join(STDIO), AddOptions(trust=True, env=("PYTHONPATH",), name="many"))
    times["inspect (start server, initialize, list 200)"] = time.perf_counter() - start
    start = time.perf_counter()
    module = mcp.build(snapshot)
    times["build (schemas -> ToolSpec)"] = time.perf_counter() - start
    schema_sha256 = sha256_text(canonical_json(snapshot))
    start = time.perf_counter()
    rendered = render_module(module, schema_sha256)
    times["render (Jinja2)"] = time.perf_counter() - start
    start = time.perf_counter()
    code = format_source(rendered, 99)
    times["format (black, in-process)"] = time.perf_counter() - start
    start = time.perf_counter()
    check_module(code, module, mcp.ALLOWED_IMPORTS)
    times["gate (libcst)"] = time.perf_counter() - start
    workspace = Workspace(project)
    start = time.perf_counter()
    with workspace.mutex():  # the module and its snapshot, durably, as `add` writes them
        workspace.commit({f"tools/{module.name}.py": code, f"{SCHEMAS_DIR}/many.json": snapshot_text(snapshot)}, [])
    times["write (files, snapshot, lock)"] = time.perf_counter() - start
    total = sum(times.values())
    lines = code.count("\n")
    print(f"  vendoring a {COUNT}-tool server ({lines} lines of generated code):")
    for phase, seconds in times.items():
        row(f"  {phase}", f"{seconds * 1000:.0f} ms", f"{seconds / total:.0%}")
    row("  total", f"{total * 1000:.0f} ms")
    mode = black.Mode(line_length=99, target_versions={black.TargetVersion.PY311})
    alone = median_seconds(lambda: black.format_str(rendered, mode=mode), repeat=3)
    row("  black alone formatting the same rendered text (median of 3)", f"{alone * 1000:.0f} ms")
    offline = total - times["inspect (start server, initialize, list 200)"]
    row("  ratio total / black alone", f"{total / alone:.2f}x", "<= 3x", verdict(total / alone <= 3))
    row("  ratio without inspect (offline regeneration) / black alone", f"{offline / alone:.2f}x")


def latency(project: Path, http_url: str) -> None:
    sys.path.insert(0, str(project / "tools"))
    import many

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from smolagents import ToolCollection

    params = StdioServerParameters(command=sys.executable, args=STDIO, env={"PYTHONPATH": str(REPO)})

    def samples(call, n: int) -> float:
        call()  # warm up: connect
        timings = []
        for _ in range(n):
            start = time.perf_counter()
            call()
            timings.append(time.perf_counter() - start)
        return statistics.median(timings)

    results: dict[str, float] = {}
    tool = many.Tool0000StrTool()
    results["vendored tool (stdio)"] = samples(lambda: tool(**ARGUMENTS), CALLS)
    tool.close()
    with ToolCollection.from_mcp(params, trust_remote_code=True, structured_output=False) as collection:
        theirs = {t.name: t for t in collection.tools}[TOOL]
        results["ToolCollection.from_mcp / mcpadapt (stdio)"] = samples(lambda: theirs(**ARGUMENTS), CALLS)

    async def raw_persistent(client) -> float:
        async with client as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool(TOOL, ARGUMENTS)
            timings = []
            for _ in range(CALLS):
                start = time.perf_counter()
                await session.call_tool(TOOL, ARGUMENTS)
                timings.append(time.perf_counter() - start)
            return statistics.median(timings)

    results["raw persistent mcp.ClientSession (stdio, in its loop)"] = asyncio.run(raw_persistent(stdio_client(params)))

    async def new_session_per_call(n: int) -> float:
        timings = []
        for _ in range(n):
            start = time.perf_counter()
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool(TOOL, ARGUMENTS)
            timings.append(time.perf_counter() - start)
        return statistics.median(timings)

    results["new session per call (stdio: start the server each time)"] = asyncio.run(new_session_per_call(10))

    # streamable-http: the same module shape, pointed at the HTTP server.
    many.SERVER.clear()
    many.SERVER.update({"name": "vendorgen-many", "version": "", "transport": "streamable-http", "url": http_url})
    many._Session.get().close()
    results["vendored tool (streamable-http)"] = samples(lambda: tool(**ARGUMENTS), CALLS)
    tool.close()
    results["raw persistent mcp.ClientSession (streamable-http)"] = asyncio.run(raw_persistent(streamable_http_client(http_url)))

    async def http_per_call(n: int) -> float:
        timings = []
        for _ in range(n):
            start = time.perf_counter()
            async with streamable_http_client(http_url) as (read, write, _), ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool(TOOL, ARGUMENTS)
            timings.append(time.perf_counter() - start)
        return statistics.median(timings)

    results["new session per call (streamable-http)"] = asyncio.run(http_per_call(20))

    print(f"  median latency of one call to {TOOL} ({CALLS} calls each, after one warm-up call):")
    for label, seconds in results.items():
        row(f"  {label}", f"{seconds * 1000:.2f} ms")
    vendored, raw = results["vendored tool (stdio)"], results["raw persistent mcp.ClientSession (stdio, in its loop)"]
    mcpadapt = results["ToolCollection.from_mcp / mcpadapt (stdio)"]
    per_call = results["new session per call (stdio: start the server each time)"]
    row("  vendored / raw persistent session (stdio)", f"{vendored / raw:.2f}x", "<= 2x", verdict(vendored / raw <= 2))
    row("  vendored / ToolCollection.from_mcp (stdio)", f"{vendored / mcpadapt:.2f}x", "<= 1.2x",
        verdict(vendored / mcpadapt <= 1.2))  # fmt: skip
    row("  new session per call / vendored (stdio)", f"{per_call / vendored:,.0f}x")


def construction(project: Path) -> None:
    import importlib.util

    from smolagents import ToolCollection
    from mcp import StdioServerParameters

    spec = importlib.util.spec_from_file_location("many_fresh", project / "tools" / "many.py")
    module = importlib.util.module_from_spec(spec)
    start = time.perf_counter()
    spec.loader.exec_module(module)
    imported = time.perf_counter() - start
    before_children, before_threads = children(), threading.active_count()
    built = median_seconds(lambda: module.tools(), repeat=20)
    tools = module.tools()
    opened = module._Session.get().connection is not None
    new_children = children() - before_children
    new_threads = threading.active_count() - before_threads
    print(f"  building the tools of the vendored {COUNT}-tool module:")
    row("  import the generated module", f"{imported * 1000:.1f} ms")
    row(f"  tools(): {len(tools)} instances (median of 20)", f"{built * 1000:.1f} ms",
        f"{built / len(tools) * 1e6:.0f} us per tool")  # fmt: skip
    row("  connections opened / processes started / threads started", f"{int(opened)} / {len(new_children)} / {new_threads}",
        "0 / 0 / 0", verdict(not opened and not new_children and new_threads == 0))  # fmt: skip
    params = StdioServerParameters(command=sys.executable, args=STDIO, env={"PYTHONPATH": str(REPO)})

    def from_mcp() -> None:
        with ToolCollection.from_mcp(params, trust_remote_code=True, structured_output=False) as collection:
            assert len(collection.tools) == COUNT

    runtime = median_seconds(from_mcp, repeat=3)
    row("  ToolCollection.from_mcp: connect + list + adapt 200 (median of 3)", f"{runtime * 1000:.0f} ms")
    row("  vendored is faster by", f"{runtime / built:,.0f}x", ">= 10x", verdict(runtime / built >= 10))


def main() -> None:
    print("MCP source (bench/bench_mcp.py)")
    with tempfile.TemporaryDirectory() as directory:
        project = Path(directory)
        (project / "pyproject.toml").write_text('[project]\nname = "bench"\n')
        phases(project)
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        args = ["-m", "tests.servers.mcp_many", "http", "--port", str(port), "--count", str(COUNT)]
        with server_process(args, url, env={"PYTHONPATH": str(REPO)}):
            latency(project, url)
        construction(project)


if __name__ == "__main__":
    main()
