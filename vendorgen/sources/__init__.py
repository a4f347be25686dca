"""Source kinds. Each is one module here with the same three names:

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
pipeline's work queued with `meanwhile` (importing the code generator) runs then.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from vendorgen.errors import UsageError

KINDS = ("space", "hub", "collection", "mcp", "langchain")


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
    """`space:owner/name` -> (`space`, `owner/name`)."""
    kind, sep, target = uri.partition(":")
    if not sep or kind not in KINDS or not target:
        raise UsageError(f"unknown source {uri!r}; expected one of: " + ", ".join(f"{kind}:..." for kind in KINDS))
    return kind, target


def load(kind: str) -> ModuleType:
    if kind not in KINDS:
        raise UsageError(f"unknown source kind {kind!r}")
    try:
        return importlib.import_module(f"vendorgen.sources.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name == f"vendorgen.sources.{kind}":
            raise UsageError(f"source kind {kind!r} is not available in this vendorgen") from None
        raise


# Work queued by `meanwhile` for the next source that waits on a server.
_queued: list[Callable[[], object]] = []


@contextmanager
def meanwhile(work: Callable[[], object]) -> Iterator[None]:
    """Inside the block, `work` runs in a thread while a source waits on a server (if one does)."""
    _queued.append(work)
    try:
        yield
    finally:
        if work in _queued:  # no source waited: nothing ran it
            _queued.remove(work)


@contextmanager
def waiting() -> Iterator[None]:
    """Around a source's wait for a server: the queued work runs in threads alongside, joined at the end.

    A server that starts or answers over the network holds no GIL while it does; the
    pipeline imports the code generator meanwhile (black, libcst, jinja2: ~0.15 s).
    """
    threads = [threading.Thread(target=_quietly, args=(work,), daemon=True) for work in _queued]
    _queued.clear()
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        for thread in threads:
            thread.join()


def _quietly(work: Callable[[], object]) -> None:
    try:
        work()
    except Exception:  # noqa: BLE001 - done again where it is needed, and fails there with its own message
        pass
