"""A source kind from outside vendorgen plugs in with one registration and no other change.

tests/echo_source defines the kind `echo` (its Source, its template and the run-time file its
generated code imports, nothing else). Here it is installed the way a package installs one, an
entry point in the group `vendorgen.sources`, and the real CLI vendors, checks, updates, serves
and removes its module; the module loads with smolagents, its run-time file owned by the lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
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
    [tool] = project.import_module("tools/greetings.py").tools()
    assert (tool.name, tool(text="hi")) == ("shout", "echo: hi")

    assert project.run("check", env=plugin_env).exit_code == 0

    listing.write_text(json.dumps({"prefix": "ECHO ", "tools": {"shout": "Shouts.", "whisper": "Whispers."}}))
    updated = project.run("update", env=plugin_env)
    assert updated.exit_code == 0, updated
    shout, whisper = project.import_module("tools/greetings.py").tools()
    assert (shout(text="a"), whisper.name, whisper(text="b")) == ("ECHO a", "whisper", "ECHO b")
    assert project.run("check", env=plugin_env).exit_code == 0


SHIPPED = REPO / "tests" / "echo_source" / "_vendored_echo.py"


def test_a_plugins_run_time_file_is_written_locked_checked_and_removed(
    project: Project, plugin_env: dict[str, str]
) -> None:
    """The run-time file the plugin ships is copied beside its module, which imports it; the lock owns the copy by
    the sha256 of the plugin's file, `check` catches an edited copy, and `remove` of the last module deletes it."""
    (project.root / "greetings.json").write_text(json.dumps({"prefix": "echo: ", "tools": {"shout": "Shouts."}}))
    added = project.run("add", "echo:greetings.json", env=plugin_env)
    assert added.exit_code == 0, added
    assert "wrote tools/_vendored_echo.py, tools/_vendored_runtime.py (run-time code" in added.stdout
    copy = project.root / "tools" / "_vendored_echo.py"
    assert copy.read_bytes() == SHIPPED.read_bytes()
    lock = tomllib.loads((project.root / "vendorgen.lock").read_text())
    locked = {entry["path"]: entry["sha256"] for entry in lock["runtime"]}
    assert locked["tools/_vendored_echo.py"] == hashlib.sha256(SHIPPED.read_bytes()).hexdigest()
    assert set(locked) == {"tools/_vendored_echo.py", "tools/_vendored_runtime.py"}
    [tool] = project.import_module("tools/greetings.py").tools()
    assert tool(text="hi") == "echo: hi"  # through the copy's `echoed`
    assert project.run("check", env=plugin_env).exit_code == 0

    copy.write_text(SHIPPED.read_text().replace("prefix + text", "text"))  # a pull request edits the copy
    tampered = project.run("check", env=plugin_env)
    assert tampered.exit_code == 1 and "tools/_vendored_echo.py has local edits" in tampered.stdout, tampered
    copy.write_bytes(SHIPPED.read_bytes())
    assert project.run("update", env=plugin_env).exit_code == 0
    assert project.run("check", env=plugin_env).exit_code == 0

    listed = project.run("serve", "--list", env=plugin_env)  # the server imports the module, and so the copy
    assert listed.exit_code == 0 and listed.stdout.split() == ["shout", "greetings", "Shouts."], listed

    removed = project.run("remove", "greetings", env=plugin_env)
    assert removed.exit_code == 0 and "deleted tools/_vendored_echo.py" in removed.stdout, removed
    assert not copy.exists() and not (project.root / "tools" / "_vendored_runtime.py").exists()
    assert "runtime" not in tomllib.loads((project.root / "vendorgen.lock").read_text())


@pytest.mark.parametrize(
    ("files", "directory", "refused"),
    [
        (("../_vendored_echo.py",), None, "a run-time file is named _vendored_<letters, digits, _>.py"),
        (("_vendored_echo.py/x.py",), None, "a run-time file is named"),
        (("echo.py",), None, "a run-time file is named"),
        (("_vendored_server.py",), None, "not _vendored_content.py"),  # the server's
        (("_vendored_runtime.py",), None, "a run-time file is named"),  # the core's
        (("_vendored_gradio.py",), None, "(_vendored_gradio.py: space)"),  # another kind's
        (("_vendored_echo.py", "_vendored_echo.py"), None, "once"),
        (("_vendored_echo.py",), None, "_vendored_echo.py not there as a file"),  # not among vendorgen's files
        (("_vendored_missing.py",), SHIPPED.parent, "_vendored_missing.py not there as a file"),
        ((), SHIPPED.parent, "its allowed_imports name ._vendored_echo, which it does not ship"),
    ],
)
def test_a_kinds_run_time_files_are_plain_names_it_ships(
    files: tuple[str, ...], directory: Path | None, refused: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.echo_source.source import EchoSource

    # Whatever happens, the registry is as it was (filled first: it is filled once).
    monkeypatch.setattr(sources, "_registry", {source.kind: source for source in sources.registered()})

    class Shipping(EchoSource):
        kind = "shipping"
        runtime_files = files
        runtime_dir = directory

    with pytest.raises(UsageError, match="the source 'shipping'") as raised:
        sources.register(Shipping)
    assert refused in str(raised.value)
    assert "shipping" not in sources._registry


def test_an_option_the_source_does_not_take_names_both(project: Project, plugin_env: dict[str, str]) -> None:
    result = project.run("add", "echo:greetings.json", "--prefix", "x", env=plugin_env)
    assert result.exit_code == 2
    assert "--prefix does not apply to echo: sources (echo: takes --name)" in result.stderr
    assert "echo:<file.json>" in project.run("add", "--help", env=plugin_env).stdout


def test_a_kind_is_registered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.echo_source.source import EchoSource

    # Later tests see the kinds there were (filled first: it is filled once).
    monkeypatch.setattr(sources, "_registry", {source.kind: source for source in sources.registered()})

    class Impostor(EchoSource):
        pass

    assert sources.register(EchoSource) is sources.load("echo")  # again: the same kind, nothing changes
    with pytest.raises(UsageError, match="two sources claim the kind 'echo'"):
        sources.register(Impostor)
