"""The compatibility matrix: generated_example/ runs on each row's runtime dependencies.

Each row (tests/matrix/rows.py) is a cached venv holding only what vendored code imports, at
one end of each supported range. The servers run here, in the test venv; only the client, the
vendored code, runs in the row's venv, through tests/matrix/client.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.matrix import venvs
from tests.matrix.rows import ROWS, Row
from tests.servers import free_port, server_process

CLIENT = Path(__file__).with_name("client.py")
MATRIX_SECRETS = {"MATRIX_TOKEN": "matrix-token-3e8a", "MATRIX_TEAM": "matrix-team-91c0"}

# case -> what the call returns on every row
EXPECTED = {
    "space": 2000.0,
    "space.audio": {"type": "ResultFile", "suffix": ".wav"},  # a str: the path of the file the runtime downloaded
    "space.to_langchain": 300.0,
    "space.input_schema": ["from_unit", "to_unit", "value"],
    "space.file": [32, 16],  # a PIL image uploaded through handle_file (file_paths)
    "space.not_given": "Hello, Ada!",  # sent by position, `title` filled with the app's default
    "mcp.streamable-http": 212.0,  # FastMCP's {"result": ...} unwrapped (result_key)
    "mcp.stdio": 212.0,
    "mcp.to_langchain": "vendor-your-tools",
    "mcp.headers": "Bearer team=yes",  # headers from the environment (_vendored_mcp_auth.py)
    "mcp.oauth": "Bearer team=no",  # the OAuth flow (discovery, registration, PKCE) on the row's SDK
    "serve.stdio": ["served-tools", "3"],  # through _vendored_server.py on the row's mcp
    "catalog": [  # argument descriptions left to find_tools; its best match; two tools called by their names
        True,
        'convert_temperature(value: number, unit: string = "C", to: string = "F") -> number',
        3,
        212.0,
    ],
    "langchain": 2,
    "langchain.union": 0.6,
    "langchain.to_langchain": 1.2,
}


def cases() -> Iterator[object]:
    for row in ROWS:
        for case in EXPECTED:
            yield pytest.param(row, case, id=f"{row.name}-{case}")


@pytest.fixture(scope="module")
def servers(gradio_app: str) -> Iterator[dict[str, str]]:
    port = free_port()
    mcp_url = f"http://127.0.0.1:{port}/mcp"
    bearer_port, oauth_port = free_port(), free_port()
    auth_server = ["-m", "tests.servers.mcp_auth_server"]
    env = {"PYTHONPATH": str(REPO), "AUTH_TEST_TOKEN": MATRIX_SECRETS["MATRIX_TOKEN"],
           "AUTH_TEST_TEAM": MATRIX_SECRETS["MATRIX_TEAM"]}  # fmt: skip
    with (
        server_process([str(REPO / "examples" / "mcp_server.py"), "http", "--port", str(port)], mcp_url),
        server_process([*auth_server, "bearer", "--port", str(bearer_port)], f"http://127.0.0.1:{bearer_port}/", env=env),
        server_process([*auth_server, "oauth", "--port", str(oauth_port)],
                       f"http://127.0.0.1:{oauth_port}/.well-known/oauth-authorization-server", env=env),
    ):  # fmt: skip
        yield {"gradio_url": gradio_app, "mcp_url": mcp_url, "server_python": sys.executable,
               "headers_url": f"http://127.0.0.1:{bearer_port}/mcp", "oauth_url": f"http://127.0.0.1:{oauth_port}/mcp"}  # fmt: skip


@pytest.fixture(scope="module")
def results(servers: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict]]:
    """row name -> what each case gave, from one run of the client in the row's venv (built on first use)."""
    done: dict[str, dict] = {}

    def of(row: Row) -> dict:
        if row.name not in done:
            done[row.name] = run_row(row, servers, tmp_path_factory.mktemp(row.name))
        return done[row.name]

    yield of  # type: ignore[misc]


def run_row(row: Row, servers: dict[str, str], cwd: Path) -> dict:
    if venvs.interpreter(row) is None:
        pytest.skip(f"python{row.python} is not installed here: row {row.name} cannot run")
    python = venvs.build(row)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # The OAuth server approves at once: the authorization URL is fetched, into a token store of the row's own.
    env.update(MATRIX_SECRETS, VENDORGEN_MCP_AUTHORIZE="fetch", VENDORGEN_MCP_TOKENS=str(cwd / "tokens"))
    result = subprocess.run([str(python), str(CLIENT), json.dumps(servers), *EXPECTED], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, f"the client failed in row {row.name}:\n{result.stderr[-3000:]}"
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize(("row", "case"), cases())
def test_vendored_code_runs_on_the_row(row: Row, case: str, results) -> None:
    outcome = results(row)[case]
    assert "error" not in outcome, f"{row.name} ({', '.join(row.requirements)}), {case}: {outcome['error']}"
    assert outcome["value"] == pytest.approx(EXPECTED[case])


def test_the_ranges_vendorgen_records_are_the_ones_the_rows_cover() -> None:
    """Each range's lower bound is a row's release, and each major the range allows has a row."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    from vendorgen.project.requirements import canonical
    from vendorgen.sources import requirement_ranges

    pins = [Requirement(item) for row in ROWS for item in row.requirements]
    for name, specifiers in requirement_ranges().items():
        versions = [
            Version(str(pin.specifier).removeprefix("==")) for pin in pins if canonical(pin.name) == canonical(name)
        ]
        requirement = Requirement(name + specifiers)
        assert all(requirement.specifier.contains(version) for version in versions), name
        lower = next(Version(spec.version) for spec in requirement.specifier if spec.operator == ">=")
        assert min(versions).release[: len(lower.release)] == lower.release, f"no row at the low end of {name}"
        upper = next(Version(spec.version) for spec in requirement.specifier if spec.operator == "<")
        assert {version.major for version in versions} >= set(range(lower.major, upper.major)), (
            f"a major of {name} has no row"
        )
    assert {row.python for row in ROWS} == {"3.11", "3.12"}
