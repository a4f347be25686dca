"""`make bench`: run every bench/bench_*.py in turn; each prints its figures beside target and anchor."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def main() -> int:
    failed = []
    for script in sorted(BENCH.glob("bench_*.py")):
        print(f"\n##### {script.name}", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=BENCH).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"\nbenchmarks that crashed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
