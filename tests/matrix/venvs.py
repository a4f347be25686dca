"""Build (once) and find the matrix venvs under .cache/matrix/, keyed by their requirement set.

uv makes a venv with the runtime dependencies in a few seconds from its wheel cache; a venv
whose key (Python version and requirements) is unchanged is reused as it is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import filelock

from tests.matrix.rows import Row

REPO = Path(__file__).resolve().parents[2]
# Under `make coverage` (whose subprocess patch hands its settings down in COVERAGE_PROCESS_CONFIG) the rows
# measure the vendored code they run: their venvs hold coverage too, in a folder of their own, so that
# neither set of venvs replaces the other.
MEASURED = "COVERAGE_PROCESS_CONFIG" in os.environ
CACHE = REPO / ".cache" / ("matrix-coverage" if MEASURED else "matrix")
# What every row needs besides its pins: generated code turns images into PIL images.
COMMON = ("pillow", *([f"coverage=={version('coverage')}"] if MEASURED else []))
COMPLETE = ".complete"


def requirements(row: Row) -> tuple[str, ...]:
    return (*row.requirements, *COMMON)


def location(row: Row) -> Path:
    key = hashlib.sha256("\n".join((row.python, *requirements(row))).encode()).hexdigest()[:12]
    return CACHE / f"{row.name}-{key}"


def interpreter(row: Row) -> str | None:
    """A working python<version>: on PATH, else a pyenv install (pyenv's shim on PATH only runs
    the versions it is told to)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [
        shutil.which(f"python{row.python}"),
        *map(str, sorted(pyenv.glob(f"{row.python}.*/bin/python{row.python}"))),
    ]
    for candidate in filter(None, candidates):
        found = subprocess.run([candidate, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True)
        if found.returncode == 0:
            return found.stdout.strip()
    return None


def build(row: Row) -> Path:
    """The row's venv, built now unless a complete one with the same key exists; returns its python."""
    venv = location(row)
    CACHE.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(CACHE / f"{row.name}.lock"):  # parallel test workers build a row once
        return _build_unlocked(row, venv)


def _build_unlocked(row: Row, venv: Path) -> Path:
    python = venv / "bin" / "python"
    if (venv / COMPLETE).exists():
        return python
    base = interpreter(row)
    if base is None:
        raise FileNotFoundError(f"python{row.python} is not on PATH")
    for stale in CACHE.glob(f"{row.name}-*"):  # an interrupted build, or the row's previous requirements
        shutil.rmtree(stale, ignore_errors=True)
    # Registries only: uv reads neither pip's configuration nor a local wheel folder, and never
    # downloads an interpreter here.
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_NO_CONFIG": "1"}
    uv = [sys.executable, "-m", "uv", "--quiet"]
    subprocess.run([*uv, "venv", "--python", base, str(venv)], check=True, env=env)
    subprocess.run([*uv, "pip", "install", "--python", str(python), *requirements(row)], check=True, env=env)
    (venv / COMPLETE).write_text("\n".join(requirements(row)) + "\n")
    return python


if __name__ == "__main__":  # `python -m tests.matrix.venvs`: build every row, report the time of each
    import time

    from tests.matrix.rows import ROWS

    for each in ROWS:
        start = time.monotonic()
        print(each.name, build(each), f"{time.monotonic() - start:.1f} s", flush=True)
