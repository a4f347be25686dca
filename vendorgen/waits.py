"""Waits shown on a terminal: `waiting for <what> (N s)` after a second, erased when the wait ends.

The pipeline shows a whole inspection, the workspace a wait for another vendorgen's project lock, `push`
the Hub's; each is given its `Waits` by its caller.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

SHOW_AFTER = 1.0  # seconds: shorter waits are not worth a line


class Waits:
    """Where a caller wants long waits shown: a terminal's stream, or None (a library user, --json, a
    progress bar that says itself what is waited for). The CLI holds one and passes it down."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self._line = threading.Lock()  # held while a wait line is written

    def print_above(self, text: str) -> None:
        """`text` on stderr, on lines of its own: a wait line shown is erased first (it is written again)."""
        import sys

        with self._line:
            sys.stderr.write(("\r\033[K" if self.stream is not None else "") + text + "\n")
            sys.stderr.flush()

    @contextmanager
    def shown(self, what: str) -> Iterator[None]:
        """After SHOW_AFTER seconds in the block, `waiting for <what> (N s)` on the stream, updated every second.

        The line is erased when the wait ends, so what the command prints next is not interleaved.
        """
        stream = self.stream
        if stream is None:
            yield
            return
        done = threading.Event()
        started = time.monotonic()

        def show() -> None:
            shown = False
            while not done.wait(SHOW_AFTER if not shown else 1.0):
                with self._line:
                    stream.write(f"\r\033[Kwaiting for {what} ({time.monotonic() - started:.0f} s)")
                    stream.flush()
                shown = True
            if shown:
                with self._line:
                    stream.write("\r\033[K")
                    stream.flush()

        thread = threading.Thread(target=show, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()


NO_WAITS = Waits()  # shows nothing: what a caller that names no stream gets
