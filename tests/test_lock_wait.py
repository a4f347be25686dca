"""A vendorgen that finds the project lock taken says, on a terminal, which lock and which process holds it, and waits."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.conftest import REPO, Project
from vendorgen.errors import VendorgenError
from vendorgen.project.workspace import Workspace

HOLD = "import sys, pathlib; from vendorgen.project.workspace import Workspace\nwith Workspace(pathlib.Path(sys.argv[1])).mutex():\n    print('held', flush=True); sys.stdin.read()"


@contextmanager
def held_lock(project: Project) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the project lock (a vendorgen writing), until the block ends."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(project.root)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.communicate(timeout=60)  # closing its stdin lets it go


def read_until(descriptor: int, text: str) -> str:
    """What the terminal showed up to `text` (the waiting process hangs the test if it never shows)."""
    shown = b""
    while text.encode() not in shown:
        try:
            chunk = os.read(descriptor, 4096)
        except OSError:  # EIO: the process closed the terminal
            chunk = b""
        assert chunk, f"the terminal closed before showing {text!r}: {shown!r}"
        shown += chunk
    return shown.decode()


def test_a_waiting_vendorgen_names_the_lock_and_its_holder_on_a_terminal_only(project: Project) -> None:
    project.restore(Project(REPO / "generated_example").snapshot())
    terminal, terminal_end = pty.openpty()
    with held_lock(project) as holder:
        piped = project.start("remove", "convert")  # starts waiting first; its stderr is a pipe
        on_terminal = subprocess.Popen(**project._command(("remove", "describe"), None), stderr=terminal_end,
                                       stdout=subprocess.DEVNULL, text=True)  # fmt: skip
        os.close(terminal_end)
        shown = read_until(terminal, f"held by another vendorgen (process {holder.pid})")
        assert f"waiting for the project lock of {project.root}" in shown
    # Released: both take the lock in turn and do their work.
    assert on_terminal.wait(timeout=120) == 0
    os.close(terminal)
    out, err = piped.communicate(timeout=120)
    assert (piped.returncode, err) == (0, "")  # nothing shown where no terminal is
    assert not (project.root / "tools/convert.py").exists() and not (project.root / "tools/describe.py").exists()


def test_a_lock_held_past_the_time_out_is_an_error_naming_its_holder(project: Project) -> None:
    with held_lock(project) as holder, pytest.raises(VendorgenError) as refused:
        with Workspace(project.root).mutex(timeout=0.2):
            pass
    assert str(refused.value) == f"another vendorgen (process {holder.pid}) is writing this project; try again"
