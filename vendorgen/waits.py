"""Waits shown on a terminal: `waiting for <what> (N s)` after a second, erased when the wait ends.

The pipeline shows a whole inspection, the workspace a wait for another vendorgen's project lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

# Where waits are shown (a terminal), or None. The CLI turns it on; a library user sees nothing.
_wait_stream: TextIO | None = None
SHOW_AFTER = 1.0  # seconds: shorter waits are not worth a line


def show_waits(stream: TextIO | None) -> None:
    """Show waits longer than SHOW_AFTER on `stream` (None: never)."""
    global _wait_stream
    _wait_stream = stream


@contextmanager
def shown_wait(what: str) -> Iterator[None]:
    """After SHOW_AFTER seconds in the block, `waiting for <what> (N s)` on the stream, updated every second.

    The line is erased when the wait ends, so what the command prints next is not interleaved.
    """
    stream = _wait_stream
    if stream is None:
        yield
        return
    done = threading.Event()
    started = time.monotonic()

    def show() -> None:
        shown = False
        while not done.wait(SHOW_AFTER if not shown else 1.0):
            stream.write(f"\r\033[Kwaiting for {what} ({time.monotonic() - started:.0f} s)")
            stream.flush()
            shown = True
        if shown:
            stream.write("\r\033[K")
            stream.flush()

    thread = threading.Thread(target=show, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
