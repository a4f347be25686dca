"""What a lock (or a plugin) may name as a package file: vendorgen's `_vendored_<name>.py` namespace or the catalog,
beside a vendored module, by a path that stays inside the project; and no vendored module takes that namespace."""

from __future__ import annotations

import pytest

from vendorgen.errors import UsageError
from vendorgen.project.paths import check_module_name, is_runtime_import, package_file

MODULES = ["tools/convert.py"]


@pytest.mark.parametrize("path", ["tools/_vendored_runtime.py", "tools/_vendored_echo.py", "tools/catalog.py"])
def test_a_package_file_beside_a_module_is_taken(path: str) -> None:
    assert package_file(path, MODULES) == path


@pytest.mark.parametrize(
    "path",
    [
        "tools/utils.py",  # not vendorgen's namespace: the user's file
        "tools/_vendored_.py",
        "tools/_vendored_x.pyc",
        "tools/_vendored_é.py",
        "tools/_vendored_a-b.py",
        f"tools/_vendored_{'x' * 100}.py",
        "_vendored_runtime.py",  # beside no module
        "other/_vendored_runtime.py",
        "tools/sub/_vendored_runtime.py",
        "tools/../tools/_vendored_runtime.py",
        "/tools/_vendored_runtime.py",
        "tools//_vendored_runtime.py",
        "tools\\_vendored_runtime.py",
    ],
)
def test_any_other_package_file_is_refused(path: str) -> None:
    with pytest.raises(UsageError):
        package_file(path, MODULES)


def test_no_module_takes_the_package_files_namespace() -> None:
    with pytest.raises(UsageError, match="_vendored_\\* names its package files"):
        check_module_name("_vendored_runtime")
    check_module_name("vendored_runtime")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("._vendored_echo.echoed", True), ("._vendored_runtime.NOT_GIVEN", True), ("._helpers.x", False),
     ("_vendored_echo.echoed", False), ("smolagents.Tool", False), ("..._vendored_echo.x", False)],
)  # fmt: skip
def test_a_run_time_import_is_a_relative_import_of_a_package_file(name: str, expected: bool) -> None:
    assert is_runtime_import(name) is expected
