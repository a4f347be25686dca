"""Faults of a Hub source: one error line, exit 2, the project as it was, in bounded time.

The loopback Hub (tests/servers/fakehub.py) breaks single answers; tests/test_hub_source.py
already covers 401/403/404/500 answers, a rejected token and connection refused.
"""

from __future__ import annotations

import pytest

from tests.conftest import Project
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import SPACE, env, first_vendored, vendored_once  # noqa: F401 (the fixtures)

TIMEOUT = {"VENDORGEN_HUB_TIMEOUT": "2"}
# A download comes after good answers (the Space's info), which must arrive within the time-out
# however loaded the machine: for a broken download, a time-out only its fault reaches (2 s raced
# the load). A broken Space info is the first answer: a short time-out races nothing there.
AFTER_GOOD_ANSWERS = {"VENDORGEN_HUB_TIMEOUT": "10"}
UNREACHABLE = "http://255.255.255.255:9"  # the kernel refuses the route at once: no packet leaves the machine
SPACE_INFO, DOWNLOAD = r"^/api/spaces/", r"/resolve/"

# (path broken, how) -> what the error line says
CASES = {
    (SPACE_INFO, "hang"): "no answer from the Hub at http://127.0.0.1:",
    (SPACE_INFO, "malformed"): f"sent Space {SPACE} as malformed JSON",
    (SPACE_INFO, "truncated"): f"sent Space {SPACE} as malformed JSON",
    (SPACE_INFO, "cut"): "peer closed connection without sending complete message body",
    (DOWNLOAD, "hang"): "no answer from the Hub at http://127.0.0.1:",
    (DOWNLOAD, "cut"): "peer closed connection without sending complete message body",  # tool.py cut short
    # One byte a second: no read times out, the total deadline of the request does.
    (SPACE_INFO, "trickle"): f"for Space {SPACE} within 2 s (set VENDORGEN_HUB_TIMEOUT to wait longer)",
    (DOWNLOAD, "trickle"): f"for tool.py of {SPACE} within 10 s (set VENDORGEN_HUB_TIMEOUT to wait longer)",
}


def one_error_line(result, message: str) -> None:
    assert result.exit_code == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("path", "breakage"), list(CASES))
def test_a_broken_answer_fails_cleanly(
    fakehub: FakeHub, project: Project, vendored_once: dict[str, bytes], path: str, breakage: str
) -> None:
    fakehub.break_next(path, breakage, times=10)  # persistent: a retry would meet the same answer
    timeout = AFTER_GOOD_ANSWERS if path == DOWNLOAD else TIMEOUT
    result = project.run("add", f"hub:{SPACE}", "--trust", env={**env(fakehub, project), **timeout}, timeout=120)
    one_error_line(result, CASES[path, breakage])
    assert project.snapshot() == vendored_once


def test_an_unreachable_host(project: Project) -> None:
    before = project.snapshot()
    result = project.run("add", f"hub:{SPACE}", "--trust", env={"HF_ENDPOINT": UNREACHABLE, **TIMEOUT}, timeout=60)
    one_error_line(result, f"cannot reach the Hub at {UNREACHABLE} for Space {SPACE}")
    assert project.snapshot() == before


def test_a_bad_timeout_setting(project: Project) -> None:
    result = project.run("add", f"hub:{SPACE}", "--trust", env={"VENDORGEN_HUB_TIMEOUT": "never"})
    one_error_line(result, "VENDORGEN_HUB_TIMEOUT must be a positive number of seconds, not 'never'")


@pytest.mark.parametrize("breakage", ["hang", "malformed"])
def test_a_space_by_name_fails_cleanly_when_the_hub_misbehaves(
    fakehub: FakeHub, project: Project, breakage: str
) -> None:
    """`space:owner/name` asks the Hub where the Space runs; gradio_client would wait on it forever."""
    fakehub.add_space("tester/app", {"app.py": b"import gradio\n"})
    fakehub.break_next(SPACE_INFO, breakage, times=10)
    before = project.snapshot()
    result = project.run("add", "space:tester/app", env={**env(fakehub, project), **TIMEOUT}, timeout=60)
    one_error_line(result, "the Hub at http://127.0.0.1:" if breakage == "hang" else "malformed JSON")
    assert project.snapshot() == before


def test_a_space_by_name_with_the_hub_unreachable(project: Project) -> None:
    before = project.snapshot()
    result = project.run("add", "space:tester/app", env={"HF_ENDPOINT": UNREACHABLE, **TIMEOUT}, timeout=60)
    one_error_line(result, f"cannot reach the Hub at {UNREACHABLE}")
    assert project.snapshot() == before
