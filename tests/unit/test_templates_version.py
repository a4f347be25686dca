"""The built-in templates' version is their content: any change to any file is a new version."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import vendorgen


def version_of(directory: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(vendorgen, "builtin_templates_dir", lambda: directory)
    vendorgen.templates_version.cache_clear()
    try:
        return vendorgen.templates_version()
    finally:
        vendorgen.templates_version.cache_clear()


def test_the_version_follows_every_template_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "templates"
    shutil.copytree(vendorgen.builtin_templates_dir(), copy)
    original = version_of(copy, monkeypatch)
    assert original == vendorgen.templates_version()  # the same bytes elsewhere: the same version
    nested = copy / "push" / "app.py.j2"
    nested.write_text(nested.read_text() + "\n")
    changed = version_of(copy, monkeypatch)
    assert changed != original
    nested.rename(copy / "push" / "app2.py.j2")  # a renamed file is another template set
    assert version_of(copy, monkeypatch) not in (original, changed)
