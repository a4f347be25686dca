"""`check --remote` and `update` tell a module gone upstream from a re-inspection that could not run.

Only a source that answered and no longer lists what the module was added with is "gone"
(`vendorgen remove` drops it). A usage error while re-inspecting (a stdio server's `--env`
variable not set here, a bad VENDORGEN_MCP_TIMEOUT) is its own error: exit 2, nothing written.
Each test runs the real CLI against the real example MCP server over stdio, or a LangChain
module of the project's own.
"""

from __future__ import annotations

import pytest

from tests.conftest import REPO, Project, Result

EXAMPLE_STDIO = f"mcp:stdio:python {REPO / 'examples' / 'mcp_server.py'} stdio"
VARIABLE = "VENDORGEN_REINSPECT_VAR"  # what the module was added with --env; never set in the test process


@pytest.fixture
def stdio_project(project: Project) -> Project:
    added = project.run("add", EXAMPLE_STDIO, "--trust", "--env", VARIABLE, "--name", "text_tools",
                        env={VARIABLE: "set at add"})  # fmt: skip
    assert added.exit_code == 0, added.stderr
    return project


def refused_alone(result: Result, reason: str) -> None:
    """Exit 2 with `reason`, never read as a module gone upstream."""
    assert result.exit_code == 2, result
    assert reason in result.stdout + result.stderr, result
    assert "no longer offers" not in result.stdout + result.stderr and "vendorgen remove" not in result.stdout


@pytest.mark.parametrize(
    "env, reason",
    [
        ({}, f"--env {VARIABLE}: not set here"),
        ({VARIABLE: "set", "VENDORGEN_MCP_TIMEOUT": "soon"}, "VENDORGEN_MCP_TIMEOUT must be a positive number"),
    ],
    ids=["env-variable-unset", "bad-timeout"],
)
def test_a_usage_error_while_reinspecting_is_its_own_error(stdio_project: Project, env: dict, reason: str) -> None:
    assert stdio_project.run("check", "--remote", env={VARIABLE: "set"}).exit_code == 0  # it does answer
    before = stdio_project.snapshot()

    refused_alone(stdio_project.run("check", "--remote", env=env), reason)
    refused_alone(stdio_project.run("update", env=env), reason)
    refused_alone(stdio_project.run("update", "--dry-run", env=env), reason)
    refused_alone(stdio_project.run("diff", env=env), reason)
    refused_alone(stdio_project.run("check", "--remote", "--json", env=env), reason)

    assert stdio_project.snapshot() == before


TOOLKIT = '''
from langchain_core.tools import tool


@tool
def shout(text: str) -> str:
    """Shout the text."""
    return text.upper()
{whisper}

toolkit = [shout{listed}]
'''
WHISPER = '''

@tool
def whisper(text: str) -> str:
    """Whisper the text."""
    return text.lower()
'''


def test_a_tool_the_source_no_longer_lists_is_gone(project: Project) -> None:
    (project.root / "my_tools.py").write_text(TOOLKIT.format(whisper=WHISPER, listed=", whisper"))
    added = project.run("add", "langchain:my_tools:toolkit", "--tool", "whisper", "--name", "quiet")
    assert added.exit_code == 0, added.stderr
    (project.root / "my_tools.py").write_text(TOOLKIT.format(whisper="", listed=""))

    checked = project.run("check", "--remote")
    assert checked.exit_code == 1, checked
    assert "langchain:my_tools:toolkit no longer offers quiet (no tool whisper in" in checked.stdout
    assert "`vendorgen remove quiet` drops it" in checked.stdout
