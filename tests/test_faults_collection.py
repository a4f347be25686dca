"""Faults of a collection source: one error line, exit 2, nothing written, in bounded time.

tests/test_collection.py already covers 403/404/500 answers to get_collection, a broken Space
and every Space failing with --keep-going.
"""

from __future__ import annotations

import pytest

from tests import test_collection
from tests.conftest import Project
from tests.servers import free_port
from tests.servers.fakehub import FakeHub
from tests.test_faults_hub import TIMEOUT, UNREACHABLE, one_error_line

SLUG = test_collection.SLUG
collection = test_collection.collection  # the fixture: two tool Spaces in a collection

COLLECTION = r"^/api/collections/"

# how get_collection's answer is broken -> what the error line says
CASES = {
    "hang": "no answer from the Hub at http://127.0.0.1:",
    "malformed": f"sent collection {SLUG} as malformed JSON",
    "truncated": f"sent collection {SLUG} as malformed JSON",
    "cut": "peer closed connection without sending complete message body",
}


def add(project: Project, env: dict[str, str]):
    return project.run("add", f"collection:{SLUG}", "--trust", env={**env, **TIMEOUT}, timeout=60)


@pytest.mark.parametrize("breakage", list(CASES))
def test_a_broken_collection_answer_fails_cleanly(collection: FakeHub, project: Project, breakage: str) -> None:
    collection.break_next(COLLECTION, breakage, times=10)
    result = add(project, collection.client_env(project.root.parent / "hf_home"))
    one_error_line(result, CASES[breakage])
    assert sorted(project.snapshot()) == ["pyproject.toml"]


@pytest.mark.parametrize("endpoint", [UNREACHABLE, "http://127.0.0.1:{port}"], ids=["unreachable", "refused"])
def test_a_hub_out_of_reach(project: Project, endpoint: str) -> None:
    endpoint = endpoint.format(port=free_port())
    result = add(project, {"HF_ENDPOINT": endpoint, "HF_HOME": str(project.root.parent / "hf_home")})
    one_error_line(result, f"cannot reach the Hub at {endpoint} for collection {SLUG}")
    assert sorted(project.snapshot()) == ["pyproject.toml"]


def test_a_download_cut_short_in_the_second_space_writes_nothing(collection: FakeHub, project: Project) -> None:
    # Members are vendored in order (alpha, zeta); zeta's tool.py is cut after alpha was generated.
    collection.break_next(r"/tester/zeta/resolve/", "cut", times=10)
    result = add(project, collection.client_env(project.root.parent / "hf_home"))
    one_error_line(result, "error: hub:tester/zeta: cannot reach the Hub")
    assert sorted(project.snapshot()) == ["pyproject.toml"]
