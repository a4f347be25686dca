"""Authenticated MCP servers on 127.0.0.1, vendored and called through the real CLI and smolagents.

A bearer server wanting `Authorization: Bearer $TOKEN` and `X-Team: $TEAM`, and an OAuth 2.1 server with
its own authorization server (the mcp SDK's, approving every request: VENDORGEN_MCP_AUTHORIZE=fetch
stands in for the person at the browser). What is checked: the values come from the environment and
are never written or printed (every file of the project and every line of add, check --remote, update,
diff, serve and push --dry-run is searched for them); a missing variable is one line before any request;
a redirect to another origin gets none of the credentials; OAuth tokens live in the per-user store
(mode 0600), are refreshed after expiry, and a revoked one asks for `vendorgen login`.
"""

from __future__ import annotations

import asyncio
import glob
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Project, new_project
from tests.servers import free_port, server_process
from tests.test_serve import http_server, http_session, texts

TOKEN = "tok-7c1d9e-never-written"
TEAM = "team-5b02aa-never-written"
SECRETS = (TOKEN, TEAM)
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Another origin (a bearer server wanting nothing), and its log of what arrived."""
    log = tmp_path_factory.mktemp("elsewhere") / "log.jsonl"
    port = free_port()
    with server_process(["-m", "tests.servers.mcp_auth_server", "bearer", "--port", str(port), "--log", str(log)],
                        f"http://127.0.0.1:{port}/mcp", env={"PYTHONPATH": str(REPO)}):  # fmt: skip
        yield f"http://127.0.0.1:{port}/mcp", log


@pytest.fixture(scope="module")
def bearer(elsewhere: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = tmp_path_factory.mktemp("bearer") / "log.jsonl"
    port = free_port()
    arguments = ["-m", "tests.servers.mcp_auth_server", "bearer", "--port", str(port), "--log", str(log),
                 "--redirect-to", elsewhere[0]]  # fmt: skip
    env = {"PYTHONPATH": str(REPO), "AUTH_TEST_TOKEN": TOKEN, "AUTH_TEST_TEAM": TEAM}
    with server_process(arguments, f"http://127.0.0.1:{port}/", env=env):
        yield f"http://127.0.0.1:{port}/mcp", log


def _credentials_env(**more: str) -> dict[str, str]:
    return {"GH_TOKEN": TOKEN, "TEAM_NAME": TEAM, **more}


def _call(project: Project, code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run `code` with the project's generated tools importable (the real smolagents)."""
    return subprocess.run([sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)  # fmt: skip


def _no_secret_anywhere(project: Project, printed: list[str]) -> None:
    for path in project.root.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            data = path.read_bytes()
            assert not any(secret.encode() in data for secret in SECRETS), path
    for text in printed:
        assert not any(secret in text for secret in SECRETS), text


def test_bearer_and_header_end_to_end_with_no_secret_written_or_printed(
    tmp_path: Path, bearer: tuple[str, Path]
) -> None:
    url, _ = bearer
    project = new_project(tmp_path)
    env = _credentials_env()
    added = project.run("add", f"mcp:{url}", "--name", "team", "--bearer-env", "GH_TOKEN",
                        "--header", "X-Team=${TEAM_NAME}", env=env)  # fmt: skip
    assert added.exit_code == 0, added.stderr
    module = (project.root / "tools" / "team.py").read_text()
    assert '"Authorization": "Bearer ${GH_TOKEN}"' in module and '"X-Team": "${TEAM_NAME}"' in module
    assert "# Authentication: the headers" in module
    called = _call(project, "from tools import team; print(team.WhoamiTool()())", env)
    assert called.stdout.strip() == "Bearer team=yes", called.stderr
    printed = [added.stdout, added.stderr, called.stdout, called.stderr]
    for command in (["check", "--remote"], ["update", "team"], ["diff", "team"],
                    ["push", "team", "someone/space", "--dry-run", "--out", "space"]):  # fmt: skip
        result = project.run(*command, env=env)
        printed += [result.stdout, result.stderr]
        assert result.exit_code in (0, 1), (command, result.stderr)
    assert "set TEAM_NAME, GH_TOKEN in this" in (project.root / "space" / "README.md").read_text()
    wrong = project.run("check", "--remote", env=_credentials_env(GH_TOKEN="wrong-" + TOKEN))
    said = wrong.stdout + wrong.stderr
    assert wrong.exit_code != 0 and "refused access (HTTP 401" in said and "GH_TOKEN" in said
    printed += [wrong.stdout, wrong.stderr]
    served_errors: list[str] = []
    with http_server(project, env=env, errors=served_errors) as served:

        async def through_serve() -> str:
            async with http_session(served) as session:
                return texts(await session.call_tool("whoami", {}))

        assert asyncio.run(through_serve()) == "Bearer team=yes"
    _no_secret_anywhere(project, [*printed, *served_errors])
    # A pull request adding a header (sending another secret) to the snapshot is drift, never re-inspected.
    snapshot_path = project.root / ".vendorgen" / "schemas" / "team.json"
    snapshot = json.loads(snapshot_path.read_text())
    snapshot["server"]["headers"]["X-Exfil"] = "${AWS_SECRET_ACCESS_KEY}"
    snapshot_path.write_text(json.dumps(snapshot))
    checked = project.run("check")
    assert checked.exit_code == 1 and "the snapshot's server.headers is" in checked.stdout, checked.stdout


def test_legacy_sse_sends_them_too(tmp_path: Path, bearer: tuple[str, Path]) -> None:
    project = new_project(tmp_path)
    env = _credentials_env()
    sse = bearer[0].replace("/mcp", "/sse")
    added = project.run("add", f"mcp:sse:{sse}", "--name", "team", "--bearer-env", "GH_TOKEN",
                        "--header", "X-Team=${TEAM_NAME}", env=env)  # fmt: skip
    assert added.exit_code == 0, added.stderr
    called = _call(project, "from tools import team; print(team.WhoamiTool()())", env)
    assert called.stdout.strip() == "Bearer team=yes", called.stderr


def test_a_missing_variable_is_one_line_before_any_request(tmp_path: Path, bearer: tuple[str, Path]) -> None:
    url, log = bearer
    before = log.read_text() if log.exists() else ""
    project = new_project(tmp_path)
    result = project.run("add", f"mcp:{url}", "--bearer-env", "NO_SUCH_TOKEN_VARIABLE",
                         env={"NO_SUCH_TOKEN_VARIABLE": ""})  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "NO_SUCH_TOKEN_VARIABLE" in result.stderr
    assert (log.read_text() if log.exists() else "") == before  # nothing was sent


def test_a_typed_value_is_refused_and_not_echoed(tmp_path: Path, bearer: tuple[str, Path]) -> None:
    """What the shell makes of "Bearer ${TOKEN}" in double quotes: the secret itself."""
    project = new_project(tmp_path)
    result = project.run("add", f"mcp:{bearer[0]}", "--header", f"Authorization=Bearer {TOKEN}")
    assert result.exit_code == 2 and "single quotes" in result.stderr
    _no_secret_anywhere(project, [result.stdout, result.stderr])


def test_a_redirect_to_another_origin_gets_no_credentials(
    tmp_path: Path, bearer: tuple[str, Path], elsewhere: tuple[str, Path]
) -> None:
    url, _ = bearer
    project = new_project(tmp_path)
    moved = url.replace("/mcp", "/moved")
    result = project.run("add", f"mcp:{moved}", "--bearer-env", "GH_TOKEN", "--header", "X-Team=${TEAM_NAME}",
                         env=_credentials_env())  # fmt: skip
    arrived = [json.loads(line) for line in elsewhere[1].read_text().splitlines()] if elsewhere[1].exists() else []
    assert all(entry["authorization"] is None and entry["x-team"] is None for entry in arrived), arrived
    _no_secret_anywhere(project, [result.stdout, result.stderr])


@pytest.fixture(scope="module")
def oauth() -> Iterator[str]:
    port = free_port()
    arguments = ["-m", "tests.servers.mcp_auth_server", "oauth", "--port", str(port), "--expires-in", "2"]
    with server_process(arguments, f"http://127.0.0.1:{port}/.well-known/oauth-authorization-server",
                        env={"PYTHONPATH": str(REPO)}):  # fmt: skip
        yield f"http://127.0.0.1:{port}/mcp"


def test_oauth_add_refresh_revoke_login_logout(tmp_path: Path, oauth: str) -> None:
    store = tmp_path / "tokens"
    project = new_project(tmp_path)
    env = {"VENDORGEN_MCP_TOKENS": str(store), "VENDORGEN_MCP_AUTHORIZE": "fetch"}
    added = project.run("add", f"mcp:{oauth}", "--name", "secured", env=env)
    assert added.exit_code == 0, added.stderr
    assert "secured authorizes with OAuth at http://127.0.0.1:" in added.stderr
    module = (project.root / "tools" / "secured.py").read_text()
    assert '"authorization_server": "http://127.0.0.1:' in module and '"scopes": "tools"' in module
    (token_file,) = glob.glob(str(store / "*.json"))
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    tokens = json.loads(Path(token_file).read_text())["tokens"]
    run_env = {"VENDORGEN_MCP_TOKENS": str(store), "VENDORGEN_MCP_AUTHORIZE": ""}  # no browser from a tool
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and time.time() < json.loads(Path(token_file).read_text())["expires_at"] + 1:
        time.sleep(0.2)  # the stored access token expires (it lasts 2 s)
    called = _call(project, "from tools import secured; print(secured.WhoamiTool()())", run_env)
    assert called.stdout.strip() == "Bearer refreshed team=no", called.stderr
    # Revoked at the server: the tool says what to run, in one line, and opens nothing.
    current = json.loads(Path(token_file).read_text())
    client = current["client_info"]
    for token in (current["tokens"]["access_token"], current["tokens"]["refresh_token"]):
        httpx.post(oauth.replace("/mcp", "/revoke"), data={"token": token, "client_id": client["client_id"],
                                                           "client_secret": client.get("client_secret", "")})  # fmt: skip
    refused = _call(project, "from tools import secured; secured.WhoamiTool()()", run_env)
    assert refused.returncode == 1 and "run `vendorgen login secured`" in refused.stderr.splitlines()[-1]
    logged_in = project.run("login", "secured", env=env)
    assert logged_in.exit_code == 0, logged_in.stderr
    again = _call(project, "from tools import secured; print(secured.WhoamiTool()())", run_env)
    assert again.stdout.strip().startswith("Bearer"), again.stderr
    # An access token the server ends before its stated expiry (revoked, or the server's clock) is refreshed.
    current = json.loads(Path(token_file).read_text())
    httpx.post(oauth.replace("/mcp", "/revoke"), data={"token": current["tokens"]["access_token"],
                                                       "client_id": current["client_info"]["client_id"],
                                                       "client_secret": current["client_info"].get("client_secret", "")})  # fmt: skip
    Path(token_file).write_text(json.dumps({**current, "expires_at": time.time() + 3600}))
    renewed = _call(project, "from tools import secured; print(secured.WhoamiTool()())", run_env)
    assert renewed.stdout.strip() == "Bearer refreshed team=no", renewed.stderr
    # With a stored token nothing is discovered again: the token's record says who issued it, so no drift.
    checked = project.run("check", "--remote", env=run_env)
    assert checked.exit_code == 0 and "no upstream changes" in checked.stdout, checked.stdout + checked.stderr
    printed = [added.stdout, added.stderr, called.stderr, refused.stderr, logged_in.stdout, logged_in.stderr]
    for secret in (tokens["access_token"], tokens["refresh_token"]):
        assert not any(secret in text for text in printed)
        assert not any(secret.encode() in path.read_bytes() for path in project.root.rglob("*") if path.is_file())
    assert project.run("logout", "secured", env=env).exit_code == 0
    assert not list(store.glob("*.json"))
