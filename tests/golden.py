"""Golden records, one per configuration variant: golden/<variant>/ holds a pyproject.toml (and maybe
templates/), written by hand, and what `vendorgen update --offline` makes of generated_example's
modules under them (tools/, .vendorgen/, vendorgen.lock), without the package files the lock lists
(`[[runtime]]`: vendorgen's own bytes, the same in every project). `make regen-example` rewrites the
records; tests/test_golden.py regenerates each into a temporary directory and compares, file by file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "generated_example"
GOLDEN = REPO / "golden"
INPUTS = ("pyproject.toml", "templates")  # what a variant is made of
OUTPUTS = ("tools", ".vendorgen", "vendorgen.lock")  # what is regenerated


def variants() -> list[Path]:
    return sorted(path for path in GOLDEN.iterdir() if (path / "pyproject.toml").is_file())


def regenerate(variant: Path, into: Path) -> None:
    """`into`: the variant's inputs, the example's modules it names, updated offline under its config."""
    from vendorgen.project.lockfile import dump_lock, parse_lock_text

    if into != variant:
        for name in INPUTS:
            _copy(variant / name, into / name)
    for name in OUTPUTS:
        _remove(into / name)
    chosen = tomllib.loads((variant / "pyproject.toml").read_text())["tool"]["vendorgen-golden"]["modules"]
    entries, runtimes = parse_lock_text((EXAMPLE / "vendorgen.lock").read_text())
    entries = [entry for entry in entries if entry.name in chosen]
    for relative in [path for entry in entries for path in entry.files] + [runtime.path for runtime in runtimes]:
        _copy(EXAMPLE / relative, into / relative)
    (into / "vendorgen.lock").write_text(dump_lock(entries, runtimes))
    # PYTHONPATH: a langchain: module imports the example tools from this checkout when regenerated.
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "vendorgen", "update", "--offline"], cwd=into, env=environment, check=True)
    for runtime in parse_lock_text((into / "vendorgen.lock").read_text())[1]:
        (into / runtime.path).unlink()


def record(root: Path) -> dict[str, bytes]:
    """Every file a variant is made of and regenerates, by path."""
    files = {}
    for name in INPUTS + OUTPUTS:
        top = root / name
        for path in [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []:
            if path.is_file():
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    elif source.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
