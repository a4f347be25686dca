"""Three `serve --stateless` replicas behind nginx (round-robin, no affinity), as a deployment runs them.

Each replica is `python -m tools._vendored_server --transport streamable-http --stateless`, with the bearer
token from the environment; nginx (Debian's package: `make test` installs it where apt-get can) spreads every
request over them in turn, so one client's initialize, tools/list and calls land on different replicas.
64 clients make 1,000 calls at once: every answer is right, and every tools/list is the same bytes.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import REPO, Project, new_project
from tests.servers import free_port
from tests.test_serve import _env, serve_and_end

NGINX = shutil.which("nginx") or next((path for path in ("/usr/sbin/nginx",) if os.path.exists(path)), None)
REPLICAS = ("127.0.0.1", "127.0.0.2", "127.0.0.3")  # loopback addresses, one port: what containers behind a Service see
CLIENTS = 64
CALLS = 1_000
TOKEN = "replica-test-token"

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (make test installs Debian's with apt-get)"
)

NGINX_CONF = """
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
{user}
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream replicas {{
        {servers}
        keepalive 32;
        # Below uvicorn's 5 s: nginx must not reuse a connection the replica is closing (a 502 for a POST).
        keepalive_timeout 4s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The replicas' DNS-rebinding guard takes the loopback names; nginx is what faces clients.
            proxy_set_header Host localhost:{replica_port};
            proxy_buffering off;
            add_header X-Replica $upstream_addr always;
        }}
    }}
}}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """An MCP tool (its upstream over stdio: each replica starts its own) and a LangChain tool, vendored."""
    project = new_project(tmp_path_factory.mktemp("replicas"))
    for args in (
        ["mcp:stdio:python " + str(REPO / "examples" / "mcp_server.py") + " stdio", "--trust", "--name", "text_tools"],
        ["langchain:examples.langchain_tools:toolkit", "--name", "langchain_tools"],
    ):
        result = project.run("add", *args, env=_env())
        assert result.exit_code == 0, result.stderr
    serve_and_end(project)  # writes tools/_vendored_server.py
    return project


def _wait_for_port(host: str, port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{what} exited with {process.returncode}"
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{what} did not listen on {host}:{port}")


@pytest.fixture(scope="module")
def balanced(project: Project, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The replicas and nginx in front of them; the URL clients use."""
    replica_port, port = free_port(), free_port()
    prefix = tmp_path_factory.mktemp("nginx")
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for host in REPLICAS:
            command = [sys.executable, "-m", "tools._vendored_server", "--transport", "streamable-http", "--stateless",
                       "--host", host, "--port", str(replica_port), "--token-env", "SERVE_TOKEN"]  # fmt: skip
            env = {**_env(), "SERVE_TOKEN": TOKEN}
            processes.append(subprocess.Popen(command, cwd=project.root, env=env, stdout=subprocess.DEVNULL))
        for host, process in zip(REPLICAS, processes, strict=True):
            _wait_for_port(host, replica_port, process, f"the replica on {host}")
        servers = "\n        ".join(f"server {host}:{replica_port};" for host in REPLICAS)
        user = "user root;" if os.geteuid() == 0 else ""
        conf = NGINX_CONF.format(prefix=prefix, user=user, servers=servers, port=port, replica_port=replica_port)
        (prefix / "nginx.conf").write_text(conf)
        nginx = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")], stderr=subprocess.PIPE)
        processes.append(nginx)
        _wait_for_port("127.0.0.1", port, nginx, "nginx")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _messages(body: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a response: its SSE events' data, or the JSON body itself."""
    text = body.decode("utf-8")
    if text.lstrip().startswith("{"):
        return [json.loads(text)]
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]


class Client:
    """One MCP client speaking the protocol over plain HTTP: what it was answered, and which replicas answered."""

    def __init__(self, http: Any, url: str) -> None:
        self.http, self.url = http, url
        self.replicas: set[str] = set()
        self.next_id = 0

    async def send(self, method: str, params: dict[str, Any] | None = None, notify: bool = False) -> Any:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {TOKEN}",
                   "MCP-Protocol-Version": "2025-11-25"}  # fmt: skip
        response = await self.http.post(self.url, json=message, headers=headers)
        self.replicas.add(response.headers.get("x-replica", "?"))
        assert response.status_code in ((202,) if notify else (200,)), (response.status_code, response.text)
        if notify:
            return None
        [answer] = [found for found in _messages(response.content) if found.get("id") == message["id"]]
        return answer


async def _run(url: str) -> tuple[list[Client], list[bytes], list[str]]:
    import httpx

    calls = iter(range(CALLS))
    listings: list[bytes] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)

    async def client_run(http: Any) -> Client:
        client = Client(http, url)
        started = await client.send("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                   "clientInfo": {"name": "replica-test", "version": "0"}})  # fmt: skip
        assert started["result"]["protocolVersion"] == "2025-11-25", started
        await client.send("notifications/initialized", notify=True)
        listed = await client.send("tools/list")
        listings.append(json.dumps(listed["result"], sort_keys=False, separators=(",", ":")).encode())
        for number in calls:  # shared: the clients take the calls between them until all are made
            text = f"Replica call {number}"
            name, arguments, expected = (
                ("slugify_title", {"title": text}, f"replica-call-{number}")
                if number % 2
                else ("count_words", {"text": text}, "3")
            )
            answer = await client.send("tools/call", {"name": name, "arguments": arguments})
            result = answer.get("result") or {}
            got = " ".join(item.get("text", "") for item in result.get("content", []))
            if result.get("isError") or got != expected:
                errors.append(f"{name} {number}: {answer}")
        return client

    async with httpx.AsyncClient(limits=limits, timeout=120) as http:
        clients = await asyncio.gather(*(client_run(http) for _ in range(CLIENTS)))
    return clients, listings, errors


def test_replicas_behind_nginx_answer_every_client_with_no_affinity(balanced: str) -> None:
    clients, listings, errors = asyncio.run(asyncio.wait_for(_run(balanced), 600))
    assert errors == []
    assert len(listings) == CLIENTS and len(set(listings)) == 1, "the replicas listed different tools/list bytes"
    assert {"slugify_title", "count_words"} <= {tool["name"] for tool in json.loads(listings[0])["tools"]}
    answered_by = set().union(*(client.replicas for client in clients))
    assert len(answered_by) == len(REPLICAS), answered_by  # round-robin reached every replica
    # No affinity: a client's own requests (initialize, list, calls) were answered by several replicas.
    assert all(len(client.replicas) > 1 for client in clients), [client.replicas for client in clients]
