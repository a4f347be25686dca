"""vendorgen's own code passes mypy, as the code it generates does (tests/test_generated_example.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_vendorgen_type_checks(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--python-version", "3.11",
               "--cache-dir", str(tmp_path), "vendorgen"]  # fmt: skip
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
