"""The MCP Inspector's CLI as a client of `vendorgen serve`, over stdio and streamable-http.

The Inspector (npm `@modelcontextprotocol/inspector`, installed by `make test` under .cache/npm and run
from there: never downloaded at test time) reads an `mcpServers` config file as a user writes one for
any MCP client. The project is test_serve's: a tool of every source kind vendored, its upstream servers
running; a second one vendors inputs of several types, for the Inspector's schema portability check.
The tests are skipped, saying so, where the Inspector or node is not installed.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.servers import OFFLINE_ENV
from tests.test_serve import CALLS, http_server, png_data_uri, served  # noqa: F401 (a fixture)
from tests.test_to_langchain import new_project

INSPECTOR = REPO / ".cache/npm/node_modules/.bin/mcp-inspector"
NPM_COMMAND = "npm install --prefix .cache/npm @modelcontextprotocol/inspector@2.12.0"
GUARD = 600  # seconds: only against a hang; never reached by a working run, however loaded the machine
# What the Inspector's CLI exits with (EXIT_CODES in its source).
OK, TOOL_ERROR = 0, 5
UNION_SOURCES = [
    ["mcp:stdio:python -m tests.servers.mcp_lowlevel stdio", "--tool", "odd_types", "--trust"],
    ["langchain:tests.servers.langchain_tools:measure"],
]
SERVED = {"convert", "thumbnail", "tone", "convert_temperature", "word_stats", "slugify_title", "count_words",
          "paint_needed", "shout"}  # fmt: skip

pytestmark = pytest.mark.skipif(
    not INSPECTOR.is_file() or shutil.which("node") is None,
    reason=f"the MCP Inspector is not installed (needs node; `make test` runs `{NPM_COMMAND}`)",
)


@dataclass
class Answer:
    exit_code: int
    payload: dict[str, Any]  # the one JSON object of --format json on stdout ({} if none)
    error: dict[str, Any]  # the Inspector's error envelope, its last line on stderr ({} if none)
    stderr: str


@dataclass
class Inspector:
    config: str
    environment: dict[str, str]

    def __call__(self, server: str, method: str, *args: str) -> Answer:
        command = [str(INSPECTOR), "--cli", "--format", "json", "--config", self.config, "--server", server,
                   "--method", method, *args]  # fmt: skip
        process = subprocess.run(command, env=self.environment, capture_output=True, text=True, timeout=GUARD)
        last = process.stderr.strip().rsplit("\n", 1)[-1]
        error = json.loads(last) if last.startswith('{"error"') else {}
        return Answer(process.returncode, json.loads(process.stdout or "{}"), error, process.stderr)

    def call(self, server: str, tool: str, arguments: dict[str, Any]) -> Answer:
        return self(server, "tools/call", "--tool-name", tool, "--tool-args-json", json.dumps(arguments))


@pytest.fixture(scope="module")
def inspector(served: Project, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Inspector]:
    """The Inspector, configured with `vendorgen serve` over stdio and a running streamable-http serve."""
    home = tmp_path_factory.mktemp("inspector-home")
    # The Inspector starts a stdio server with a few of its own variables (PATH, HOME...) and those given here.
    offline = {**OFFLINE_ENV, "HF_ENDPOINT": os.environ["HF_ENDPOINT"]}
    # No time-out: the subprocess guard above is the only one.
    patience = {"connectionTimeout": 0, "requestTimeout": GUARD * 1000}
    unions = new_project(tmp_path_factory, "inspector-unions")  # inputs of several types, from MCP and LangChain
    for source in UNION_SOURCES:
        added = unions.run("add", *source)
        assert added.exit_code == 0, added.stderr

    def stdio(cwd: Path) -> dict[str, Any]:
        return {"command": sys.executable, "args": ["-m", "vendorgen", "serve"], "cwd": str(cwd), "env": offline,
                **patience}  # fmt: skip

    with http_server(served) as url:
        servers = {
            "stdio": stdio(served.root),
            "http": {"type": "streamable-http", "url": url, **patience},
            "unions": stdio(unions.root),
            "elsewhere": stdio(home),  # a config without the project's cwd: serve starts where the client stands
        }
        config = home / "mcp.json"
        config.write_text(json.dumps({"mcpServers": servers}))
        # Its own files under a temporary HOME; secrets (the env above) in memory, not a keychain.
        environment = {"PATH": os.environ["PATH"], "HOME": str(home), "MCP_INSPECTOR_SECRET_STORE": "memory"}
        yield Inspector(str(config), environment)


def texts(answer: Answer) -> list[str]:
    return [item["text"] for item in answer.payload["result"]["content"] if item["type"] == "text"]


@pytest.mark.parametrize("server", ["stdio", "http"])
def test_lists_every_tool_with_its_schema(inspector: Inspector, server: str) -> None:
    answer = inspector(server, "tools/list", "--strict")
    assert answer.exit_code == OK, answer.stderr
    # --strict: the Inspector's schema portability check finds nothing to report.
    assert "schemaFindings" not in answer.payload, answer.payload["schemaFindings"]
    listed = {tool["name"]: tool for tool in answer.payload["result"]["tools"]}
    assert set(listed) == SERVED
    assert listed["shout"]["inputSchema"] == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The text to shout."},
            # Optional: null admitted (serve takes it as left out), so a strict client may send it.
            "times": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "How many marks."},
        },
        "required": ["text"],
    }
    assert listed["convert"]["inputSchema"]["properties"]["from_unit"]["enum"] == ["mm", "cm", "m", "km", "in", "ft"]
    assert listed["count_words"]["inputSchema"]["required"] == ["text"]
    assert listed["thumbnail"]["inputSchema"]["properties"]["image"] == {
        "type": "string",  # what serve takes, not also what the generated code takes from Python (a PIL image)
        "description": "Image. A data: URI, an http(s) URL, or the path of a file in a directory the server was given with --files.",
    }
    top = listed["word_stats"]["inputSchema"]["properties"]["top"]
    # An MCP tool is served with its upstream's schema as listed (issue 32): bounds kept.
    assert top["anyOf"] == [{"type": "integer", "minimum": 1, "maximum": 20}, {"type": "null"}] and top["default"] is None
    assert listed["word_stats"]["outputSchema"]["required"] == ["words", "unique", "top"]


def test_unions_are_portable_schemas(inspector: Inspector) -> None:
    """A union is served as `anyOf`/`oneOf` branches of one type each, not as a type list, which clients of
    one-`type` dialects refuse; only what upstream left untyped is reported (vendorgen cannot type it)."""
    answer = inspector("unions", "tools/list", "--strict")
    assert answer.exit_code == OK, answer.stderr
    findings = {(tool["toolName"], finding["rule"], finding["path"])
                for tool in answer.payload.get("schemaFindings", []) for finding in tool["findings"]}  # fmt: skip
    # odd_types is an MCP tool, served with its upstream's schema as listed (issue 32): its type lists stay.
    assert findings == {("odd_types", "untyped-schema", "properties.untyped"),
                        ("odd_types", "untyped-schema", "properties.empty"),
                        ("odd_types", "type-union", "properties.multi"),
                        ("odd_types", "type-union", "properties.nullable_str")}  # fmt: skip
    listed = {tool["name"]: tool["inputSchema"]["properties"] for tool in answer.payload["result"]["tools"]}
    assert [branch["type"] for branch in listed["measure"]["target"]["oneOf"]] == ["integer", "array", "object"]


def test_calls_every_kind_over_http(inspector: Inspector) -> None:
    for name, (arguments, expected) in CALLS.items():
        answer = inspector.call("http", name, arguments)
        assert answer.exit_code == OK, (name, answer.stderr)
        assert answer.payload["result"]["isError"] is False
        assert expected in " ".join(texts(answer)).replace(".0", ""), (name, answer.payload)
    stats = inspector.call("http", "word_stats", {"text": "x y x", "top": 1})
    assert stats.payload["result"]["structuredContent"] == {"words": 3, "unique": 2, "top": ["x"]}


def test_an_image_and_a_sound_come_back_as_such(inspector: Inspector) -> None:
    from PIL import Image

    image = inspector.call("http", "thumbnail", {"image": png_data_uri(), "size": 16})
    assert image.exit_code == OK, image.stderr
    [item] = image.payload["result"]["content"]
    assert item["type"] == "image" and item["mimeType"] == "image/png"
    assert Image.open(io.BytesIO(base64.b64decode(item["data"]))).size == (16, 8)
    sound = inspector.call("http", "tone", {"frequency": 440, "seconds": 0.1})
    assert sound.exit_code == OK, sound.stderr
    [item] = sound.payload["result"]["content"]
    assert item["type"] == "audio" and item["mimeType"].startswith("audio/")
    assert base64.b64decode(item["data"])[:4] == b"RIFF"


def test_a_call_over_stdio_with_arguments_as_typed(inspector: Inspector) -> None:
    """`--tool-arg k=v`, as a user types it: the Inspector makes `times=2` an integer from the listed schema."""
    answer = inspector("stdio", "tools/call", "--tool-name", "shout", "--tool-arg", "text=hi", "times=2")
    assert answer.exit_code == OK, answer.stderr
    assert texts(answer) == ["HI!!"]


BAD_CALLS = {
    "a wrong type": ("shout", {"text": 3}, "shout: bad argument text: 3 is not of type 'string'"),
    "an unknown argument": ("shout", {"text": "a", "loud": True}, "shout takes no argument 'loud'"),
    "a missing argument": ("count_words", {}, "count_words needs the argument 'text'"),
    "a tool that raises": ("shout", {"text": "boom"}, "shout failed: ValueError: shout cannot shout boom"),
}


@pytest.mark.parametrize("server", ["stdio", "http"])
def test_a_wrong_call_is_an_error_result_of_one_line(inspector: Inspector, server: str) -> None:
    cases = BAD_CALLS if server == "http" else {"a wrong type": BAD_CALLS["a wrong type"]}  # one serve per stdio call
    for case, (name, arguments, expected) in cases.items():
        answer = inspector.call(server, name, arguments)
        assert answer.exit_code == TOOL_ERROR, (case, answer.stderr)
        assert answer.error["error"]["code"] == "tool_is_error", (case, answer.stderr)
        assert answer.payload["result"]["isError"] is True
        [text] = texts(answer)
        assert expected in text and "\n" not in text, (case, text)
    # The server goes on answering.
    assert texts(inspector.call(server, "count_words", {"text": "still here"})) == ["2"]


def test_a_server_started_outside_the_project_says_where_it_looked(inspector: Inspector) -> None:
    answer = inspector("elsewhere", "tools/list")
    assert answer.exit_code != OK and answer.error["error"]["message"] == "Connection closed"
    # What the client shows of the server's stderr names the directory, not "nothing vendored yet".
    assert "error: no vendorgen.lock" in answer.stderr, answer.stderr
