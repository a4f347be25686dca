"""`make bench`: run every bench/bench_*.py, then a summary of every target, met or missed.

Each script prints its own table (figure | measured | target | anchor ratio | verdict)
and records its targets in a file this script hands it ($VENDORGEN_BENCH_RESULTS).
Exits non-zero when a script crashed; a missed target is reported, not an error.

    .venv/bin/python bench/run_all.py [NAME ...]   (e.g. `check mcp`: only those scripts)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import MET, RESULTS_ENV

BENCH = Path(__file__).resolve().parent


def scripts(names: list[str]) -> list[Path]:
    found = sorted(BENCH.glob("bench_*.py"))
    return [script for script in found if not names or script.stem.removeprefix("bench_") in names]


def summary(results: list[dict[str, str]], crashed: list[str], seconds: float) -> None:
    print("\n## Summary: every target\n")
    print("| benchmark | figure | measured | target | anchor ratio | verdict |")
    print("|---|---|--:|---|---|---|")
    for result in results:
        cells = [result[key] for key in ("benchmark", "figure", "measured", "target", "anchor", "verdict")]
        print("| " + " | ".join(cells) + " |")
    missed = [result for result in results if result["verdict"] != MET]
    print(f"\n{len(results) - len(missed)} of {len(results)} targets met in {seconds:.0f} s", end="")
    print(f"; MISSED: {'; '.join(result['figure'] for result in missed)}" if missed else "")
    if crashed:
        print(f"benchmarks that crashed (their targets are not above): {', '.join(crashed)}")


def main(names: list[str]) -> int:
    start = time.monotonic()
    crashed = []
    with tempfile.TemporaryDirectory() as directory:
        results_file = Path(directory) / "results.jsonl"
        results_file.touch()
        env = {**os.environ, RESULTS_ENV: str(results_file)}
        for script in scripts(names):
            print(f"\n## {script.name}", flush=True)
            if subprocess.run([sys.executable, str(script)], cwd=BENCH, env=env).returncode != 0:
                crashed.append(script.name)
        results = [json.loads(line) for line in results_file.read_text(encoding="utf-8").splitlines()]
    summary(results, crashed, time.monotonic() - start)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
