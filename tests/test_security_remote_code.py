"""Remote names and values that would become code, through the real CLI against real hostile servers.

Each vendored module is imported from the file on disk, as the user's code imports it: Python
decodes its bytes (PEP 263), so a test that compiled the generated text as a str would miss
what Python does with a `coding:` line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process
from tests.servers.gradio_hostile import CODING_API_NAME, payload
from tests.servers.mcp_raw import serving as mcp_server

CODING = "1.0 -*- coding: unicode_escape -*-"


@pytest.fixture(scope="module")
def mark(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file an obeyed encoding declaration would create."""
    return tmp_path_factory.mktemp("mark") / "PWNED"


@pytest.fixture(scope="module")
def hostile_app(mark: Path) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    app = REPO / "tests" / "servers" / "gradio_hostile.py"
    with server_process([str(app), "--port", str(port), "--mark", str(mark)], f"{url}config", timeout=120):
        yield url


def add(project: Project, uri: str, *args: str) -> dict:
    result = project.run("add", uri, *args, "--json")
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["modules"]
    return entry


def check_head(path: Path) -> None:
    """Lines 1-2 hold vendorgen's constant text only; the file is plain UTF-8 to Python."""
    import io
    import tokenize

    data = path.read_bytes()
    assert tokenize.detect_encoding(io.BytesIO(data).readline)[0] == "utf-8"
    first, second = data.decode().split("\n")[:2]
    assert first.startswith("# Vendored by vendorgen ") and first.endswith(": review it as code you run.")
    assert second == "# Provenance (as the source gave it, escaped):"


def test_an_mcp_server_version_declaring_an_encoding_stays_a_comment(tmp_path: Path, project: Project) -> None:
    mark = tmp_path / "PWNED"
    # On main this module passed the gate and `check`, and importing it created `mark`.
    tool = {"name": "probe", "description": payload(str(mark)),
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}  # fmt: skip
    with mcp_server(tmp_path, [tool], version=CODING) as url:
        entry = add(project, f"mcp:{url}")
        path = project.root / entry["path"]
        check_head(path)
        module = project.import_module(entry["path"])
        assert not mark.exists()
        assert module.SERVER["version"] == CODING
        [probe] = module.tools()
        assert probe.description == payload(str(mark))
        assert json.loads(probe(text="hi")) == {"tool": "probe", "args": {"text": "hi"}}
        probe.close()
    assert project.run("check").exit_code == 0


def test_a_gradio_api_name_declaring_an_encoding_stays_a_comment(
    hostile_app: str, mark: Path, project: Project
) -> None:
    entry = add(project, f"space:{hostile_app}", "--api-name", "/" + CODING_API_NAME)
    check_head(project.root / entry["path"])
    module = project.import_module(entry["path"])
    assert not mark.exists()
    [tool_class] = [
        value for name, value in vars(module).items() if name.endswith("Tool") and value.__module__ == module.__name__
    ]
    tool = tool_class()
    assert tool.api_name == "/" + CODING_API_NAME
    assert tool.description.startswith(payload(str(mark)))
    assert tool(text="hi") == "hi"
    assert project.run("check").exit_code == 0


def test_a_module_whose_bytes_declare_another_encoding_fails_check(tmp_path: Path, project: Project) -> None:
    """What `check` hashes is what Python runs: a declaration added to the file on disk is refused."""
    tool = {"name": "probe", "inputSchema": {"type": "object", "properties": {}}}
    with mcp_server(tmp_path, [tool]) as url:
        entry = add(project, f"mcp:{url}")
    path = project.root / entry["path"]
    path.write_bytes(b"# -*- coding: unicode_escape -*-\n" + path.read_bytes())
    before = project.snapshot()
    for command in (["check"], ["update", "--offline"], ["diff", "--offline", "hostile"], ["remove", "hostile"]):
        result = project.run(*command)
        assert result.exit_code != 0, command
        [line] = result.stderr.strip().splitlines() or [""]
        assert line.startswith("error: ") and "unicode" in line and "plain UTF-8" in line, line
        assert project.snapshot() == before


@pytest.mark.parametrize(
    ("api_name", "arguments", "expected"),
    [("/pair", {"tuple_": "Ab"}, ("AB", "ab")), ("/picture", {"AgentImage_": "blue"}, (2, 3))],
)
def test_gradio_parameters_named_like_template_names_are_renamed_and_work(
    hostile_app: str, project: Project, api_name: str, arguments: dict, expected: tuple
) -> None:
    entry = add(project, f"space:{hostile_app}", "--api-name", api_name)
    module = project.import_module(entry["path"])
    [tool_class] = [
        value for name, value in vars(module).items() if name.endswith("Tool") and value.__module__ == module.__name__
    ]
    tool = tool_class()
    assert list(tool.inputs) == list(arguments)  # renamed for Python, sent under the app's own name
    result = tool(**arguments)
    assert (tuple(result) if api_name == "/pair" else result.to_raw().size) == expected


def test_an_upload_parameter_named_os_works(hostile_app: str, project: Project) -> None:
    # A parameter is a local of forward, which reads no `os`: the name is kept (the gate refuses a module
    # where a parameter hides a module-level name).
    entry = add(project, f"space:{hostile_app}", "--api-name", "/size")
    module = project.import_module(entry["path"])
    tool = module.SizeTool()
    upload = project.root / "five.bin"  # file arguments are read from inside the project
    upload.write_bytes(b"12345")
    assert list(tool.inputs) == ["os"]
    assert tool(os=str(upload)) == "5"


@pytest.mark.parametrize(
    "signature",
    ['x: float = float("nan")', 'x: float = float("inf")', 'x: float | None = float("-inf")'],
    ids=["NaN", "Infinity", "-Infinity"],
)
def test_a_non_finite_number_is_one_clear_refusal(project: Project, signature: str) -> None:
    """JSON has no NaN and `float("nan")` is no literal: refused in one line, nothing written.

    A LangChain schema is read in-process, where a non-finite default survives (pydantic turns one
    nested in a list or dict into null, as the MCP SDK does on the wire); tests/hostile sends them anywhere.
    """
    (project.root / "hostile_numbers.py").write_text(
        f"from langchain_core.tools import tool\n\n\n@tool\ndef scale({signature}) -> str:\n"
        '    """Scale it."""\n    return str(x)\n'
    )
    before = project.snapshot()
    result = project.run("add", "langchain:hostile_numbers:scale")
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    line = result.stderr.strip()
    assert line.startswith("error: ") and "JSON cannot carry" in line and "unexpected" not in line, line
    assert project.snapshot() == before


@pytest.mark.parametrize("declaration", ["# -*- coding: latin-1 -*-", "#!/usr/bin/env python\n# coding=unicode_escape"])
def test_a_hub_tool_py_declaring_another_encoding_is_refused(fakehub, project: Project, declaration: str) -> None:
    """The author's file under vendorgen's header: a non-UTF-8 declaration is refused, nothing written."""
    from tests.test_hub_source import SPACE, TOOL_PY, add, tool_space

    tool_space(fakehub, f"{declaration}\n{TOOL_PY}")
    before = project.snapshot()
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "a vendored module must be plain UTF-8" in result.stderr
    assert project.snapshot() == before


def test_a_hub_tool_py_declaring_utf8_keeps_it_below_the_header(fakehub, project: Project) -> None:
    from tests.test_hub_source import SPACE, TOOL_PY, add, tool_space

    tool_space(fakehub, f"# -*- coding: utf-8 -*-\n{TOOL_PY}")
    result = add(fakehub, project, f"hub:{SPACE}", "--trust", "--json")
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["modules"]
    check_head(project.root / entry["path"])
    module = project.import_module(entry["path"])
    assert module.ShoutTool()(text="hi", times=2) == "HI!!"
