"""`vendorgen check` on 200 vendored modules: the hash fast path against regenerating everything.

Run: .venv/bin/python bench/bench_check.py   (offline: the modules are built from the captured
view_api of the example app, tests/data/gradio_view_api.json)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, median_seconds, ms, row, section, times, verdict

from tests.servers import OFFLINE_ENV
from vendorgen.generate import pipeline
from vendorgen.project.workspace import SCHEMAS_DIR, Workspace
from vendorgen.sync.check import check

os.environ.update(OFFLINE_ENV)

MODULES = 200
SOURCE = "http://127.0.0.1:7860/"


def snapshots() -> list[dict]:
    """MODULES space snapshots, cycling through the example app's endpoints."""
    endpoints = json.loads((REPO / "tests" / "data" / "gradio_view_api.json").read_text())["named_endpoints"]
    names = list(endpoints)
    result = []
    for index in range(MODULES):
        api_name = names[index % len(names)]
        name = f"{api_name.strip('/')}_{index}"
        result.append({"kind": "space", "source": f"space:{SOURCE}", "src": SOURCE, "name": name, "revision": "",
                       "api_name": api_name, "endpoint": endpoints[api_name],
                       "options": {"api_name": api_name, "name": name}})  # fmt: skip
    return result


def vendor(root: Path) -> float:
    """Write MODULES modules as `add` would; returns the seconds it took to generate them."""
    (root / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
    workspace = Workspace(root)
    start = time.perf_counter()
    generated = [pipeline.generate(snapshot, workspace) for snapshot in snapshots()]
    seconds = time.perf_counter() - start
    files, entries = {}, []
    for item in generated:
        path, schema = f"tools/{item.module.name}.py", f"{SCHEMAS_DIR}/{item.module.name}.json"
        files[path] = item.code
        files[schema] = pipeline.snapshot_text(item.snapshot)
        entries.append(pipeline.lock_entry(item, path, schema))
    with workspace.mutex():
        workspace.commit(files, entries)
    return seconds


def run_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(REPO / ".venv" / "bin" / "vendorgen"), "check"], cwd=root, capture_output=True, text=True
    )


def main() -> None:
    section("check (bench/bench_check.py)")
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        generate_all = vendor(root)
        result = run_check(root)
        assert result.returncode == 0, result.stdout + result.stderr
        whole = median_seconds(lambda: run_check(root), repeat=7)
        python = median_seconds(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat=7)
        row(f"regenerating all {MODULES} modules, in-process (measured once): the anchor", ms(generate_all))
        row(f"`vendorgen check`, {MODULES} unchanged modules, whole process (median of 7)", ms(whole), "<= 1000 ms",
            verdict(whole <= 1.0), f"{times(generate_all / whole)} faster than regenerating")  # fmt: skip
        workspace = Workspace(root)
        entries = workspace.read_lock()
        in_process = median_seconds(lambda: check(workspace), repeat=7)
        row("  of which the comparison itself (lock, hashes), in-process (median of 7)", ms(in_process))
        row("  for scale: `python -c pass` (median of 7)", ms(python))

        edited = root / "tools" / f"{entries[0].name}.py"
        edited.write_text(edited.read_text() + "# an edit\n")
        one = median_seconds(lambda: run_check(root), repeat=5)
        row(f"`vendorgen check`, 1 of {MODULES} edited: regenerates that one (median of 5)", ms(one))


if __name__ == "__main__":
    main()
