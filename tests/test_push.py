"""`vendorgen push`: vendored tools published as Hub tool Spaces, checked by loading them back.

Round trips against the loopback Hub and the live example app:
(1) push, then smolagents' `Tool.from_hub(..., trust_remote_code=True)` loads and calls the tool;
(2) `vendorgen add hub:` of the pushed Space gives back an equivalent tool;
(3) the pushed app.py serves the tool on 127.0.0.1 and `vendorgen add space:` vendors and calls it.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from huggingface_hub import HfApi

from tests.conftest import REPO, Project
from tests.servers import OFFLINE_ENV, free_port, server_process
from tests.servers.fakehub import FakeHub, parse_front_matter
from vendorgen.package.inline import inline
from vendorgen.text.formatter import format_source

SPACE_FILES = ["README.md", "app.py", "requirements.txt", "tool.py"]
FROM_HUB = """
import json, sys
from smolagents import Tool

tool = Tool.from_hub(sys.argv[1], trust_remote_code=True)
result = tool(**json.loads(sys.argv[2]))
print(json.dumps({"class": type(tool).__name__, "name": tool.name, "inputs": tool.inputs,
                  "output_type": tool.output_type, "result": result}))
"""
SHAPES_TOOL = """\
from smolagents import Tool


class ShapesTool(Tool):
    name = "shapes"
    description = "Echoes every argument with its Python type."
    inputs = {
        "items": {"type": "array", "description": "A list.", "items": {"type": "integer"}},
        "options": {"type": "object", "description": "A dict.", "nullable": True},
        "anything": {"type": "any", "description": "Any JSON value, or text."},
        "count": {"type": "integer", "description": "A count.", "nullable": True, "default": 2},
        "flag": {"type": "boolean", "description": "A flag."},
        "unit": {"type": "string", "description": "A unit.", "enum": ["m", "ft"]},
        "note": {"type": "string", "description": "A note.", "nullable": True},
        "either": {"type": ["string", "number"], "description": "A union.", "nullable": True},
    }
    output_type = "object"

    def forward(self, items, anything, flag, unit, options=None, count=2, note=None, either=None):
        values = {"items": items, "options": options, "anything": anything, "count": count, "flag": flag,
                  "unit": unit, "note": note, "either": either}
        return {key: [value, type(value).__name__] for key, value in values.items()}
"""


@pytest.fixture(scope="module")
def vendored(gradio_app: str, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A project with the example app's tools vendored (space source)."""
    project = new_project(tmp_path_factory.mktemp("push"))
    result = project.run("add", f"space:{gradio_app}", "--all-endpoints")
    assert result.exit_code == 0, result.stderr
    return project


def new_project(where: Path) -> Project:
    root = where / "project"
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)


def hub_env(hub: FakeHub, where: Path, token: str = "hf_test") -> dict[str, str]:
    return {**OFFLINE_ENV, **hub.client_env(where / "hf_home", token)}


def push(project: Project, hub: FakeHub, tmp_path: Path, *args: str, token: str = "hf_test"):
    # --force: the tools here come from loopback servers, which a real Space could not reach.
    return project.run("push", *args, "--force", env=hub_env(hub, tmp_path, token))


def from_hub(
    hub: FakeHub, tmp_path: Path, repo_id: str, arguments: dict[str, Any], env: dict[str, str] | None = None
) -> dict[str, Any]:
    """smolagents' own loader, in a subprocess pointed at the loopback Hub."""
    run = subprocess.run(
        [sys.executable, "-c", FROM_HUB, repo_id, json.dumps(arguments)],
        env={**os.environ, **hub_env(hub, tmp_path), **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The Space's app.py, run as a Space runs it (python app.py), on a free 127.0.0.1 port."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {"GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port), "GRADIO_TEMP_DIR": str(folder / ".tmp")}
    with server_process([str(folder / "app.py")], url + "config", env=env):
        yield url


def write_space(hub: FakeHub, repo_id: str, folder: Path) -> Path:
    for name, data in hub.files(repo_id).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def vendored_attributes(project: Project, path: str, class_name: str) -> dict[str, Any]:
    tool = getattr(project.import_module(path), class_name)
    return {"name": tool.name, "inputs": tool.inputs, "output_type": tool.output_type}


# ------------------------------------------------------------------------------ the folder


def test_dry_run_writes_the_folder_and_uploads_nothing(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    out = tmp_path / "space"
    result = push(vendored, fakehub, tmp_path, "convert", "tester/convert", "--dry-run", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(path.name for path in out.iterdir()) == SPACE_FILES
    assert [line.split()[0] for line in result.stdout.splitlines()[:4]] == SPACE_FILES
    assert result.stdout.splitlines()[-1] == f"wrote {out.as_posix()}/ (not uploaded: --dry-run)"
    assert fakehub.requests == []

    # tool.py is the vendored module itself (one tool: nothing to reduce), with the runtime it uses inlined.
    tool_py = (out / "tool.py").read_text()
    module = (vendored.root / "tools" / "convert.py").read_text()
    assert tool_py == format_source(inline(module))
    assert "from ._vendored_gradio" in module and "from ._vendored" not in tool_py
    assert "class SpaceTool(_VendoredTool, Tool):" in tool_py and "class MCPSession" not in tool_py
    assert tool_py.endswith("\ndel SpaceTool\n")  # the one Tool subclass left for from_code: the tool
    card = parse_front_matter((out / "README.md").read_bytes())
    assert card["sdk"] == "gradio" and card["app_file"] == "app.py" and card["title"] == "convert"
    assert card["sdk_version"] == importlib.metadata.version("gradio")
    assert {"smolagents", "tool"} <= set(card["tags"])
    readme = (out / "README.md").read_text()
    assert 'Tool.from_hub("tester/convert", trust_remote_code=True)' in readme
    assert "from space:http://127.0.0.1:" in readme  # provenance

    as_json = push(vendored, fakehub, tmp_path, "convert", "tester/convert", "--dry-run", "--out", str(out), "--json")
    [pushed] = json.loads(as_json.stdout)["modules"]
    assert {key: pushed[key] for key in ("tool", "files", "written", "repo_id", "url", "commit")} == {
        "tool": "convert",
        "files": SPACE_FILES,
        "written": [(out / name).as_posix() for name in SPACE_FILES],
        "repo_id": "tester/convert",
        "url": None,
        "commit": None,
    }


def test_requirements_are_distributions_pinned_to_the_installed_versions(
    vendored: Project, fakehub: FakeHub, tmp_path: Path
) -> None:
    out = tmp_path / "space"
    assert push(vendored, fakehub, tmp_path, "thumbnail", "tester/t", "--dry-run", "--out", str(out)).exit_code == 0
    lines = [line for line in (out / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    pins = dict(line.split("==") for line in lines)
    assert lines == sorted(lines) and all(re.fullmatch(r"[a-z0-9-]+==[\w.+]+", line) for line in lines)
    assert {"smolagents", "gradio-client"} <= set(pins)
    assert "gradio" not in pins  # the Space SDK provides it (README pins sdk_version)
    for name, version in pins.items():
        assert importlib.metadata.version(name) == version


def test_import_names_become_distribution_names() -> None:
    from vendorgen.publish.push import requirements

    pins = requirements("from PIL import Image\nimport yaml\nimport json\nfrom . import local\n", ["smolagents"])
    assert [pin.split("==")[0] for pin in pins] == ["pillow", "pyyaml", "smolagents"]
    with pytest.raises(Exception, match="cannot pin not_installed_anywhere: not installed for "):
        requirements("import not_installed_anywhere\n", [])


# --------------------------------------------------------------------------- round trips


def test_gradio_tool_round_trips(vendored: Project, fakehub: FakeHub, tmp_path: Path, gradio_app: str) -> None:
    result = push(vendored, fakehub, tmp_path, "convert", "tester/convert", "--private")
    assert result.exit_code == 0, result.stderr
    commit = fakehub.commit_sha("tester/convert")
    assert (
        result.stdout.splitlines()[-1]
        == f"pushed convert to {fakehub.endpoint}/spaces/tester/convert (commit {commit})"
    )
    assert SPACE_FILES == sorted(set(fakehub.files("tester/convert")) - {".gitattributes"})
    assert sum(1 for method, path in fakehub.requests if method == "POST" and "/commit/" in path) == 1
    assert HfApi(endpoint=fakehub.endpoint, token="hf_test").space_info("tester/convert").private is True

    # (1) smolagents loads the pushed tool.py and calls the live app through it.
    loaded = from_hub(fakehub, tmp_path, "tester/convert", {"value": 2, "from_unit": "m", "to_unit": "cm"})
    original = vendored_attributes(vendored, "tools/convert.py", "ConvertTool")
    assert (loaded["class"], loaded["result"]) == ("ConvertTool", 200.0)
    assert {key: loaded[key] for key in original} == original

    # (2) vendoring the pushed Space gives back the same tool.
    again = new_project(tmp_path / "again")
    added = again.run("add", "hub:tester/convert", "--trust", env=hub_env(fakehub, tmp_path))
    assert added.exit_code == 0, added.stderr
    assert vendored_attributes(again, "tools/convert.py", "ConvertTool") == original
    assert again.import_module("tools/convert.py").ConvertTool()(value=1, from_unit="km", to_unit="m") == 1000.0

    # (3) the pushed app.py serves the tool; vendoring that app gives a tool that calls it.
    with serving(write_space(fakehub, "tester/convert", tmp_path / "space")) as url:
        third = new_project(tmp_path / "third")
        added = third.run("add", f"space:{url}")
        assert added.exit_code == 0, added.stderr
        assert added.stdout.startswith("wrote tools/convert.py")
        served = third.import_module("tools/convert.py").ConvertTool()
        assert served(value=3, from_unit="ft", to_unit="in") == 36.0
        assert served(value=2) == pytest.approx(6.56167979)  # the app's defaults: m -> ft


def test_pushing_again_updates_the_same_space(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    assert push(vendored, fakehub, tmp_path, "convert", "tester/tools").exit_code == 0
    assert push(vendored, fakehub, tmp_path, "stats", "tester/tools").exit_code == 0
    assert b"class StatsTool(SpaceTool)" in fakehub.files("tester/tools")["tool.py"]
    assert from_hub(fakehub, tmp_path, "tester/tools", {"text": "a b"})["result"] == [2, 3, "A B"]


def test_the_demo_handles_every_input_type(fakehub: FakeHub, tmp_path: Path) -> None:
    """array, object, any, unions, optional and enum inputs: what smolagents' launch_gradio_demo cannot show."""
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    fakehub.add_space("tester/shapes", {"tool.py": SHAPES_TOOL.encode()})
    project = new_project(tmp_path)
    assert project.run("add", "hub:tester/shapes", "--trust", env=hub_env(fakehub, tmp_path)).exit_code == 0
    out = tmp_path / "space"
    assert (
        push(project, fakehub, tmp_path, "shapes", "tester/shapes-demo", "--dry-run", "--out", str(out)).exit_code == 0
    )
    assert (out / "tool.py").read_text() == (project.root / "tools" / "shapes.py").read_text()

    with serving(out) as url:
        client = Client(url, verbose=False, analytics_enabled=False)
        full = client.predict(
            items="[1, 2]",
            options='{"a": 1}',
            anything="plain text",
            count=3,
            flag=True,
            unit="ft",
            note="hi",
            either="4.5",
            api_name="/shapes",
        )
        assert full == {
            "items": [[1, 2], "list"],
            "options": [{"a": 1}, "dict"],
            "anything": ["plain text", "str"],  # not JSON: sent as text
            "count": [3, "int"],
            "flag": [True, "bool"],
            "unit": ["ft", "str"],
            "note": ["hi", "str"],
            "either": [4.5, "float"],
        }
        # Blank optional fields are left out, so the tool's defaults apply.
        sparse = client.predict(
            items="[]",
            options="",
            anything='{"k": [1]}',
            count=None,
            flag=False,
            unit="m",
            note="",
            either="",
            api_name="/shapes",
        )
        assert sparse["options"] == [None, "NoneType"] and sparse["count"] == [2, "int"]
        assert sparse["note"] == [None, "NoneType"] and sparse["anything"] == [{"k": [1]}, "dict"]
        for items, message in (
            ("[1,", "items is not valid JSON"),
            ('{"a": 1}', "items must be a JSON array"),
            ("", "items is required"),
        ):
            with pytest.raises(AppError, match=re.escape(message)):
                client.predict(
                    items=items,
                    options="",
                    anything="1",
                    count=None,
                    flag=False,
                    unit="m",
                    note="",
                    either="",
                    api_name="/shapes",
                )


def test_mcp_tool_round_trips(fakehub: FakeHub, tmp_path: Path) -> None:
    """One tool of a several-tool MCP module becomes a one-tool tool.py that from_hub loads and calls."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    server = [str(REPO / "tests" / "servers" / "mcp_server.py"), "http", "--port", str(port)]
    with server_process(server, url):
        project = new_project(tmp_path)
        result = project.run("add", f"mcp:{url}", "--name", "server")
        assert result.exit_code == 0, result.stderr

        several = push(project, fakehub, tmp_path, "server", "tester/add")
        assert several.exit_code == 2 and "a tool Space holds one: pick it with --tool" in several.stderr
        result = push(project, fakehub, tmp_path, "tools/server.py", "tester/add", "--tool", "add")
        assert result.exit_code == 0, result.stderr
        tool_py = fakehub.files("tester/add")["tool.py"].decode()
        # One class derives from Tool itself (the runtime's MCP base): the Space and LangChain ones stay out.
        assert re.findall(r"^class (\w+)\((?:\w+, )*Tool\)", tool_py, flags=re.M) == ["MCPTool"]

        loaded = from_hub(fakehub, tmp_path, "tester/add", {"a": 2, "b": 3})
        module = project.import_module("tools/server.py")
        try:
            vendored = module.AddTool()
            assert loaded["class"] == "AddTool" and loaded["result"] == vendored(a=2, b=3)
            assert {key: loaded[key] for key in ("name", "inputs", "output_type")} == {
                "name": vendored.name,
                "inputs": vendored.inputs,
                "output_type": vendored.output_type,
            }
        finally:
            module._ServerTool.session.close()


LANGCHAIN_PACKAGE = '''\
from langchain_core.tools import BaseToolkit, tool


@tool
def word_count(text: str) -> int:
    """Count the words in a text."""
    return len(text.split())


@tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


class WordToolkit(BaseToolkit):
    def get_tools(self):
        return [word_count, shout]


toolkit = WordToolkit()
'''


def installed_distribution(site: Path) -> Path:
    """`lc-wordtools` 1.2.0, installed the way pip leaves it: the package beside its .dist-info metadata."""
    (site / "lc_wordtools").mkdir(parents=True)
    (site / "lc_wordtools" / "__init__.py").write_text(LANGCHAIN_PACKAGE)
    info = site / "lc_wordtools-1.2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lc-wordtools\nVersion: 1.2.0\n")
    (info / "top_level.txt").write_text("lc_wordtools\n")
    return site


def test_langchain_tool_round_trips(fakehub: FakeHub, tmp_path: Path) -> None:
    """A LangChain toolkit from an installed package: the Space pins that package and from_hub calls the tool."""
    site = installed_distribution(tmp_path / "site")
    with_package = {"PYTHONPATH": f"{site}{os.pathsep}{REPO}"}
    project = new_project(tmp_path)
    result = project.run("add", "langchain:lc_wordtools:toolkit", "--name", "words", env=with_package)
    assert result.exit_code == 0, result.stderr

    env = {**hub_env(fakehub, tmp_path), **with_package}
    result = project.run("push", "words", "tester/words", "--tool", "word_count", env=env)
    assert result.exit_code == 0, result.stderr
    assert "lc-wordtools==1.2.0" in fakehub.files("tester/words")["requirements.txt"].decode().splitlines()
    # The Space's `pip install -r requirements.txt`, here: the package on the path.
    loaded = from_hub(fakehub, tmp_path, "tester/words", {"text": "one two three"}, with_package)
    assert (loaded["class"], loaded["result"]) == ("WordCountTool", 3)

    # Code of the project itself cannot travel in a one-file Space: push says so.
    (project.root / "my_tools.py").write_text(LANGCHAIN_PACKAGE)
    local = {"PYTHONPATH": f"{project.root}{os.pathsep}{REPO}"}
    assert project.run("add", "langchain:my_tools:word_count", "--prefix", "mine", env=local).exit_code == 0
    result = project.run("push", "mine_word_count", "tester/mine", env={**hub_env(fakehub, tmp_path), **local})
    assert result.exit_code == 2
    assert (
        "tool.py imports my_tools, which is code of this project rather than an installed distribution" in result.stderr
    )


# -------------------------------------------------------------------------------- refusals


def test_a_hub_tool_that_from_hub_would_not_pick(fakehub: FakeHub, tmp_path: Path) -> None:
    two = SHAPES_TOOL + '\n\nclass AShapesTool(ShapesTool):\n    name = "a_shapes"\n'
    fakehub.add_space("tester/two", {"tool.py": two.encode()})
    project = new_project(tmp_path)
    added = project.run("add", "hub:tester/two", "--trust", "--class", "ShapesTool", env=hub_env(fakehub, tmp_path))
    assert added.exit_code == 0, added.stderr
    result = push(project, fakehub, tmp_path, "shapes", "tester/x", "--dry-run", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "Tool.from_hub would load AShapesTool" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "tester/x"], "no vendored module 'nope' (vendored: "),
        (["convert", "not-a-repo"], "'not-a-repo' is not owner/space"),
        (["convert", "tester/x", "--dry-run"], "--dry-run writes the Space folder to --out DIR"),
        (["convert", "tester/x", "--tool", "other"], "convert has no tool 'other' (its tools: convert)"),
    ],
)
def test_usage_errors(vendored: Project, fakehub: FakeHub, tmp_path: Path, args: list[str], message: str) -> None:
    result = push(vendored, fakehub, tmp_path, *args)
    assert result.exit_code == 2 and message in result.stderr
    assert fakehub.requests == []


def test_no_token_anywhere(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    env = {**OFFLINE_ENV, "HF_ENDPOINT": fakehub.endpoint, "HF_HOME": str(tmp_path / "empty_home")}
    result = vendored.run("push", "convert", "tester/x", "--force", env=env)
    assert result.exit_code == 2
    assert "push needs a Hugging Face token with write access" in result.stderr
    assert fakehub.requests == []


def test_a_rejected_token_is_never_printed_or_written(vendored: Project, tmp_path: Path) -> None:
    secret = "hf_rejected_secret_value"
    with FakeHub(tokens={"hf_good"}) as hub:
        result = push(vendored, hub, tmp_path, "convert", "tester/x", "--out", str(tmp_path / "out"), token=secret)
    assert result.exit_code == 2 and "refused access to Space tester/x (HTTP 401" in result.stderr
    assert secret not in result.stdout + result.stderr
    for path in (tmp_path / "out").iterdir():
        assert secret not in path.read_text()


def test_a_failed_commit_changes_nothing(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    fakehub.fail_next(r"/commit/main$", 500)
    result = push(vendored, fakehub, tmp_path, "convert", "tester/x")
    assert result.exit_code == 2 and "HTTP 500" in result.stderr
    assert "tool.py" not in fakehub.files("tester/x")


def test_local_edits_are_named(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    path = vendored.root / "tools" / "nothing.py"
    original = path.read_text()
    path.write_text(original + "# my edit\n")
    try:
        result = push(vendored, fakehub, tmp_path, "tools/nothing.py", "tester/x", "--dry-run", "--out", str(tmp_path))
    finally:
        path.write_text(original)
    assert result.exit_code == 0
    assert "note: tools/nothing.py has local edits, which the Space would not get" in result.stderr
    assert "# my edit" not in (tmp_path / "tool.py").read_text()


def test_a_push_without_local_edits_is_not_made_silently(vendored: Project, fakehub: FakeHub, tmp_path: Path) -> None:
    """Issue 29 item 4: the note said `run vendorgen update to merge`, which changes nothing (`1 module up to date`),
    and the push went ahead without the edits."""
    path = vendored.root / "tools" / "nothing.py"
    original = path.read_text()
    path.write_text(original + "# my edit\n")
    before = len(fakehub.requests)
    try:
        refused = vendored.run("push", "nothing", "tester/edited", env=hub_env(fakehub, tmp_path))
        asked = fakehub.requests[before:]
        forced = push(vendored, fakehub, tmp_path, "nothing", "tester/edited")
    finally:
        path.write_text(original)
    assert refused.exit_code == 2, refused.stderr
    [line] = refused.stderr.splitlines()
    assert line.startswith("error: tools/nothing.py has local edits, which the Space would not get") and (
        "`vendorgen diff --offline nothing` shows them" in line
        and "`vendorgen push nothing tester/edited --dry-run --out DIR`" in line
        and "`hf upload tester/edited DIR . --repo-type space`" in line
        and line.endswith("; --force pushes the locked version without them")
    ), line
    assert "vendorgen update" not in line
    assert asked == []  # refused before the Hub is asked anything
    assert forced.exit_code == 0, forced.stderr  # the locked version, as asked


def test_requirements_are_pinned_from_the_projects_interpreter(
    vendored: Project, fakehub: FakeHub, tmp_path: Path
) -> None:
    """Issue 29 item 3: with vendorgen installed as a tool, push pinned (or failed to find) what vendorgen's own
    environment has, not the project's .venv. Here the project's .venv says smolagents is 9.9.9."""
    import shutil
    import sysconfig

    project = Project(tmp_path / "project")
    shutil.copytree(vendored.root, project.root)
    venv = project.root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    [site] = list(venv.glob("lib/python3*/site-packages"))
    (site / "vendorgen_test.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # the rest, as installed here
    info = site / "smolagents-9.9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: smolagents\nVersion: 9.9.9\n")
    (info / "top_level.txt").write_text("smolagents\n")
    out = tmp_path / "space"
    result = push(project, fakehub, tmp_path, "convert", "tester/c", "--dry-run", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "smolagents==9.9.9" in (out / "requirements.txt").read_text().splitlines()
