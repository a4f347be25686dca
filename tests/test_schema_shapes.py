"""Two schema shapes of real MCP servers (issue 23), vendored through the CLI from a raw listing, and the
union of objects from a real Gradio app.

tests/servers/mcp_raw.py serves the listings as written (no SDK re-serialises them) and echoes
each call's arguments, so a test sees exactly what reaches the server.

- A zod 3 `.default()` lists an argument in `required` with a default, and refuses null (the
  shape of an enum `scale` with default "css"): None from the model must mean the default.
- A `oneOf` of `$ref`s to objects told apart by a `const` property (Notion's page or database
  parent): each branch stays in `inputs`, `forward` takes a union of TypedDicts, and either branch
  is sent as given.
- The same union as a Gradio app describes it (tests/servers/gradio_shapes.py, a `gr.api` endpoint
  whose parameter is typed `PageParent | DatabaseParent`): the same TypedDicts in `forward`.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, Project, new_project
from tests.servers import free_port, server_process
from tests.servers.mcp_raw import serving

SCREENSHOT = {
    "name": "browser_take_screenshot",
    "description": "Take a screenshot of the current page.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["png", "jpeg"], "default": "png", "description": "Image format"},
            "scale": {"type": "string", "enum": ["css", "device"], "default": "css",
                      "description": "css: one pixel per CSS pixel; device: one per device pixel"},
            "filename": {"type": "string", "description": "File name to save the screenshot to"},
            "fullPage": {"type": "boolean", "description": "The whole scrollable page"},
        },
        "required": ["type", "scale"],
        "additionalProperties": False,
        "$schema": "http://json-schema.org/draft-07/schema#",
    },
}  # fmt: skip

PAGE_PARENT = {
    "type": "object",
    "properties": {"type": {"type": "string", "const": "page_id"}, "page_id": {"type": "string", "format": "uuid"}},
    "required": ["page_id"],
    "additionalProperties": False,
}
DATABASE_PARENT = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "const": "database_id"},
        "database_id": {"type": "string", "format": "uuid"},
    },
    "required": ["database_id"],
    "additionalProperties": False,
}
POST_PAGE = {
    "name": "API-post-page",
    "description": "Create a page",
    "inputSchema": {
        "type": "object",
        "properties": {
            "parent": {"oneOf": [{"$ref": "#/$defs/pageParent"}, {"$ref": "#/$defs/databaseParent"}],
                       "description": "Where the page goes"},
            "properties": {"type": "object", "description": "The page's properties"},
        },
        "required": ["parent", "properties"],
        "$defs": {"pageParent": PAGE_PARENT, "databaseParent": DATABASE_PARENT},
    },
}  # fmt: skip
# Issue 29 item 12, as the Notion server lists it: `parent` is `anyOf [{$ref: parentRequest}, {type: string}]` (a
# JSON string is taken too), and `parentRequest` is itself a `oneOf` of `$ref`s to the object shapes.
MOVE_PAGE = {
    "name": "API-move-page",
    "description": "Move a page",
    "inputSchema": {
        "type": "object",
        "properties": {
            "page_id": {"type": "string", "description": "The page to move"},
            "parent": {"anyOf": [{"$ref": "#/$defs/parentRequest"}, {"type": "string"}], "description": "The new parent"},
        },
        "required": ["page_id", "parent"],
        "$defs": {
            "parentRequest": {"oneOf": [{"$ref": "#/$defs/pageParent"}, {"$ref": "#/$defs/databaseParent"}]},
            "pageParent": PAGE_PARENT,
            "databaseParent": DATABASE_PARENT,
        },
    },
}  # fmt: skip
PAGE_ID = "59833787-2cf9-4fdf-8782-e53db20768a5"


@pytest.fixture(scope="module")
def vendored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, ModuleType]]:
    project = new_project(tmp_path_factory.mktemp("shapes"))
    with serving(tmp_path_factory.mktemp("listing"), [SCREENSHOT, POST_PAGE, MOVE_PAGE], name="shapes") as url:
        result = project.run("add", f"mcp:{url}", "--name", "shapes")
        assert result.exit_code == 0, result.stderr
        module = project.import_module("tools/shapes.py")
        yield project, module
        module.tools()[0].close()


def tool(module: ModuleType, name: str) -> Any:
    return {each.name: each for each in module.tools()}[name]


def sent(result: str) -> dict[str, Any]:
    return json.loads(result)["args"]


def test_none_for_a_required_argument_with_a_default_sends_the_default(vendored: tuple[Project, ModuleType]) -> None:
    screenshot = tool(vendored[1], "browser_take_screenshot")
    assert screenshot.inputs["scale"]["nullable"] is True  # smolagents lets the model pass None
    # On c5b05f5 these went out as {"scale": null, ...}, which the server refuses.
    assert sent(screenshot(scale=None)) == {"type": "png", "scale": "css"}
    assert sent(screenshot(type=None, scale="device")) == {"type": "png", "scale": "device"}
    # An optional argument refusing null, without a default: left out, the server applies its own.
    assert sent(screenshot(filename=None, fullPage=None)) == {"type": "png", "scale": "css"}
    assert sent(screenshot(filename="a.png")) == {"type": "png", "scale": "css", "filename": "a.png"}


def test_a_union_of_objects_keeps_its_branches(vendored: tuple[Project, ModuleType]) -> None:
    from smolagents.models import get_tool_json_schema

    post_page = tool(vendored[1], "API_post_page")
    parent = post_page.inputs["parent"]
    assert parent["type"] == "object"  # not ["object", "string"]
    assert parent["oneOf"] == [PAGE_PARENT, DATABASE_PARENT]  # each branch, its $ref resolved
    # What a tool-calling model gets, and the description a CodeAgent's prompt shows.
    assert get_tool_json_schema(post_page)["function"]["parameters"]["properties"]["parent"]["oneOf"] == parent["oneOf"]
    assert parent["description"] == (
        'Where the page goes. An object is one of: {"type"?: "page_id", "page_id": string}'
        ' or {"type"?: "database_id", "database_id": string}.'
    )
    assert "parent takes one of the shapes defined above: _APIPostPage_Parent_PageId or " in type(post_page).__doc__


def test_a_union_of_objects_is_typed_as_typed_dicts(vendored: tuple[Project, ModuleType]) -> None:
    module = vendored[1]
    hint = typing.get_type_hints(type(tool(module, "API_post_page")).forward)["parent"]
    page, database = typing.get_args(hint)
    assert (page, database) == (module._APIPostPage_Parent_PageId, module._APIPostPage_Parent_DatabaseId)
    assert typing.is_typeddict(page) and typing.is_typeddict(database)
    assert (page.__required_keys__, page.__optional_keys__) == ({"page_id"}, {"type"})
    assert typing.get_type_hints(database) == {"type": typing.Literal["database_id"], "database_id": str}


def test_either_branch_reaches_the_server_unchanged(vendored: tuple[Project, ModuleType]) -> None:
    post_page = tool(vendored[1], "API_post_page")
    for parent in ({"type": "page_id", "page_id": PAGE_ID}, {"type": "database_id", "database_id": PAGE_ID}):
        assert sent(post_page(parent=parent, properties={"title": []})) == {"parent": parent, "properties": {"title": []}}


def test_a_union_reached_through_a_ref_inside_another_union_keeps_every_branch(
    vendored: tuple[Project, ModuleType],
) -> None:
    """Before, `parent` was vendored as {"type": ["object", "string"]} and `dict[str, Any] | str`: the shapes dropped."""
    module = vendored[1]
    move_page = tool(module, "API_move_page")
    parent = move_page.inputs["parent"]
    assert parent["type"] == ["object", "string"]
    assert parent["anyOf"] == [PAGE_PARENT, DATABASE_PARENT, {"type": "string"}]
    assert parent["description"] == (
        'The new parent. An object is one of: {"type"?: "page_id", "page_id": string}'
        ' or {"type"?: "database_id", "database_id": string}.'
    )
    hint = typing.get_type_hints(type(move_page).forward)["parent"]
    assert typing.get_args(hint) == (module._APIMovePage_Parent_PageId, module._APIMovePage_Parent_DatabaseId, str)
    for given in ({"type": "database_id", "database_id": PAGE_ID}, json.dumps({"page_id": PAGE_ID})):
        assert sent(move_page(page_id=PAGE_ID, parent=given)) == {"page_id": PAGE_ID, "parent": given}


def test_the_module_passes_check(vendored: tuple[Project, ModuleType]) -> None:
    assert vendored[0].run("check").exit_code == 0


@pytest.fixture(scope="module")
def gradio_vendored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, ModuleType]]:
    project = new_project(tmp_path_factory.mktemp("gradio-shapes"))
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "tests" / "servers" / "gradio_shapes.py"), "--port", str(port)], f"{url}config"):
        result = project.run("add", f"space:{url}", "--api-name", "/post_page")
        assert result.exit_code == 0, result.stderr
        yield project, project.import_module("tools/post_page.py")


def test_a_gradio_union_of_objects_is_typed_as_typed_dicts(gradio_vendored: tuple[Project, ModuleType]) -> None:
    project, module = gradio_vendored
    tool_class = next(value for value in vars(module).values() if getattr(value, "api_name", "") == "/post_page")
    parent = tool_class.inputs["parent"]
    assert parent["type"] == "object" and [branch["required"] for branch in parent["anyOf"]] == [
        ["type", "page_id"],
        ["type", "database_id"],
    ]
    hint = typing.get_type_hints(tool_class.forward)["parent"]
    page, database = typing.get_args(hint)
    assert (page, database) == (module._PostPage_Parent_PageId, module._PostPage_Parent_DatabaseId)
    assert typing.get_type_hints(database) == {"type": typing.Literal["database_id"], "database_id": str}
    assert project.run("check").exit_code == 0


def test_either_gradio_branch_reaches_the_app_unchanged(gradio_vendored: tuple[Project, ModuleType]) -> None:
    module = gradio_vendored[1]
    tool_class = next(value for value in vars(module).values() if getattr(value, "api_name", "") == "/post_page")
    for parent in ({"type": "page_id", "page_id": PAGE_ID}, {"type": "database_id", "database_id": PAGE_ID}):
        assert json.loads(tool_class()(parent=parent, title="Notes")) == {"parent": parent, "title": "Notes"}
