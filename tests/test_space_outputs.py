"""What a Gradio app's answers and a model's file arguments may make the vendored runtime read,
fetch or upload (issue 19 items 4, 5, 6), against a real Gradio app that answers with hostile
outputs (tests/servers/gradio_outputs.py), vendored by the real CLI and imported from disk.

- An Image or Audio output that is a plain local path stays text: never opened, never sent on.
- A FileData `url` at another origin (directly, or by a redirect from the app's own) is not
  fetched; with `files_from_other_origins` it is fetched without the token.
- A file argument outside the project and the working directory is not uploaded (`../`, a
  symlink out); VENDORGEN_FILE_ROOTS and the tool's `file_roots` widen it.
- Through `vendorgen serve` and a real MCP client: the same outputs stay text; a file argument is
  a data: URI, or a path inside a directory given with --files.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process
from tests.test_serve import stdio_session, texts

SECRET = "aws_secret_access_key = NOT-FOR-THE-APP\n"
TOKEN = "hf_outputsecret0123456789"
ENDPOINTS = ("local_image", "local_audio", "foreign", "redirected", "picture", "bomb", "size", "eps", "endless", "trickle")
NOT_AN_IMAGE = "is not an image of one of the formats PNG, JPEG, GIF, WEBP, BMP, TIFF: refused"


class Outputs:
    """The hostile app, vendored into a project, and the third-party origin its answers point to."""

    def __init__(self, project: Project, secret: Path, foreign_log: Path) -> None:
        self.project = project
        self.secret = secret
        self.foreign_log = foreign_log

    def tool(self, name: str, **options: Any) -> Any:
        module = self.project.import_module(f"tools/{name}.py")
        return next(value for key, value in vars(module).items() if key.endswith("Tool") and key != "SpaceTool")(
            **options
        )

    def foreign_requests(self) -> list[dict[str, str]]:
        return [json.loads(line)["headers"] for line in self.foreign_log.read_text().splitlines()]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outputs]:
    base = tmp_path_factory.mktemp("outputs")
    secret = base / "credentials"  # outside the project and the working directory
    secret.write_text(SECRET)
    root = base / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    app_port, foreign_port = free_port(), free_port()
    app = f"http://127.0.0.1:{app_port}/"
    foreign_log = base / "foreign.jsonl"
    foreign_log.touch()
    proxy = [str(REPO / "tests" / "servers" / "logging_proxy.py"), "--port", str(foreign_port), "--upstream", app,
             "--log", str(foreign_log)]  # fmt: skip
    script = [str(REPO / "tests" / "servers" / "gradio_outputs.py"), "--port", str(app_port), "--secret", str(secret),
              "--foreign", f"http://127.0.0.1:{foreign_port}/config"]  # fmt: skip
    with server_process(script, f"{app}config"), server_process(proxy, f"http://127.0.0.1:{foreign_port}/__ready__"):
        for name in ENDPOINTS:
            result = project.run("add", f"space:{app}", "--api-name", f"/{name}")
            assert result.exit_code == 0, result.stderr
        yield Outputs(project, secret, foreign_log)


@pytest.mark.parametrize("name", ["local_image", "local_audio"])
def test_a_local_path_the_app_answers_stays_text(outputs: Outputs, name: str) -> None:
    value = outputs.tool(name)(text="x")
    assert type(value) is str and value == str(outputs.secret)  # not AgentImage / AgentAudio: never opened


def test_a_file_the_app_serves_is_downloaded_and_wrapped(outputs: Outputs) -> None:
    from smolagents.agent_types import AgentImage

    value = outputs.tool("picture")(text="blue")
    assert isinstance(value, AgentImage) and value.to_raw().size == (3, 2)


def test_an_image_over_the_runtime_bound_is_refused_from_its_header(outputs: Outputs) -> None:
    """A small PNG whose header claims 169 M pixels: under PIL's own bound (179 M), which AgentImage would decode
    it under, over the runtime's (40 M), which MCP and serve images obey too."""
    with pytest.raises(ValueError, match=r"^the app's image is over 40000000 pixels: refused$"):
        outputs.tool("bomb")(text="x")


@pytest.fixture
def ghostscript_mark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `gs` first on PATH that leaves a mark: Ghostscript started by this process or a server it starts shows."""
    from PIL import EpsImagePlugin

    (tmp_path / "bin").mkdir()
    mark = tmp_path / "ghostscript-ran"
    gs = tmp_path / "bin" / "gs"
    gs.write_text(f"#!/bin/sh\ntouch '{mark}'\nexit 1\n")
    gs.chmod(0o755)
    monkeypatch.setenv("PATH", f"{gs.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(EpsImagePlugin, "gs_binary", None)  # PIL looks for gs once
    return mark


def test_an_image_output_of_another_format_is_refused_from_its_bytes(outputs: Outputs, ghostscript_mark: Path) -> None:
    """An EPS (here named .png) answered as an Image output: decoding it would start Ghostscript (issue 27 item 4)."""
    with pytest.raises(ValueError, match=f"^the app's image {NOT_AN_IMAGE}$"):
        outputs.tool("eps")(text="x").to_raw().load()
    [result] = serve_calls(outputs, [("eps", {"text": "x"})])
    assert result.isError and f"the app's image {NOT_AN_IMAGE}" in texts(result)
    assert not ghostscript_mark.exists()


def test_an_output_file_without_end_is_cut_at_the_tools_bounds(outputs: Outputs) -> None:
    """The app's own origin sends a file without end, fast or slowly: refused at the tool's max_result_bytes or
    result_seconds (issue 27 item 8), and nothing of it is left on disk."""
    fast = outputs.tool("endless")
    fast.max_result_bytes = 3_000_000
    fast.setup()
    stored = Path(fast.client.output_dir)
    before = {path for path in stored.rglob("*") if path.is_file()}
    with pytest.raises(ValueError, match=r"sent a file over 3,000,000 bytes: refused \(the tool's max_result_bytes\)$"):
        fast(text="x")
    slow = outputs.tool("trickle")
    slow.result_seconds = 0.5
    with pytest.raises(TimeoutError, match=r"took over 0.5 s to send a file: refused \(the tool's result_seconds\)$"):
        slow(text="x")
    assert not [path for path in set(stored.rglob("*")) - before if path.is_file() and path.stat().st_size > 1_000_000]


@pytest.mark.parametrize("name", ["foreign", "redirected"])
def test_a_file_at_another_origin_is_not_fetched(outputs: Outputs, name: str) -> None:
    before = len(outputs.foreign_requests())
    with pytest.raises(
        PermissionError,
        match=r"answered with a file at another origin \(http://127\.0\.0\.1:\d+/config\): not fetched; set the tool's files_from_other_origins",
    ):
        outputs.tool(name, token=TOKEN)(text="x")
    assert len(outputs.foreign_requests()) == before


@pytest.mark.parametrize("name", ["foreign", "redirected"])
def test_by_opt_in_another_origin_is_fetched_without_the_token(outputs: Outputs, name: str) -> None:
    tool = outputs.tool(name, token=TOKEN)
    tool.files_from_other_origins = True
    before = len(outputs.foreign_requests())
    with pytest.raises(ValueError, match=f"^the app's image {NOT_AN_IMAGE}$"):
        tool(text="x")  # the app's /config, fetched through the third-party origin: JSON, no image
    sent = outputs.foreign_requests()[before:]
    assert len(sent) == 1 and TOKEN not in json.dumps(sent)
    assert not any("cookie" in key.lower() for key in sent[0])


def test_a_file_argument_outside_the_project_and_the_working_directory_is_not_uploaded(
    outputs: Outputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = outputs.project.root
    monkeypatch.chdir(root)
    monkeypatch.delenv("VENDORGEN_FILE_ROOTS", raising=False)
    tool = outputs.tool("size")
    (root / "notes.txt").write_text("12345")
    assert tool(path="notes.txt") == "5"
    link = root / "innocent.txt"
    link.symlink_to(outputs.secret)
    rule = (
        f"file arguments are read only from inside the project ({root}) and the working directory ({root}); "
        "add a directory to VENDORGEN_FILE_ROOTS (separated by ':') or set the tool's file_roots"
    )
    for path in (str(outputs.secret), "innocent.txt", "../credentials"):
        with pytest.raises(PermissionError) as refused:
            tool(path=path)
        assert str(refused.value) == f"refused to upload {path}: {rule}"
    monkeypatch.setenv("VENDORGEN_FILE_ROOTS", f"/nonexistent:{outputs.secret.parent}")
    assert tool(path="innocent.txt") == str(len(SECRET))
    monkeypatch.delenv("VENDORGEN_FILE_ROOTS")
    tool.file_roots = [str(outputs.secret.parent / "elsewhere")]  # replaces the default: the project is out too
    with pytest.raises(PermissionError, match=r"file arguments are read only from inside the tool's file_roots \("):
        tool(path="notes.txt")
    tool.file_roots = [str(outputs.secret.parent)]
    assert tool(path=str(outputs.secret)) == str(len(SECRET))


# -- through `vendorgen serve`: an MCP client is another trust domain ----------------------------


def serve_calls(outputs: Outputs, calls: list[tuple[str, dict[str, Any]]], *serve_args: str) -> list[Any]:
    """The results of `calls` through `vendorgen serve` (stdio) and a real mcp ClientSession."""

    async def run() -> list[Any]:
        async with stdio_session(outputs.project, *serve_args) as session:
            return [await session.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(run())


def test_serve_sends_a_local_path_the_app_answers_as_text(outputs: Outputs) -> None:
    for result in serve_calls(outputs, [("local_image", {"text": "x"}), ("local_audio", {"text": "x"})]):
        assert not result.isError
        assert [(item.type, item.text) for item in result.content] == [("text", str(outputs.secret))]


def test_serve_takes_files_as_content_or_from_the_directories_it_was_given(outputs: Outputs, tmp_path: Path) -> None:
    allowed = tmp_path / "shared"
    allowed.mkdir()
    (allowed / "notes.txt").write_text("12345")
    (allowed / "innocent.txt").symlink_to(outputs.secret)
    (outputs.project.root / "in-project.txt").write_text("1")  # the project is not shared by default
    content = "data:text/plain;base64," + base64.b64encode(b"1234567").decode()
    calls = [
        ("size", {"path": content}),
        ("size", {"path": str(allowed / "notes.txt")}),
        ("size", {"path": str(allowed / "innocent.txt")}),
        ("size", {"path": str(outputs.secret)}),
        ("size", {"path": "in-project.txt"}),
    ]
    shared = serve_calls(outputs, calls, "--files", str(allowed))
    assert [texts(result) for result in shared[:2]] == ["7", "5"]
    for result in shared[2:]:
        assert result.isError and SECRET not in texts(result)
        assert "file arguments are read only from inside the tool's file_roots" in texts(result)
        assert f"({allowed}); send the file's content as a data: URI" in texts(result)
    [by_content, by_path] = serve_calls(outputs, calls[::4])  # no --files: content only
    assert texts(by_content) == "7"
    assert by_path.isError and "the tool's file_roots (none)" in texts(by_path)
