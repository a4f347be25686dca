"""Issue 13, "the first ten minutes": what a new user meets, each as a workflow through the CLI.

Where the project is, what the arguments say when they are wrong, what is shown while vendorgen
waits, the one JSON report, shell completion, and `push` of a tool no Space could run.
"""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, Project, Result
from tests.servers import SERVERS_DIR, free_port, server_process
from tests.servers.fakehub import FakeHub

JSON_KEYS = {"command", "ok", "root", "modules", "errors"}
MODULE_KEYS = {"name", "path", "source", "status"}


def on_terminal(project: Project, *args: str, env: dict[str, str] | None = None) -> Result:
    """`vendorgen *args` with stderr on a pseudo-terminal (stdout piped), as a user at a shell sees it."""
    master, slave = pty.openpty()
    command = project._command(args, env)
    process = subprocess.Popen(**command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other side is closed: the process ended
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    stdout, _ = process.communicate(timeout=300)
    reader.join(10)
    os.close(master)
    return Result(process.returncode, stdout, b"".join(chunks).decode(errors="replace"))


def one_error_line(result: Result, code: int, message: str) -> None:
    """The README's form: exit `code`, stderr exactly one `error: ...` line holding `message`."""
    assert result.exit_code == code, (result.exit_code, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0], lines[0]


def plain_project(root: Path) -> Project:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    return Project(root)


@pytest.fixture(scope="module")
def vendored(gradio_app: str, tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A project with convert and stats vendored from the example app (read-only: tests copy it to change it)."""
    project = plain_project(tmp_path_factory.mktemp("first") / "project")
    for endpoint in ("/convert", "/stats"):
        result = project.run("add", f"space:{gradio_app}", "--api-name", endpoint)
        assert result.exit_code == 0, result.stderr
    return project


def copy_of(project: Project, root: Path) -> Project:
    shutil.copytree(project.root, root)
    return Project(root)


# -------------------------------------------------------------------------------- where the project is


def test_the_lock_marks_the_project_root_from_a_subdirectory(vendored: Project, tmp_path: Path) -> None:
    copy = copy_of(vendored, tmp_path / "outer")
    (copy.root / "pyproject.toml").unlink()  # no pyproject.toml, no .git: only the lock says where it is
    (copy.root / "sub" / "deeper").mkdir(parents=True)
    result = Project(copy.root / "sub" / "deeper").run("check")
    assert (result.exit_code, result.stdout) == (0, "2 vendored modules in sync\n"), result.stderr
    assert result.stderr == f"project: {copy.root}\n"  # named once, since it is not where the user stands


def test_check_without_a_lock_is_an_error_not_a_pass(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "empty")
    for command in (["check"], ["check", "--remote"], ["update"], ["diff"], ["remove", "x"], ["requirements"]):
        one_error_line(project.run(*command), 2, f"no vendorgen.lock in the project {project.root}")
    assert project.run("list").exit_code == 0  # listing nothing is an answer


def test_outside_any_project_the_error_names_no_file_that_is_not_there(tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    for command in ("check", "requirements"):
        result = Project(nowhere).run(command)
        one_error_line(result, 2, f"no vendorgen.lock, pyproject.toml or .git in {nowhere} or above it: not a project")
        assert "holding" not in result.stderr


def test_a_project_inside_another_names_the_lock_above(vendored: Project, tmp_path: Path) -> None:
    copy = copy_of(vendored, tmp_path / "outer")
    inner = plain_project(copy.root / "inner")  # its own pyproject.toml: the nearest marker wins
    one_error_line(inner.run("check"), 2, f"the lock of {copy.root} is above it: run vendorgen there")


def test_paths_are_shown_from_where_the_user_stands(gradio_app: str, tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    (outer / ".git").mkdir(parents=True)  # a git repository; the user stands in outer/inner
    (outer / "inner").mkdir()
    inner = Project(outer / "inner")
    result = inner.run("add", f"space:{gradio_app}", "--api-name", "/convert")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("wrote ../tools/convert.py (ConvertTool)\n")
    assert result.stderr == f"project: {outer}\n"
    assert (outer / "tools" / "convert.py").is_file()
    listed = inner.run("list").stdout
    assert "../tools/convert.py" in listed


def test_init_writes_a_commented_table_and_refuses_to_overwrite_it(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p")
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text('# mine\n[project]\nname = "demo"  # keep this comment\nversion = "0"\n')
    result = project.run("init", "--output-dir", "agent/tools", "--line-length", "88")
    assert (result.exit_code, result.stdout) == (0, "wrote [tool.vendorgen] to pyproject.toml\n"), result.stderr
    text = pyproject.read_text()
    assert text.startswith('# mine\n[project]\nname = "demo"  # keep this comment\nversion = "0"\n')
    assert 'output_dir = "agent/tools"  # where `vendorgen add` writes modules\n' in text
    assert "line_length = 88  # black's line length for generated code\n" in text
    assert '# templates = "vendorgen_templates"' in text

    before = project.snapshot()
    one_error_line(project.run("init"), 2, "already has a [tool.vendorgen] table; edit it there")
    assert project.snapshot() == before

    from vendorgen.project.config import load_config

    config = load_config(project.root)  # what init wrote is what every command reads
    assert (config.output_dir, config.line_length) == ("agent/tools", 88)


def test_init_creates_pyproject_toml_where_there_is_none(tmp_path: Path) -> None:
    project = Project(tmp_path)
    assert project.run("init").exit_code == 0
    assert (tmp_path / "pyproject.toml").read_text().startswith("[tool.vendorgen]\n")


# -------------------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "space:http://127.0.0.1:9/", "--api-name", "/stats", "--all-endpoints"],
         "--api-name and --all-endpoints contradict each other"),
        (["add", "space:"], "space: says what kind of source but not which one; give space:<owner/name"),
        (["add", "http://127.0.0.1:7860/"],
         "say what answers there: space:http://127.0.0.1:7860/ (a Gradio app) or mcp:http://127.0.0.1:7860/ (an MCP"),
        (["add", "spaec:x"], "unknown source 'spaec:x'; did you mean space:x?"),
        (["add", "space:127.0.0.1:7860/"],
         "space:127.0.0.1:7860/ is neither owner/name nor an http(s) URL; for an app at that address, use"
         " space:http://127.0.0.1:7860/"),
        (["add", "space:http://127.0.0.1:9/", "--tool", "x", "--prefix", "y", "--env", "Z", "--class", "W"],
         "--tool, --prefix, --env, --class do not apply to space: sources (space: takes --api-name,"),
        (["add", "langchain:m:a", "--api-name", "/x"], "--api-name does not apply to langchain: sources"),
        (["add", "hub:a/b", "--keep-going"], "--keep-going does not apply to hub: sources"),
        (["add", "mcp:http://127.0.0.1:9/mcp", "--token", "t"], "--token does not apply to mcp: sources"),
        (["check", "--remote", "--allow-edits"], "--remote and --allow-edits contradict each other"),
        (["add"], "Missing argument 'SOURCE' (see `vendorgen add --help`)"),
        (["update", "--jsn"], "No such option '--jsn'. Did you mean '--json'? (see `vendorgen update --help`)"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["init", "--line-length", "0"], "Invalid value for '--line-length'"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    project = plain_project(tmp_path / "p")
    before = project.snapshot()
    one_error_line(project.run(*args), 2, message)
    assert project.snapshot() == before  # nothing half-written


def test_the_token_from_the_environment_is_not_an_option_given(tmp_path: Path) -> None:
    """HF_TOKEN fills --token for every command; a source that takes no token does not refuse it."""
    project = plain_project(tmp_path / "p")
    result = project.run("add", "langchain:tests.servers.langchain_tools:word_count", env={"HF_TOKEN": "hf_x"})
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("given", "used"), [("my-stats", "my_stats"), ("class", "class_")])
def test_a_name_changed_on_the_way_is_reported(gradio_app: str, tmp_path: Path, given: str, used: str) -> None:
    project = plain_project(tmp_path / "p")
    as_json = json.loads(project.run("add", f"space:{gradio_app}", "--api-name", "/stats", "--name", given,
                                     "--dry-run", "--json").stdout)  # fmt: skip
    assert as_json["notes"] == [f"--name {given} is used as {used} (a Python name)"]
    result = project.run("add", f"space:{gradio_app}", "--api-name", "/stats", "--name", given)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"note: --name {given} is used as {used} (a Python name)\n"
    assert result.stdout.startswith(f"wrote tools/{used}.py")


def test_the_langchain_hint_names_toolkits_and_factories(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p")
    result = project.run("add", "langchain:tests.servers.langchain_tools:nope")
    one_error_line(result, 2, "tests.servers.langchain_tools has no attribute nope; it has ")
    offered = result.stderr.split("; it has ")[1].strip().split(", ")
    assert {"text_toolkit", "TextToolkit", "make_toolkit", "make_tools", "make_calculator", "word_count"} <= set(offered)
    assert "needs_arguments" not in offered and "not_a_tool" not in offered  # not usable as <attr>


# -------------------------------------------------------------------------------- waiting, many at once


@pytest.fixture
def hanging_server() -> Iterator[str]:
    """An HTTP server that accepts and never answers; yields its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(SERVERS_DIR / "faulty_http.py"), "--port", str(port), "--mode", "hang"], f"{url}__ready__"):
        yield url


def test_a_long_wait_shows_what_it_waits_for_on_a_terminal_only(hanging_server: str, tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p")
    uri = f"mcp:{hanging_server}mcp"
    # Long enough for the line to be shown and counted on at least once, however loaded the machine.
    env = {"VENDORGEN_MCP_TIMEOUT": "6"}
    shown = on_terminal(project, "add", uri, env=env)
    assert shown.exit_code == 2
    seconds = re.findall(rf"waiting for {re.escape(uri)} \((\d+) s\)", shown.stderr)
    counted = [int(second) for second in seconds]
    assert len(set(counted)) >= 2 and counted == sorted(counted), shown.stderr  # shown, then counting on
    # The wait line is erased before the error, so the error reads as one clean line.
    assert re.search(r"\r\x1b\[K(\r\n|\n)?error: ", shown.stderr.replace("\r\n", "\n")), shown.stderr

    short = {"VENDORGEN_MCP_TIMEOUT": "2"}  # nothing is shown, so nothing needs time to be shown
    piped = project.run("add", uri, env=short)
    one_error_line(piped, 2, "")
    quiet = on_terminal(project, "add", uri, "--json", env=short)
    assert "waiting for" not in quiet.stderr and json.loads(quiet.stdout)["ok"] is False


def test_work_over_many_modules_shows_a_progress_bar_on_a_terminal(vendored: Project, tmp_path: Path) -> None:
    copy = copy_of(vendored, tmp_path / "p")
    update = on_terminal(copy, "update", "--offline")
    assert update.exit_code == 0 and "reading" in update.stderr and "100%" in update.stderr, update.stderr
    remote = on_terminal(copy, "check", "--remote")
    assert remote.exit_code == 0 and "checking sources" in remote.stderr, remote.stderr
    assert copy.run("update", "--offline").stderr == ""  # piped: no bar
    assert on_terminal(copy, "check", "--remote", "--json").stderr == ""


def test_check_remote_contacts_a_dead_source_once_with_one_error(tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", str(port)], f"{url}config"):
        result = project.run("add", f"space:{url}", "--all-endpoints")
        assert result.exit_code == 0, result.stderr
    modules = sorted(path.stem for path in (project.root / "tools").glob("[!_]*.py"))  # not the runtime
    assert len(modules) > 5

    result = project.run("check", "--remote")
    assert result.exit_code == 2
    cannot = [line for line in result.stdout.splitlines() if "cannot check" in line]
    assert len(cannot) == 1, result.stdout
    assert cannot[0].startswith(f"space:{url}: cannot check {', '.join(modules)}: cannot read the Gradio API")

    report = json.loads(project.run("check", "--remote", "--json").stdout)
    [error] = report["errors"]
    assert error["source"] == f"space:{url}" and error["modules"] == modules
    assert {module["status"] for module in report["modules"]} == {"error"}


# -------------------------------------------------------------------------------- one JSON report


def test_every_reporting_command_prints_one_json_schema(
    vendored: Project, gradio_app: str, fakehub: FakeHub, tmp_path: Path
) -> None:
    copy = copy_of(vendored, tmp_path / "p")
    runs = {
        "add": ["add", f"space:{gradio_app}", "--api-name", "/describe", "--json"],
        "list": ["list", "--json"],
        "check": ["check", "--json"],
        "update": ["update", "--offline", "--json"],
        "diff": ["diff", "--offline", "--json"],
        "push": ["push", "convert", "tester/x", "--dry-run", "--out", str(tmp_path / "space"), "--json"],
        "remove": ["remove", "describe", "--json"],
    }
    for command, args in runs.items():
        result = copy.run(*args, env={"HF_ENDPOINT": fakehub.endpoint})
        assert result.exit_code == 0, (command, result.stderr)
        report = json.loads(result.stdout)
        assert JSON_KEYS <= set(report) and report["command"] == command and report["ok"] is True, report
        assert report["root"] == str(copy.root) and report["errors"] == []
        assert report["modules"] and all(MODULE_KEYS <= set(module) for module in report["modules"]), report
    remote = json.loads(copy.run("check", "--remote", "--json").stdout)
    assert remote["command"] == "check" and {module["status"] for module in remote["modules"]} == {"unchanged"}

    # A command that fails still prints the report, with the error in it.
    failed = copy.run("diff", "nope", "--json")
    assert failed.exit_code == 2
    report = json.loads(failed.stdout)
    assert (report["ok"], report["modules"]) == (False, [])
    assert report["errors"][0]["message"].startswith("not vendored here: nope")


def test_diff_without_a_name_shows_every_module(vendored: Project, tmp_path: Path) -> None:
    copy = copy_of(vendored, tmp_path / "p")
    copy.edit("tools/stats.py", "        return tuple(", "        # mine\n        return tuple(")
    result = copy.run("diff")
    assert result.exit_code == 0, result.stderr
    assert "upstream changes to convert since it was locked" in result.stdout
    assert "upstream changes to stats since it was locked" in result.stdout
    assert "local edits in tools/convert.py (generated from the locked snapshot -> on disk):\n  none" in result.stdout
    assert "+        # mine" in result.stdout
    report = json.loads(copy.run("diff", "--offline", "--json").stdout)
    assert [(module["name"], module["status"], module["upstream"]) for module in report["modules"]] == [
        ("convert", "clean", None), ("stats", "edited", None)]  # fmt: skip


# -------------------------------------------------------------------------------- conventions


def test_shell_completion_completes_commands_and_vendored_names(vendored: Project) -> None:
    def complete(words: str) -> list[str]:
        env = {"_VENDORGEN_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        return vendored.run(env=env).stdout.splitlines()

    assert "plain,add" in complete("vendorgen ad")
    assert complete("vendorgen diff con") == ["plain,convert"]
    readme = (REPO / "README.md").read_text()
    assert 'eval "$(_VENDORGEN_COMPLETE=bash_source vendorgen)"' in readme


def test_the_readme_first_screen_answers_the_first_questions() -> None:
    first_screen = "\n".join((REPO / "README.md").read_text().splitlines()[:45])
    for answer in ("pip install", "vendorgen add space:", "wrote tools/convert.py", "CodeAgent(tools=["):
        assert answer in first_screen, answer


# -------------------------------------------------------------------------------- push


def test_push_refuses_a_tool_on_a_loopback_address_unless_forced(
    vendored: Project, fakehub: FakeHub, tmp_path: Path
) -> None:
    env = {"HF_ENDPOINT": fakehub.endpoint, "HF_TOKEN": "hf_test", "HF_HOME": str(tmp_path / "home")}
    result = vendored.run("push", "convert", "tester/x", env=env)
    one_error_line(result, 2, "convert could not work from a Space: its Gradio app is at http://127.0.0.1:")
    assert "a loopback address" in result.stderr and "--force pushes it anyway" in result.stderr
    assert fakehub.requests == []
    # A dry run says so and writes the folder.
    dry = vendored.run("push", "convert", "tester/x", "--dry-run", "--out", str(tmp_path / "space"), env=env)
    assert dry.exit_code == 0 and "note: its Gradio app is at http://127.0.0.1:" in dry.stderr
    forced = vendored.run("push", "convert", "tester/x", "--force", env=env)
    assert forced.exit_code == 0, forced.stderr
    assert "tool.py" in fakehub.files("tester/x")


def test_push_refuses_an_mcp_server_started_from_a_local_script(fakehub: FakeHub, tmp_path: Path) -> None:
    project = plain_project(tmp_path / "p")
    script = REPO / "tests" / "servers" / "mcp_server.py"
    added = project.run("add", f"mcp:stdio:python {script} stdio", "--trust", "--name", "server")
    assert added.exit_code == 0, added.stderr
    env = {"HF_ENDPOINT": fakehub.endpoint, "HF_TOKEN": "hf_test", "HF_HOME": str(tmp_path / "home")}
    result = project.run("push", "server", "tester/x", "--tool", "add", env=env)
    one_error_line(result, 2, f"its MCP server runs the local file {script}, which the Space does not have")
    assert fakehub.requests == []


# -------------------------------------------------------------------------------- the same thing twice


def test_adding_a_module_again_is_refused_before_contacting_the_source(gradio_app: str, tmp_path: Path) -> None:
    """Issue 21 item 8: the lock answers; the source, here a server script that now fails, is not started."""
    project = plain_project(tmp_path / "p")
    shutil.copy(SERVERS_DIR / "mcp_server.py", project.root / "server.py")
    stdio = "mcp:stdio:python server.py stdio"
    assert project.run("add", stdio, "--trust", "--name", "texts").exit_code == 0
    (project.root / "server.py").write_text("raise SystemExit('started although the lock had the answer')\n")
    before = project.snapshot()
    one_error_line(project.run("add", stdio, "--trust", "--name", "texts"), 2, "already vendored: vendorgen update texts")
    assert project.snapshot() == before

    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    for api_name in ("/convert", "convert"):  # the endpoint with or without its slash
        again = project.run("add", f"space:{gradio_app}", "--api-name", api_name)
        one_error_line(again, 2, "already vendored: vendorgen update convert")


def test_two_modules_with_a_tool_of_the_same_name_are_refused_at_add_and_reported_by_check(tmp_path: Path) -> None:
    """Issue 21 item 7: `serve` could not serve both, and an agent could not tell them apart."""
    project = plain_project(tmp_path / "p")
    shutil.copy(SERVERS_DIR / "mcp_server.py", project.root / "server.py")
    first = project.run("add", "mcp:stdio:python server.py stdio", "--trust", "--name", "first")
    assert first.exit_code == 0, first.stderr
    before = project.snapshot()
    second = project.run("add", "mcp:stdio:python server.py", "--trust", "--name", "second")
    one_error_line(second, 2, "would be vendored by first and second; re-add it with --prefix P")
    assert project.snapshot() == before
    prefixed = project.run("add", "mcp:stdio:python server.py", "--trust", "--name", "second",
                           "--prefix", "other")  # fmt: skip
    assert prefixed.exit_code == 0, prefixed.stderr

    # A lock that holds both anyway (two branches merged, each adding one): `check` says so and fails.
    lock = project.root / "vendorgen.lock"
    lock.write_text(lock.read_text().replace('tools = [\n    "other_', 'tools = [\n    "'))
    checked = project.run("check")
    assert checked.exit_code == 1
    assert re.search(r"tools: the tool name \w+ is vendored by first and second; re-add one with --prefix", checked.stdout)
    assert json.loads(project.run("check", "--json").stdout)["errors"][0]["message"].startswith("the tool name ")


def test_diff_and_update_show_what_they_wait_for_on_a_terminal(tmp_path: Path) -> None:
    """Issue 21 item 11: the whole inspection is the wait (here importing the user's LangChain module), for every
    command that reads a source."""
    project = plain_project(tmp_path / "p")
    tools = (REPO / "examples" / "langchain_tools.py").read_text()
    (project.root / "mytools.py").write_text(tools)
    assert project.run("add", "langchain:mytools:count_words").exit_code == 0
    (project.root / "mytools.py").write_text(tools + "\nimport time\n\ntime.sleep(3)  # a slow import\n")
    # The module's revision (the hash of its file) changed: diff and check --remote exit 1.
    for command, code in ((["diff"], 1), (["update", "--dry-run"], 0), (["check", "--remote"], 1)):
        shown = on_terminal(project, *command)
        assert shown.exit_code == code, shown.stderr
        assert "waiting for langchain:mytools:count_words (1 s)" in shown.stderr, (command, shown.stderr)


def test_the_readmes_first_example_shows_what_add_prints(gradio_app: str, tmp_path: Path) -> None:
    """Issue 21 item 12: the whole output, in a project with a `.venv` made by `python -m venv .venv`."""
    import sys

    block = re.search(
        r"vendorgen add space:http://127\.0\.0\.1:7860/ --api-name /convert\n```\n```\n(.*?)```", (REPO / "README.md").read_text(), re.S
    )
    assert block is not None
    project = plain_project(tmp_path / "your-project")
    subprocess.run([sys.executable, "-m", "venv", str(project.root / ".venv")], check=True)
    added = project.run("add", f"space:{gradio_app}", "--api-name", "/convert", env={"VIRTUAL_ENV": "", "VENDORGEN_PYTHON": ""})
    assert added.exit_code == 0, added.stderr
    assert added.stdout == block.group(1).replace("/home/me/your-project", str(project.root))
