"""Faults of a LangChain source: the user's module fails while vendorgen imports and reads it.

A LangChain source has no network; what can fail is the user's code, at import or when the
tools are built. Each case: one error line, a non-zero exit, nothing written, bounded time.
tests/test_langchain_source.py already covers a missing module or attribute, an object that is
not a tool, a function that needs arguments and an injected argument without a default.
"""

from __future__ import annotations

import pytest

from tests.conftest import Project

TOOL = """
from langchain_core.tools import BaseTool, BaseToolkit, tool


@tool
def echo(text: str) -> str:
    \"\"\"Echo the text.\"\"\"
    return text
"""

# name -> (the user's agent_tools.py, the attribute to vendor, exit code, what the error line says)
CASES = {
    "import raises": ('raise RuntimeError("no config file")', "echo", 1,
                      "importing agent_tools failed: RuntimeError: no config file"),
    "syntax error": ("def broken(:\n    pass", "echo", 1, "importing agent_tools failed: SyntaxError: "),
    "a dependency is missing": ("import agent", "echo", 1,  # `agent` is a prefix of `agent_tools`: not the module itself
                                "importing agent_tools failed: ModuleNotFoundError: No module named 'agent'"),
    "exits while importing": ("import sys\nsys.exit(0)", "echo", 1, "importing agent_tools failed: SystemExit: 0"),
    "attribute raises": ('def __getattr__(name):\n    raise RuntimeError("lazy load failed")', "search", 1,
                         "reading agent_tools:search failed: RuntimeError: lazy load failed"),
    "factory raises": ('def make():\n    raise ValueError("no API key")', "make", 1,
                       "calling agent_tools:make() failed: ValueError: no API key"),
    "toolkit cannot be built": ("class Kit(BaseToolkit):\n    def __init__(self):\n        raise ValueError('no key')\n\n"
                                "    def get_tools(self):\n        return []",
                                "Kit", 2, "agent_tools:Kit cannot be built with no arguments: ValueError: no key"),
    "get_tools raises": ("class Kit(BaseToolkit):\n    def get_tools(self):\n        raise ValueError('offline')\n\n"
                         "kit = Kit()", "kit", 1, "agent_tools:kit.get_tools() failed: ValueError: offline"),
    "schema raises": ("class Broken(BaseTool):\n    name: str = 'broken'\n    description: str = 'Broken.'\n\n"
                      "    @property\n    def tool_call_schema(self):\n        raise TypeError('bad schema')\n\n"
                      "    def _run(self) -> str:\n        return ''\n\nbroken = Broken()", "broken", 1,
                      "reading the arguments of tool 'broken' failed: TypeError: bad schema"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_the_users_module_failing_fails_cleanly(project: Project, case: str) -> None:
    code, attr, exit_code, message = CASES[case]
    (project.root / "agent_tools.py").write_text(TOOL + code + "\n")
    before = project.snapshot()
    result = project.run("add", f"langchain:agent_tools:{attr}", env={"PYTHONDONTWRITEBYTECODE": "1"}, timeout=60)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert result.exit_code == exit_code, result.stderr
    assert len(errors) == 1 and errors[0].startswith("error: " + message), result.stderr
    assert project.snapshot() == before
