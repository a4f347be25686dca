"""Bad input for `add space:`: one clear error line, the right exit code, nothing written."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import REPO, Project
from tests.servers import free_port, server_process


@pytest.fixture(scope="module")
def not_gradio() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "tests" / "servers" / "not_gradio.py"), "--port", str(port)], url):
        yield url


@pytest.fixture(scope="module")
def unnamed_app() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(REPO / "tests" / "servers" / "gradio_unnamed.py"), "--port", str(port)], f"{url}config"):
        yield url


def fails_cleanly(project: Project, args: list[str], exit_code: int, message: str) -> str:
    before = project.snapshot()
    result = project.run(*args)
    assert result.exit_code == exit_code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]
    assert project.snapshot() == before
    return lines[0]


def test_unreachable_url(project: Project) -> None:
    fails_cleanly(project, ["add", f"space:http://127.0.0.1:{free_port()}/"], 2, "cannot read the Gradio API")


def test_a_server_that_is_not_gradio(project: Project, not_gradio: str) -> None:
    fails_cleanly(project, ["add", f"space:{not_gradio}"], 2, "cannot read the Gradio API")


def test_unknown_api_name_lists_the_available_ones(project: Project, gradio_app: str) -> None:
    line = fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/nope"], 2, "no endpoint /nope")
    assert "/convert" in line and "/stats" in line


def test_several_endpoints_need_a_choice(project: Project, gradio_app: str) -> None:
    fails_cleanly(project, ["add", f"space:{gradio_app}"], 2, "--api-name")


def test_app_without_named_endpoints(project: Project, unnamed_app: str) -> None:
    fails_cleanly(project, ["add", f"space:{unnamed_app}"], 1, "no named endpoints")


def test_out_dir_outside_the_project(project: Project, gradio_app: str) -> None:
    fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/convert", "--out", "../elsewhere"], 2,
                  "outside the project")  # fmt: skip
    assert not (project.root.parent / "elsewhere").exists()


def test_hand_written_file_at_the_target_is_kept(project: Project, gradio_app: str) -> None:
    mine = project.root / "tools" / "convert.py"
    mine.parent.mkdir()
    mine.write_text("# my own code\n")
    fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/convert"], 2, "not written by vendorgen")
    assert mine.read_text() == "# my own code\n"


def test_a_second_add_keeps_the_lock_consistent(project: Project, gradio_app: str) -> None:
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/stats").exit_code == 0
    # re-adding a module says so and changes nothing, edited or not (issue 21 item 8)
    fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/convert"], 2,
                  "already vendored: vendorgen update convert")  # fmt: skip
    edited = project.root / "tools" / "convert.py"
    edited.write_text(edited.read_text() + "# my edit\n")
    fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/convert"], 2,
                  "already vendored: vendorgen update convert")  # fmt: skip


def test_a_module_from_another_source_is_not_overwritten(project: Project, gradio_app: str) -> None:
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert").exit_code == 0
    other = gradio_app.replace("127.0.0.1", "localhost")  # the same app, but another source URI
    fails_cleanly(project, ["add", f"space:{other}", "--api-name", "/convert"], 2, "already vendored from space:")


def test_another_endpoint_under_the_same_name_is_refused(project: Project, gradio_app: str) -> None:
    assert project.run("add", f"space:{gradio_app}", "--api-name", "/convert", "--name", "tool").exit_code == 0
    fails_cleanly(project, ["add", f"space:{gradio_app}", "--api-name", "/stats", "--name", "tool"], 2,
                  "'tool' already vendors /convert")  # fmt: skip


def test_unknown_source_kind(project: Project) -> None:
    fails_cleanly(project, ["add", "ftp:somewhere"], 2, "unknown source")


def test_debug_shows_the_traceback(project: Project) -> None:
    result = project.run("--debug", "add", f"space:http://127.0.0.1:{free_port()}/")
    assert result.exit_code != 0
    assert "Traceback" in result.stderr
