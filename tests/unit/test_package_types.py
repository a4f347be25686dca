"""vendorgen's own code passes mypy, as the code it generates does (tests/test_generated_example.py)."""

from __future__ import annotations

from tests.conftest import REPO, mypy


def test_vendorgen_type_checks() -> None:
    result = mypy("vendorgen", REPO)
    assert result.returncode == 0, result.stdout + result.stderr
