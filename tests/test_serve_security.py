"""`vendorgen serve` on a project of hub tools alone (issue 27 items 6, 7 and the serve half of 9), with real clients.

- Only hub tools: `serve` writes the core run time the server imports, and the lock owns it (item 9).
- `--files`: an input whose type holds image (["image", "string"]) is confined like an image; `--files .` is the
  directory the command started from; the tool gets the file's content read once, so a link swapped in after the
  check leads nowhere (item 6). The swap is made by the tool itself, between the check and its own read: the
  moment another local process would have to hit.
- streamable-http requires a token by default, made for the run and printed in the URL; --no-token says what it
  costs (item 7).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project, new_project
from tests.servers.fakehub import FakeHub
from tests.test_serve import http_server, http_session, stdio_parameters, texts

SECRET = "API_KEY=not-for-clients"
# Reads what it is given: an image's size, or the file a string names. When SWAP_LINK names a link, it first points
# that link at SWAP_TARGET, as another local process could between serve's check and the tool's read.
LOOK = """\
import os

from smolagents import Tool


class {cls}(Tool):
    name = "{name}"
    description = "Describes a picture, or reads the file a text names."
    inputs = {{"picture": {{"type": {kind!r}, "description": "A picture."}}}}
    output_type = "string"

    def forward(self, picture) -> str:
        if os.environ.get("SWAP_LINK"):
            os.remove(os.environ["SWAP_LINK"])
            os.symlink(os.environ["SWAP_TARGET"], os.environ["SWAP_LINK"])
        if not isinstance(picture, str):
            return f"image {{picture.size[0]}}x{{picture.size[1]}}"
        if os.path.exists(picture):
            with open(picture) as file:
                return "read " + file.read()
        return "text " + picture[:30]
"""


def add_hub_tools(project: Project, kinds: dict[str, Any]) -> None:
    """`add hub:tester/NAME --trust` of a LOOK tool for each NAME: its input's type, from a loopback Hub."""
    with FakeHub() as hub:
        env = hub.client_env(project.root.parent / "hf_home", "hf_test")
        for name, kind in kinds.items():
            cls = "".join(part.title() for part in name.split("_")) + "Tool"
            hub.add_space(f"tester/{name}", {"tool.py": LOOK.format(cls=cls, name=name, kind=kind).encode()})
            added = project.run("add", f"hub:tester/{name}", "--trust", env=env)
            assert added.exit_code == 0, added.stderr


@pytest.fixture(scope="module")
def hub_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """Hub tools, and a LangChain toolkit (whose run time the server imports too)."""
    project = new_project(tmp_path_factory.mktemp("hub_only"))
    add_hub_tools(project, {"look": "image", "look_or_read": ["image", "string"]})
    assert project.run("add", "langchain:examples.langchain_tools:toolkit", "--name", "lc").exit_code == 0
    (project.root / ".env").write_text(SECRET)
    (project.root / "inputs").mkdir()
    from PIL import Image

    Image.new("RGB", (4, 2)).save(project.root / "inputs" / "picture.png")
    yield project


def stdio_calls(
    cwd: Path, calls: list[tuple[str, dict[str, Any]]], *args: str, env: dict[str, str] | None = None
) -> list[Any]:
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    parameters = stdio_parameters(Project(cwd), *args, env=env)

    async def run() -> list[Any]:
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return [await session.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(run())


def test_serve_writes_the_core_run_time_a_project_of_hub_tools_lacks(project: Project) -> None:
    add_hub_tools(project, {"look": "image"})
    core = project.root / "tools" / "_vendored_runtime.py"
    assert not core.exists()
    [result] = stdio_calls(project.root, [("look", {"picture": "data:image/png;base64," + _png()})])
    assert not result.isError and texts(result) == "image 4x2"
    assert core.exists() and "tools/_vendored_runtime.py" in (project.root / "vendorgen.lock").read_text()
    checked = project.run("check")
    assert checked.exit_code == 0, checked.stdout
    assert project.run("update", "--offline").exit_code == 0  # the server still needs it: kept
    assert core.exists() and project.run("check").exit_code == 0
    assert project.run("remove", "look").exit_code == 0  # the last module: the server and its run time go
    assert not core.exists() and not (project.root / "tools" / "_vendored_server.py").exists()
    assert project.run("check").exit_code == 0


def _png() -> str:
    import base64
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 2)).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def test_an_input_whose_type_holds_image_is_confined_to_files(hub_only: Project) -> None:
    inputs = hub_only.root / "inputs"
    calls = [("look_or_read", {"picture": str(hub_only.root / ".env")}),
             ("look_or_read", {"picture": str(inputs / "picture.png")})]  # fmt: skip
    outside, inside = stdio_calls(hub_only.root, calls, "--files", str(inputs))
    assert outside.isError and SECRET not in texts(outside)
    assert f"refused to upload {hub_only.root / '.env'}: file arguments are read only from inside" in texts(outside)
    assert texts(inside) == "image 4x2"


def test_files_is_the_directory_the_command_started_from(hub_only: Project) -> None:
    inputs = hub_only.root / "inputs"
    calls = [("look", {"picture": "../.env"}), ("look", {"picture": str(hub_only.root / ".env")}),
             ("look", {"picture": str(inputs / "picture.png")})]  # fmt: skip
    relative, absolute, inside = stdio_calls(inputs, calls, "--files", ".")
    for refused in (relative, absolute):
        assert refused.isError and SECRET not in texts(refused)
        assert f"the tool's file_roots ({inputs})" in texts(refused)
    assert texts(inside) == "image 4x2"


def test_the_tool_gets_the_file_read_once_not_a_name_a_link_swap_redirects(hub_only: Project) -> None:
    inputs = hub_only.root / "inputs"
    link = inputs / "current.png"
    link.symlink_to(inputs / "picture.png")
    swap = {"SWAP_LINK": str(link), "SWAP_TARGET": str(hub_only.root / ".env")}
    try:
        [result] = stdio_calls(hub_only.root, [("look", {"picture": str(link)})], "--files", str(inputs), env=swap)
    finally:
        link.unlink()
    assert not result.isError, texts(result)
    assert texts(result) == "image 4x2" and SECRET not in texts(result)


def test_http_requires_the_token_printed_in_its_url_by_default(hub_only: Project) -> None:
    import httpx

    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    with http_server(hub_only) as url:
        bare, _, query = url.partition("?token=")
        assert bare.endswith("/mcp") and len(query) >= 40
        assert httpx.post(bare, json=body, headers=accept).status_code == 401
        assert httpx.post(f"{bare}?token=wrong", json=body, headers=accept).status_code == 401
        # Past the token, a ping outside a session is the server's to refuse (400): not 401.
        assert httpx.post(bare, json=body, headers={**accept, "authorization": f"Bearer {query}"}).status_code == 400

        async def call(address: str, headers: dict[str, str] | None = None) -> str:
            async with http_session(address, headers) as session:
                return texts(await session.call_tool("look", {"picture": "data:image/png;base64," + _png()}))

        assert asyncio.run(call(url)) == "image 4x2"
        assert asyncio.run(call(bare, {"Authorization": f"Bearer {query}"})) == "image 4x2"
    assert query not in (hub_only.root / "tools" / "_vendored_server.py").read_text()


def test_no_token_is_an_explicit_choice_with_a_warning(hub_only: Project) -> None:
    import httpx

    errors: list[str] = []
    with http_server(hub_only, "--no-token", errors=errors) as url:
        assert "?" not in url
        answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                            headers={"accept": "application/json, text/event-stream"})  # fmt: skip
        assert answer.status_code == 400  # no session yet: past the guard
    assert "warning: --no-token: any local user" in errors[0]
    both = hub_only.run("serve", "--transport", "streamable-http", "--no-token", "--token-env", "T", env={"T": "x"})
    assert both.exit_code == 2 and "exclude each other" in both.stderr
