"""Helpers the benchmark scripts share: timing, request counting, output."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def interleaved_medians(actions: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median seconds of each action, run in turn so that a change of load hits all of them alike."""
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeat):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


@contextmanager
def count_http_requests() -> Iterator[list[str]]:
    """Record every request httpx/httpx2 send in this process (gradio_client, huggingface_hub)."""
    import httpx

    seen: list[str] = []
    patched = []
    modules = [httpx]
    try:
        import httpx2

        modules.append(httpx2)
    except ImportError:
        pass
    for module in modules:
        for cls in (module.Client, module.AsyncClient):
            original = cls.send

            def send(self, request, *args, __original=original, **kwargs):
                seen.append(f"{request.method} {request.url}")
                return __original(self, request, *args, **kwargs)

            cls.send = send
            patched.append((cls, original))
    try:
        yield seen
    finally:
        for cls, original in patched:
            cls.send = original


# Every benchmark prints its figures as rows of one table, so `make bench` reads (and
# pastes into bench/README.md) as markdown. A row with a verdict is a target; it is
# also recorded, as a JSON line in the file $RESULTS_ENV names, for run_all's summary.
RESULTS_ENV = "VENDORGEN_BENCH_RESULTS"
MET, MISSED = "met", "MISSED"


def section(title: str) -> None:
    """A table's title and header, with the machine's load (benchmarks share it with whatever runs)."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\n### {title}\n\nload average before: {load} on {os.cpu_count()} CPUs\n")
    _print_row("figure", "measured", "target", "anchor ratio", "verdict")
    print("|---|--:|---|---|---|")


def row(figure: str, measured: str, target: str = "", verdict: str = "", anchor: str = "") -> None:
    """One figure: what was measured, its target, its ratio to the anchor measured in the same run."""
    _print_row(figure, measured, target, anchor, verdict)
    results = os.environ.get(RESULTS_ENV)
    if verdict and results:
        record = {"benchmark": Path(sys.argv[0]).stem, "figure": figure, "measured": measured,
                  "target": target, "anchor": anchor, "verdict": verdict}  # fmt: skip
        with open(results, "a", encoding="utf-8") as file:
            file.write(json.dumps(record) + "\n")


def _print_row(figure: str, measured: str, target: str, anchor: str, verdict: str) -> None:
    print(f"| {figure:<66} | {measured:>10} | {target:<14} | {anchor:<44} | {verdict} |", flush=True)


def verdict(ok: bool) -> str:
    return MET if ok else MISSED


def ms(seconds: float, digits: int = 0) -> str:
    return f"{seconds * 1000:,.{digits}f} ms"


def times(ratio: float) -> str:
    return f"{ratio:,.2f}x" if ratio < 10 else f"{ratio:,.0f}x"
