"""Helpers the benchmark scripts share: timing, request counting, output."""

from __future__ import annotations

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


def row(label: str, figure: str, target: str = "", verdict: str = "") -> None:
    print(f"  {label:<58} {figure:>16}  {target:<22} {verdict}")


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES TARGET"
