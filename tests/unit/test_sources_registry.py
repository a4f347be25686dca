"""Issue 21 item 5: `check --remote` looks sources up from several threads at once; one thread
must never see the registry marked filled while another is still filling it.

The race is made deterministic: the first thread is held inside the filling, and the second
looks a source up meanwhile; the test releases the first only once the second has either
answered (the bug) or is waiting for the filling to end (the fix).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from vendorgen import sources


class _ObservedLock:
    """The registry's lock, telling `contended` when a thread finds it held and waits for it."""

    def __init__(self, contended: threading.Event) -> None:
        self.lock = threading.RLock()
        self.contended = contended

    def __enter__(self) -> None:
        if not self.lock.acquire(blocking=False):
            self.contended.set()
            self.lock.acquire()

    def __exit__(self, *exc_info: Any) -> None:
        self.lock.release()


def test_a_lookup_while_another_thread_fills_the_registry_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "_registry", {})
    monkeypatch.setattr(sources, "_read", set())
    second_settled = threading.Event()  # the second lookup answered, or waits for the filling
    monkeypatch.setattr(sources, "_filling", _ObservedLock(second_settled), raising=False)
    filling, release = threading.Event(), threading.Event()
    add = sources._add

    def held_add(source: Any) -> sources.Source:
        if not filling.is_set():
            filling.set()
            release.wait()
        return add(source)

    monkeypatch.setattr(sources, "_add", held_add)
    answers: dict[str, Any] = {}

    def look_up(key: str, uri: str) -> None:
        try:
            answers[key] = sources.split_uri(uri)[0].kind
        except Exception as exc:  # noqa: BLE001 - the answer the test checks
            answers[key] = exc
        finally:
            if key == "second":
                second_settled.set()

    first = threading.Thread(target=look_up, args=("first", "space:owner/name"))
    first.start()
    filling.wait()
    second = threading.Thread(target=look_up, args=("second", "mcp:http://127.0.0.1:1/mcp"))
    second.start()
    second_settled.wait()
    release.set()
    first.join()
    second.join()
    assert answers == {"first": "space", "second": "mcp"}
