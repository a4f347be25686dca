"""`waits.shown_wait`: a wait of more than a second is shown on a terminal, then erased."""

from __future__ import annotations

import pytest

from vendorgen import waits


def test_a_wait_over_a_second_is_shown_then_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import time

    stream = io.StringIO()
    monkeypatch.setattr(waits, "SHOW_AFTER", 0.2)
    waits.show_waits(stream)
    try:
        with waits.shown_wait("nothing long"):
            pass
        assert stream.getvalue() == ""  # a short wait is not worth a line
        with waits.shown_wait("space:http://127.0.0.1:9/"):
            time.sleep(0.5)
    finally:
        waits.show_waits(None)
    assert "waiting for space:http://127.0.0.1:9/ (0 s)" in stream.getvalue()
    assert stream.getvalue().endswith("\r\x1b[K")  # erased: what comes next starts a clean line


def test_waits_are_not_shown_unless_asked(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(waits, "SHOW_AFTER", 0.05)
    with waits.shown_wait("x"):  # a library user never called show_waits
        time.sleep(0.2)
    assert capsys.readouterr() == ("", "")
