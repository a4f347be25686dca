"""Gradio apps shaped like popular Spaces (tests/servers/gradio_files.py), issue 12:

- file inputs nested in lists and objects: no `$defs`/`$ref` left in `inputs`, the files shown as
  paths, and `file_paths` says where they are;
- a parameter named `headers` is vendored, with `parameter_order` for sending by position;
- several outputs: their order is in the description smolagents shows the model;
- an app without descriptions: the docstring says "Calls ..." once;
- an argument not given is sent as the app's default pinned when vendored, never looked up at run time;
- `--all-endpoints --keep-going`: one endpoint refused, the others vendored, the refused one named.

smolagents' `Tool.from_space` cannot be compared here: with gradio_client 2 it fails to build any
tool (it passes `hf_token`, which Client no longer takes); see README.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Project
from tests.servers import SERVERS_DIR, free_port, server_process


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {"GRADIO_TEMP_DIR": str(tmp_path_factory.mktemp("gradio_files"))}
    with server_process([str(SERVERS_DIR / "gradio_files.py"), "--port", str(port)], url + "config", env=env):
        yield url


@pytest.fixture(scope="module")
def vendored(app: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, Any]:
    root = tmp_path_factory.mktemp("gradio-fidelity") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    result = project.run("add", f"space:{app}", "--all-endpoints", "--keep-going")
    # /deep is refused; the others are written.
    assert result.exit_code == 1
    assert f"failed: space:{app} (module deep): " in result.stderr and "nested deeper than" in result.stderr
    assert result.stderr.splitlines()[-1] == "error: 1 source failed (listed above); 5 modules vendored"
    names = ("files", "chat", "edit", "headers", "tags")
    tools = {name: project.import_module(f"tools/{name}.py") for name in names}
    return project, {name: getattr(module, name.capitalize() + "Tool")() for name, module in tools.items()}


def test_nested_files_are_paths_and_their_positions_are_recorded(vendored: tuple[Project, Any]) -> None:
    from smolagents.models import get_tool_json_schema

    _, tools = vendored
    path = {"type": "string", "description": "A local path or an http(s) URL."}
    assert tools["files"].file_paths == {"uploads": ["[*]"]}  # by wire name (the parameter is uploads_)
    assert tools["chat"].file_paths == {"message": [".files[*]"]}
    assert tools["chat"].inputs["message"]["properties"]["files"]["items"] == path
    assert tools["edit"].file_paths == {"image": [".background", ".layers[*]", ".composite"]}
    assert tools["edit"].inputs["image"]["properties"]["background"]["anyOf"] == [path, {"type": "null"}]
    assert not hasattr(tools["headers"], "file_paths")
    for tool in tools.values():
        text = json.dumps(get_tool_json_schema(tool))
        assert "$ref" not in text and "$defs" not in text and "FileData" not in text, tool.name
        assert len(json.dumps(tool.inputs)) < 1000, tool.name  # no per-input FileData boilerplate


def test_a_parameter_named_like_a_predict_keyword_is_vendored(vendored: tuple[Project, Any]) -> None:
    _, tools = vendored
    headers = tools["headers"]
    assert list(headers.inputs) == ["headers", "param_1"]  # gradio renames `api_name` itself
    assert headers.parameter_order == ["headers", "param_1"]
    assert tools["chat"].parameter_order == ["message"]


def test_the_order_of_several_outputs_is_in_the_description(vendored: tuple[Project, Any]) -> None:
    _, tools = vendored
    headers = tools["headers"]
    note = "Returns a tuple of 2 values, in this order: text (Textbox), length (Number)."
    assert headers.description.endswith(note)
    assert note in headers.to_code_prompt()
    assert type(headers).__doc__.count(note) == 1


def test_an_app_without_descriptions_is_not_described_twice(vendored: tuple[Project, Any], app: str) -> None:
    _, tools = vendored
    doc = type(tools["edit"]).__doc__.strip()
    assert doc == f"Calls /edit on space:{app}."
    assert tools["edit"].description == f"Calls /edit of the Gradio app {app}."


def test_the_snapshot_regenerates_offline(vendored: tuple[Project, Any]) -> None:
    project, _ = vendored
    result = project.run("check")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_nested_files_and_keyword_names_can_be_called(
    vendored: tuple[Project, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, tools = vendored
    monkeypatch.chdir(tmp_path)  # file arguments are read from the working directory (or the project)
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("abc")
    second.write_text("hello")
    assert tools["chat"](message={"text": "hi", "files": [str(first), str(second)]}) == "hi + 2 file(s)"
    assert tools["headers"](headers="h", param_1="y") == ("h|y", 1)
    assert tools["headers"](headers="hh") == ("hh|x", 2)  # param_1 not given: the app's default
    assert tools["headers"](headers="hn", param_1=None) == ("hn|x", 2)  # a string, null refused: the default
    assert tools["files"](uploads_=[str(first), str(second)]) == "a.txt:3, b.txt:5"
    assert tools["files"](uploads_=None) == ""  # null, sent as null
    # A file nested anywhere in an argument is held to the same rule as a top-level one.
    with pytest.raises(PermissionError, match="^refused to upload /etc/passwd: file arguments are read only from"):
        tools["chat"](message={"text": "hi", "files": [str(first), "/etc/passwd"]})


def test_files_inside_an_object_are_uploaded(
    vendored: tuple[Project, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    _, tools = vendored
    monkeypatch.chdir(tmp_path)
    background, layer = tmp_path / "background.png", tmp_path / "layer.png"
    Image.new("RGB", (4, 4)).save(background)
    Image.new("RGBA", (4, 4)).save(layer)
    image = {"background": str(background), "layers": [str(layer), Image.open(layer)], "composite": None}
    assert tools["edit"](image=image) == "background: yes, layers: 2"
    assert tools["edit"](image={"background": None, "layers": [], "composite": None}) == "background: no, layers: 0"


def test_an_argument_not_given_gets_the_default_pinned_when_vendored(vendored: tuple[Project, Any]) -> None:
    import inspect

    _, tools = vendored
    tags = type(tools["tags"])()  # its own client, for the spy below
    assert tags.parameter_defaults == {"chosen": ["a", "c"]}  # a list: no literal in the signature
    assert repr(inspect.signature(tags.forward).parameters["chosen"].default) == "NOT_GIVEN"
    assert tools["headers"].parameter_defaults == {}  # its optional argument's default is in the signature
    tags.setup()

    def no_look_up(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the app's API was read at call time")

    tags.client.view_api = no_look_up
    assert tags() == "a,c"
    tags.parameter_defaults = {"chosen": ["b"]}  # what the generated code says, not what the app says now
    assert tags() == "b"
    assert tags(chosen=["c"]) == "c"
    assert tags(chosen=None) == "b"  # the app's schema refuses null: None is as if not given
