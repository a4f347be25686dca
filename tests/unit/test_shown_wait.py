"""`sources.shown_wait`: a wait of more than a second is shown on a terminal, then erased."""

from __future__ import annotations

import pytest

from vendorgen import sources


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
            # The wait lasts until it has been shown, however late a loaded machine runs the ticker.
            deadline = time.monotonic() + 60
            while "waiting for" not in stream.getvalue() and time.monotonic() < deadline:
                time.sleep(0.01)
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
