"""`waits.Waits.shown`: a wait of more than a second is shown on the caller's stream, then erased."""

from __future__ import annotations

import pytest

from vendorgen import waits


def test_a_wait_over_a_second_is_shown_then_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import time

    stream = io.StringIO()
    monkeypatch.setattr(waits, "SHOW_AFTER", 0.2)
    shown = waits.Waits(stream)
    with shown.shown("nothing long"):
        pass
    assert stream.getvalue() == ""  # a short wait is not worth a line
    with shown.shown("space:http://127.0.0.1:9/"):
        # The wait lasts until it has been shown, however late a loaded machine runs the ticker.
        deadline = time.monotonic() + 60
        while "waiting for" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    assert "waiting for space:http://127.0.0.1:9/ (0 s)" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")  # erased: what comes next starts a clean line


def test_waits_are_not_shown_unless_asked(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(waits, "SHOW_AFTER", 0.05)
    with waits.NO_WAITS.shown("x"):  # what a library user's Workspace gets unless it names a stream
        time.sleep(0.2)
    assert capsys.readouterr() == ("", "")
