"""`vendorgen add collection:<owner/slug> --trust` through the CLI, against the loopback Hub."""

from __future__ import annotations

import tomllib

import pytest

from tests.conftest import Project
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import TOOL_PY

SLUG = "tester/agent-tools-0123456789abcdef01234567"


def tool_py(name: str) -> bytes:
    return TOOL_PY.replace('name = "shout"', f'name = "{name}"').replace("ShoutTool", f"{name.title()}Tool").encode()


@pytest.fixture
def collection(fakehub: FakeHub) -> FakeHub:
    """Two tool Spaces listed out of order, plus a model and a dataset that are not tools."""
    fakehub.add_space("tester/zeta", {"tool.py": tool_py("zeta")})
    fakehub.add_space("tester/alpha", {"tool.py": tool_py("alpha")})
    fakehub.add_repo("tester/tiny-model", {"config.json": b"{}"})
    items = [
        ("space", "tester/zeta"),
        ("model", "tester/tiny-model"),
        ("dataset", "tester/rows"),
        ("space", "tester/alpha"),
    ]
    fakehub.add_collection(SLUG, items)
    return fakehub


def add(hub: FakeHub, project: Project, *args: str):
    return project.run("add", f"collection:{SLUG}", *args, env=hub.client_env(project.root.parent / "hf_home"))


def locked(project: Project) -> dict[str, dict]:
    return {entry["name"]: entry for entry in tomllib.loads((project.root / "vendorgen.lock").read_text())["module"]}


def test_every_space_in_a_stable_order_with_progress(collection: FakeHub, project: Project) -> None:
    result = add(collection, project, "--trust")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # the progress bar is for a terminal only
    assert [line for line in result.stdout.splitlines() if line.startswith("wrote")] == [
        "wrote tools/alpha.py (AlphaTool)",
        "wrote tools/zeta.py (ZetaTool)",
    ]
    lock = locked(project)
    assert sorted(lock) == ["alpha", "zeta"]
    assert lock["alpha"]["source"] == "hub:tester/alpha"
    assert lock["alpha"]["revision"] == collection.commit_sha("tester/alpha")
    # Spaces only: the model was never fetched.
    assert not [path for _, path in collection.requests if "tiny-model" in path]


def test_trust_is_required(collection: FakeHub, project: Project) -> None:
    result = add(collection, project)
    assert result.exit_code == 2 and "pass --trust" in result.stderr
    assert collection.requests == []


def test_one_broken_space_and_nothing_is_written(collection: FakeHub, project: Project) -> None:
    collection.add_space(
        "tester/middle", {"tool.py": b"from smolagents import Tool\nclass Broken(Tool):\n    name = 1 +\n"}
    )
    collection.add_collection(SLUG, [("space", "tester/zeta"), ("space", "tester/middle"), ("space", "tester/alpha")])
    result = add(collection, project, "--trust")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].startswith("error: hub:tester/middle: tool.py of tester/middle line 3")
    assert "[3/3]" not in result.stderr  # stopped at the first failure
    assert sorted(project.snapshot()) == ["pyproject.toml"]


def test_keep_going_vendors_the_rest_and_lists_what_failed(collection: FakeHub, project: Project) -> None:
    collection.add_space("tester/middle", {"app.py": b"import gradio\n"})
    collection.add_collection(SLUG, [("space", "tester/zeta"), ("space", "tester/middle"), ("space", "tester/alpha")])
    result = add(collection, project, "--trust", "--keep-going")
    assert result.exit_code == 1
    assert sorted(locked(project)) == ["alpha", "zeta"]
    errors = [line for line in result.stderr.splitlines() if not line.startswith("[")]
    assert errors == [
        "failed: hub:tester/middle: Space tester/middle has no tool.py, so it is not a smolagents tool Space"
        " (its files: .gitattributes, README.md, app.py)",
        "error: 1 source failed (listed above); 2 modules vendored",
    ]


def test_keep_going_when_everything_fails(collection: FakeHub, project: Project) -> None:
    collection.fail_next(r"^/api/spaces/", 500, times=10)
    result = add(collection, project, "--trust", "--keep-going")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "error: 2 sources failed (listed above); nothing vendored"
    assert sorted(project.snapshot()) == ["pyproject.toml"]


def test_a_collection_without_spaces(fakehub: FakeHub, project: Project) -> None:
    fakehub.add_collection(SLUG, [("model", "tester/tiny-model"), ("paper", "2307.09288")])
    result = add(fakehub, project, "--trust")
    assert result.exit_code == 1
    assert f"collection {SLUG} lists no Spaces" in result.stderr


@pytest.mark.parametrize(
    ("status", "code", "message"), [(404, 1, "was not found"), (500, 2, "HTTP 500"), (403, 2, "refused")]
)
def test_collection_errors(collection: FakeHub, project: Project, status: int, code: int, message: str) -> None:
    collection.fail_next(r"^/api/collections/", status)
    result = add(collection, project, "--trust")
    assert result.exit_code == code
    assert f"collection {SLUG}" in result.stderr and message in result.stderr
    assert sorted(project.snapshot()) == ["pyproject.toml"]


def test_name_and_class_belong_to_one_space(collection: FakeHub, project: Project) -> None:
    result = add(collection, project, "--trust", "--name", "x")
    assert result.exit_code == 2 and "vendor that Space with hub:owner/space" in result.stderr
