"""Does `add`'s import warm-up still pay? Whole-process `vendorgen add` of a 200-tool MCP server, both ways.

Run: PYTHONPATH=. .venv/bin/python bench/bench_speedups.py   (about a minute)

The same command, interleaved: as it is, and without the warm-up thread that
imports the code generator while the server starts (`sources.meanwhile`/`waiting`),
patched out in the process itself, so nothing else differs. At e770801 this script
also measured the forked parallel black, since removed (figures in bench/README.md).
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
NO_WARM_UP = "import vendorgen.generate.pipeline as p; p._import_generator = lambda: None\n"
CLI = "import sys; from vendorgen.cli import main; sys.argv[0] = 'vendorgen'; main()\n"
VARIANTS = {"with the warm-up thread": "", "without it": NO_WARM_UP}


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
    simplest = medians["without it"]
    for name, seconds in medians.items():
        row(
            f"`vendorgen add`, {name} (median of {RUNS})", ms(seconds), anchor=f"{times(seconds / simplest)} without it"
        )


if __name__ == "__main__":
    main()
