"""`vendorgen serve`: one call through the served tool over stdio against a direct call of the same vendored tool.

Run: .venv/bin/python bench/bench_serve.py   (vendors the example MCP server over stdio, the
example Gradio app's /convert and the example LangChain tools into a temporary project, starts
`vendorgen serve` over stdio; takes about a minute)

For each tool, the direct call (the vendored class imported and called in this process) and the
served call (a persistent mcp ClientSession to `vendorgen serve`, called in its own event loop)
are interleaved, so that a change of load hits both alike. The served call pays one more
process hop: JSON-RPC over a pipe and the server's argument check.

The floor, called in the same turns from the same kind of ClientSession, is a bare mcp SDK stdio
server with a tool that does nothing (bench/serve_floor.py): what any MCP server in Python pays per
call. A served call cannot cost less than the direct call plus about that, so the target is a
served call of at most 1.15x (direct + floor), measured side by side in one run for each kind.
"Turn by turn" is what serving added to the direct call (the median of each turn's difference) in
floors, with the spread of those differences; a difference smaller than its spread is "within noise"
(a Gradio call varies by more than a floor from one turn to the next).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from _common import REPO, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)
os.environ["PYTHONPATH"] = str(REPO)
warnings.filterwarnings("ignore")

TURNS = 20
CALLS_PER_TURN = 10
TARGET = 1.15  # a served call vs (the direct call + the floor)
# (module, tool class, vendored tool name, arguments): one tool of each kind that needs no file.
TOOLS = [
    ("text_tools", "SlugifyTitleTool", "slugify_title", {"title": "Hello served world"}),
    ("convert", "ConvertTool", "convert", {"value": 1.0, "from_unit": "km", "to_unit": "m"}),
    ("langchain_tools", "CountWordsTool", "count_words", {"text": "one two three"}),
]


def vendor(root: Path, gradio_url: str) -> None:
    (root / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
    for args in (
        ["mcp:stdio:python " + str(REPO / "examples" / "mcp_server.py") + " stdio", "--trust", "--name", "text_tools"],
        [f"space:{gradio_url}", "--api-name", "/convert"],
        ["langchain:examples.langchain_tools:toolkit", "--name", "langchain_tools"],
    ):
        subprocess.run([sys.executable, "-m", "vendorgen", "add", *args], cwd=root, check=True, capture_output=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        stack.enter_context(
            server_process([str(REPO / "examples" / "gradio_app.py"), "--port", str(port)], f"{url}config")
        )
        root = Path(folder)
        vendor(root, url)
        sys.path.insert(0, str(root))
        direct = {name: getattr(importlib.import_module(f"tools.{module}"), cls)() for module, cls, name, _ in TOOLS}

        asyncio.run(measure(root, direct))


async def measure(root: Path, direct: dict[str, object]) -> None:
    """Both calls in turn, in this task: the direct one blocks the loop, as a synchronous agent would."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "vendorgen", "serve"], cwd=str(root), env=dict(os.environ)
    )
    floor_parameters = StdioServerParameters(
        command=sys.executable, args=[str(Path(__file__).with_name("serve_floor.py"))], env=dict(os.environ)
    )
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write) as session,
        stdio_client(floor_parameters) as (floor_read, floor_write),
        ClientSession(floor_read, floor_write) as floor,
    ):
        await session.initialize()
        await floor.initialize()
        section("vendorgen serve: one call over stdio vs a direct call of the vendored tool")
        for _, _, name, arguments in TOOLS:
            tool = direct[name]
            samples: dict[str, list[float]] = {"direct": [], "served": [], "floor": []}
            for turn in range(TURNS + 1):  # the first turn connects and warms up
                times_taken = {
                    "direct": _timed(lambda: tool(**arguments)),  # type: ignore[operator]
                    "served": await _timed_async(lambda: session.call_tool(name, arguments)),
                    "floor": await _timed_async(lambda: floor.call_tool("noop", {})),
                }
                if turn:
                    for key, value in times_taken.items():
                        samples[key].append(value)
            alone, served, bare = (statistics.median(samples[key]) for key in ("direct", "served", "floor"))
            row(f"{name}: direct call of the vendored tool", ms(alone, 2))
            row(f"{name}: through `vendorgen serve` (stdio)", ms(served, 2))
            row(f"{name}: floor, a bare mcp SDK server's no-op tool", ms(bare, 2))
            ratio = served / (alone + bare)
            row(f"{name}: served vs direct + floor", ms(served, 2), f"<= {TARGET}x ({ms(alone + bare, 2)})",
                verdict(ratio <= TARGET), f"{times(ratio)}; {times(served / alone)} direct")  # fmt: skip
            added, spread = _added(samples["direct"], samples["served"])
            if abs(added) < spread:  # a difference the turns do not resolve: no figure to read
                said = f"within noise: the turns spread ±{ms(spread, 2)}"
            else:
                said = f"adds {times(added / bare)} the floor (the turns spread ±{times(spread / bare)})"
            row(f"{name}: served vs direct, turn by turn", ms(added, 2), "", "", said)


def _added(direct: list[float], served: list[float]) -> tuple[float, float]:
    """What serving added to the direct call: the median of each turn's difference, and the spread of
    those differences (half their interquartile range)."""
    differences = [served_call - direct_call for direct_call, served_call in zip(direct, served)]
    first, _, third = statistics.quantiles(differences, n=4)
    return statistics.median(differences), (third - first) / 2


def _timed(action: Callable[[], object]) -> float:
    """Seconds per call of `action`, over CALLS_PER_TURN calls."""
    start = time.perf_counter()
    for _ in range(CALLS_PER_TURN):
        action()
    return (time.perf_counter() - start) / CALLS_PER_TURN


async def _timed_async(call: Callable[[], Awaitable[Any]]) -> float:
    """Seconds per MCP call, over CALLS_PER_TURN calls; each must succeed."""
    start = time.perf_counter()
    for _ in range(CALLS_PER_TURN):
        result = await call()
        assert not result.isError, result
    return (time.perf_counter() - start) / CALLS_PER_TURN


if __name__ == "__main__":
    main()
