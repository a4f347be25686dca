"""Ctrl-C while sources are read: every listing running stops at once, and nothing after it runs.

Python raises KeyboardInterrupt in the main thread only, and `asyncio.run` turns the first Ctrl-C
into a cancellation of its main task, which the code it cancels may swallow or turn into another
error (the MCP SDK's task groups do): the command then went on to write, or, reading several sources
in threads, started the next server. Here an interrupt is a fact every thread sees: each event loop
run through `run` is cancelled, and `run` raises KeyboardInterrupt whatever its task made of it.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

_interrupted = threading.Event()
_running: dict[asyncio.Task[Any], asyncio.AbstractEventLoop] = {}
_guard = threading.Lock()


def interrupt() -> None:
    """Ctrl-C: cancel every loop run through `run`, in any thread; later `run`s refuse to start."""
    _interrupted.set()
    with _guard:
        for task, loop in list(_running.items()):
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # that loop has just closed
                pass


def raise_if_interrupted() -> None:
    if _interrupted.is_set():
        raise KeyboardInterrupt


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coroutine)`, cancelled by `interrupt()` from any thread (and by Ctrl-C in the main thread);
    raises KeyboardInterrupt after an interrupt however the coroutine ended."""
    if _interrupted.is_set():
        coroutine.close()
        raise KeyboardInterrupt

    async def registered() -> T:
        task = asyncio.current_task()
        assert task is not None
        with _guard:
            _running[task] = asyncio.get_running_loop()
        try:
            raise_if_interrupted()  # interrupted between the check above and the registration
            return await coroutine
        finally:
            with _guard:
                _running.pop(task, None)

    with _ctrl_c_interrupts():
        try:
            result = asyncio.run(registered())
        except BaseException:
            raise_if_interrupted()
            raise
    raise_if_interrupted()
    return result


@contextmanager
def _ctrl_c_interrupts() -> Iterator[None]:
    """In the main thread, Ctrl-C calls `interrupt()` (a second one raises KeyboardInterrupt at once)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, frame: Any) -> None:
        if _interrupted.is_set():
            raise KeyboardInterrupt
        interrupt()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
