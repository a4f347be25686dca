"""`vendorgen serve`: the vendored toolset as one MCP server, driven by real clients.

One project vendors tools of four kinds (the example Gradio app, the example MCP server, the
example LangChain tools, a hub tool from the loopback Hub); the server runs it with
`vendorgen serve` over stdio and streamable-http. Clients: a plain mcp ClientSession,
smolagents' ToolCollection.from_mcp and langchain-mcp-adapters.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import pytest

from tests.conftest import REPO, Project
from tests.servers import OFFLINE_ENV, free_port, server_process, wait_for_http
from tests.servers.fakehub import FakeHub
from tests.servers.text_tools_drifted import DRIFTED_DESCRIPTION

HUB_TOOL = """\
from smolagents import Tool


class ShoutTool(Tool):
    name = "shout"
    description = "Upper-cases a text and adds exclamation marks."
    inputs = {
        "text": {"type": "string", "description": "The text to shout."},
        "times": {"type": "integer", "description": "How many marks.", "nullable": True},
    }
    output_type = "string"

    def forward(self, text: str, times: int | None = None) -> str:
        if text == "boom":
            raise ValueError("shout cannot shout boom")
        return text.upper() + "!" * (times or 1)
"""


def _env() -> dict[str, str]:
    return {**os.environ, **OFFLINE_ENV, "PYTHONPATH": str(REPO)}


def _example_mcp(port: int, script: list[str] | None = None):
    args = script or [str(REPO / "examples" / "mcp_server.py"), "http"]
    return server_process([*args, "--port", str(port)], f"http://127.0.0.1:{port}/mcp", env={"PYTHONPATH": str(REPO)})


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, gradio_app: str) -> Iterator[Project]:
    """A project with tools of every source kind vendored, its upstream servers running."""
    root = tmp_path_factory.mktemp("served") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    port = free_port()
    with FakeHub() as hub, _example_mcp(port):
        hub.add_space("tester/shout", {"tool.py": HUB_TOOL.encode()})
        hub_env = hub.client_env(root.parent / "hf_home", "hf_test")
        for args, env in [
            (["add", f"space:{gradio_app}", "--api-name", "/convert"], None),
            (["add", f"space:{gradio_app}", "--api-name", "/thumbnail"], None),
            (["add", f"space:{gradio_app}", "--api-name", "/tone"], None),
            (["add", f"mcp:http://127.0.0.1:{port}/mcp", "--name", "text_tools"], None),
            (["add", "langchain:examples.langchain_tools:toolkit", "--name", "langchain_tools"], None),
            (["add", "hub:tester/shout", "--trust"], hub_env),
        ]:
            result = project.run(*args, env=env)
            assert result.exit_code == 0, result.stderr
        yield project


def stdio_parameters(project: Project, *args: str, env: dict[str, str] | None = None) -> Any:
    from mcp import StdioServerParameters

    command, environment = ["-m", "vendorgen", "serve", *args], {**_env(), **(env or {})}
    return StdioServerParameters(command=sys.executable, args=command, cwd=str(project.root), env=environment)


def without_pin(project: Project, tool: str, env: dict[str, str] | None = None) -> Any:
    """Parameters to run over stdio a copy of the project's generated server module whose pins lack `tool`'s, as
    a server module written before the tool was vendored (or edited) has: tools/_stale_server.py, which the
    caller deletes."""
    from mcp import StdioServerParameters

    text = (project.root / "tools/_vendored_server.py").read_text()
    pin = text.index(f"    {tool!r}: {{".replace("'", '"'))
    stale = text[:pin] + text[text.index("    },\n", pin) + len("    },\n") :]
    (project.root / "tools/_stale_server.py").write_text(stale)
    environment = {**_env(), **(env or {})}
    return StdioServerParameters(command=sys.executable, args=["-m", "tools._stale_server"], cwd=str(project.root),
                                 env=environment)  # fmt: skip


@asynccontextmanager
async def stdio_session(project: Project, *args: str, env: dict[str, str] | None = None):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    parameters = stdio_parameters(project, *args, env=env)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@contextmanager
def http_server(
    project: Project, *args: str, env: dict[str, str] | None = None, errors: list[str] | None = None
) -> Iterator[str]:
    """`vendorgen serve --transport streamable-http` in the background; yields the URL it printed.
    Once it ends, what it wrote to stderr is added to `errors`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "vendorgen", "serve", "--transport", "streamable-http", "--port", "0", *args],
        cwd=project.root, env={**_env(), **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = process.stdout.readline()
        assert line.startswith("serving MCP at "), (line, process.stderr.read() if process.poll() is not None else "")
        url = line.split()[-1]
        wait_for_http(url, process)  # type: ignore[arg-type]
        yield url
    finally:
        process.terminate()
        process.wait(10)
        if errors is not None:
            errors.append(process.stderr.read())
        process.stdout.close()
        process.stderr.close()


@asynccontextmanager
async def http_session(url: str, headers: dict[str, str] | None = None):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    async with streamablehttp_client(url, headers=headers) as (read, write, _), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def texts(result: Any) -> str:
    return " ".join(item.text for item in result.content if item.type == "text")


def png_data_uri(size: tuple[int, int] = (64, 32), mode: str = "RGB") -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new(mode, size, 1).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


CALLS = {
    "convert": ({"value": 1, "from_unit": "km", "to_unit": "m"}, "1000"),
    "word_stats": ({"text": "a b a"}, '"words": 3'),
    "slugify_title": ({"title": "Hello World"}, "hello-world"),
    "count_words": ({"text": "one two three"}, "3"),
    "shout": ({"text": "hi", "times": 2}, "HI!!"),
}


async def check_session(session: Any) -> None:
    """Every kind of tool answers through `session`, listed with its vendored schemas."""
    listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(CALLS) | {"thumbnail", "paint_needed", "convert_temperature"} <= set(listed)
    assert listed["word_stats"].outputSchema["required"] == ["words", "unique", "top"]
    assert listed["shout"].inputSchema["required"] == ["text"]
    assert listed["thumbnail"].inputSchema["properties"]["image"]["type"] == "string"
    results = await asyncio.gather(*(session.call_tool(name, arguments) for name, (arguments, _) in CALLS.items()))
    for (name, (_, expected)), result in zip(CALLS.items(), results):
        assert not result.isError, (name, texts(result))
        assert expected in texts(result).replace(".0", ""), (name, texts(result))
    structured = await session.call_tool("word_stats", {"text": "x y x", "top": 1})
    assert structured.structuredContent == {"words": 3, "unique": 2, "top": ["x"]}
    image = await session.call_tool("thumbnail", {"image": png_data_uri(), "size": 16})
    assert not image.isError, texts(image)
    [item] = image.content
    assert item.type == "image" and item.mimeType == "image/png"
    from PIL import Image

    assert Image.open(io.BytesIO(base64.b64decode(item.data))).size == (16, 8)
    audio = await session.call_tool("tone", {"frequency": 440, "seconds": 0.1})
    assert not audio.isError, texts(audio)
    [item] = audio.content
    assert item.type == "audio" and item.mimeType.startswith("audio/")
    assert base64.b64decode(item.data)[:4] == b"RIFF"


def serve_and_end(project: Project) -> None:
    """`vendorgen serve` over stdio with no client (its input /dev/null): it writes the server module, then ends."""
    result = project.run("serve", stdin=subprocess.DEVNULL)
    assert result.exit_code == 0, result.stderr


def test_list_names_every_vendored_tool_and_writes_nothing(served: Project) -> None:
    before = served.snapshot()
    result = served.run("serve", "--list")
    assert result.exit_code == 0, result.stderr
    names = {line.split()[0] for line in result.stdout.splitlines()}
    assert names == {"convert", "thumbnail", "tone", "convert_temperature", "word_stats", "slugify_title", "count_words",
                     "paint_needed", "shout"}  # fmt: skip
    assert served.snapshot() == before and not list(served.root.rglob("__pycache__"))
    serve_and_end(served)
    server = (served.root / "tools" / "_vendored_server.py").read_text()
    assert "text_tools.WordStatsTool," in server and '"word_stats": {' in server
    # What follows the verbatim part is written from the lock: identifiers, hex digests and the snapshots' paths
    # (which vendorgen names after the modules), no remote text.
    tail = server.split("# -- What this project serves\n", 1)[1]
    assert re.fullmatch(r'(from \. import \w+\n|TOOLS = \[\n|    \w+\.\w+,\n|\]\n|# [\w\' .:]+\n|PINNED = \{\n|'
                        r'    "\w+": \{\n|        "\w+": "[0-9a-f]{64}",\n|    \},\n|\}\n|\n|if __name__ == "__main__":\n'
                        r'|READ_ONLY = \[\n|    "\w+",\n'
                        r'|SNAPSHOTS = \{\n|    "\w+": "\.vendorgen/schemas/\w+\.json",\n'
                        r'|    main\(TOOLS, PINNED, read_only=READ_ONLY, snapshots=SNAPSHOTS\)\n)+', tail), tail  # fmt: skip
    assert served.run("check").exit_code == 0
    served.edit("tools/_vendored_server.py", "    text_tools.WordStatsTool,\n", "")
    edited = served.run("check")
    assert edited.exit_code == 1 and "tools/_vendored_server.py does not serve what the lock holds" in edited.stdout
    serve_and_end(served)
    assert served.run("check").exit_code == 0


@pytest.mark.parametrize("command", [("serve", "--list"), ("list",), ("requirements",)])
def test_a_reader_gone_early_is_a_quiet_exit(served: Project, command: tuple[str, ...]) -> None:
    """`vendorgen serve --list | head -1` and the like: a stdout whose reader is gone (here before the first
    write, so the same on every run) ends the command quietly, as any filter, not with a traceback."""
    read, write = os.pipe()
    os.close(read)
    try:
        ended = subprocess.run(**served._command(command, None), stdout=write, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write)
    assert (ended.returncode, ended.stderr) == (1, ""), command


def test_a_session_over_stdio(served: Project) -> None:
    async def run() -> None:
        async with stdio_session(served) as session:
            await check_session(session)

    asyncio.run(run())


_INITIALIZE = (
    '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", '
    '"capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}\n'
)


def test_stdio_that_is_not_two_pipes(served: Project) -> None:
    """/dev/null as input ends the server (the event loop cannot watch it: the SDK's streams read it);
    one socket as both input and output (inetd style) answers, then ends when the client closes."""
    command = [sys.executable, "-m", "vendorgen", "serve", "--transport", "stdio"]
    ended = subprocess.run(command, cwd=served.root, env=_env(), stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=120)  # fmt: skip
    assert ended.returncode == 0, ended.stderr
    import socket

    ours, theirs = socket.socketpair()
    with ours, theirs:
        process = subprocess.Popen(command, cwd=served.root, env=_env(), stdin=theirs, stdout=theirs,
                                   stderr=subprocess.PIPE)  # fmt: skip
        theirs.close()
        ours.sendall(_INITIALIZE.encode())
        answer = ours.makefile("rb").readline()
        ours.shutdown(socket.SHUT_WR)
        try:
            assert b'"result"' in answer and b'"serverInfo"' in answer, (answer, process.stderr.read())  # type: ignore[union-attr]
        finally:
            process.wait(120)
            process.stderr.close()  # type: ignore[union-attr]


def test_sessions_from_several_threads_over_http(served: Project) -> None:
    errors: list[BaseException] = []

    def client(url: str) -> None:
        async def run() -> None:
            async with http_session(url) as session:
                await check_session(session)

        try:
            asyncio.run(run())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    with http_server(served) as url:
        threads = [threading.Thread(target=client, args=(url,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert not [thread for thread in threads if thread.is_alive()], "a client hung"
    assert errors == []


def test_smolagents_tool_collection(served: Project) -> None:
    from smolagents import ToolCollection

    with ToolCollection.from_mcp(
        stdio_parameters(served), trust_remote_code=True, structured_output=False
    ) as collection:
        tools = {tool.name: tool for tool in collection.tools}
        assert tools["shout"](text="hey") == "HEY!"
        assert "hello-world" in str(tools["slugify_title"](title="Hello World"))
    with (
        http_server(served) as url,
        ToolCollection.from_mcp({"url": url, "transport": "streamable-http"}, trust_remote_code=True) as collection,
    ):
        tools = {tool.name: tool for tool in collection.tools}
        results: list[Any] = [None] * 4

        def call(index: int) -> None:
            results[index] = tools["count_words"](text=" ".join(["w"] * (index + 1)))

        threads = [threading.Thread(target=call, args=(index,)) for index in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert [str(result) for result in results] == ["1", "2", "3", "4"]


def test_langchain_mcp_adapters(served: Project) -> None:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    async def run(connection: dict[str, Any]) -> None:
        tools = {tool.name: tool for tool in await MultiServerMCPClient({"vendored": connection}).get_tools()}
        answers = await asyncio.gather(
            tools["shout"].ainvoke({"text": "lc"}),
            tools["convert"].ainvoke({"value": 2, "from_unit": "m", "to_unit": "cm"}),
        )
        flat = [str(answer) for answer in answers]
        assert "LC!" in flat[0] and "200" in flat[1], flat

    parameters = stdio_parameters(served)
    asyncio.run(run({"transport": "stdio", "command": parameters.command, "args": parameters.args,
                     "cwd": parameters.cwd, "env": parameters.env}))  # fmt: skip
    with http_server(served) as url:
        asyncio.run(run({"transport": "streamable_http", "url": url}))


def test_an_edited_forward_that_uses_the_value_runs_as_written(served: Project) -> None:
    """The server awaits an MCP tool's request itself only when forward() returns it as generated;
    a forward() edited to use the value is run for real, every time."""
    original = (served.root / "tools" / "text_tools.py").read_text()
    served.edit("tools/text_tools.py", '        return self._call({"title": title, "separator": separator})',
                '        return self._call({"title": title, "separator": separator}).upper()')  # fmt: skip

    async def run() -> list[str]:
        async with stdio_session(served, "text_tools") as session:
            return [texts(await session.call_tool("slugify_title", {"title": "Edited Here"})) for _ in range(2)]

    try:
        assert asyncio.run(run()) == ["EDITED-HERE", "EDITED-HERE"]
    finally:
        (served.root / "tools" / "text_tools.py").write_text(original)


def test_a_list_result_is_content_items_when_it_holds_media_and_json_text_when_it_is_data(served: Project) -> None:
    """A non-MCP tool's list is its items, each as its own kind, when one is an image, a sound or bytes (as for a
    tuple); a list of plain data is one JSON text, as any other value."""
    original = (served.root / "tools" / "shout.py").read_text()
    served.edit("tools/shout.py", '        return text.upper() + "!" * (times or 1)',
                '        from PIL import Image\n\n'
                '        return [text, Image.new("RGB", (4, 2))] if times else [text, 1, {"k": None}]')  # fmt: skip

    async def run() -> tuple[Any, Any]:
        async with stdio_session(served, "shout") as session:
            return await session.call_tool("shout", {"text": "hi", "times": 1}), await session.call_tool("shout", {"text": "hi"})

    try:
        media, data = asyncio.run(run())
    finally:
        (served.root / "tools" / "shout.py").write_text(original)
    assert not media.isError, texts(media)
    assert [item.type for item in media.content] == ["text", "image"] and media.content[0].text == "hi"
    from PIL import Image

    assert Image.open(io.BytesIO(base64.b64decode(media.content[1].data))).size == (4, 2)
    assert [item.type for item in data.content] == ["text"] and json.loads(data.content[0].text) == ["hi", 1, {"k": None}]


def test_a_client_names_local_files_only_inside_the_directories_given_with_files(
    served: Project, tmp_path: Path
) -> None:
    """A client is another trust domain: a local path is refused unless under --files (symlinks followed)."""
    from PIL import Image

    picture = tmp_path / "shared" / "picture.png"
    picture.parent.mkdir()
    Image.new("RGB", (64, 32), "red").save(picture)
    (served.root / "in-project.png").symlink_to(picture)  # inside the project, pointing into the shared directory
    (picture.parent / "key.png").symlink_to(served.root / "pyproject.toml")  # inside it, pointing out

    async def run() -> list[Any]:
        results = []
        for args, image in [((), str(picture)), ((), "in-project.png"), (("--files", str(picture.parent)), str(picture)),
                            (("--files", str(picture.parent)), "in-project.png"),
                            (("--files", str(picture.parent)), str(picture.parent / "key.png"))]:  # fmt: skip
            async with stdio_session(served, *args) as session:
                results.append(await session.call_tool("thumbnail", {"image": image, "size": 16}))
        return results

    none, in_project, shared, linked_in, linked_out = asyncio.run(run())
    rule = "file arguments are read only from inside the tool's file_roots"
    assert none.isError and texts(none) == (
        f"thumbnail: refused to upload {picture}: {rule} (none); send the file's content as a data: URI,"
        " or widen file_roots (vendorgen serve: --files)"
    )
    assert in_project.isError and f"{rule} (none)" in texts(in_project)
    assert not shared.isError and not linked_in.isError and shared.content[0].type == "image"
    assert linked_out.isError and f"{rule} ({picture.parent})" in texts(linked_out)


def test_a_percent_encoded_data_uri_image_is_read_as_its_bytes(served: Project) -> None:
    """A data: URI without ;base64 carries its bytes percent-encoded (RFC 2397), as a Gradio tool reads it in-process."""
    png = base64.b64decode(png_data_uri().partition(",")[2])

    async def run() -> Any:
        async with stdio_session(served) as session:
            return await session.call_tool("thumbnail", {"image": "data:image/png," + quote_from_bytes(png), "size": 16})

    result = asyncio.run(run())
    assert not result.isError, texts(result)
    from PIL import Image

    assert Image.open(io.BytesIO(base64.b64decode(result.content[0].data))).size == (16, 8)


def test_bad_calls_are_error_results_and_the_server_goes_on(served: Project) -> None:
    async def run() -> None:
        async with stdio_session(served) as session:
            cases = {
                ("nope", ()): "unknown tool 'nope'",
                ("shout", (("text", 3),)): "bad argument text: 3 is not of type 'string'",
                ("shout", (("loud", "x"), ("text", "a"))): "takes no argument 'loud'",
                ("shout", ()): "needs the argument 'text'",
                ("shout", (("text", "boom"),)): "shout failed: ValueError: shout cannot shout boom",
                # 13000x13000 pixels in about 30 kB: refused before it is decoded (issue 19 item 8)
                ("thumbnail", (("image", png_data_uri((13000, 13000), "1")), ("size", 16))): "over 40000000 pixels",
                ("thumbnail", (("image", "data:image/png;base64,iVBO@w0K"), ("size", 16))): "not valid base64",
            }
            for (name, arguments), expected in cases.items():
                result = await session.call_tool(name, dict(arguments))
                assert result.isError and expected in texts(result), (name, texts(result))
            assert texts(await session.call_tool("shout", {"text": "ok", "times": None})) == "OK!"

    asyncio.run(run())


def test_http_refuses_foreign_host_origin_and_missing_token(served: Project) -> None:
    import httpx

    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    with http_server(served, "--token-env", "SERVE_TOKEN", env={"SERVE_TOKEN": "s3cret"}) as url:
        accept = {"accept": "application/json, text/event-stream"}
        assert httpx.post(url, json=body, headers={**accept, "host": "evil.example"}).status_code == 421
        assert httpx.post(url, json=body, headers={**accept, "origin": "http://evil.example"}).status_code == 403
        assert httpx.post(url, json=body, headers=accept).status_code == 401
        assert httpx.post(url, json=body, headers={**accept, "authorization": "Bearer wrong"}).status_code == 401

        async def run() -> None:
            async with http_session(url, {"Authorization": "Bearer s3cret"}) as session:
                assert texts(await session.call_tool("shout", {"text": "t"})) == "T!"

        asyncio.run(run())
    assert "s3cret" not in (served.root / "tools" / "_vendored_server.py").read_text()


def test_bad_command_lines(served: Project) -> None:
    remote = served.run("serve", "--transport", "streamable-http", "--host", "0.0.0.0")
    assert remote.exit_code == 2 and "add --allow-remote" in remote.stderr
    missing = served.run("serve", "--transport", "streamable-http", "--token-env", "NO_SUCH_VARIABLE_SET")
    assert missing.exit_code == 2 and "NO_SUCH_VARIABLE_SET" in missing.stderr
    unknown = served.run("serve", "nothing_like_it")
    assert unknown.exit_code == 2 and "nothing vendored is named nothing_like_it" in unknown.stderr
    no_directory = served.run("serve", "--files", "no-such-dir")
    assert no_directory.exit_code == 2
    assert no_directory.stderr.strip() == f"error: --files {served.root / 'no-such-dir'}: not a directory"
    picked = served.run("serve", "text_tools", "shout", "--list")
    assert {line.split()[0] for line in picked.stdout.splitlines()} == {"convert_temperature", "word_stats",
                                                                        "slugify_title", "shout"}  # fmt: skip


def test_drift_is_refused_unless_allowed_and_a_server_that_is_down_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    port = free_port()
    with _example_mcp(port):
        assert project.run("add", f"mcp:http://127.0.0.1:{port}/mcp", "--name", "text_tools").exit_code == 0
    assert project.run("add", "langchain:examples.langchain_tools:toolkit", "--name", "lc").exit_code == 0

    async def calls(*args: str) -> list[Any]:
        async with stdio_session(project, *args) as session:
            return [
                await session.call_tool("word_stats", {"text": "a a b"}),
                await session.call_tool("slugify_title", {"title": "A B"}),
                await session.call_tool("count_words", {"text": "still here"}),
            ]

    with _example_mcp(port, ["-m", "tests.servers.text_tools_drifted"]):
        drifted, unchanged, _ = asyncio.run(calls())
        assert drifted.isError
        assert texts(drifted).startswith("refused word_stats: the MCP server http://127.0.0.1:")
        assert "changed the description of 'word_stats' since it was vendored" in texts(drifted)
        assert "--allow-drift" in texts(drifted) and DRIFTED_DESCRIPTION not in texts(drifted)
        assert not unchanged.isError and texts(unchanged) == "a-b"  # vendored as a plain string (no output schema)
        allowed, _, _ = asyncio.run(calls("--allow-drift"))
        assert not allowed.isError and allowed.structuredContent["words"] == 3
    down, _, local = asyncio.run(calls())
    assert down.isError and "cannot connect to the MCP server" in texts(down)
    assert not local.isError and texts(local) == "2"
    assert project.run("remove", "text_tools", "lc").exit_code == 0
    assert not (project.root / "tools" / "_vendored_server.py").exists()  # the lock owned it: removed with the last module
    assert project.run("check").exit_code == 0


def test_two_tools_of_one_name_are_refused(project: Project) -> None:
    # add refuses a tool name another module has; a config override can still rename one into a clash
    for name, prefix in (("lc", []), ("lc_again", ["--prefix", "again"])):
        assert project.run("add", "langchain:examples.langchain_tools:toolkit", "--name", name, *prefix).exit_code == 0
    with (project.root / "pyproject.toml").open("a") as pyproject:
        pyproject.write('\n[tool.vendorgen.overrides.again_count_words]\nname = "count_words"\n')
    assert project.run("update", "--offline").exit_code == 0
    clash = project.run("serve", "--list")
    assert clash.exit_code == 2
    assert "error: the modules lc and lc_again both have a tool named count_words" in clash.stderr
    assert project.run("serve", "lc", "--list").exit_code == 0


def script_venv(root: Path, body: str) -> Path:
    """A virtualenv whose python is a shell script: `body`, run with the arguments."""
    (root / "bin").mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /usr/bin\n")
    python = root / "bin" / "python"
    python.write_text(f"#!/bin/sh\n{body}\n")
    python.chmod(0o755)
    return python


def test_serve_finds_the_interpreter_as_add_does(project: Project) -> None:
    """One discovery order (vendorgen/project/interpreter.py): the active virtualenv comes before ./.venv."""
    assert project.run("add", "langchain:examples.langchain_tools:toolkit", "--name", "lc").exit_code == 0
    script_venv(project.root / ".venv", "echo 'not this one' >&2; exit 3")
    script_venv(project.root / "active", f'exec {sys.executable} "$@"')
    environment = {"VIRTUAL_ENV": str(project.root / "active"), "VENDORGEN_PYTHON": ""}
    served = project.run("serve", "--list", env=environment)
    assert served.exit_code == 0, served.stderr
    assert "count_words" in served.stdout
    dot_venv = project.run("serve", "--list", env={**environment, "VIRTUAL_ENV": ""})
    assert dot_venv.exit_code == 3 and "not this one" in dot_venv.stderr
