"""generated_example/ is the committed output for the bundled examples; any drift fails here.

Rewrite it with `make regen-example`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, Project, mypy
from tests.servers import free_port, server_process
from vendorgen.generate import pipeline
from vendorgen.project.workspace import Workspace
from vendorgen.sources import AddOptions
from vendorgen.sources.base import Inspection

EXAMPLE = REPO / "generated_example"
WORKSPACE = Workspace(EXAMPLE)
ENTRIES = WORKSPACE.read_lock()


def test_the_example_has_modules() -> None:
    assert ENTRIES, "generated_example/vendorgen.lock lists nothing: run `make regen-example`"


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_regenerating_from_the_snapshot_gives_the_same_bytes(entry) -> None:
    generated = pipeline.generate(WORKSPACE.read_snapshot(entry), WORKSPACE)
    on_disk = (EXAMPLE / entry.path).read_text(encoding="utf-8")
    assert generated.code == on_disk, f"{entry.path} drifted: run `make regen-example` and review the diff"
    assert generated.schema_sha256 == entry.schema_sha256
    assert pipeline.lock_entry(generated, entry.path, entry.schema) == entry


def test_snapshots_match_the_bundled_app(gradio_app: str) -> None:
    """The committed schemas are what examples/gradio_app.py serves today."""
    from gradio_client import Client

    live = Client(gradio_app, verbose=False, analytics_enabled=False).view_api(return_format="dict", print_info=False)
    spaces = [entry for entry in ENTRIES if entry.kind == "space"]
    assert sorted(entry.endpoints[0] for entry in spaces) == sorted(live["named_endpoints"])
    for entry in spaces:
        snapshot = WORKSPACE.read_snapshot(entry)
        assert snapshot["endpoint"] == live["named_endpoints"][snapshot["api_name"]], entry.name


@pytest.fixture(scope="module")
def example_mcp_server() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with server_process([str(REPO / "examples" / "mcp_server.py"), "http", "--port", str(port)], url):
        yield url


def entry_of(kind: str):
    [entry] = [entry for entry in ENTRIES if entry.kind == kind]
    return entry


def test_mcp_snapshot_matches_the_bundled_server(example_mcp_server: str) -> None:
    from vendorgen.sources import mcp

    [live] = mcp.MCPSource().inspect(example_mcp_server, AddOptions(name="text_tools"), Inspection(REPO))
    assert live["tools"] == WORKSPACE.read_snapshot(entry_of("mcp"))["tools"]


def test_langchain_snapshot_matches_the_bundled_tools() -> None:
    from vendorgen.sources import langchain

    toolkit = "examples.langchain_tools:toolkit"
    [live] = langchain.LangChainSource().inspect(toolkit, AddOptions(name="langchain_tools"), Inspection(REPO))
    assert live["tools"] == WORKSPACE.read_snapshot(entry_of("langchain"))["tools"]


def test_the_vendored_mcp_example_calls_the_server(example_mcp_server: str) -> None:
    module = Project(EXAMPLE).import_module(entry_of("mcp").path)
    module.SERVER["url"] = example_mcp_server  # the committed file names the fixed demo port
    with module.tools() as tools:
        by_name = {tool.name: tool for tool in tools}
        # Plain values FastMCP wraps as {"result": value}: typed as the value, unwrapped at run time.
        assert (by_name["convert_temperature"].output_type, by_name["convert_temperature"].result_key) == ("number", "result")
        assert by_name["slugify_title"].output_type == "string"
        # The text content until the shared runtime (another branch) unwraps `result_key`; then 212.0.
        assert float(by_name["convert_temperature"](value=100, unit="C", to="F")) == 212.0
        assert by_name["slugify_title"](title="Vendor Your Tools!") == "vendor-your-tools"
        stats = by_name["word_stats"](text="the cat and the hat", top=1)
        assert stats == {"words": 5, "unique": 4, "top": ["the"]}


def test_the_vendored_langchain_example_calls_the_tools() -> None:
    module = Project(EXAMPLE).import_module(entry_of("langchain").path)
    by_name = {tool.name: tool for tool in module.tools()}
    assert by_name["count_words"](text="a b a", unique=True) == 2
    assert by_name["paint_needed"](wall={"width": 2, "height": 3}) == pytest.approx(1.2)
    # Either shape of the union reaches the tool as given; pydantic tells them apart.
    assert by_name["paint_needed"](wall={"shape": "triangle", "base": 2, "height": 3}) == pytest.approx(0.6)


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_example_modules_import_and_instantiate(entry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tool is validated by smolagents once when constructed (not once more per shared base),
    and its annotations are evaluated at import (smolagents reads them at every construction)."""
    from smolagents import Tool

    validated: list[type] = []
    validate = Tool.validate_arguments
    monkeypatch.setattr(Tool, "validate_arguments", lambda tool: (validated.append(type(tool)), validate(tool))[1])
    module = Project(EXAMPLE).import_module(entry.path)
    for tool_name in entry.tools:
        classes = [value for value in vars(module).values() if getattr(value, "name", None) == tool_name]
        assert len(classes) == 1
        validated.clear()
        classes[0]()
        assert validated == [classes[0]]
        assert not [hint for hint in classes[0].forward.__annotations__.values() if isinstance(hint, str)]


def test_snapshots_are_canonical_json() -> None:
    for entry in ENTRIES:
        text = (EXAMPLE / entry.schema).read_text(encoding="utf-8")
        assert text == pipeline.snapshot_text(json.loads(text))
        assert Path(entry.schema).parts[0] == ".vendorgen"


def test_the_example_type_checks() -> None:
    """mypy passes the vendored code as it would the user's own (smolagents ships no type information)."""
    result = mypy("tools", EXAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr
