"""Gradio source: CLI start, tool construction vs the runtime loaders, time per pipeline phase.

Run: .venv/bin/python bench/bench_space.py   (starts the example app on loopback)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, count_http_requests, interleaved_medians, median_seconds, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV, free_port, server_process

os.environ.update(OFFLINE_ENV)

TOOLS = 20


def help_time() -> None:
    command = [str(REPO / ".venv" / "bin" / "vendorgen"), "--help"]
    medians = interleaved_medians(
        {"help": lambda: subprocess.run(command, capture_output=True, check=True),
         "python": lambda: subprocess.run([sys.executable, "-c", "pass"], check=True)},
        repeat=15,
    )  # fmt: skip
    seconds, python = medians["help"], medians["python"]
    row("`vendorgen --help`, whole process (median of 15)", ms(seconds), "<= 100 ms", verdict(seconds <= 0.10),
        f"{times(seconds / python)} `python -c pass` ({ms(python)})")  # fmt: skip


def construction(url: str, project: Path) -> None:
    from gradio_client import Client

    sys.path.insert(0, str(project))
    from tools.convert import ConvertTool

    with count_http_requests() as requests:
        vendored = median_seconds(lambda: [ConvertTool() for _ in range(TOOLS)], repeat=5)
    vendored_requests = len(requests) // 5
    row(f"construct {TOOLS} vendored tools: HTTP requests", str(vendored_requests), "0",
        verdict(vendored_requests == 0))  # fmt: skip

    try:
        from smolagents import Tool

        Tool.from_space(url, name="convert", description="convert", api_name="/convert")
        alternative, label = (
            lambda: Tool.from_space(url, name="c", description="c", api_name="/convert")
        ), "Tool.from_space"
    except TypeError as exc:  # the anchor is then what it does at the least: one Client per tool
        row("`Tool.from_space` with the installed gradio_client", "fails", anchor=f"TypeError: {exc}")
        alternative, label = (lambda: Client(url, verbose=False, analytics_enabled=False)), "gradio_client.Client"
    with count_http_requests() as requests:
        runtime = median_seconds(lambda: [alternative() for _ in range(TOOLS)], repeat=3)
    runtime_requests = len(requests) // 3
    row(
        f"construct {TOOLS} with `{label}` (median of 3): the anchor",
        ms(runtime),
        anchor=f"{runtime_requests} HTTP requests",
    )
    ratio = runtime / vendored
    row(f"construct {TOOLS} vendored tools (median of 5)", ms(vendored, 2), ">= 50x faster", verdict(ratio >= 50),
        f"{times(ratio)} faster than `{label}`")  # fmt: skip


def phases(url: str) -> None:
    from vendorgen.generate.gate import check_module
    from vendorgen.generate.render import render_module
    from vendorgen.sources import AddOptions, load, space
    from vendorgen.text.formatter import format_source

    totals = dict.fromkeys(["inspect", "build", "render", "format", "gate"], 0.0)
    start = time.perf_counter()
    snapshots = space.inspect(url, AddOptions(all_endpoints=True))
    totals["inspect"] = time.perf_counter() - start
    for snapshot in snapshots:
        for phase, action in [("build", lambda: space.build(snapshot))]:
            start = time.perf_counter()
            module = action()
            totals[phase] += time.perf_counter() - start
        start = time.perf_counter()
        rendered = render_module(module, "0" * 64, load("space"))
        totals["render"] += time.perf_counter() - start
        start = time.perf_counter()
        code = format_source(rendered)
        totals["format"] += time.perf_counter() - start
        start = time.perf_counter()
        check_module(code, module, load("space"))
        totals["gate"] += time.perf_counter() - start
    count = len(snapshots)
    for phase, seconds in totals.items():
        row(f"{phase} per tool (mean over {count} endpoints)", ms(seconds / count, 1))


def main() -> None:
    section("Gradio source (bench/bench_space.py)")
    help_time()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", str(port)], f"{url}config"):
        with tempfile.TemporaryDirectory() as directory:
            project = Path(directory)
            (project / "pyproject.toml").write_text('[project]\nname = "bench"\n')
            subprocess.run([sys.executable, "-m", "vendorgen", "add", f"space:{url}", "--api-name", "/convert"],
                           cwd=project, check=True, capture_output=True)  # fmt: skip
            construction(url, project)
        phases(url)


if __name__ == "__main__":
    main()
