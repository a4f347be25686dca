"""MCP source: vendoring a 200-tool server against black, call latency, construction.

Run: .venv/bin/python bench/bench_mcp.py   (starts tests/servers/mcp_many.py over stdio and
streamable-http on loopback; takes about a minute and a half)

1. `vendorgen add` of a 200-tool server, whole process, against `black` formatting the
   same rendered file, whole process; then the same work in-process, phase by phase,
   against `black.format_str` on the same text.
2. Median latency of one tool call: the vendored tool, the same tool through smolagents'
   `ToolCollection.from_mcp` (mcpadapt), a raw persistent `mcp.ClientSession`, and a new
   session per call.
3. Building all 200 tools from the vendored module, and proof that it opens no connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

from _common import REPO, interleaved_medians, median_seconds, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)
os.environ["PYTHONPATH"] = str(REPO)  # the server runs as `python -m tests.servers.mcp_many`
warnings.filterwarnings("ignore")

COUNT = 200
CALLS = 200
STDIO = ["-m", "tests.servers.mcp_many", "stdio", "--count", str(COUNT)]
SOURCE = "mcp:stdio:python " + " ".join(STDIO)
VENDOR_RUNS = 5
# `vendorgen add` formats with black's defaults but for the line length (99) and target;
# it skips black's own safety checks (`--fast`): the gate parses and compiles the result.
BLACK = [str(REPO / ".venv" / "bin" / "black"), "--quiet", "--fast", "--line-length", "99", "--target-version", "py311", "-"]
VENDOR_TARGET = 1.5
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


def vendoring(project: Path) -> None:
    rendered = phases(project)
    with tempfile.TemporaryDirectory() as directory:
        runs = iter(range(VENDOR_RUNS))

        def add() -> None:
            target = Path(directory) / str(next(runs))  # a new project each time: `add` never overwrites
            target.mkdir()
            (target / "pyproject.toml").write_text('[project]\nname = "bench"\n')
            command = [str(REPO / ".venv" / "bin" / "vendorgen"), "add", "--trust", "--env", "PYTHONPATH", "--name",
                       "many", SOURCE]  # fmt: skip
            subprocess.run(command, cwd=target, check=True, capture_output=True)

        def black() -> None:
            subprocess.run(BLACK, input=rendered, text=True, check=True, capture_output=True)

        medians = interleaved_medians({"add": add, "black": black}, repeat=VENDOR_RUNS)
    ratio = medians["add"] / medians["black"]
    row(f"`black --fast` on the rendered file, whole process (median of {VENDOR_RUNS}): the anchor", ms(medians["black"]))
    row(f"`vendorgen add` of the {COUNT}-tool server, whole process (median of {VENDOR_RUNS})", ms(medians["add"]),
        f"<= {VENDOR_TARGET}x black", verdict(ratio <= VENDOR_TARGET), f"{times(ratio)} `black --fast` on the same file")  # fmt: skip


def phases(project: Path) -> str:
    """The work of `add`, in-process and phase by phase; returns the rendered (unformatted) text."""
    import black

    from vendorgen import formatter
    from vendorgen.formatter import format_source
    from vendorgen.gate import check_module
    from vendorgen.pipeline import snapshot_text
    from vendorgen.render import render_module
    from vendorgen.sources import AddOptions, mcp
    from vendorgen.workspace import SCHEMAS_DIR, Workspace, canonical_json, sha256_text

    phase_seconds: dict[str, float] = {}
    start = time.perf_counter()
    [snapshot] = mcp.inspect(SOURCE.removeprefix("mcp:"), AddOptions(trust=True, env=("PYTHONPATH",), name="many"))
    phase_seconds["inspect (import mcp, start the server, initialize, list)"] = time.perf_counter() - start
    start = time.perf_counter()
    module = mcp.build(snapshot)
    phase_seconds["build (schemas -> ToolSpec)"] = time.perf_counter() - start
    schema_sha256 = sha256_text(canonical_json(snapshot))
    start = time.perf_counter()
    rendered = render_module(module, schema_sha256)
    phase_seconds["render (Jinja2)"] = time.perf_counter() - start
    start = time.perf_counter()
    code = format_source(rendered, 99)
    phase_seconds["format (black; in pieces at once if CPUs are idle)"] = time.perf_counter() - start
    start = time.perf_counter()
    check_module(code, module, mcp.ALLOWED_IMPORTS)
    phase_seconds["gate (libcst)"] = time.perf_counter() - start
    workspace = Workspace(project)
    start = time.perf_counter()
    with workspace.mutex():  # the module and its snapshot, durably, as `add` writes them
        workspace.commit({f"tools/{module.name}.py": code, f"{SCHEMAS_DIR}/many.json": snapshot_text(snapshot)}, [])
    phase_seconds["write (files, snapshot, lock)"] = time.perf_counter() - start
    total = sum(phase_seconds.values())
    mode = black.Mode(line_length=99, target_versions={black.TargetVersion.PY311})
    alone = median_seconds(lambda: black.format_str(rendered, mode=mode), repeat=3)
    for phase, seconds in phase_seconds.items():
        row(f"in-process, one run: {phase}", ms(seconds), anchor=f"{seconds / total:.0%} of the phases")
    row(f"in-process: all phases ({code.count(chr(10)):,} lines of generated code)", ms(total),
        anchor=f"{times(total / alone)} `black.format_str`")  # fmt: skip
    offline = total - next(iter(phase_seconds.values()))
    row("in-process: all but inspect (what regenerating from the snapshot costs)", ms(offline),
        anchor=f"{times(offline / alone)} `black.format_str`")  # fmt: skip
    row("`black.format_str` on the same text, in-process (median of 3)", ms(alone))
    pieces = formatter.split_source(rendered, 2)
    parallel = median_seconds(lambda: formatter.join_pieces(formatter.format_in_parallel(pieces, 99)), repeat=3)
    row(f"the same text in {len(pieces)} pieces, one of them forked, whatever the load (median of 3)", ms(parallel),
        anchor=f"{times(parallel / alone)} `black.format_str`")  # fmt: skip
    return rendered


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

    def raw_from_a_thread(client) -> float:
        """A raw session called as a synchronous tool must call it: from another thread, through its loop."""
        loop = asyncio.new_event_loop()
        opened: concurrent.futures.Future = concurrent.futures.Future()

        async def hold() -> None:
            stop = asyncio.Event()
            async with client as (read, write, *_), ClientSession(read, write) as session:
                await session.initialize()
                opened.set_result((session, stop))
                await stop.wait()

        thread = threading.Thread(target=loop.run_until_complete, args=(hold(),), daemon=True)
        thread.start()
        session, stop = opened.result(30)
        try:
            return samples(lambda: asyncio.run_coroutine_threadsafe(session.call_tool(TOOL, ARGUMENTS), loop).result(), CALLS)
        finally:
            loop.call_soon_threadsafe(stop.set)
            thread.join(30)
            loop.close()

    results["raw persistent mcp.ClientSession (stdio, from a synchronous caller)"] = raw_from_a_thread(stdio_client(params))

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

    for label, seconds in results.items():
        row(f"one call to {TOOL}, median of {CALLS}: {label}", ms(seconds, 2))
    for transport, vendored_label, raw_label, per_call_label in [
        ("stdio", "vendored tool (stdio)", "raw persistent mcp.ClientSession (stdio, in its loop)",
         "new session per call (stdio: start the server each time)"),
        ("streamable-http", "vendored tool (streamable-http)", "raw persistent mcp.ClientSession (streamable-http)",
         "new session per call (streamable-http)"),
    ]:  # fmt: skip
        vendored, raw, per_call = results[vendored_label], results[raw_label], results[per_call_label]
        row(f"vendored tool call ({transport}) vs a raw persistent session", ms(vendored, 2), "<= 1.1x raw",
            verdict(vendored / raw <= 1.1), f"{times(vendored / raw)} raw `ClientSession.call_tool`")  # fmt: skip
        row(f"vendored tool call ({transport}) vs a new session per call", ms(vendored, 2), ">= 10x faster",
            verdict(per_call / vendored >= 10), f"{times(per_call / vendored)} faster than a new session")  # fmt: skip
    sync_raw = results["raw persistent mcp.ClientSession (stdio, from a synchronous caller)"]
    row("vendored tool call (stdio) vs a raw session called from a synchronous caller", ms(results["vendored tool (stdio)"], 2),
        anchor=f"{times(results['vendored tool (stdio)'] / sync_raw)} raw `call_tool` from another thread")  # fmt: skip
    mcpadapt = results["ToolCollection.from_mcp / mcpadapt (stdio)"]
    row("vendored tool call (stdio) vs `ToolCollection.from_mcp`", ms(results["vendored tool (stdio)"], 2),
        anchor=f"{times(results['vendored tool (stdio)'] / mcpadapt)} the mcpadapt tool")  # fmt: skip


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
    row(f"import the generated {COUNT}-tool module", ms(imported, 1))
    row(f"tools(): {len(tools)} instances (median of 20)", ms(built, 1), anchor=f"{built / len(tools) * 1e6:.0f} us per tool")
    row("tools(): connections opened / processes started / threads started",
        f"{int(opened)} / {len(new_children)} / {new_threads}", "0 / 0 / 0",
        verdict(not opened and not new_children and new_threads == 0))  # fmt: skip
    params = StdioServerParameters(command=sys.executable, args=STDIO, env={"PYTHONPATH": str(REPO)})

    def from_mcp() -> None:
        with ToolCollection.from_mcp(params, trust_remote_code=True, structured_output=False) as collection:
            assert len(collection.tools) == COUNT

    runtime = median_seconds(from_mcp, repeat=3)
    row(f"`ToolCollection.from_mcp`: connect, list, adapt {COUNT} (median of 3)", ms(runtime))
    row(f"tools(): {COUNT} vendored tools vs `ToolCollection.from_mcp`", ms(built, 1), ">= 10x faster",
        verdict(runtime / built >= 10), f"{times(runtime / built)} faster than `from_mcp`")  # fmt: skip


def main() -> None:
    section("MCP source (bench/bench_mcp.py)")
    with tempfile.TemporaryDirectory() as directory:
        project = Path(directory)
        (project / "pyproject.toml").write_text('[project]\nname = "bench"\n')
        vendoring(project)
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        args = ["-m", "tests.servers.mcp_many", "http", "--port", str(port), "--count", str(COUNT)]
        with server_process(args, url, env={"PYTHONPATH": str(REPO)}):
            latency(project, url)
        construction(project)


if __name__ == "__main__":
    main()
