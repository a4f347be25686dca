"""`vendorgen add hub:<owner/space>[@revision] --trust` through the CLI, against the loopback Hub.

The CLI runs in a subprocess whose HF_ENDPOINT is the loopback Hub (tests/servers/fakehub.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import Project, new_project
from tests.servers import free_port
from tests.servers.fakehub import FakeHub
from vendorgen.generate import pipeline
from vendorgen.project.workspace import Workspace
from vendorgen.text.formatter import format_source

SPACE = "tester/shout"
TOOL_PY = """\
import os

import requests
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
        if os.environ.get("SHOUT_QUIETLY"):
            return text
        return text.upper() + "!" * (times or 1)

    def lookup(self, url: str) -> str:
        return requests.get(url, timeout=5).text
"""
REQUIREMENTS = "smolagents\nrequests  # for lookup\n"


def env(hub: FakeHub, project: Project, token: str = "hf_test") -> dict[str, str]:
    return hub.client_env(project.root.parent / "hf_home", token)


def add(hub: FakeHub, project: Project, *args: str, token: str = "hf_test"):
    return project.run("add", *args, env=env(hub, project, token))


def tool_space(hub: FakeHub, tool_py: str = TOOL_PY, repo_id: str = SPACE, **files: str) -> str:
    return hub.add_space(repo_id, {"tool.py": tool_py.encode(), **{k: v.encode() for k, v in files.items()}})


def test_vendors_the_file_as_it_is_pinned_to_the_commit(fakehub: FakeHub, project: Project) -> None:
    sha = tool_space(fakehub, **{"requirements.txt": REQUIREMENTS})
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 0, result.stderr
    code = (project.root / "tools" / "shout.py").read_text()
    header, body = code.split("\n\n", 1)
    assert header.splitlines()[2] == f"# from hub:{SPACE}"
    assert f"revision {sha}" in header
    assert body == format_source(TOOL_PY)

    [entry] = tomllib.loads((project.root / "vendorgen.lock").read_text())["module"]
    assert (entry["kind"], entry["revision"], entry["tools"]) == ("hub", sha, ["shout"])
    assert entry["requirements"] == ["smolagents>=1.20,<2", "requests"]
    snapshot = json.loads((project.root / entry["schema"]).read_text())
    assert snapshot["tool_py"] == TOOL_PY and snapshot["class_name"] == "ShoutTool"
    assert "hf_test" not in json.dumps(snapshot)
    # Both files were read at the resolved sha, one request each.
    assert [path for _, path in fakehub.requests] == [
        f"/api/spaces/{SPACE}",
        f"/spaces/{SPACE}/resolve/{sha}/tool.py",
        f"/spaces/{SPACE}/resolve/{sha}/requirements.txt",
    ]


def test_prints_a_review_with_the_lines_of_the_written_file(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 0, result.stderr
    lines = (project.root / "tools" / "shout.py").read_text().splitlines()
    assert "review of tools/shout.py (hub:tester/shout at " in result.stdout
    assert "requirements: none declared" in result.stdout
    flagged = result.stdout.split("  flagged:\n")[1].splitlines()
    for construct in ("import requests", "os.environ.get", "requests.get"):
        [row] = [row for row in flagged if row.endswith(" " + construct)]
        line_number = int(row.split()[1])
        assert construct.removeprefix("import ").removesuffix(".get") in lines[line_number - 1], (construct, row)

    as_json = json.loads(add(fakehub, project, f"hub:{SPACE}", "--trust", "--dry-run", "--json").stdout)["modules"]
    flagged = {(item["category"], item["construct"]) for item in as_json[0]["review"]["flagged"]}
    assert flagged == {("network", "import requests"), ("environment", "os.environ.get"), ("network", "requests.get")}
    assert as_json[0]["written"] is False and as_json[0]["requirements"] == []


def test_the_vendored_tool_works_and_regenerates_offline(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    assert add(fakehub, project, f"hub:{SPACE}", "--trust").exit_code == 0
    tool = project.import_module("tools/shout.py").ShoutTool()
    assert tool(text="hey", times=2) == "HEY!!"
    # The committed snapshot gives the same bytes, with no Hub at all.
    workspace = Workspace(project.root)
    [entry] = workspace.read_lock()
    assert pipeline.generate(workspace.read_snapshot(entry), workspace).code == (project.root / entry.path).read_text()
    assert project.run("check").exit_code == 0


def test_nothing_in_tool_py_runs_while_vendoring(fakehub: FakeHub, project: Project, tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    payload = f"open({str(marker)!r}, 'a').write('ran')"
    tool_space(
        fakehub,
        TOOL_PY.replace("import os\n", f"import os\n{payload}\n", 1).replace(
            '    output_type = "string"\n', f'    output_type = "string"\n    {payload}\n', 1
        ),
    )
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 0, result.stderr
    assert not marker.exists()
    # The review points at both writes.
    assert len(re.findall(r'file write +open\(\.\.\., "a"\)', result.stdout)) == 2, result.stdout
    # The payload is live: importing the vendored file (what the user does after reviewing it) runs it, twice.
    subprocess.run(
        [sys.executable, "-c", "import runpy; runpy.run_path('tools/shout.py')"], cwd=project.root, check=True
    )
    assert marker.read_text() == "ranran"


def test_trust_is_required(fakehub: FakeHub, project: Project) -> None:
    tool_space(fakehub)
    result = add(fakehub, project, f"hub:{SPACE}")
    assert result.exit_code == 2
    assert "pass --trust" in result.stderr and "trust_remote_code=True" in result.stderr
    assert fakehub.requests == [] and project.snapshot() == {"pyproject.toml": project.snapshot()["pyproject.toml"]}


def test_a_revision_is_resolved_to_its_commit(fakehub: FakeHub, project: Project) -> None:
    first = tool_space(fakehub)
    tool_space(fakehub, TOOL_PY.replace('name = "shout"', 'name = "shout_v2"'))
    dev = fakehub.add_space(
        SPACE, {"tool.py": TOOL_PY.replace('name = "shout"', 'name = "shout_dev"').encode()}, branch="dev"
    )

    assert add(fakehub, project, f"hub:{SPACE}@{first}", "--trust").exit_code == 0
    assert add(fakehub, project, f"hub:{SPACE}@dev", "--trust").exit_code == 0
    lock = {entry["name"]: entry for entry in tomllib.loads((project.root / "vendorgen.lock").read_text())["module"]}
    assert (lock["shout"]["revision"], lock["shout"]["source"]) == (first, f"hub:{SPACE}@{first}")
    assert (lock["shout_dev"]["revision"], lock["shout_dev"]["source"]) == (dev, f"hub:{SPACE}@dev")

    before = project.snapshot()
    result = add(fakehub, project, f"hub:{SPACE}@no-such-branch", "--trust")
    assert result.exit_code == 1
    assert "no such revision" in result.stderr
    assert project.snapshot() == before


def test_several_tool_classes(fakehub: FakeHub, project: Project) -> None:
    second = '\n\nclass WhisperTool(ShoutTool):\n    name = "whisper"\n'
    tool_space(fakehub, TOOL_PY + second)
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 2
    assert "defines 2 Tool classes (ShoutTool, WhisperTool); pick one with --class" in result.stderr
    assert not (project.root / "vendorgen.lock").exists()

    assert add(fakehub, project, f"hub:{SPACE}", "--trust", "--class", "WhisperTool").exit_code == 0
    tool = project.import_module("tools/whisper.py").WhisperTool()
    assert (tool.name, tool(text="a")) == ("whisper", "A!")  # inputs inherited from ShoutTool
    result = add(fakehub, project, f"hub:{SPACE}", "--trust", "--class", "LoudTool")
    assert result.exit_code == 2 and "no Tool class 'LoudTool'; it defines: ShoutTool, WhisperTool" in result.stderr


BAD_TOOL_FILES = {
    "syntax error": (TOOL_PY.replace("def forward(self", "def forward(self,,"), "line 17, column"),
    # Parses, yet Python refuses to compile it: compiled at vendoring time, never run.
    "return outside a function": (TOOL_PY + "return 1\n", "'return' outside function (not valid Python 3 code)"),
    "non-literal attribute": (
        TOOL_PY.replace('output_type = "string"', "output_type = os.environ['TYPE']"),
        "line 14: ShoutTool.output_type is not a literal",
    ),
    "missing attribute": (TOOL_PY.replace('    output_type = "string"\n', ""), "has no class attribute output_type"),
    "no Tool class": (TOOL_PY.replace("(Tool)", "(object)"), "defines no subclass of smolagents' Tool"),
}


@pytest.mark.parametrize("case", list(BAD_TOOL_FILES))
def test_a_tool_py_that_cannot_be_read_statically(fakehub: FakeHub, project: Project, case: str) -> None:
    tool_py, message = BAD_TOOL_FILES[case]
    tool_space(fakehub, tool_py)
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: tool.py of tester/shout") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (project.root / "tools").exists()


def test_a_space_without_tool_py(fakehub: FakeHub, project: Project) -> None:
    fakehub.add_space("tester/app", {"app.py": b"import gradio\n"})
    result = add(fakehub, project, "hub:tester/app", "--trust")
    assert result.exit_code == 1
    assert (
        "has no tool.py, so it is not a smolagents tool Space (its files: .gitattributes, README.md, app.py)"
        in result.stderr
    )


@pytest.fixture(scope="module")
def first_vendored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of a project that vendored a Space, made once for the module."""
    first = new_project(tmp_path_factory.mktemp("first"))
    with FakeHub() as hub:
        tool_space(hub, repo_id="tester/first")
        assert add(hub, first, "hub:tester/first", "--trust", "--name", "first").exit_code == 0
    return first.snapshot()


@pytest.fixture
def vendored_once(fakehub: FakeHub, project: Project, first_vendored: dict[str, bytes]) -> dict[str, bytes]:
    """A project that already vendored something (tests/test_faults_hub.py too): failures must leave it as it is."""
    project.restore(first_vendored)
    tool_space(fakehub)
    fakehub.requests.clear()
    return project.snapshot()


@pytest.mark.parametrize(
    ("path", "status", "code", "message"),
    [
        (r"^/api/spaces/", 401, 2, "was not found on http://127.0.0.1:"),  # anonymous or private
        (r"^/api/spaces/", 403, 2, "refused access to Space tester/shout (HTTP 403"),
        (r"^/api/spaces/", 404, 1, "Space tester/shout was not found on"),
        (r"^/api/spaces/", 500, 2, "failed on Space tester/shout (HTTP 500); try again later"),
        (r"/resolve/", 500, 2, "failed on Space tester/shout (HTTP 500)"),
        (r"/resolve/", 403, 2, "refused access"),
    ],
)
def test_hub_errors(
    fakehub: FakeHub, project: Project, vendored_once: dict[str, bytes], path: str, status: int, code: int, message: str
) -> None:
    fakehub.fail_next(path, status, times=10)  # persistent: a retry would meet the same answer
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert (result.exit_code, len(result.stderr.strip().splitlines())) == (code, 1), result.stderr
    assert message in result.stderr
    assert project.snapshot() == vendored_once
    # Failing fast: no retry, whatever the answer.
    failing = [p for _, p in fakehub.requests if re.search(path, p)]
    assert len(failing) == 1


def test_a_rejected_token(project: Project) -> None:
    with FakeHub(tokens={"hf_good"}) as hub:
        tool_space(hub)
        result = add(hub, project, f"hub:{SPACE}", "--trust", token="hf_wrong_secret")
    assert result.exit_code == 2
    assert "refused access" in result.stderr and "check the token" in result.stderr
    assert "hf_wrong_secret" not in result.stderr + result.stdout


def test_an_unreachable_hub(project: Project) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    result = project.run(
        "add", f"hub:{SPACE}", "--trust", env={"HF_ENDPOINT": closed, "HF_HOME": str(project.root.parent)}
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot reach the Hub at {closed} for Space {SPACE}")
    assert not (project.root / "vendorgen.lock").exists()


def test_a_malformed_target(project: Project) -> None:
    result = project.run("add", "hub:not-a-space", "--trust")
    assert result.exit_code == 2 and "hub:not-a-space is not owner/space[@revision]" in result.stderr
