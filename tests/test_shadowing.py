"""Issue 19 finding 3: what Python imports in place of a lock-owned file fails `check`, naming it.

Each test plants a shadow in a copy of generated_example/ (as a pull request could), shows with a
real interpreter in the project that Python imports the shadow (so the test is real), and that
`vendorgen check` now fails naming it. The suffixes come from importlib.machinery, as vendorgen's.
"""

from __future__ import annotations

import importlib.util
import marshal
import py_compile
import subprocess
import sys
from collections.abc import Callable
from importlib import machinery
from pathlib import Path

import pytest

from tests.conftest import Project
from tests.test_hostile_repo import example  # noqa: F401 - a fixture

SHADOW = "MARK = 'shadow'\n"
CACHE = f"{sys.implementation.cache_tag}{machinery.BYTECODE_SUFFIXES[0]}"


def imported(project: Project, module: str) -> str:
    """What `import <module>` gives in the project: its MARK, else the file it came from."""
    code = f"import {module} as m; print(getattr(m, 'MARK', None) or m.__file__)"
    done = subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def origin(project: Project, module: str) -> str:
    """Where FileFinder finds `module` in the project, without running it."""
    code = f"import importlib.util; print(importlib.util.find_spec({module!r}).origin)"
    done = subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, check=True)
    return str(Path(done.stdout.strip()).relative_to(project.root))


def failing_check(project: Project) -> str:
    result = project.run("check")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "0 of 13 vendored modules differ" in result.stdout  # the modules themselves are as vendorgen wrote them
    return result.stdout


def hash_based_pyc(source: bytes, code: str, checked: bool) -> bytes:
    """A PEP 552 .pyc of `code` that claims to be compiled from `source`."""
    flags = 0b11 if checked else 0b01
    compiled = compile(code, "tools/no_inputs.py", "exec")
    return importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + importlib.util.source_hash(source) + marshal.dumps(compiled)


def test_a_package_directory_named_like_a_module(example: Project) -> None:  # noqa: F811
    (example.root / "tools" / "no_inputs").mkdir()
    (example.root / "tools" / "no_inputs" / "__init__.py").write_text(SHADOW)
    assert imported(example, "tools.no_inputs") == "shadow"
    assert "shadow: tools/no_inputs/ is imported in place of tools/no_inputs.py\n" in failing_check(example)


def test_a_package_directory_named_like_the_runtime(example: Project) -> None:  # noqa: F811
    (example.root / "tools" / "_vendored_runtime").mkdir()
    (example.root / "tools" / "_vendored_runtime" / "__init__.py").write_text(SHADOW)
    assert imported(example, "tools._vendored_runtime") == "shadow"
    assert "shadow: tools/_vendored_runtime/ is imported in place of tools/_vendored_runtime.py" in failing_check(example)


@pytest.mark.parametrize("suffix", machinery.EXTENSION_SUFFIXES)
def test_an_extension_module_named_like_a_module(example: Project, suffix: str) -> None:  # noqa: F811
    (example.root / "tools" / f"no_inputs{suffix}").write_bytes(b"\x7fELF not really")
    assert origin(example, "tools.no_inputs") == f"tools/no_inputs{suffix}"  # found before the source
    assert f"shadow: tools/no_inputs{suffix} is imported in place of tools/no_inputs.py\n" in failing_check(example)


@pytest.mark.parametrize("checked", [False, True])
def test_a_hash_based_pyc_in_pycache(example: Project, checked: bool) -> None:  # noqa: F811
    """Unchecked: never compared with the source. Checked: only by the source's hash, which it can claim."""
    source = (example.root / "tools" / "no_inputs.py").read_bytes()
    cache = example.root / "tools" / "__pycache__"
    cache.mkdir()
    (cache / f"no_inputs.{CACHE}").write_bytes(hash_based_pyc(source, SHADOW, checked))
    assert imported(example, "tools.no_inputs") == "shadow"
    how = "by the source's hash, not by the code it holds" if checked else "never"
    line = (f"shadow: tools/__pycache__/no_inputs.{CACHE} is imported in place of tools/no_inputs.py "
            f"(a hash-based .pyc, compared with the source {how})")  # fmt: skip
    assert line in failing_check(example)


def test_a_timestamp_pyc_python_wrote_itself_is_not_a_shadow(example: Project) -> None:  # noqa: F811
    py_compile.compile(str(example.root / "tools" / "no_inputs.py"), doraise=True)  # as an import writes it
    assert list((example.root / "tools" / "__pycache__").glob("no_inputs.*"))
    assert example.run("check").exit_code == 0


Plant = Callable[[Path], None]


def _namespace(root: Path) -> None:
    (root / "tools" / "no_inputs").mkdir()
    (root / "tools" / "no_inputs" / "shadow.py").write_text(SHADOW)


def _sourceless(root: Path) -> None:
    py_compile.compile(str(root / "shadow.py"), cfile=str(root / "tools" / "no_inputs.pyc"), doraise=True)


@pytest.mark.parametrize(
    ("plant", "line"),
    [
        (_namespace, "tools/no_inputs/ is a namespace directory, imported in place of tools/no_inputs.py once that "
                     "is missing or it has an __init__"),
        (_sourceless, "tools/no_inputs.pyc is imported in place of tools/no_inputs.py once it is missing"),
    ],
)  # fmt: skip
def test_what_is_imported_once_the_module_is_gone(example: Project, plant: Plant, line: str) -> None:  # noqa: F811
    """FileFinder takes the source first, so these wait: a pull request that deletes the module (or adds an
    __init__) makes them what `import tools.no_inputs` runs. Reported now."""
    (example.root / "shadow.py").write_text(SHADOW)
    plant(example.root)
    assert imported(example, "tools.no_inputs").endswith("tools/no_inputs.py")
    assert f"shadow: {line}\n" in failing_check(example)
    (example.root / "tools" / "no_inputs.py").unlink()
    module = imported(example, "tools.no_inputs.shadow" if plant is _namespace else "tools.no_inputs")
    assert module == "shadow"


def test_a_module_named_like_the_output_package(example: Project) -> None:  # noqa: F811
    """tools/ has no __init__.py: it is a namespace package, and a tools.py beside it wins."""
    (example.root / "tools.py").write_text(SHADOW)
    assert imported(example, "tools") == "shadow"
    assert "shadow: tools.py is imported in place of tools/\n" in failing_check(example)
