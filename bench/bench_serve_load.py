"""`vendorgen serve` under load: throughput and tail latency at 1, 16 and 64 concurrent clients over streamable
HTTP, beside a bare mcp SDK server of the same tools (bench/serve_bare.py) measured in the same run.

Run: .venv/bin/python bench/bench_serve_load.py   (vendors the example LangChain tools into a temporary
project, starts `vendorgen serve --transport streamable-http` and the bare server; about two minutes)

Each client speaks the protocol over plain HTTP (httpx; one session each: initialize, then calls of
count_words), so the client's own cost is small and the same for both servers. At each concurrency the two
servers are measured in alternating turns, so that a change of load hits both alike. Throughput: calls
answered per second of a turn, the median turn; latency: each call's, over every turn.
The target: serve's throughput at 64 clients >= 0.8x the bare server's.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

CONCURRENCY = (1, 16, 64)
TURNS = 4  # per server and concurrency, alternating
CALLS_PER_CLIENT = 20
TARGET = 0.8  # serve's throughput at 64 clients vs the bare server's
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


async def one_client(http, url: str, latencies: list[float]) -> None:
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}}  # fmt: skip
    response = await http.post(url, json=init, headers=HEADERS)
    headers = {**HEADERS, "Mcp-Session-Id": response.headers["mcp-session-id"]}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    await http.post(url, json=note, headers=headers)
    for number in range(CALLS_PER_CLIENT):
        call = {"jsonrpc": "2.0", "id": number + 1, "method": "tools/call",
                "params": {"name": "count_words", "arguments": {"text": "one two three four"}}}  # fmt: skip
        start = time.perf_counter()
        response = await http.post(url, json=call, headers=headers)
        latencies.append(time.perf_counter() - start)
        if response.status_code != 200 or '"text":"4"' not in response.text.replace(" ", ""):
            raise RuntimeError(f"bad answer from {url}: {response.status_code} {response.text[:300]}")
    await http.delete(url, headers=headers)


async def turn(url: str, clients: int, latencies: list[float]) -> float:
    """One turn: `clients` sessions at once; calls per second."""
    import httpx

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=120) as http:
        start = time.perf_counter()
        await asyncio.gather(*(one_client(http, url, latencies) for _ in range(clients)))
        return clients * CALLS_PER_CLIENT / (time.perf_counter() - start)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(urls: dict[str, str]) -> None:
    section("serve under load: streamable HTTP, count_words (LangChain, in process)")
    for url in urls.values():  # untimed: each server imports and sets up its tool on its first call
        asyncio.run(turn(url, 4, []))
    for clients in CONCURRENCY:
        rates: dict[str, list[float]] = {name: [] for name in urls}
        latencies: dict[str, list[float]] = {name: [] for name in urls}
        for _ in range(TURNS):
            for name, url in urls.items():
                rates[name].append(asyncio.run(turn(url, clients, latencies[name])))
        served, bare = statistics.median(rates["serve"]), statistics.median(rates["bare"])
        for name, rate in (("serve", served), ("bare", bare)):
            found = latencies[name]
            row(f"{clients} clients, {name}: calls/s (median turn), latency p50 / p99",
                f"{rate:,.0f}/s", anchor=f"p50 {ms(percentile(found, 0.5), 1)}, p99 {ms(percentile(found, 0.99), 1)}")  # fmt: skip
        target = f">= {TARGET}x bare" if clients == 64 else ""
        ok = verdict(served / bare >= TARGET) if clients == 64 else ""
        row(f"{clients} clients: serve's throughput vs the bare SDK server's", times(served / bare), target, ok)


def main() -> None:
    os.environ.update(OFFLINE_ENV)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
        add = ["add", "langchain:examples.langchain_tools:toolkit", "--name", "langchain_tools"]
        subprocess.run([sys.executable, "-m", "vendorgen", *add], cwd=root, env=env, check=True, capture_output=True)
        serve = subprocess.Popen([sys.executable, "-m", "vendorgen", "serve", "--transport", "streamable-http",
                                  "--port", "0"], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True)  # fmt: skip
        try:
            serve_url = serve.stdout.readline().split()[-1]
            port = free_port()
            bare_url = f"http://127.0.0.1:{port}/mcp"
            with server_process([str(REPO / "bench" / "serve_bare.py"), str(port)], bare_url, env=env):
                measure({"serve": serve_url, "bare": bare_url})
        finally:
            serve.terminate()
            serve.wait(20)


if __name__ == "__main__":
    main()
