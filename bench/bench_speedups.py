"""Do `add`'s two speed-ups still pay? Whole-process `vendorgen add` of a 200-tool MCP server, four ways.

Run: PYTHONPATH=. .venv/bin/python bench/bench_speedups.py   (about two minutes)

The same command, interleaved: as it is, without the import warm-up thread that
imports the code generator while the server starts (`sources.meanwhile`/`waiting`),
without the forked parallel black (`formatter.format_in_parallel`), and without
either. A variant is the CLI with the speed-up patched out in the process itself,
so nothing else differs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _common import REPO, interleaved_medians, ms, row, section, times

from tests.servers import OFFLINE_ENV

COUNT = 200
RUNS = int(os.environ.get("VENDORGEN_BENCH_RUNS", "7"))
SOURCE = f"mcp:stdio:{sys.executable} -m tests.servers.mcp_many stdio --count {COUNT}"
NO_WARM_UP = "import vendorgen.pipeline as p; p._import_generator = lambda: None\n"
NO_FORK = "import vendorgen.formatter as f; f._worker_count = lambda size: 1\n"
CLI = "import sys; from vendorgen.cli import main; sys.argv[0] = 'vendorgen'; main()\n"
VARIANTS = {
    "as it is (warm-up thread, forked black)": "",
    "without the warm-up thread": NO_WARM_UP,
    "without the forked black": NO_FORK,
    "without either": NO_WARM_UP + NO_FORK,
}


def main() -> None:
    section(f"`add`'s speed-ups, whole process, {COUNT}-tool MCP server over stdio (bench/bench_speedups.py)")
    env = {**os.environ, **OFFLINE_ENV, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as directory:
        projects = iter(range(len(VARIANTS) * RUNS))

        def add(patch: str) -> Callable[[], None]:
            def run() -> None:
                project = Path(directory) / str(next(projects))  # a new project each time: `add` never overwrites
                project.mkdir()
                (project / "pyproject.toml").write_text('[project]\nname = "bench"\n')
                command = [sys.executable, "-c", patch + CLI, "add", "--trust", "--env", "PYTHONPATH",
                           "--name", "many", SOURCE]  # fmt: skip
                subprocess.run(command, cwd=project, env=env, check=True, capture_output=True)

            return run

        medians = interleaved_medians({name: add(patch) for name, patch in VARIANTS.items()}, repeat=RUNS)
    simplest = medians["without either"]
    for name, seconds in medians.items():
        row(f"`vendorgen add`, {name} (median of {RUNS})", ms(seconds), anchor=f"{times(seconds / simplest)} without either")


if __name__ == "__main__":
    main()
