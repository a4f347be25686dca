"""`sources.meanwhile` / `sources.waiting`: the pipeline's work runs while a source waits on a server."""

from __future__ import annotations

import threading

import pytest

from vendorgen import sources


def test_queued_work_runs_in_another_thread_while_a_source_waits() -> None:
    ran: list[str] = []
    started = threading.Event()

    def work() -> None:
        started.set()
        ran.append(threading.current_thread().name)

    with sources.meanwhile(work):
        with sources.waiting():
            assert started.wait(10)  # it runs during the wait, not after
        assert ran and ran[0] != threading.current_thread().name
        with sources.waiting():  # a second wait finds nothing queued
            pass
    assert len(ran) == 1


def test_work_no_source_waited_for_is_dropped() -> None:
    ran: list[int] = []
    with sources.meanwhile(lambda: ran.append(1)):
        pass
    with sources.waiting():
        pass
    assert ran == []


def test_failing_work_is_left_to_fail_where_it_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    reported: list[object] = []
    monkeypatch.setattr(threading, "excepthook", reported.append)

    def broken() -> None:
        raise ImportError("no such module")

    with sources.meanwhile(broken), sources.waiting():
        pass  # nothing raised here
    assert reported == []  # nor printed by the thread


def test_the_wait_ends_only_when_the_work_has() -> None:
    release = threading.Event()
    done: list[bool] = []

    def slow() -> None:
        release.wait(10)
        done.append(True)

    with sources.meanwhile(slow):
        timer = threading.Timer(0.2, release.set)
        timer.start()
        with sources.waiting():
            pass
        assert done == [True]


def test_a_wait_over_a_second_is_shown_then_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import time

    stream = io.StringIO()
    monkeypatch.setattr(sources, "SHOW_AFTER", 0.2)
    sources.show_waits(stream)
    try:
        with sources.shown_wait("nothing long"):
            pass
        assert stream.getvalue() == ""  # a short wait is not worth a line
        with sources.shown_wait("space:http://127.0.0.1:9/"):
            time.sleep(0.5)
    finally:
        sources.show_waits(None)
    assert "waiting for space:http://127.0.0.1:9/ (0 s)" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")  # erased: what comes next starts a clean line


def test_waits_are_not_shown_unless_asked(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(sources, "SHOW_AFTER", 0.05)
    with sources.shown_wait("x"):  # a library user never called show_waits
        time.sleep(0.2)
    assert capsys.readouterr() == ("", "")
