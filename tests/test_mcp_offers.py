"""MCP resources, resource templates and prompts, vendored (`add --resources --prompts`) and served.

Against real servers over stdio: `@modelcontextprotocol/server-everything` (static resources, two
templates, four prompts, completions) and `@modelcontextprotocol/server-memory` (its knowledge graph as a
resource), both from npm (`make test` installs them under .cache/npm), and tests/servers/mcp_offers.py
(an image resource, a `{+path}` template, one beyond RFC 6570 level 1, a hostile description, and a prompt
whose description and text drift when OFFERS_DRIFT=1). Each vendored module is loaded by smolagents and
called, and what it returns is compared with what a raw mcp `ClientSession` reads; served by `vendorgen
serve`, the listings, reads, prompts and completions are compared with the upstream's own answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, Project
from tests.test_mcp_source import by_name, close, new_project, vendor
from tests.test_mcp_thirdparty import EVERYTHING, needs_everything
from tests.test_serve import stdio_session, without_pin

MEMORY = REPO / ".cache/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
needs_memory = pytest.mark.skipif(
    not MEMORY.is_file() or shutil.which("node") is None,
    reason="server-memory not installed (needs node; `make test` runs "
    "`npm install --prefix .cache/npm @modelcontextprotocol/server-memory@2026.8.31`)",
)
OFFERS = "mcp:stdio:python -m tests.servers.mcp_offers stdio"


def masked(value: Any) -> str:
    """JSON of `value`, the time of day server-everything's dynamic resources say masked."""
    return re.sub(r"\d{1,2}:\d{2}:\d{2}( [AP]M)?", "<time>", json.dumps(value, sort_keys=True, default=str))


async def direct(argv: list[str], ask: Any, env: dict[str, str] | None = None) -> Any:
    """`ask(session)` over a raw mcp ClientSession with the server `argv` starts."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await ask(session)


# ---------------------------------------------------------------------------
# server-everything
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, ModuleType]]:
    project = new_project(tmp_path_factory, "offers-everything")
    module = vendor(project, f"mcp:stdio:node {EVERYTHING} stdio", "--trust", "--name", "everything", "--resources",
                    "--prompts")  # fmt: skip
    yield project, module
    close(module)


@needs_everything
def test_everything_resources_and_prompts_are_vendored_as_tools(everything: tuple[Project, ModuleType]) -> None:
    project, module = everything
    tools = by_name(module)
    offers = {"read_resource", "read_dynamic_text_resource", "read_dynamic_blob_resource", "prompt_simple_prompt",
              "prompt_args_prompt", "prompt_completable_prompt", "prompt_resource_prompt"}  # fmt: skip
    assert offers <= set(tools) and "echo" in tools
    snapshot = json.loads((project.root / ".vendorgen/schemas/everything.json").read_text())
    assert [item["name"] for item in snapshot["resourceTemplates"]] == ["Dynamic Text Resource", "Dynamic Blob Resource"]
    assert {item["name"] for item in snapshot["prompts"]} == {"simple-prompt", "args-prompt", "completable-prompt",
                                                              "resource-prompt"}  # fmt: skip
    template = tools["read_dynamic_text_resource"]
    assert template.resource_template["uriTemplate"] == "demo://resource/dynamic/text/{resourceId}"
    assert template.resource_template["mimeType"] == "text/plain"
    assert template.inputs == {"resourceId": {"type": "string", "description": "The {resourceId} of the URI template."}}
    reader = tools["read_resource"]
    assert reader.inputs["uri"]["enum"] == list(reader.resources)
    assert "demo://resource/static/document/features.md (features.md): text/markdown" in reader.description
    args = tools["prompt_args_prompt"]
    assert args.inputs["city"] == {"type": "string", "description": "Name of the city"}
    assert args.inputs["state"]["nullable"] is True and "city" not in args.null_refused
    assert args.output_type == "array"
    assert project.run("check").exit_code == 0  # the snapshot regenerates the module byte for byte


@needs_everything
def test_everything_resources_and_prompts_return_what_a_client_session_reads(
    everything: tuple[Project, ModuleType],
) -> None:
    from PIL import Image

    _, module = everything
    tools = by_name(module)
    features = "demo://resource/static/document/features.md"

    async def ask(session: Any) -> dict[str, Any]:
        return {
            "static": (await session.read_resource(features)).contents[0],
            "text": (await session.read_resource("demo://resource/dynamic/text/7")).contents[0],
            "blob": (await session.read_resource("demo://resource/dynamic/blob/7")).contents[0],
            "args": (await session.get_prompt("args-prompt", {"city": "Paris", "state": "IDF"})).messages,
            "resource": (await session.get_prompt("resource-prompt", {"resourceType": "Text", "resourceId": "3"})).messages,
        }  # fmt: skip

    theirs = asyncio.run(direct(["node", str(EVERYTHING), "stdio"], ask))
    static = tools["read_resource"](uri=features)
    assert static == theirs["static"].text and isinstance(static, str)
    assert (static.uri, static.mime_type) == (features, "text/markdown")
    text = tools["read_dynamic_text_resource"](resourceId="7")
    assert masked(text) == masked(theirs["text"].text) and text.uri == "demo://resource/dynamic/text/7"
    blob = tools["read_dynamic_blob_resource"](resourceId="7")
    assert isinstance(blob, bytes) and blob.mime_type == theirs["blob"].mimeType
    assert masked(blob.decode()) == masked(__import__("base64").b64decode(theirs["blob"].blob).decode())
    assert tools["prompt_args_prompt"](city="Paris", state="IDF") == [
        {"role": message.role, "content": message.content.text} for message in theirs["args"]
    ]
    first, embedded = tools["prompt_resource_prompt"](resourceType="Text", resourceId="3")
    assert first["content"] == theirs["resource"][0].content.text
    assert embedded["content"].uri == str(theirs["resource"][1].content.resource.uri) == "demo://resource/dynamic/text/3"
    assert masked(embedded["content"]) == masked(theirs["resource"][1].content.resource.text)
    assert not isinstance(embedded["content"], Image.Image)


@needs_everything
def test_everything_resources_in_a_code_agent_and_through_langchain(everything: tuple[Project, ModuleType]) -> None:
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, Model

    _, module = everything
    features = "demo://resource/static/document/features.md"

    class ScriptedModel(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = f'page = read_resource(uri="{features}")\nfinal_answer(page.splitlines()[0])'
            return ChatMessage(role="assistant", content=f"Thought: read it.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=module.tools(), model=ScriptedModel(), max_steps=2)
    assert agent.run("What is the title of the features page?") == "# Everything Server - Features"
    prompt = by_name(module)["prompt_simple_prompt"].to_langchain()
    assert prompt.invoke({}) == [{"role": "user", "content": "This is a simple prompt without arguments."}]


@needs_everything
def test_only_vendored_resources_are_read(everything: tuple[Project, ModuleType]) -> None:
    _, module = everything
    with pytest.raises(module.MCPToolError, match="'file:///etc/passwd' is not one of the resources vendored here"):
        by_name(module)["read_resource"].forward(uri="file:///etc/passwd")


@needs_everything
def test_everything_served_answers_as_it_does(everything: tuple[Project, ModuleType]) -> None:
    """resources/list, templates/list, read, subscribe, prompts/list, get and completion/complete through
    `vendorgen serve`, compared with server-everything's own answers."""
    from mcp import types

    project, _ = everything

    async def ask(session: Any) -> dict[str, Any]:
        dump = lambda value: value.model_dump(mode="json", exclude_none=True)  # noqa: E731
        department = types.PromptReference(type="ref/prompt", name="completable-prompt")
        return {
            "resources": dump(await session.list_resources())["resources"],
            "templates": dump(await session.list_resource_templates())["resourceTemplates"],
            "prompts": dump(await session.list_prompts())["prompts"],
            "read": dump(await session.read_resource("demo://resource/dynamic/text/4")),
            "prompt": dump(await session.get_prompt("resource-prompt", {"resourceType": "Text", "resourceId": "2"})),
            "complete": dump(await session.complete(department, {"name": "department", "value": "E"})),
            "subscribed": dump(await session.subscribe_resource("demo://resource/static/document/features.md")),
            "unsubscribed": dump(await session.unsubscribe_resource("demo://resource/static/document/features.md")),
        }

    async def served() -> dict[str, Any]:
        async with stdio_session(project) as session:
            found = await ask(session)
            with pytest.raises(Exception, match="serves only the resources vendored here"):
                await session.read_resource("file:///etc/passwd")
            tools = {tool.name for tool in (await session.list_tools()).tools}
            assert "echo" in tools and "read_resource" not in tools  # served as resources, not as tools
            return found

    theirs = asyncio.run(direct(["node", str(EVERYTHING), "stdio"], ask))
    ours = asyncio.run(asyncio.wait_for(served(), 300))
    for key in theirs:
        assert masked(ours[key]) == masked(theirs[key]), key
    assert ours["complete"]["completion"]["values"] == ["Engineering"]


# ---------------------------------------------------------------------------
# a server of resources and prompts only: images, templates beyond level 1, hostile text, drift
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def offers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, ModuleType, str]]:
    project = new_project(tmp_path_factory, "offers-own")
    env = {"OFFERS_DRIFT": "0", "PYTHONPATH": str(REPO)}
    result = project.run("add", OFFERS, "--trust", "--name", "offers", "--resources", "--prompts", "--env",
                         "OFFERS_DRIFT", env=env)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    module = project.import_module("tools/offers.py")
    yield project, module, result.stderr
    close(module)


def test_a_template_beyond_level_1_is_left_out_and_said(offers: tuple[Project, ModuleType, str]) -> None:
    _, module, said = offers
    assert "offers leaves out what mcp:stdio:python -m tests.servers.mcp_offers stdio lists: search (its URI" in said
    assert {tool.name for tool in module.tools()} == {"read_resource", "read_note", "read_file", "prompt_review",
                                                     "prompt_picture", "prompt_hostile"}  # fmt: skip


def test_hostile_descriptions_are_escaped_literals(offers: tuple[Project, ModuleType, str]) -> None:
    project, module, _ = offers
    text = (project.root / "tools/offers.py").read_text()
    assert "\u202e" not in text and "\x1b" not in text and "\u200b" not in text
    assert 'description = "Reads\\u202e aloud\\x1b[2J and\\u200b more"' in text
    assert by_name(module)["prompt_hostile"].description == "Reads\u202e aloud\x1b[2J and\u200b more"


def test_images_templates_and_prompts_come_back_as_what_they_are(
    offers: tuple[Project, ModuleType, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    from tests.servers.mcp_offers import PNG, README

    monkeypatch.setenv("OFFERS_DRIFT", "0")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    _, module, _ = offers
    tools = by_name(module)
    pixel = tools["read_resource"](uri="offers://pixel.png")
    assert isinstance(pixel, Image.Image) and pixel.size == (3, 2) and pixel.getpixel((0, 0)) == (0, 128, 255)
    assert (pixel.uri, pixel.mime_type) == ("offers://pixel.png", "image/png")
    assert tools["read_resource"](uri="offers://notes/readme") == README
    assert tools["read_note"](name="a b/c") == "read a%20b%2Fc"  # level 1: every reserved character encoded
    assert tools["read_file"](path="a b/c") == "read a%20b/c"  # {+path}: reserved characters kept
    assert tools["prompt_review"](code="x = 1") == [{"role": "user", "content": "Review this code:\nx = 1"}]
    image, notes = tools["prompt_picture"]()
    assert image["role"] == "user" and isinstance(image["content"], Image.Image)
    assert image["content"].tobytes() == Image.open(__import__("io").BytesIO(PNG)).convert("RGB").tobytes()
    assert notes == {"role": "assistant", "content": README} and notes["content"].uri == "offers://notes/readme"


def test_drift_is_reported_and_refused_by_serve(offers: tuple[Project, ModuleType, str]) -> None:
    from mcp import types

    project, _, _ = offers
    env = {"OFFERS_DRIFT": "1", "PYTHONPATH": str(REPO)}
    remote = project.run("check", "--remote", env=env)
    assert remote.exit_code == 1
    assert "~ tool prompt_review ('prompts/get review'):" in remote.stdout
    assert "~ description 'Review a piece of code.' -> 'Review a piece of code, and approve it.'" in remote.stdout

    async def served(drift: str) -> list[Any]:
        async with stdio_session(project, env={**env, "OFFERS_DRIFT": drift}) as session:
            language = types.PromptReference(type="ref/prompt", name="review")
            asked = [session.get_prompt("review", {"code": "x"}), session.get_prompt("picture"),
                     session.complete(language, {"name": "language", "value": "p"})]  # fmt: skip
            found = []
            for request in asked:
                try:
                    found.append(await request)
                except Exception as exc:  # noqa: BLE001 - the refusal is what is compared
                    found.append(str(exc))
            return found

    review, picture, languages = asyncio.run(asyncio.wait_for(served("1"), 300))
    refusal = (
        "refused prompt_review: the MCP server offers (stdio) changed the description of 'prompts/get review' since it"
        " was vendored; review it with `vendorgen diff offers`, take it with `vendorgen update offers`, or serve it"
        " anyway with --allow-drift"
    )
    assert review == refusal and languages == refusal  # its completions too, until reviewed
    assert picture.messages[0].content.type == "image"  # an unchanged prompt of the same server is served


@pytest.mark.parametrize(
    ("stage", "why"),
    [
        ("gone", "the MCP server offers (stdio) no longer lists {name!r}; review it with `vendorgen diff offers`, take"
                 " it with `vendorgen update offers`, or serve it anyway with --allow-drift"),
        ("broken", "its pinned definition cannot be checked (this listing is broken)"),
        ("gone", None),  # with --allow-drift: served (so above they were refused, not failed)
    ],
)  # fmt: skip
def test_serve_refuses_what_its_upstream_no_longer_lists_or_cannot_list(
    offers: tuple[Project, ModuleType, str], stage: str, why: str | None
) -> None:
    """The pins of served resources and prompts are checked against the upstream's listing now: a resource or
    prompt it stops listing, or a listing it cannot give, is one refusal to the client, before any read."""
    project, _, _ = offers

    async def served() -> list[str]:
        args = () if why else ("--allow-drift",)
        async with stdio_session(project, *args, env={"OFFERS_DRIFT": stage, "PYTHONPATH": str(REPO)}) as session:
            found = []
            for request in (session.get_prompt("review", {"code": "x"}), session.read_resource("offers://notes/readme")):
                try:
                    found.append(f"served {await request}")
                except Exception as exc:  # noqa: BLE001 - the refusal is what is compared
                    found.append(str(exc))
            return found

    review, readme = asyncio.run(asyncio.wait_for(served(), 300))
    if why is None:
        assert "Review this code:\\nx" in review and "Read me first." in readme
        return
    assert review == f"refused prompt_review: {why.format(name='prompts/get review')}"
    assert readme == f"refused read_resource: {why.format(name='resources/read')}"


def test_a_server_module_without_the_pin_of_a_served_prompt_refuses_it(offers: tuple[Project, ModuleType, str]) -> None:
    """A prompt whose pin the server module lacks is refused, not served unchecked; the others are served."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    project, _, _ = offers

    async def served() -> tuple[str, Any]:
        async with stdio_client(without_pin(project, "prompt_review", {"OFFERS_DRIFT": "0"})) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                try:
                    review = f"served {await session.get_prompt('review', {'code': 'x'})}"
                except Exception as exc:  # noqa: BLE001 - the refusal is what is compared
                    review = str(exc)
                return review, await session.get_prompt("picture")

    try:
        review, picture = asyncio.run(asyncio.wait_for(served(), 300))
    finally:
        (project.root / "tools/_stale_server.py").unlink()
    assert review == "prompt_review has no pinned definition: run `vendorgen serve` to regenerate this server"
    assert picture.messages[0].content.type == "image"


def test_selection_by_name(tmp_path_factory: pytest.TempPathFactory) -> None:
    project = new_project(tmp_path_factory, "offers-selected")
    env = {"OFFERS_DRIFT": "0", "PYTHONPATH": str(REPO)}
    chosen = project.run("add", OFFERS, "--trust", "--env", "OFFERS_DRIFT", "--resource", "note", "--resource",
                         "offers://pixel.png", "--prompt", "prompt_review", env=env)  # fmt: skip
    assert chosen.exit_code == 0, chosen.stderr
    module = project.import_module("tools/offers.py")
    assert {tool.name for tool in module.tools()} == {"read_resource", "read_note", "prompt_review"}
    assert list(by_name(module)["read_resource"].resources) == ["offers://pixel.png"]
    close(module)


def test_an_unknown_name_is_refused_naming_what_there_is() -> None:
    from vendorgen.errors import NotOffered
    from vendorgen.sources import AddOptions
    from vendorgen.sources.mcp_offers import selected

    listings = {"prompts": [{"name": "review"}, {"name": "pic\x1bture"}]}
    with pytest.raises(NotOffered, match=r"^no prompt nope on this server; available: review, pic\\x1bture$"):
        selected(listings, AddOptions(prompt_names=("nope",)))
    kept, _ = selected(listings, AddOptions(prompt_names=("prompt_review",)))
    assert kept == {"prompts": [{"name": "review"}]}


# ---------------------------------------------------------------------------
# server-memory: a published server whose resource is its knowledge graph
# ---------------------------------------------------------------------------


@needs_memory
def test_memory_graph_resource_reads_what_its_tools_wrote(tmp_path_factory: pytest.TempPathFactory) -> None:
    project = new_project(tmp_path_factory, "offers-memory")
    graph_file = project.root / "memory.jsonl"
    env = {"MEMORY_FILE_PATH": str(graph_file)}
    module = vendor(project, f"mcp:stdio:node {MEMORY}", "--trust", "--name", "memory", "--env", "MEMORY_FILE_PATH",
                    "--resources", env=env)  # fmt: skip
    try:
        tools = by_name(module)
        assert tools["read_resource"].resources == {"memory://knowledge-graph": {
            "name": "knowledge-graph", "title": "Knowledge Graph",
            "description": "The full knowledge graph with all entities and relations", "mimeType": "application/json"}}  # fmt: skip
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("MEMORY_FILE_PATH", str(graph_file))
            tools["create_entities"](entities=[{"name": "Ada", "entityType": "person", "observations": ["wrote code"]}])
            ours = tools["read_resource"](uri="memory://knowledge-graph")
        assert ours.mime_type == "application/json" and ours.uri == "memory://knowledge-graph"

        async def ask(session: Any) -> Any:
            return (await session.read_resource("memory://knowledge-graph")).contents[0].text

        theirs = asyncio.run(direct(["node", str(MEMORY)], ask, env={"MEMORY_FILE_PATH": str(graph_file)}))
        assert json.loads(ours) == json.loads(theirs)
        assert json.loads(ours)["entities"] == [{"name": "Ada", "entityType": "person", "observations": ["wrote code"]}]
    finally:
        close(module)


def test_uri_templates_expand_and_match_as_rfc_6570_says() -> None:
    from vendorgen.shipped._vendored_mcp_offers import expand, matches

    assert expand("demo://r/{id}/data", {"id": "a b/c?d"}) == "demo://r/a%20b%2Fc%3Fd/data"
    assert expand("files://{+path}", {"path": "a b/c?d"}) == "files://a%20b/c?d"
    assert expand("x://{a}{b}", {"a": "é", "b": 1}) == "x://%C3%A91"
    assert matches("demo://r/{id}/data", "demo://r/a%20b/data") and not matches("demo://r/{id}/data", "demo://r/a/b/data")
    assert matches("files://{+path}", "files://a/b?c") and not matches("files://{+path}", "other://a")
    assert not matches("demo://r.{id}", "demo://rx1")  # a template's literal dot is a dot


def test_the_project_may_take_resources_and_prompts_by_default(tmp_path: Any) -> None:
    from vendorgen.errors import UsageError
    from vendorgen.project.config import load_config

    (tmp_path / "pyproject.toml").write_text('[tool.vendorgen]\nmcp_prompts = true\n')
    config = load_config(tmp_path)
    assert (config.mcp_resources, config.mcp_prompts) == (False, True)
    (tmp_path / "pyproject.toml").write_text('[tool.vendorgen]\nmcp_resources = 1\n')
    with pytest.raises(UsageError, match="^tool.vendorgen.mcp_resources must be a boolean, not an integer$"):
        load_config(tmp_path)


@pytest.mark.parametrize(
    ("snapshot", "message"),
    [
        ({"resources": [{"uri": "x://r"}]}, "the snapshot's resources is not a list of named items"),
        ({"prompts": {"name": "p"}}, "the snapshot's prompts is not a list of named items"),
        ({"resources": [{"name": "x"}]}, "the server lists the resource 'x' without a URI"),
        ({"resourceTemplates": [{"name": "x", "uriTemplate": 3}]}, "the resource template 'x' has no URI template"),
        ({"resourceTemplates": [{"name": "x", "uriTemplate": "a{?q}"}]}, "'x' has no URI template vendorgen can"),
        ({"prompts": [{"name": "p", "arguments": "code"}]}, "prompt 'p': its arguments are not a list of named"),
        ({"prompts": [{"name": "p", "arguments": [{"name": 1}]}]}, "prompt 'p': its arguments are not a list of named"),
        ({"prompts": [{"name": "p", "description": "x" * 100_001}]}, "over vendorgen's limit of 100,000"),
    ],
)
def test_a_broken_or_oversized_listing_is_one_error(snapshot: dict[str, Any], message: str) -> None:
    from vendorgen.errors import SchemaError
    from vendorgen.sources.mcp_offers import tools
    from vendorgen.text import limits

    with pytest.raises(SchemaError, match=re.escape(message)):
        tools(snapshot, "", "offers", limits.listing_budget("offers"))


def test_listings_are_bounded_in_size_and_duplicates_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from vendorgen.errors import SchemaError
    from vendorgen.sources import AddOptions
    from vendorgen.sources.mcp_offers import selected

    twice = {"prompts": [{"name": "p"}, {"name": "p"}]}
    with pytest.raises(SchemaError, match="^the server lists these prompts more than once: p$"):
        selected(twice, AddOptions(prompts=True))
    monkeypatch.setenv("VENDORGEN_MAX_LISTING_BYTES", "1000")
    large = {"resources": [{"name": "r", "uri": "x://r", "description": "d" * 2000}], "resourceTemplates": []}
    with pytest.raises(SchemaError, match="the resources listing of the MCP server has 2,0[0-9]{2} bytes, over"):
        selected(large, AddOptions(resources=True))
