"""Which lines of the shipped run-time files the tests ran: `make coverage` runs this after the suite.

The suite runs these files in three places: from vendorgen/shipped/ (vendorgen's own inspection,
the unit tests), and as the copies `add`, `serve` and `catalog` write into the tests' projects, which the
test processes import, `vendorgen serve` runs, and the matrix's venvs run. coverage records each copy
under its own path; a copy counts for the shipped file only if the shipped text stands whole in it, at
the start of a line (a copy byte for byte, or the server module under its three-line header), so that
its line numbers map onto the shipped file's. A copy a test edited, an older vendorgen's file, or one
deleted with its temporary directory is left out, and counted as such below: an edited copy could
claim lines the shipped file does not have.

Usage: python scripts/shipped_coverage.py [DATA_DIR]  (default .cache/coverage, as pyproject.toml sets)
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

import coverage
from coverage import CoverageData
from coverage.exceptions import CoverageException

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "vendorgen" / "shipped"
SHIPPED_TEXT = {path.name: path.read_text(encoding="utf-8") for path in sorted(SHIPPED.glob("_vendored_*.py"))}


def line_offset(copy: str, shipped: str) -> int | None:
    """How many lines precede `shipped` in `copy`, where it stands whole from the start of a line; else None."""
    index = copy.find(shipped)
    if index < 0 or (index and copy[index - 1] != "\n"):
        return None
    return copy.count("\n", 0, index)


def read_text(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def mapped_lines(data_dir: Path) -> tuple[dict[str, set[int]], Counter[str], int]:
    """shipped file name -> the lines some process ran; why measured files were left out; how many copies counted."""
    ran: dict[str, set[int]] = defaultdict(set)
    left_out: Counter[str] = Counter()
    offsets: dict[str, int | None] = {}  # a copy's path -> its offset, read once
    counted: set[str] = set()
    for data_file in sorted(data_dir.glob("data.*")):
        data = CoverageData(basename=str(data_file))
        try:
            data.read()
        except CoverageException:  # a process killed while it wrote its data (a test's SIGKILL)
            left_out["unreadable data file"] += 1
            continue
        for measured in data.measured_files():
            name = Path(measured).name
            if name not in SHIPPED_TEXT:
                continue
            if measured not in offsets:
                copy = read_text(measured)
                offsets[measured] = None if copy is None else line_offset(copy, SHIPPED_TEXT[name])
                if offsets[measured] is None:
                    left_out["deleted since" if copy is None else "not the shipped text"] += 1
                elif Path(measured).parent != SHIPPED:
                    counted.add(measured)
            offset = offsets[measured]
            if offset is None:
                continue
            length = SHIPPED_TEXT[name].count("\n")
            ran[name].update(line - offset for line in data.lines(measured) or () if 0 < line - offset <= length)
    return ran, left_out, len(counted)


def main() -> int:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / ".cache" / "coverage"
    ran, left_out, copies = mapped_lines(data_dir)
    combined = data_dir / "shipped.coverage"
    combined.unlink(missing_ok=True)
    data = CoverageData(basename=str(combined))
    data.add_lines({str(SHIPPED / name): sorted(ran.get(name, ())) for name in SHIPPED_TEXT})  # run or not
    data.write()
    print(f"{copies} copies in the tests' projects counted; left out: {dict(left_out) or 'none'}")
    measured = coverage.Coverage(data_file=str(combined), config_file=False)
    measured.load()
    measured.report(include=[str(SHIPPED / "_vendored_*.py")], show_missing=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
