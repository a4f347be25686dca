"""For every source: what `add` writes is exactly what its committed snapshot regenerates.

`vendorgen check` regenerates every module offline from `.vendorgen/schemas/`; right after an
`add` it must find nothing to report, or `check` in CI would flag every fresh vendoring.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from tests.test_hub_source import TOOL_PY

MCP_SERVER = str(REPO / "tests" / "servers" / "mcp_server.py")


def assert_check_is_clean(project: Project, *add_args: str, env: dict[str, str] | None = None) -> None:
    added = project.run("add", *add_args, env=env)
    assert added.exit_code == 0, added.stderr
    checked = project.run("check")
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_space(project: Project, gradio_app: str) -> None:
    assert_check_is_clean(project, f"space:{gradio_app}", "--all-endpoints")


def test_mcp(project: Project) -> None:
    # Property order decides parameter order: the snapshot must keep it (a sorted one did not).
    assert_check_is_clean(project, f"mcp:stdio:python {MCP_SERVER} stdio", "--trust")


def test_mcp_paginated_and_hostile(project: Project) -> None:
    assert_check_is_clean(project, "mcp:stdio:python -m tests.servers.mcp_lowlevel stdio", "--trust", "--env",
                          "PYTHONPATH", "--tool", "hostile_text", "--tool", "tree_sum", "--tool", "odd_types")  # fmt: skip


def test_langchain(project: Project) -> None:
    assert_check_is_clean(project, "langchain:tests.servers.langchain_tools:text_toolkit", env={"PYTHONPATH": str(REPO)})


def test_hub(project: Project, fakehub, tmp_path: Path) -> None:
    fakehub.add_space("tester/shouter", {"tool.py": TOOL_PY.encode()})
    env = fakehub.client_env(tmp_path / "hf")
    assert_check_is_clean(project, "hub:tester/shouter", "--trust", env=env)


@pytest.mark.parametrize("extra", [[], ["--name", "renamed"]])
def test_check_stays_clean_after_a_second_add(project: Project, gradio_app: str, extra: list[str]) -> None:
    assert_check_is_clean(project, f"space:{gradio_app}", "--api-name", "/convert", *extra)
    assert_check_is_clean(project, f"space:{gradio_app}", "--api-name", "/stats")
