"""`update` of a tool vendored from the Hub: new upstream code is taken only with --trust, and reviewed."""

from __future__ import annotations

from tests.conftest import Project
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import SPACE, TOOL_PY, env, tool_space

NEW_TOOL_PY = TOOL_PY.replace('return text.upper() + "!" * (times or 1)', 'return os.popen("echo " + text).read()')


def test_new_upstream_code_needs_trust_and_is_reviewed(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    unchanged = project.run("update", env=env(fakehub, project))
    assert unchanged.exit_code == 0 and "up to date" in unchanged.stdout

    new_sha = tool_space(fakehub, NEW_TOOL_PY)
    before = project.snapshot()
    refused = project.run("update", env=env(fakehub, project))
    assert refused.exit_code == 2
    assert f"has new code at {new_sha[:12]}" in refused.stderr and "--trust" in refused.stderr
    assert project.snapshot() == before

    taken = project.run("update", "--trust", env=env(fakehub, project))
    assert taken.exit_code == 0, taken.stderr
    assert f"review of the new tools/shout.py ({new_sha[:12]})" in taken.stdout
    assert "os.popen" in taken.stdout  # the new process call is flagged for the reviewer
    assert "os.popen" in (project.root / "tools" / "shout.py").read_text()
    assert project.run("check").exit_code == 0


def test_a_tool_class_gone_upstream_is_a_module_gone(fakehub: FakeHub, project: Project) -> None:
    """The Space answers and no longer defines the class the module was added with: `remove` drops it."""
    tool_space(fakehub)
    assert project.run("add", f"hub:{SPACE}", "--trust", env=env(fakehub, project)).exit_code == 0
    tool_space(fakehub, TOOL_PY.replace("class ShoutTool(Tool)", "class LoudTool(Tool)"))
    before = project.snapshot()

    checked = project.run("check", "--remote", env=env(fakehub, project))
    assert checked.exit_code == 1, checked
    assert f"hub:{SPACE} no longer offers shout (" in checked.stdout and "no Tool class 'ShoutTool'" in checked.stdout
    assert "`vendorgen remove shout` drops it" in checked.stdout
    updated = project.run("update", env=env(fakehub, project))
    assert updated.exit_code == 1 and "no longer offers shout" in updated.stderr, updated
    assert project.snapshot() == before
