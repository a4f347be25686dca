"""MCP source: vendoring a 200-tool server against black, call latency, construction.

Run: .venv/bin/python bench/bench_mcp.py   (starts tests/servers/mcp_many.py over stdio and
streamable-http on loopback; takes about a minute and a half)

1. `vendorgen add` of a 200-tool server, whole process, against `black --fast` formatting
   the same rendered file, whole process (and, for scale, `add` from the server already
   running behind streamable-http, and black on the file as written); then the same work
   in-process, phase by phase.
2. Median latency of one tool call: the vendored tool, the same tool through smolagents'
   `ToolCollection.from_mcp` (mcpadapt), a raw persistent `mcp.ClientSession`, and a new
   session per call.
3. Building all 200 tools from the vendored module, and proof that it opens no connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _common import REPO, interleaved_medians, median_seconds, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)
os.environ["PYTHONPATH"] = str(REPO)  # the server runs as `python -m tests.servers.mcp_many`
warnings.filterwarnings("ignore")

COUNT = 200
CALLS = 200
BLOCKS = 10
STDIO = ["-m", "tests.servers.mcp_many", "stdio", "--count", str(COUNT)]
SOURCE = "mcp:stdio:python " + " ".join(STDIO)
VENDOR_RUNS = 5
# `vendorgen add` formats with black's defaults but for the line length (99) and target;
# it skips black's own safety checks (`--fast`): the gate parses and compiles the result.
BLACK = [
    str(REPO / ".venv" / "bin" / "black"),
    "--quiet",
    "--fast",
    "--line-length",
    "99",
    "--target-version",
    "py311",
    "-",
]
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


def vendoring(project: Path, http_url: str) -> None:
    """`vendorgen add` of the server against black on the same file, then where its time goes."""
    rendered, written, phase_seconds = phases(project)
    anchor = whole_process(rendered, written, http_url)
    total = sum(phase_seconds.values())
    for phase, seconds in phase_seconds.items():
        row(f"in-process, one run: {phase}", ms(seconds), anchor=f"{seconds / total:.0%} of the phases")
    row("in-process: all phases", ms(total), anchor=f"{times(total / anchor)} `black --fast`")
    offline = total - next(iter(phase_seconds.values()))
    row(
        "in-process: all but inspect (regenerating from the snapshot)",
        ms(offline),
        anchor=f"{times(offline / anchor)} `black --fast`",
    )


def whole_process(rendered: str, written: str, http_url: str) -> float:
    """The target: `vendorgen add` against `black --fast` on its rendered file, both whole processes; returns black's time.

    Also, in the same turns: `add` from the same server already running behind streamable-http
    (no server start-up to wait for), and black on the file as written (already formatted).
    """
    with tempfile.TemporaryDirectory() as directory:
        projects = iter(range(4 * VENDOR_RUNS))

        def add(source: str, *options: str) -> Callable[[], None]:
            def run() -> None:
                target = Path(directory) / str(next(projects))  # a new project each time: `add` never overwrites
                target.mkdir()
                (target / "pyproject.toml").write_text('[project]\nname = "bench"\n')
                command = [str(REPO / ".venv" / "bin" / "vendorgen"), "add", *options, "--name", "many", source]
                subprocess.run(command, cwd=target, check=True, capture_output=True)

            return run

        def black(text: str) -> Callable[[], None]:
            return lambda: subprocess.run(BLACK, input=text, text=True, check=True, capture_output=True)

        medians = interleaved_medians({"add": add(SOURCE, "--trust", "--env", "PYTHONPATH"), "black": black(rendered),
                                       "add http": add(f"mcp:{http_url}"), "black written": black(written)},
                                      repeat=VENDOR_RUNS)  # fmt: skip
    ratio = medians["add"] / medians["black"]
    row(
        f"`black --fast` on the rendered file, whole process (median of {VENDOR_RUNS}): the anchor",
        ms(medians["black"]),
    )
    row(f"`vendorgen add` of the {COUNT}-tool server, whole process (median of {VENDOR_RUNS})", ms(medians["add"]),
        f"<= {VENDOR_TARGET}x black", verdict(ratio <= VENDOR_TARGET), f"{times(ratio)} `black --fast` on the same file")  # fmt: skip
    row(f"the same server already running, over streamable-http (median of {VENDOR_RUNS})", ms(medians["add http"]),
        anchor=f"{times(medians['add http'] / medians['black'])} `black --fast`")  # fmt: skip
    row(f"`black --fast` on the file as written, already formatted (median of {VENDOR_RUNS})",
        ms(medians["black written"]), anchor="one pass: black formats twice what it changed")  # fmt: skip
    return medians["black"]


def phases(project: Path) -> tuple[str, str, dict[str, float]]:
    """The work of `add`, in-process, timed phase by phase: the rendered and the formatted text, and the times."""
    from vendorgen.generate.gate import check_module
    from vendorgen.generate.pipeline import snapshot_text
    from vendorgen.generate.render import render_module
    from vendorgen.project.hashing import snapshot_sha256
    from vendorgen.project.workspace import SCHEMAS_DIR, Workspace
    from vendorgen.sources import AddOptions, load, mcp
    from vendorgen.text.formatter import format_source

    phase_seconds: dict[str, float] = {}
    start = time.perf_counter()
    [snapshot] = mcp.inspect(SOURCE.removeprefix("mcp:"), AddOptions(trust=True, env=("PYTHONPATH",), name="many"), REPO)
    phase_seconds["inspect (import mcp, start the server, initialize, list)"] = time.perf_counter() - start
    start = time.perf_counter()
    module = mcp.build(snapshot)
    phase_seconds["build (schemas -> ToolSpec)"] = time.perf_counter() - start
    schema_sha256 = snapshot_sha256(snapshot)
    start = time.perf_counter()
    rendered = render_module(module, schema_sha256, load("mcp"))
    phase_seconds["render (Jinja2)"] = time.perf_counter() - start
    start = time.perf_counter()
    code = format_source(rendered, 99)
    phase_seconds[f"format (black; {code.count(chr(10)):,} lines)"] = time.perf_counter() - start
    start = time.perf_counter()
    check_module(code, module, load("mcp"))
    phase_seconds["gate (libcst)"] = time.perf_counter() - start
    workspace = Workspace(project)
    start = time.perf_counter()
    with workspace.mutex():  # the module and its snapshot, durably, as `add` writes them
        workspace.commit({f"tools/{module.name}.py": code, f"{SCHEMAS_DIR}/many.json": snapshot_text(snapshot)}, [])
    phase_seconds["write (files, snapshot, lock)"] = time.perf_counter() - start
    return rendered, code, phase_seconds


def latency(project: Path, http_url: str) -> None:
    """One call, every way: each client keeps its connection while all are measured in turn."""
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from smolagents import ToolCollection

    params = StdioServerParameters(command=sys.executable, args=STDIO, env={"PYTHONPATH": str(REPO)})
    with contextlib.ExitStack() as stack:
        collection = stack.enter_context(
            ToolCollection.from_mcp(params, trust_remote_code=True, structured_output=False)
        )
        mcpadapt_tool = {tool.name: tool for tool in collection.tools}[TOOL]
        http_server = {"name": "vendorgen-many", "version": "", "transport": "streamable-http", "url": http_url}
        clients = {
            "vendored tool (stdio)": timed_calls(stack.enter_context(vendored_tool(project, {}))),
            "ToolCollection.from_mcp / mcpadapt (stdio)": timed_calls(lambda: mcpadapt_tool(**ARGUMENTS)),
            "raw persistent ClientSession (stdio), called in its loop": stack.enter_context(in_its_loop(lambda: stdio_client(params))),
            "raw persistent ClientSession (stdio), called from a synchronous caller":
                stack.enter_context(from_a_thread(lambda: stdio_client(params))),
            "vendored tool (streamable-http)": timed_calls(stack.enter_context(vendored_tool(project, http_server))),
            "raw persistent ClientSession (streamable-http), called in its loop":
                stack.enter_context(in_its_loop(lambda: streamable_http_client(http_url))),
        }  # fmt: skip
        results = interleaved_blocks(clients)
    for label, seconds in results.items():
        row(f"one call to {TOOL} (median of {CALLS}): {label}", ms(seconds, 2))
    per_call = {
        "stdio": asyncio.run(new_session_per_call(lambda: stdio_client(params), 10)),
        "streamable-http": asyncio.run(new_session_per_call(lambda: streamable_http_client(http_url), 20)),
    }
    row(
        f"one call to {TOOL} (median of 10): new session per call, stdio (the server starts each time)",
        ms(per_call["stdio"], 2),
    )
    row(f"one call to {TOOL} (median of 20): new session per call, streamable-http", ms(per_call["streamable-http"], 2))
    for transport, new_session in per_call.items():
        vendored = results[f"vendored tool ({transport})"]
        raw = results[f"raw persistent ClientSession ({transport}), called in its loop"]
        row(f"vendored tool call ({transport}) vs a raw persistent session", ms(vendored, 2), "<= 1.1x raw",
            verdict(vendored / raw <= 1.1), f"{times(vendored / raw)} raw `call_tool` in its loop")  # fmt: skip
        row(f"vendored tool call ({transport}) vs a new session per call", ms(vendored, 2), ">= 10x faster",
            verdict(new_session / vendored >= 10), f"{times(new_session / vendored)} faster than a new session")  # fmt: skip
    vendored = results["vendored tool (stdio)"]
    synchronous = results["raw persistent ClientSession (stdio), called from a synchronous caller"]
    row("vendored tool call (stdio) vs a raw session called as a sync tool must", ms(vendored, 2),
        anchor=f"{times(vendored / synchronous)} raw `call_tool` from another thread")  # fmt: skip
    mcpadapt = results["ToolCollection.from_mcp / mcpadapt (stdio)"]
    row("vendored tool call (stdio) vs `ToolCollection.from_mcp`", ms(vendored, 2),
        anchor=f"{times(vendored / mcpadapt)} the mcpadapt tool")  # fmt: skip


def interleaved_blocks(clients: dict[str, Callable[[int], list[float]]]) -> dict[str, float]:
    """Median seconds per call of each client: CALLS calls each, in BLOCKS turns, so that load drift hits all alike."""
    samples: dict[str, list[float]] = {name: [] for name in clients}
    for block in clients.values():
        block(1)  # connect, warm up
    for _ in range(BLOCKS):
        for name, block in clients.items():
            samples[name] += block(CALLS // BLOCKS)
    return {name: statistics.median(values) for name, values in samples.items()}


def timed_calls(call: Callable[[], object]) -> Callable[[int], list[float]]:
    def block(count: int) -> list[float]:
        timings = []
        for _ in range(count):
            start = time.perf_counter()
            call()
            timings.append(time.perf_counter() - start)
        return timings

    return block


def fresh_module(project: Path, package: str) -> Any:
    """A fresh copy of tools/many.py and the runtime it imports, in a package of its own (so its own session)."""
    holder = types.ModuleType(package)
    holder.__path__ = [str(project / "tools")]
    sys.modules[package] = holder
    return importlib.import_module(f"{package}.many")


@contextlib.contextmanager
def vendored_tool(project: Path, server: dict[str, str]) -> Iterator[Callable[[], object]]:
    """A call of tool 0 of a fresh copy of the generated module (its own session), pointed at `server` if given."""
    module = fresh_module(project, f"tools_{len(server)}")
    if server:
        module.SERVER.clear()
        module.SERVER.update(server)
    tool = module.Tool0000StrTool()
    try:
        yield lambda: tool(**ARGUMENTS)
    finally:
        tool.close()


@contextlib.contextmanager
def in_its_loop(connect: Callable[[], Any]) -> Iterator[Callable[[int], list[float]]]:
    """A raw session whose loop this thread runs for each block: calls are made and timed inside the loop."""
    from mcp import ClientSession

    loop = asyncio.new_event_loop()
    opened = loop.create_future()
    stop = asyncio.Event()

    async def hold() -> None:
        async with connect() as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            opened.set_result(session)
            await stop.wait()

    async def calls(session: Any, count: int) -> list[float]:
        timings = []
        for _ in range(count):
            start = time.perf_counter()
            await session.call_tool(TOOL, ARGUMENTS)
            timings.append(time.perf_counter() - start)
        return timings

    holder = loop.create_task(hold())
    session = loop.run_until_complete(opened)
    try:
        yield lambda count: loop.run_until_complete(calls(session, count))
    finally:
        stop.set()
        loop.run_until_complete(holder)
        loop.close()


@contextlib.contextmanager
def from_a_thread(connect: Callable[[], Any]) -> Iterator[Callable[[int], list[float]]]:
    """A raw session called as a synchronous tool must call it: from another thread, through its loop."""
    from mcp import ClientSession

    loop = asyncio.new_event_loop()
    opened: concurrent.futures.Future = concurrent.futures.Future()

    async def hold() -> None:
        stop = asyncio.Event()
        async with connect() as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            opened.set_result((session, stop))
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(hold(),), daemon=True)
    thread.start()
    session, stop = opened.result(30)
    try:
        yield timed_calls(lambda: asyncio.run_coroutine_threadsafe(session.call_tool(TOOL, ARGUMENTS), loop).result())
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
        loop.close()


async def new_session_per_call(connect: Callable[[], Any], count: int) -> float:
    from mcp import ClientSession

    timings = []
    for _ in range(count):
        start = time.perf_counter()
        async with connect() as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool(TOOL, ARGUMENTS)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def construction(project: Path) -> None:
    from mcp import StdioServerParameters
    from smolagents import ToolCollection

    start = time.perf_counter()
    module = fresh_module(project, "tools_fresh")
    imported = time.perf_counter() - start
    before_children, before_threads = children(), threading.active_count()
    built = median_seconds(lambda: module.tools(), repeat=20)
    tools = module.tools()
    opened = module._ServerTool.session.connection is not None
    new_children = children() - before_children
    new_threads = threading.active_count() - before_threads
    row(f"import the generated {COUNT}-tool module", ms(imported, 1))
    row(
        f"tools(): {len(tools)} instances (median of 20)",
        ms(built, 1),
        anchor=f"{built / len(tools) * 1e6:.0f} us per tool",
    )
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
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        args = ["-m", "tests.servers.mcp_many", "http", "--port", str(port), "--count", str(COUNT)]
        with server_process(args, url, env={"PYTHONPATH": str(REPO)}):
            vendoring(project, url)
            latency(project, url)
        construction(project)


if __name__ == "__main__":
    main()
