"""`vendorgen --help` and `vendorgen add --help`, whole process: this tree against another commit's, in the same run.

`.venv/bin/python bench/bench_startup.py [REF] [N]` (REF: a commit, default `main`; N runs each,
default 30). The other commit's `vendorgen/` is exported with `git archive` into a temporary
directory and put first on PYTHONPATH; both run with this venv's interpreter and libraries, in
turn, so a change of load hits both alike; each run counts its CPU time (user + system), which a
loaded machine disturbs far less than wall time. A layout change must not slow start-up by more than 10%.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from _common import REPO, ms, row, section, verdict

COMMANDS = {"--help": ["--help"], "add --help": ["add", "--help"]}


def _export(ref: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", ref, "vendorgen"], cwd=REPO, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _runner(path: Path, arguments: list[str]):
    env = {**os.environ, "PYTHONPATH": str(path)}
    command = [sys.executable, "-c", f"import sys; sys.argv = ['vendorgen', *{arguments!r}]; from vendorgen.cli import main; main()"]

    def run() -> float:
        """The process's CPU seconds (user + system): on a loaded machine, wall time mostly measures the wait."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    return run


def main() -> None:
    ref = sys.argv[1] if len(sys.argv) > 1 else "main"
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    with tempfile.TemporaryDirectory() as other:
        _export(ref, Path(other))
        actions = {}
        for label, arguments in COMMANDS.items():
            actions[f"{label}: {ref}"] = _runner(Path(other), arguments)
            actions[f"{label}: this tree"] = _runner(REPO, arguments)
        samples: dict[str, list[float]] = {name: [] for name in actions}
        for _ in range(repeat):  # in turn, so that a change of load hits all of them alike
            for name, action in actions.items():
                samples[name].append(action())
        medians = {name: statistics.median(values) for name, values in samples.items()}
    section(f"Start-up, whole process: CPU time (user + system), median of {repeat}, interleaved")
    for label in COMMANDS:
        before, after = medians[f"{label}: {ref}"], medians[f"{label}: this tree"]
        row(f"`vendorgen {label}`, {ref}", ms(before))
        ratio = after / before
        row(f"`vendorgen {label}`, this tree", ms(after), "<= 1.10x", verdict(ratio <= 1.10), f"{ratio:.2f}x {ref}")


if __name__ == "__main__":
    main()
