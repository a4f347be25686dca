"""Faults of an MCP source, on every transport: one error line, exit 2, nothing written, in bounded time.

What tests/test_mcp_source.py already covers is not repeated here: connection refused (HTTP and
SSE), an HTTP endpoint that is not MCP (404/405), a stdio command that does not exist, one that
exits at once and one that never answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process

# How long each request may take. Where the server answers something before its fault (the
# handshake and a first page, then a hang), the answers must come within it however loaded the
# machine: a time-out only a hang reaches (2 s raced the load). Where nothing ever answers, a short
# one races nothing and keeps the case quick. The subprocess time-out of project.run bounds the
# whole command (a hang that is not cut would fail the test).
ONLY_A_HANG_REACHES = {"VENDORGEN_MCP_TIMEOUT": "10"}
NOTHING_ANSWERS = {"VENDORGEN_MCP_TIMEOUT": "2"}
PYTHONPATH = {"PYTHONPATH": str(REPO)}
FAULTY_HTTP = str(REPO / "tests" / "servers" / "faulty_http.py")
FAULTY_SSE = str(REPO / "tests" / "servers" / "faulty_sse.py")
UNREACHABLE = "255.255.255.255:9"  # the kernel refuses the route at once: no packet leaves the machine
NO_ANSWER = "no answer from the MCP server"


@dataclass(frozen=True)
class Case:
    uri: str  # {address}: host:port of the server the case starts, if any
    message: str  # in the error line
    server: tuple[str, ...] = ()  # `python <server...> --port N`, started for the case
    args: tuple[str, ...] = ()
    timeout: dict[str, str] = field(default_factory=lambda: ONLY_A_HANG_REACHES)


def faulty_http(mode: str) -> tuple[str, ...]:
    return (FAULTY_HTTP, "--mode", mode)


def faulty_mcp(transport: str, fault: str) -> tuple[str, ...]:
    """tests/servers/mcp_faulty.py: dies (SIGKILL) or hangs when asked for the second page of tools."""
    return ("-m", "tests.servers.mcp_faulty", transport, "--fault", fault)


STDIO = ("--trust", "--env", "PYTHONPATH")
GARBAGE_FOREVER = "import time\nwhile True: print('garbage, not JSON-RPC', flush=True); time.sleep(0.1)"

CASES = {
    # streamable-http against a misbehaving HTTP server
    "http 401": Case("mcp:http://{address}/mcp", "refused access (HTTP 401: injected failure)", faulty_http("status:401")),
    "http 403": Case("mcp:http://{address}/mcp", "refused access (HTTP 403: injected failure)", faulty_http("status:403")),
    "http 500": Case("mcp:http://{address}/mcp", "failed (HTTP 500); try again later", faulty_http("status:500")),
    "http hang": Case("mcp:http://{address}/mcp", NO_ANSWER, faulty_http("hang"), timeout=NOTHING_ANSWERS),
    "http truncated": Case("mcp:http://{address}/mcp", "Error parsing JSON response (RemoteProtocolError",
                           faulty_http("truncated")),
    "http malformed": Case("mcp:http://{address}/mcp", "Error parsing JSON response (ValidationError",
                           faulty_http("malformed")),
    "http 404 at the host": Case("mcp:http://{address}/", "answered HTTP 404 (MCP servers usually answer at a path:"
                                 " try mcp:http://127.0.0.1:", faulty_http("status:404")),
    "http reset": Case("mcp:http://{address}/mcp", "the connection to http://127.0.0.1:", faulty_http("reset")),
    "http unreachable": Case(f"mcp:http://{UNREACHABLE}/mcp", f"cannot connect to http://{UNREACHABLE}/mcp"),
    "http killed while listing": Case("mcp:http://{address}/mcp", NO_ANSWER, faulty_mcp("http", "die")),
    "http hangs while listing": Case("mcp:http://{address}/mcp", NO_ANSWER, faulty_mcp("http", "hang")),
    # legacy SSE
    "sse 401": Case("mcp:sse:http://{address}/sse", "refused access (HTTP 401: injected failure)", faulty_http("status:401")),
    "sse 500": Case("mcp:sse:http://{address}/sse", "failed (HTTP 500)", faulty_http("status:500")),
    "sse 404 at the host": Case("mcp:sse:http://{address}", "try mcp:sse:http://127.0.0.1:", faulty_http("status:404")),
    "sse hang": Case("mcp:sse:http://{address}/sse", NO_ANSWER, faulty_http("hang"), timeout=NOTHING_ANSWERS),
    "sse not an event stream": Case("mcp:sse:http://{address}/sse", "Content-Type to contain 'text/event-stream'",
                                    faulty_http("malformed")),
    "sse malformed message": Case("mcp:sse:http://{address}/sse", "Error parsing server message (ValidationError",
                                  (FAULTY_SSE, "--mode", "malformed")),
    "sse truncated message": Case("mcp:sse:http://{address}/sse", "closed the connection",
                                  (FAULTY_SSE, "--mode", "truncated")),
    "sse unreachable": Case(f"mcp:sse:http://{UNREACHABLE}/sse", f"cannot connect to http://{UNREACHABLE}/sse"),
    "sse killed while listing": Case("mcp:sse:http://{address}/sse", "closed the connection", faulty_mcp("sse", "die")),
    "sse hangs while listing": Case("mcp:sse:http://{address}/sse", NO_ANSWER, faulty_mcp("sse", "hang")),
    # stdio
    "stdio killed while listing": Case("mcp:stdio:python -m tests.servers.mcp_faulty stdio --fault die",
                                       "exited or closed its output before answering", args=STDIO),
    "stdio hangs while listing": Case("mcp:stdio:python -m tests.servers.mcp_faulty stdio --fault hang",
                                      NO_ANSWER, args=STDIO),
    "stdio garbage, then exit": Case("mcp:stdio:python -c \"print('hello'); print('{not json')\"",
                                     "exited or closed its output before answering", args=STDIO),
    "stdio garbage forever": Case(f"mcp:stdio:python -c \"{GARBAGE_FOREVER}\"",
                                  "the client said: Failed to parse JSONRPC message from server", args=STDIO,
                                  timeout=NOTHING_ANSWERS),
}  # fmt: skip


def fails_cleanly(project: Project, case: Case, address: str = "") -> None:
    before = project.snapshot()
    uri = case.uri.format(address=address) if case.server else case.uri  # a command line may hold braces
    result = project.run("add", uri, *case.args, env={**case.timeout, **PYTHONPATH}, timeout=120)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert result.exit_code == 2, result.stderr
    assert len(errors) == 1 and case.message in errors[0], result.stderr
    assert "Traceback" not in result.stderr  # the client's own logging stays off the terminal
    assert project.snapshot() == before


@pytest.mark.parametrize("case", list(CASES))
def test_a_failing_mcp_server_fails_cleanly(project: Project, case: str) -> None:
    spec = CASES[case]
    if not spec.server:
        fails_cleanly(project, spec)
        return
    port = free_port()
    # Every server here answers (some status) on a path that is not its endpoint: ready.
    with server_process([*spec.server, "--port", str(port)], f"http://127.0.0.1:{port}/__ready__", env=PYTHONPATH):
        fails_cleanly(project, spec, f"127.0.0.1:{port}")


def test_a_chatty_stdio_server_is_still_vendored_quietly(project: Project) -> None:
    # Lines on stdout that are not JSON-RPC (a banner) are skipped, and the client's complaints
    # about them are not printed: every page of tools is read.
    result = project.run("add", "mcp:stdio:python -m tests.servers.mcp_faulty stdio --fault banner", *STDIO,
                         env=PYTHONPATH)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines()[0] == "wrote tools/vendorgen_faulty.py (Step0Tool, Step1Tool, Step2Tool)"
