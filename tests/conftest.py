"""Shared fixtures: real servers on 127.0.0.1 and temporary projects driven through the CLI."""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock
import pytest

from tests.servers import OFFLINE_ENV, free_port, server_process
from tests.servers.fakehub import FakeHub

REPO = Path(__file__).resolve().parent.parent

# No test may reach the internet. Telemetry off, and the Hub endpoint points at
# a closed loopback port unless a test starts the loopback Hub.
os.environ.update(OFFLINE_ENV)
os.environ.setdefault("HF_ENDPOINT", "http://127.0.0.1:9")
os.environ.pop("HF_TOKEN", None)
# vendorgen's cache of regenerated code: this run's own (each xdist worker its own), never the user's.
_CACHE = tempfile.mkdtemp(prefix="vendorgen-test-cache-")
atexit.register(shutil.rmtree, _CACHE, True)
os.environ["VENDORGEN_CACHE_DIR"] = _CACHE


# One mypy cache for every type check of the suite: the standard library and the dependencies
# (pydantic, mcp, langchain-core, ...) are analysed by the first check only. mypy checks each
# cached module against its source, so a shared cache gives the same verdict as a cold one.
MYPY_CACHE = REPO / ".cache" / "mypy"


def mypy(target: str, cwd: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`mypy target` in `cwd` as a user runs it on their code, one check at a time (parallel workers share the cache).

    `flags` (such as `--strict`) get a cache of their own: mypy analyses every module again, the installed
    libraries too, when a cached one was checked with other options.
    """
    cache = MYPY_CACHE.with_name("-".join([MYPY_CACHE.name, *(flag.strip("-") for flag in flags)]))
    command = [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--python-version", "3.11",
               "--cache-dir", str(cache), *flags, target]  # fmt: skip
    cache.parent.mkdir(exist_ok=True)
    with filelock.FileLock(f"{cache}.lock"):
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def gradio_app() -> Iterator[str]:
    """The bundled example app, started once; yields its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", str(port)], f"{url}config"):
        yield url


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str


class Project:
    """A throwaway project directory and a way to run `vendorgen` in it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def run(self, *args: str, env: dict[str, str] | None = None, timeout: float = 300, **options: Any) -> Result:
        """`vendorgen *args` here, to the end; `options` go to subprocess (e.g. `preexec_fn`)."""
        process = subprocess.run(**self._command(args, env), capture_output=True, text=True, timeout=timeout, **options)
        return Result(process.returncode, process.stdout, process.stderr)

    def start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        """`vendorgen *args` here, in the background, its output piped (for tests that interrupt it)."""
        return subprocess.Popen(**self._command(args, env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def _command(self, args: tuple[str, ...], env: dict[str, str] | None) -> dict[str, Any]:
        return {"args": [sys.executable, "-m", "vendorgen", *args], "cwd": self.root,
                "env": {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}}  # fmt: skip

    def snapshot(self) -> dict[str, bytes]:
        """Every file under the root, for 'nothing changed' assertions."""
        return {
            path.relative_to(self.root).as_posix(): path.read_bytes()
            for path in sorted(self.root.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts
        }

    def restore(self, files: dict[str, bytes]) -> None:
        """Write back what `snapshot` returned (a sample project copied into this one)."""
        for relative, content in files.items():
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)

    def edit(self, relative: str, old: str, new: str) -> None:
        """Replace the first `old` in a file by `new`, as a user editing it would."""
        path = self.root / relative
        text = path.read_text()
        assert old in text, f"{old!r} not in {relative}"
        path.write_text(text.replace(old, new, 1))

    def import_module(self, relative: str):
        """Import a generated file as the user's code would: a module of its package (a fresh copy each time).

        The package gets a new name on every call, so the module and the runtime it imports
        (`from ._vendored_runtime import ...`) are new copies, with their own sessions.
        """
        import importlib
        import types

        path = self.root / relative
        package = f"vendored_{path.parent.name}_{next(_PACKAGE_NUMBERS)}"
        holder = types.ModuleType(package)
        holder.__path__ = [str(path.parent)]
        sys.modules[package] = holder
        return importlib.import_module(f"{package}.{path.stem}")


_PACKAGE_NUMBERS = itertools.count()


@pytest.fixture
def fakehub() -> Iterator[FakeHub]:
    """The loopback Hub (tests/servers/fakehub.py), empty; the test fails if the server hit a bug."""
    with FakeHub() as hub:
        yield hub
    assert hub.errors == []


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return new_project(tmp_path)


def new_project(parent: Path) -> Project:
    """An empty project in `parent`/project (for module fixtures that vendor once and share the files)."""
    root = parent / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)
