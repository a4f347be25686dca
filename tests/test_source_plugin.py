"""A source kind from outside vendorgen plugs in with one registration and no other change.

tests/echo_source defines the kind `echo` (its Source and its template, nothing else). Here it
is installed the way a package installs one, an entry point in the group `vendorgen.sources`,
and the real CLI vendors, checks and updates its module; the module loads with smolagents.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen import sources
from vendorgen.errors import UsageError


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    """PYTHONPATH with a directory holding the echo source's distribution metadata: its entry point."""
    site = tmp_path / "site"
    dist_info = site / "vendorgen_echo_plugin-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: vendorgen-echo-plugin\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(
        f"[{sources.ENTRY_POINT_GROUP}]\necho = tests.echo_source.source:EchoSource\n"
    )
    return {"PYTHONPATH": os.pathsep.join([str(REPO), str(site)])}


def test_an_installed_source_vendors_checks_and_updates(project: Project, plugin_env: dict[str, str]) -> None:
    listing = project.root / "greetings.json"
    listing.write_text(json.dumps({"prefix": "echo: ", "tools": {"shout": "Shouts the text back."}}))

    added = project.run("add", "echo:greetings.json", env=plugin_env)
    assert added.exit_code == 0, added
    assert "wrote tools/greetings.py (ShoutTool)" in added.stdout
    assert not (project.root / "tools" / "_vendored_runtime.py").exists()  # it declares no package_files
    [tool] = project.import_module("tools/greetings.py").tools()
    assert (tool.name, tool(text="hi")) == ("shout", "echo: hi")

    assert project.run("check", env=plugin_env).exit_code == 0

    listing.write_text(json.dumps({"prefix": "ECHO ", "tools": {"shout": "Shouts.", "whisper": "Whispers."}}))
    updated = project.run("update", env=plugin_env)
    assert updated.exit_code == 0, updated
    shout, whisper = project.import_module("tools/greetings.py").tools()
    assert (shout(text="a"), whisper.name, whisper(text="b")) == ("ECHO a", "whisper", "ECHO b")
    assert project.run("check", env=plugin_env).exit_code == 0


def test_an_option_the_source_does_not_take_names_both(project: Project, plugin_env: dict[str, str]) -> None:
    result = project.run("add", "echo:greetings.json", "--prefix", "x", env=plugin_env)
    assert result.exit_code == 2
    assert "--prefix does not apply to echo: sources (echo: takes --name)" in result.stderr
    assert "echo:<file.json>" in project.run("add", "--help", env=plugin_env).stdout


def test_a_kind_is_registered_once() -> None:
    from tests.echo_source.source import EchoSource

    class Impostor(EchoSource):
        pass

    assert sources.register(EchoSource) is sources.load("echo")  # again: the same kind, nothing changes
    with pytest.raises(UsageError, match="two sources claim the kind 'echo'"):
        sources.register(Impostor)
