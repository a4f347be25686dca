"""`vendorgen check` on 200 vendored modules: cold (every module regenerated, as on a fresh CI machine)
and warm (the user's cache of earlier regenerations), against the alternatives measured in the same run.

The old lock-hash fast path (before issue 27: the lock's own sha256 taken as proof) is measured too,
by running vendorgen as of OLD_FAST_PATH (exported from git into a temporary directory) on the same
project; it is skipped when git cannot export it.

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
OLD_FAST_PATH = "f692042"  # the last commit whose `check` trusted the lock's hash
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
    from vendorgen.package import copies

    with workspace.mutex():
        runtime = copies.plan(workspace, entries, pending=files)  # the run-time files, as `add` writes them
        workspace.commit({**files, **runtime.files}, entries, tuple(runtime.removed), runtime.entries)
    return seconds


def run_check(root: Path, cache: str, vendorgen: Path = REPO) -> subprocess.CompletedProcess[str]:
    """`vendorgen check` in `root` (vendorgen from `vendorgen`: a checkout or an exported commit), with the
    cache directory `cache` ("" turns the cache off)."""
    env = {**os.environ, "PYTHONPATH": str(vendorgen), "VENDORGEN_CACHE_DIR": cache}
    program = "from vendorgen.cli import main; main(['check'])"
    return subprocess.run([sys.executable, "-c", program], cwd=root, capture_output=True, text=True, env=env)


def export_old(directory: Path) -> Path | None:
    """vendorgen as of OLD_FAST_PATH, or None when git cannot give it."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", OLD_FAST_PATH, "vendorgen", "templates"],
                             capture_output=True)  # fmt: skip
    if archive.returncode != 0:
        return None
    directory.mkdir()
    subprocess.run(["tar", "-x", "-C", str(directory)], input=archive.stdout, check=True)
    return directory


def main() -> None:
    section("check (bench/bench_check.py)")
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory) / "project"
        root.mkdir()
        generate_all = vendor(root)
        caches = iter(range(100))

        def cold() -> None:  # an empty cache directory each time: a fresh CI machine
            result = run_check(root, str(Path(directory) / f"cold{next(caches)}"))
            assert result.returncode == 0, result.stdout + result.stderr

        warm_cache = str(Path(directory) / "warm")
        run_check(root, warm_cache)
        uncached = median_seconds(lambda: run_check(root, ""), repeat=3)
        cold_seconds = median_seconds(cold, repeat=3)
        warm = median_seconds(lambda: run_check(root, warm_cache), repeat=7)
        python = median_seconds(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat=7)
        old = export_old(Path(directory) / "old")
        old_warm = median_seconds(lambda: run_check(root, "", old), repeat=7) if old else None

        row(f"regenerating all {MODULES} modules, in-process (measured once): the anchor", ms(generate_all))
        row(
            f"`vendorgen check`, {MODULES} unchanged modules, cold: empty cache, every module regenerated "
            "(median of 3)",
            ms(cold_seconds),
            "",
            "",
            f"{times(cold_seconds / generate_all)} regenerating in-process",
        )
        row(
            f"`vendorgen check`, {MODULES} unchanged modules, cache off (median of 3)",
            ms(uncached),
            "",
            "",
            f"{times(uncached / cold_seconds)} cold",
        )
        row(
            f"`vendorgen check`, {MODULES} unchanged modules, warm cache, whole process (median of 7)",
            ms(warm),
            "<= 1000 ms",
            verdict(warm <= 1.0),
            f"{times(cold_seconds / warm)} faster than cold",
        )
        if old_warm is not None:
            row(
                f"  the lock-hash fast path of {OLD_FAST_PATH} (trusted the lock; removed), same project (median of 7)",
                ms(old_warm),
                "",
                "",
                f"warm is {times(warm / old_warm)} its time",
            )
        workspace = Workspace(root)
        os.environ["VENDORGEN_CACHE_DIR"] = warm_cache
        entries = workspace.read_lock()
        in_process = median_seconds(lambda: check(workspace), repeat=7)
        row("  of which the comparison itself (lock, hashes, cache), in-process, warm (median of 7)", ms(in_process))
        row("  for scale: `python -c pass` (median of 7)", ms(python))

        edited = root / "tools" / f"{entries[0].name}.py"
        edited.write_text(edited.read_text() + "# an edit\n")
        one = median_seconds(lambda: run_check(root, warm_cache), repeat=5)
        row(f"`vendorgen check`, warm, 1 of {MODULES} edited: regenerates that one (median of 5)", ms(one))


if __name__ == "__main__":
    main()
