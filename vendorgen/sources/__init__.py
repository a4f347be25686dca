"""Source kinds. Each is one module here with the same names:

- `OPTIONS`: the `AddOptions` fields it takes; `check_options` refuses any other
  given on the command line, naming the option and the source;
- `ALLOWED_IMPORTS`: what its generated code may import (the gate enforces it);
- `inspect(target, options) -> list[snapshot]`: talks to the source, nothing else;
  one JSON-able snapshot per module to generate, holding all `build` needs;
- `build(snapshot) -> ModuleSpec`: pure, so a committed snapshot regenerates
  the module offline, byte for byte.

A snapshot holds `kind`, `source`, `name`, `revision` and, for `update` and
`check --remote`, `options`: the `AddOptions` fields (JSON values, never the
token) with which `inspect(target, AddOptions(**options))` returns this module
again, under the same `name`, among its snapshots. Without `options`, only
`name` is passed.

`Config.apply` renames tools and parameters after `build`, so anything that
depends on Python names (a wire-name map) belongs in the template, computed
from `InputSpec.name` / `wire_name`, not in `constants`.

Heavy client libraries are imported inside `inspect`, never at module level.
A source wraps its wait for a server's answer in `waiting()`, so that the
pipeline's work queued with `meanwhile` (importing the code generator) runs then,
and so that a wait of more than a second is shown on a terminal (`show_waits`).
"""

from __future__ import annotations

import difflib
import importlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TextIO

from vendorgen.errors import UsageError

KINDS = ("space", "hub", "collection", "mcp", "langchain")
# What follows `kind:`, as `vendorgen add --help` shows it.
TARGETS = {
    "space": "space:<owner/name | http(s)://host:port/>",
    "hub": "hub:<owner/space>[@revision]",
    "collection": "collection:<owner/slug>",
    "mcp": 'mcp:<http(s)://host/mcp> | mcp:sse:<url> | "mcp:stdio:<command line>"',
    "langchain": "langchain:<module>:<attr>",
}


@dataclass(frozen=True)
class AddOptions:
    """Everything `vendorgen add` can be told; each source reads what concerns it."""

    name: str | None = None
    api_name: str | None = None
    all_endpoints: bool = False
    trust: bool = False
    env: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    prefix: str = ""
    class_name: str | None = None
    keep_going: bool = False
    token: str | None = None


def replay_options(name: str, **given: Any) -> dict[str, Any]:
    """A snapshot's `options`: the module's name plus the options that were given (see above)."""
    return {"name": name, **{key: value for key, value in given.items() if value}}


def seconds_from_env(name: str, default: float) -> float:
    """A time-out in seconds from the environment variable `name` (unset: `default`); refused unless positive."""
    text = os.environ.get(name, "")
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise UsageError(f"{name} must be a positive number of seconds, not {text!r}")
    return value


def split_uri(uri: str) -> tuple[str, str]:
    """`space:owner/name` -> (`space`, `owner/name`); refused with what is missing or a likely fix."""
    kind, sep, target = uri.partition(":")
    if kind in KINDS:
        if not target:
            raise UsageError(f"{uri} says what kind of source but not which one; give {TARGETS[kind]}")
        return kind, target
    if kind.lower() in ("http", "https") and sep:
        raise UsageError(
            f"{uri} is a URL; say what answers there: space:{uri} (a Gradio app) or mcp:{uri} (an MCP server)"
        )
    close = difflib.get_close_matches(kind.lower(), KINDS, n=1, cutoff=0.6) if sep else []
    hint = f"did you mean {close[0]}:{target}? " if close else ""
    raise UsageError(f"unknown source {uri!r}; {hint}expected one of: " + ", ".join(TARGETS.values()))


def check_options(kind: str, given: Mapping[str, str]) -> None:
    """Refuse options (`AddOptions` field -> the flag as typed) that the source `kind` does not take."""
    source = load(kind)
    refused = [flag for field, flag in given.items() if field not in source.OPTIONS]
    if refused:
        verb = "does" if len(refused) == 1 else "do"
        taken = ", ".join(_FLAGS[field] for field in _FIELDS if field in source.OPTIONS)
        hint = getattr(source, "OPTIONS_HINT", "")
        raise UsageError(
            f"{', '.join(refused)} {verb} not apply to {kind}: sources ({kind}: takes {taken or 'no options'})"
            + (f"; {hint}" if hint else "")
        )


# The command-line flag of each AddOptions field, in `vendorgen add --help` order.
_FLAGS = {"api_name": "--api-name", "all_endpoints": "--all-endpoints", "trust": "--trust", "env": "--env",
          "tools": "--tool", "prefix": "--prefix", "class_name": "--class", "keep_going": "--keep-going",
          "name": "--name", "token": "--token"}  # fmt: skip
_FIELDS = tuple(_FLAGS)


def load(kind: str) -> ModuleType:
    if kind not in KINDS:
        raise UsageError(f"unknown source kind {kind!r}")
    try:
        return importlib.import_module(f"vendorgen.sources.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name == f"vendorgen.sources.{kind}":
            raise UsageError(f"source kind {kind!r} is not available in this vendorgen") from None
        raise


# Per thread: work queued by `meanwhile` for the next source that waits on a server, and what
# `inspecting` says the thread waits for (`check --remote` inspects several sources at once).
_local = threading.local()


def _queue() -> list[Callable[[], object]]:
    if not hasattr(_local, "queued"):
        _local.queued = []
    queued: list[Callable[[], object]] = _local.queued
    return queued


@contextmanager
def meanwhile(work: Callable[[], object]) -> Iterator[None]:
    """Inside the block, `work` runs in a thread while a source waits on a server (if one does)."""
    queued = _queue()
    queued.append(work)
    try:
        yield
    finally:
        if work in queued:  # no source waited: nothing ran it
            queued.remove(work)


@contextmanager
def inspecting(uri: str) -> Iterator[None]:
    """Inside the block, a source's `waiting()` is shown as a wait for `uri`."""
    outer = getattr(_local, "label", "")
    _local.label = uri
    try:
        yield
    finally:
        _local.label = outer


@contextmanager
def waiting() -> Iterator[None]:
    """Around a source's wait for a server: the queued work runs in threads alongside, joined at the end.

    A server that starts or answers over the network holds no GIL while it does; the
    pipeline imports the code generator meanwhile (black, libcst, jinja2: ~0.15 s).
    """
    queued = _queue()
    threads = [threading.Thread(target=_quietly, args=(work,), daemon=True) for work in queued]
    queued.clear()
    for thread in threads:
        thread.start()
    try:
        with shown_wait(getattr(_local, "label", "") or "the source"):
            yield
    finally:
        for thread in threads:
            thread.join()


def _quietly(work: Callable[[], object]) -> None:
    try:
        work()
    except Exception:  # noqa: BLE001 - done again where it is needed, and fails there with its own message
        pass


# -- showing waits ---------------------------------------------------------------------------------

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
