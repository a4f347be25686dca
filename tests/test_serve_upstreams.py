"""`vendorgen serve` against upstreams that are slow, hostile or rich in content, through real clients.

- A Gradio app slow to set up holds up no other tool (each tool connects under its own lock).
- An upstream MCP server's listing (the drift check before the first call) is bounded in pages,
  bytes and time: over a bound, that server's calls fail with one clear error.
- A module name an upstream picks (`serverInfo.name` of `json`, `dict`, `ipaddress`) never shadows a
  name of the server module.
- The reference server `@modelcontextprotocol/server-everything`, vendored and served, answers
  item by item as it answers directly: images, resource links, embedded resources with their URI
  and MIME type.
- Tool code never runs on the event loop: a LangChain tool is called, and its value converted, in a
  worker thread; an upstream MCP tool's answer is passed on as sent, without entering one.
- A client's disconnect from a server over streamable-http is quiet.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, Project, new_project
from tests.servers import free_port, wait_for_http
from tests.servers.mcp_server import tiny_png
from tests.test_mcp_thirdparty import EVERYTHING, needs_everything
from tests.test_serve import _env, http_server, http_session, stdio_session, texts

UPSTREAM = "mcp:stdio:python -m tests.servers.mcp_upstream stdio"


def add(project: Project, *args: str, env: dict[str, str] | None = None) -> None:
    result = project.run("add", *args, env={**_env(), **(env or {})})
    assert result.exit_code == 0, result.stderr


def call(project: Project, calls: list[tuple[str, dict[str, Any]]], env: dict[str, str] | None = None) -> list[Any]:
    """The results of `calls`, made in turn over one stdio session with `vendorgen serve`."""

    async def run() -> list[Any]:
        async with stdio_session(project, env=env) as session:
            return [await session.call_tool(name, arguments) for name, arguments in calls]

    # Generous: a call held up without end (an unbounded listing) fails here instead of hanging the run.
    return asyncio.run(asyncio.wait_for(run(), 300))


def test_module_names_the_server_module_uses_are_kept_off(tmp_path: Path) -> None:
    project = new_project(tmp_path)
    for name in ("json", "dict", "ipaddress"):
        add(project, f"{UPSTREAM} --name {name}", "--trust", "--prefix", f"{name}_")
    assert sorted(path.name for path in (project.root / "tools").glob("[!_]*.py")) == [
        "dict_module.py",
        "ipaddress_module.py",
        "json_module.py",
    ]
    results = call(
        project, [("json_echo", {"text": "hi"}), ("dict_measure", {"text": "four"}), ("ipaddress_echo", {"text": "x"})]
    )
    assert [texts(results[0]), results[1].structuredContent, texts(results[2])] == ["hi", {"length": 4}, "x"]
    assert not any(result.isError for result in results)
    # Outside serve too: the module of an output-schema tool answers with its structured value.
    script = "from tools.dict_module import DictMeasureTool\nwith DictMeasureTool() as tool: print(tool(text='abc'))"
    ran = subprocess.run([sys.executable, "-c", script], cwd=project.root, env=_env(), capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout.strip() == "{'length': 3}", ran.stderr

    chosen = project.run("add", f"{UPSTREAM} --name other", "--trust", "--name", "dict", env=_env())
    assert chosen.exit_code == 2 and chosen.stderr.startswith("error: 'dict' is a name `vendorgen serve`'s server")
    assert not (project.root / "tools" / "dict.py").exists()


@pytest.mark.parametrize(
    ("listing", "expected"),
    [
        ("endless", "lists its tools in more than 1,000 pages"),
        ("growing", "lists more than 20,000,000 bytes of tools"),
        ("silent", "did not list its tools within 2 s"),
    ],
)
def test_a_listing_over_its_bounds_fails_that_servers_calls(tmp_path: Path, listing: str, expected: str) -> None:
    project = new_project(tmp_path)
    add(
        project,
        f"{UPSTREAM} --name upstream",
        "--trust",
        "--env",
        "UPSTREAM_LISTING",
        env={"UPSTREAM_LISTING": "plain"},
    )
    add(project, "langchain:examples.langchain_tools:toolkit", "--name", "local")
    if listing == "silent":  # the call's time-out bounds the listing before it (it never answers: nothing races)
        project.edit("tools/upstream.py", "TIMEOUT = 60.0", "TIMEOUT = 2.0")
    refused, local, again = call(
        project,
        [("echo", {"text": "hi"}), ("count_words", {"text": "still answers"}), ("echo", {"text": "hi"})],
        env={"UPSTREAM_LISTING": listing},
    )
    assert refused.isError and texts(refused).startswith("refused echo: the MCP server upstream (stdio) ")
    assert expected in texts(refused) and texts(refused).endswith("its pinned definition cannot be checked")
    assert not local.isError and texts(local) == "2"
    assert again.isError and expected in texts(again)  # every call of that server, not only the first


def test_tool_code_runs_off_the_event_loop_and_an_mcp_answer_is_passed_on_as_sent(tmp_path: Path) -> None:
    """Issue 19 item 8: a non-MCP tool is called, and its value converted, in a worker thread, never on the
    server's event loop; an upstream MCP tool's answer is passed on as the upstream sent it, not converted."""
    project = new_project(tmp_path)
    add(project, "langchain:tests.servers.langchain_threads:where_run")
    add(project, "mcp:stdio:python -m tests.servers.mcp_server stdio", "--trust", "--tool", "text_and_image")
    where, both = call(project, [("where_run", {"label": "first"}), ("text_and_image", {"caption": "hi"})])

    assert not where.isError, texts(where)
    off_the_loop = {"event_loop": False, "main_thread": False}  # the server's event loop runs on its main thread
    [item] = where.content  # the value's str(), made by the conversion, as a JSON string
    assert json.loads(json.loads(item.text)) == {"label": "first", "called": off_the_loop, "converted": off_the_loop}
    assert not both.isError, texts(both)
    # The upstream's own items, its PNG byte for byte; through a worker, the tool's value (a list of a
    # text and a PIL image) would be converted instead.
    assert [item.type for item in both.content] == ["text", "image"], both.content
    text, image = both.content
    assert (text.text, image.mimeType) == ("hi", "image/png")
    assert base64.b64decode(image.data) == tiny_png((255, 0, 0))


@contextmanager
def trickling_app() -> Iterator[tuple[str, threading.Event, threading.Event]]:
    """An HTTP server that answers every request with a body that never ends: one space at a time,
    often enough that no read times out. Yields (its URL, set when a request came, set to end it)."""
    listener = socket.create_server(("127.0.0.1", 0))
    asked, done = threading.Event(), threading.Event()

    def answer() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            asked.set()
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            while not done.wait(0.2):
                connection.sendall(b"1\r\n \r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/", asked, done
    finally:
        done.set()
        if not asked.is_set():  # nobody came: wake the accept
            socket.create_connection(listener.getsockname()).close()
        thread.join()
        listener.close()


def test_a_gradio_app_slow_to_set_up_holds_up_no_other_tool(tmp_path: Path, gradio_app: str) -> None:
    project = new_project(tmp_path)
    add(project, f"space:{gradio_app}", "--api-name", "/convert")
    add(project, "langchain:examples.langchain_tools:toolkit", "--name", "local")

    async def run(asked: threading.Event, done: threading.Event) -> tuple[Any, Any]:
        async with stdio_session(project) as session:
            slow = asyncio.ensure_future(session.call_tool("convert", {"value": 1, "from_unit": "km", "to_unit": "m"}))
            assert await asyncio.get_running_loop().run_in_executor(None, asked.wait, 120)  # convert is setting up
            # Not held up by convert's set-up (on the global lock of before, this waited for as long as it).
            local = await asyncio.wait_for(session.call_tool("count_words", {"text": "a b c"}), 120)
            done.set()
            return local, await slow

    with trickling_app() as (url, asked, done):
        text = (project.root / "tools" / "convert.py").read_text()
        (project.root / "tools" / "convert.py").write_text(text.replace(gradio_app, url))
        local, slow = asyncio.run(run(asked, done))
    assert not local.isError and texts(local) == "3"
    assert slow.isError and texts(slow).startswith("convert failed:")


def dumped(result: Any) -> str:
    """A result's content as JSON, the time of day a text resource says masked (it says when it was read)."""
    text = json.dumps([item.model_dump(mode="json") for item in result.content], sort_keys=True)
    return re.sub(r"\d{1,2}:\d{2}:\d{2}( [AP]M)?", "<time>", text)


@needs_everything
def test_server_everything_is_served_item_by_item_as_it_answers(tmp_path: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    project = new_project(tmp_path)
    add(project, f"mcp:stdio:node {EVERYTHING} stdio", "--trust", "--name", "everything")
    gzipped = {"name": "hello.txt.gz", "data": "data:text/plain;base64," + base64.b64encode(b"hello " * 50).decode()}
    calls = [
        ("get-tiny-image", {}),  # text, image, text
        ("get-resource-links", {"count": 3}),  # text, three resource links
        ("get-resource-reference", {"resourceType": "Text", "resourceId": 2}),  # an embedded text resource
        ("gzip-file-as-resource", {**gzipped, "outputType": "resource"}),  # an application/gzip blob
        ("gzip-file-as-resource", {**gzipped, "outputType": "resourceLink"}),
    ]

    async def direct() -> list[Any]:
        parameters = StdioServerParameters(command="node", args=[str(EVERYTHING), "stdio"])
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return [await session.call_tool(name, arguments) for name, arguments in calls]

    upstream = asyncio.run(direct())
    served = call(project, [(name.replace("-", "_"), arguments) for name, arguments in calls])
    for (name, _), theirs, ours in zip(calls, upstream, served):
        assert not theirs.isError and not ours.isError, (name, texts(ours))
        assert dumped(ours) == dumped(theirs), name
    assert [item.type for item in served[0].content] == ["text", "image", "text"]
    assert [item.type for item in served[1].content] == ["text", "resource_link", "resource_link", "resource_link"]
    [embedded] = served[3].content
    assert embedded.type == "resource" and embedded.resource.mimeType == "application/gzip"
    assert str(embedded.resource.uri) == "demo://resource/session/hello.txt.gz"


@contextmanager
def example_server(errors: list[str]) -> Iterator[str]:
    """examples/mcp_server.py over streamable-http; yields its URL. Once it ends, its stderr is added to `errors`."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = [sys.executable, str(REPO / "examples" / "mcp_server.py"), "http", "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=_env(), stdout=subprocess.DEVNULL, stderr=log)
        try:
            wait_for_http(url, process)  # type: ignore[arg-type]
            yield url
        finally:
            process.terminate()
            process.wait(10)
            log.seek(0)
            errors.append(log.read().decode(errors="replace"))


@pytest.mark.parametrize("served", ["vendorgen serve", "examples/mcp_server.py"])
def test_a_client_disconnecting_over_http_is_quiet(tmp_path: Path, served: str) -> None:
    """The mcp SDK logs each disconnect as an error with a 45-line traceback; both servers keep it quiet."""
    errors: list[str] = []
    if served == "vendorgen serve":
        project = new_project(tmp_path)
        add(project, "langchain:examples.langchain_tools:toolkit", "--name", "local")
        server, tool = http_server(project, errors=errors), "count_words"
    else:
        server, tool = example_server(errors), "word_stats"

    async def session_then_leave(url: str) -> bool:
        async with http_session(url) as session:
            return bool((await session.call_tool(tool, {"text": "a b"})).isError)

    with server as url:
        assert [asyncio.run(session_then_leave(url)) for _ in range(3)] == [False] * 3
    [said] = errors
    assert "Traceback" not in said and "rror" not in said, said
