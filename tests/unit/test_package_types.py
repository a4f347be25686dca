"""vendorgen's own code passes mypy, as the code it generates does (tests/test_generated_example.py)."""

from __future__ import annotations

from tests.conftest import REPO, mypy


def test_vendorgen_type_checks() -> None:
    result = mypy("vendorgen", REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_shipped_files_pass_mypy_strict() -> None:
    """The run-time files are copied into users' projects, whose own checks may be strict.

    smolagents and gradio_client ship no type information, so their names are Any here (as in a user's
    project, which needs --ignore-missing-imports for them too); the files say where they subclass one.
    """
    result = mypy("vendorgen/shipped", REPO, "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    shipped = len(list((REPO / "vendorgen" / "shipped").glob("*.py")))
    assert f"no issues found in {shipped} source files" in result.stdout  # every file, none mypy skipped
