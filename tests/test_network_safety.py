"""Secrets and slow servers at vendoring time (issue 10 items 9, 10 and 16).

- A Hub token goes to the Hub and to the Space's own *.hf.space host only; an app URL gets one only
  when it is given with `--token` on the command line. Checked through a real reverse proxy in front
  of the example Gradio app that writes down every request's headers.
- A source URL with user:password@ is refused, and the password appears nowhere: not in the error,
  not in a file.
- A server that answers one byte a second (no read ever times out) is cut by the total deadline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process
from tests.servers.fakehub import FakeHub
from vendorgen.shipped import _vendored_gradio as runtime  # the shipped file, as vendored
from vendorgen.sources.hub_client import token_allowed

# Any Hub: the rule reads the Hub origin from HF_ENDPOINT, so a loopback Hub stands in for the real one.
HUB = "http://127.0.0.1:8080"
ENV_TOKEN = "hf_envsecret0123456789"
GIVEN_TOKEN = "hf_givensecret0123456789"
PASSWORD = "s3cretpassw0rd"


@pytest.mark.parametrize(
    ("url", "space_id", "allowed"),
    [
        ("http://127.0.0.1:8080/api/spaces/a/b", None, True),  # the Hub itself
        ("http://127.0.0.1:8081/", None, False),  # another port
        ("https://127.0.0.1:8080/x", None, False),  # another scheme
        ("http://localhost:8080/x", None, False),  # another host name, strictly
        ("https://a-b.hf.space/config", "a/b", True),  # the Space's own host
        ("https://a-b.static.hf.space/", "a/b", True),
        ("https://owner-my-app.hf.space/", "Owner/My_App", True),  # case and _ as the Hub writes hosts
        ("https://evil-b.hf.space/", "a/b", False),  # another Space
        ("https://a-b.hf.space/", None, False),  # an app URL names no Space
        ("https://A-B.HF.SPACE/", "a/b", True),
        ("https://a-b.hf.space:443/", "a/b", True),
        ("https://a-b.hf.space:8443/", "a/b", False),
        ("https://a-b.hf.space:x/", "a/b", False),  # a port that is not a number
        ("http://a-b.hf.space/", "a/b", False),
        ("https://a-b.hf.space.evil.com/", "a/b", False),
        ("https://evil.com/a-b.hf.space", "a/b", False),
        ("http://127.0.0.1:7860/", None, False),
        ("not a url", "a/b", False),
    ],
)
def test_where_a_hub_token_may_go(url: str, space_id: str | None, allowed: bool) -> None:
    """One rule: what `add` sends (hub_client) and what the vendored runtime sends, held to one table."""
    assert token_allowed(url, space_id, HUB) is allowed
    assert runtime._token_allowed(url, space_id, HUB) is allowed


@pytest.mark.parametrize("allowed", [token_allowed, runtime._token_allowed])
def test_a_hub_origin_is_compared_strictly(allowed: Any) -> None:
    """A port written out is another origin, even the scheme's default one."""
    assert allowed("https://hub.example/x", None, "https://hub.example")
    assert not allowed("https://hub.example:443/x", None, "https://hub.example")
    assert not allowed("http://hub.example/x", None, "https://hub.example")  # the token in clear text


@pytest.fixture
def proxy(gradio_app: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A logging reverse proxy in front of the example app: (its URL, the file of request headers)."""
    port = free_port()
    log = tmp_path / "requests.jsonl"
    log.touch()
    script = str(REPO / "tests" / "servers" / "logging_proxy.py")
    args = [script, "--port", str(port), "--upstream", gradio_app, "--log", str(log)]
    with server_process(args, f"http://127.0.0.1:{port}/__ready__"):
        yield f"http://127.0.0.1:{port}/", log


def sent(log: Path) -> list[dict[str, str]]:
    return [json.loads(line)["headers"] for line in log.read_text().splitlines()]


def no_machine_token(project: Project) -> dict[str, str]:
    """HF_TOKEN set, no stored login: what a user with a token in the environment has."""
    return {"HF_TOKEN": ENV_TOKEN, "HF_HOME": str(project.root.parent / "hf-home")}


def test_the_environments_token_never_goes_to_an_app_url(project: Project, proxy: tuple[str, Path]) -> None:
    url, log = proxy
    env = no_machine_token(project)
    result = project.run("add", f"space:{url}", "--api-name", "/convert", env=env)
    assert result.exit_code == 0, result.stderr
    result = project.run("check", "--remote", env=env)
    assert result.exit_code == 0, result.stderr
    assert len(sent(log)) >= 4  # both commands read the app through the proxy
    assert ENV_TOKEN not in log.read_text()


def test_a_token_given_on_the_command_line_goes_to_the_url_named_with_it(
    project: Project, proxy: tuple[str, Path]
) -> None:
    url, log = proxy
    result = project.run("add", f"space:{url}", "--api-name", "/convert", "--token", GIVEN_TOKEN,
                         env=no_machine_token(project))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert any(GIVEN_TOKEN in value for headers in sent(log) for value in headers.values())
    assert ENV_TOKEN not in log.read_text()
    assert not any(GIVEN_TOKEN.encode() in data for data in project.snapshot().values())


@pytest.mark.parametrize(
    "source",
    [
        "space:http://user:{password}@127.0.0.1:{port}/",
        "space:https://:{password}@127.0.0.1:{port}/",
        "mcp:http://user:{password}@127.0.0.1:{port}/mcp",
        "mcp:sse:ftp://user:{password}@127.0.0.1:{port}/sse",  # refused for credentials before the scheme
    ],
)
def test_a_url_with_credentials_is_refused_without_echoing_them(project: Project, source: str) -> None:
    before = project.snapshot()
    result = project.run("add", source.format(password=PASSWORD, port=free_port()), timeout=60)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the URL carries credentials"), result.stderr
    assert PASSWORD not in result.stderr + result.stdout
    assert project.snapshot() == before


def test_a_snapshot_with_credentials_is_not_regenerated(project: Project, gradio_app: str) -> None:
    """A lock or snapshot from elsewhere (an old vendorgen, a pull request) gets the same refusal offline."""
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    (snapshot,) = (project.root / ".vendorgen").rglob("convert*.json")
    with_password = gradio_app.replace("http://", f"http://user:{PASSWORD}@")
    snapshot.write_text(snapshot.read_text().replace(f'"{gradio_app}"', f'"{with_password}"'))
    assert PASSWORD in snapshot.read_text()
    before = project.snapshot()
    result = project.run("update", "--offline")
    assert result.exit_code != 0
    assert "the URL carries credentials" in result.stderr and PASSWORD not in result.stderr + result.stdout
    assert project.snapshot() == before
    check = project.run("check")  # the snapshot's src is not its source's either: said without the password
    assert check.exit_code == 1 and "the snapshot's src is 'http://***@" in check.stdout
    assert PASSWORD not in check.stdout + check.stderr


TRICKLE_ENV = {"VENDORGEN_HUB_TIMEOUT": "3"}


@pytest.fixture(scope="module")
def trickling() -> Iterator[str]:
    """A server that answers every request one byte a second and never finishes."""
    port = free_port()
    script = str(REPO / "tests" / "servers" / "faulty_http.py")
    with server_process([script, "--port", str(port), "--mode", "trickle"], f"http://127.0.0.1:{port}/__ready__"):
        yield f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("args", "as_hub", "message"),
    [
        (["add", "space:{url}/"], False, "no answer from the Gradio app at {url}/ within 3 s"),
        (["add", "space:tester/app"], True, "no answer from the Hub at {url} for the Space tester/app within 3 s"),
        (["add", "hub:tester/tool", "--trust"], True, "no answer from the Hub at {url} for Space tester/tool within 3 s"),
        (["add", "collection:tester/tools-0123", "--trust"], True, "no answer from the Hub at {url} for collection"),
    ],
)
def test_a_trickling_server_is_cut_by_the_deadline(
    project: Project, trickling: str, args: list[str], as_hub: bool, message: str
) -> None:
    env = {**TRICKLE_ENV, **({"HF_ENDPOINT": trickling} if as_hub else {})}
    before = project.snapshot()
    # 60 s is only a hang guard: on the old code these waited for over 150 s.
    result = project.run(*(arg.format(url=trickling) for arg in args), env=env, timeout=60)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: " + message.format(url=trickling)), result.stderr
    assert "(set VENDORGEN_HUB_TIMEOUT to wait longer)" in lines[0]
    assert project.snapshot() == before


def test_the_deadline_setting_is_checked(project: Project) -> None:
    result = project.run("add", "space:http://127.0.0.1:9/", env={"VENDORGEN_HUB_TIMEOUT": "-1"})
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: VENDORGEN_HUB_TIMEOUT must be a positive number of seconds, not '-1'"




def test_a_space_by_name_sends_the_token_to_the_hub_but_not_to_a_host_that_is_not_its_own(
    fakehub: FakeHub, project: Project, proxy: tuple[str, Path]
) -> None:
    """The Hub names where the Space runs; a host other than the Space's own *.hf.space gets no token."""
    url, log = proxy
    fakehub.add_space("tester/app", {"app.py": b"import gradio\n"}, private=True)  # the Hub needs the token
    fakehub.space_hosts["tester/app"] = url
    hub_env = fakehub.client_env(project.root.parent / "hf-home", ENV_TOKEN)
    result = project.run("add", "space:tester/app", "--api-name", "/convert", env=hub_env)
    assert result.exit_code == 0, result.stderr
    assert len(sent(log)) >= 2 and ENV_TOKEN not in log.read_text()  # the app was read, without the token
    lock = (project.root / "vendorgen.lock").read_text()
    assert 'source = "space:tester/app"' in lock and fakehub.commit_sha("tester/app") in lock
    # The vendored tool, run from disk, follows the same rule: the Hub gets the token, that host does not.
    requests_at_add = len(sent(log))
    code = "from tools.convert import ConvertTool; print(ConvertTool()(value=2, from_unit='km', to_unit='m'))"
    ran = subprocess.run([sys.executable, "-c", code], cwd=project.root, env={**os.environ, **hub_env},
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert ran.returncode == 0 and ran.stdout.strip() == "2000.0", ran.stderr
    assert len(sent(log)) > requests_at_add and ENV_TOKEN not in log.read_text()
