"""`vendorgen serve`: one call through the served tool over stdio against a direct call of the same vendored tool.

Run: .venv/bin/python bench/bench_serve.py   (vendors the example MCP server over stdio, the
example Gradio app's /convert and the example LangChain tools into a temporary project, starts
`vendorgen serve` over stdio; takes about a minute)

For each tool, the direct call (the vendored class imported and called in this process) and the
served call (a persistent mcp ClientSession to `vendorgen serve`, called in its own event loop)
are interleaved, so that a change of load hits both alike. The served call pays one more
process hop: JSON-RPC over a pipe, the server's argument check and its worker thread.
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
from pathlib import Path

from _common import REPO, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)
os.environ["PYTHONPATH"] = str(REPO)
warnings.filterwarnings("ignore")

TURNS = 20
CALLS_PER_TURN = 10
TARGET = 1.3
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
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        section("vendorgen serve: one call over stdio vs a direct call of the vendored tool")
        for _, _, name, arguments in TOOLS:
            tool = direct[name]

            async def served_calls(name: str = name, arguments: dict = arguments) -> None:
                for _ in range(CALLS_PER_TURN):
                    result = await session.call_tool(name, arguments)
                    assert not result.isError, result

            samples: dict[str, list[float]] = {"direct": [], "served": []}
            for turn in range(TURNS + 1):  # the first turn connects and warms up
                start = time.perf_counter()
                for _ in range(CALLS_PER_TURN):
                    tool(**arguments)  # type: ignore[operator]
                middle = time.perf_counter()
                await served_calls()
                end = time.perf_counter()
                if turn:
                    samples["direct"].append((middle - start) / CALLS_PER_TURN)
                    samples["served"].append((end - middle) / CALLS_PER_TURN)
            alone, served = (statistics.median(samples[key]) for key in ("direct", "served"))
            row(f"{name}: direct call of the vendored tool", ms(alone, 2))
            row(f"{name}: through `vendorgen serve` (stdio)", ms(served, 2))
            ratio = served / alone
            row(f"{name}: served vs direct", ms(served, 2), f"<= {TARGET}x direct", verdict(ratio <= TARGET),
                f"{times(ratio)} (+{ms(served - alone, 2)})")  # fmt: skip


if __name__ == "__main__":
    main()
