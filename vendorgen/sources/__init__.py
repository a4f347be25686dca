"""Source kinds: each is one `Source` object, registered in one place (`register`).

A `Source` declares what the rest of vendorgen needs to know about its kind (the
class variables) and does the two things only it can do:

- `inspect(target, options) -> list[snapshot]`: talks to the source, nothing else;
  one JSON-able snapshot per module to generate, holding all `build` needs;
- `build(snapshot) -> ModuleSpec`: pure, so a committed snapshot regenerates
  the module offline, byte for byte.

A kind that only stands for other sources (a Hub collection) implements `members`
instead and has no template.

A snapshot holds `kind`, `source`, `name`, `revision` and, for `update` and
`check --remote`, `options`: the `AddOptions` fields (JSON values, never the
token) with which `inspect(target, AddOptions(**options))` returns this module
again, under the same `name`, among its snapshots. Without `options`, only
`name` is passed.

`Config.apply` renames tools and parameters after `build`, so anything that
depends on Python names (a wire-name map) belongs in the template, computed
from `InputSpec.name` / `wire_name`, not in `constants`.

The built-in kinds are declared in `vendorgen.sources.builtin`; another package adds one
with an entry point in the group `vendorgen.sources` naming its `Source` subclass
(`echo = "my_package.echo:EchoSource"`), read the first time a kind is not a built-in one,
or by calling `register` itself. Registering imports nothing heavy: a source imports its
client library inside `inspect`. A source wraps its wait for a server's answer in
`waiting()`, so that the pipeline's work queued with `meanwhile` (importing the code
generator) runs then, and so that a wait of more than a second is shown on a terminal
(`show_waits`).
"""

from __future__ import annotations

import difflib
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import RUNTIME_FILE, RUNTIME_FILES

if TYPE_CHECKING:
    from vendorgen.model import ModuleSpec

ENTRY_POINT_GROUP = "vendorgen.sources"


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


class Source:
    """One kind of source. Subclass it, set the class variables, implement `inspect` and `build`."""

    kind: ClassVar[str]  # the URI prefix: `<kind>:<target>`; also the lock's `kind`
    target: ClassVar[str]  # `<kind>:` and what follows, as `vendorgen add --help` and errors show it
    help_note: ClassVar[str] = ""  # beside `target` in `vendorgen add --help`, e.g. "(needs --trust)"
    help: ClassVar[str] = ""  # a paragraph of `vendorgen add --help`: `<kind>: ...`, lines after the first indented
    options: ClassVar[frozenset[str]] = frozenset()  # the `AddOptions` fields it takes (`check_options`)
    options_hint: ClassVar[str] = ""  # said when an option it does not take is given
    # The template of its modules, by file name (a user template of that name replaces it), and
    # the directory holding it unless it is one of vendorgen's own.
    template: ClassVar[str] = ""
    template_dir: ClassVar[Path | None] = None
    # What its generated code may import, as `module.name` (`._vendored_gradio.X` for a name of a
    # run-time file); the gate allows these and no others.
    allowed_imports: ClassVar[frozenset[str]] = frozenset()
    # The run-time files (projectfiles.RUNTIME_FILES) its modules need beside them, the core
    # `_vendored_runtime.py` included: written with the first such module, deleted with the last.
    package_files: ClassVar[tuple[str, ...]] = ()
    # The annotations its templates give module constants and class attributes, by name, beside
    # `model.ANNOTATIONS`; the gate allows these and no others.
    annotations: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # Distributions its generated code always imports at run time (a build may add its own).
    requirements: ClassVar[tuple[str, ...]] = ()
    # The tool class attribute holding a tool's remote name, for a source with `served_definitions`.
    served_name_attribute: ClassVar[str] = ""

    def inspect(self, target: str, options: AddOptions) -> list[dict[str, Any]]:
        raise NotImplementedError(f"{self.kind}: sources are not inspected, only their members")

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        raise NotImplementedError(f"{self.kind}: sources have no modules of their own")

    def members(self, target: str, options: AddOptions) -> list[str]:
        """The sources `<kind>:<target>` stands for; itself, unless the kind is a collection of others."""
        return [f"{self.kind}:{target}"]

    def served_definitions(self, snapshot: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
        """What `vendorgen serve` pins of each upstream tool: (description, input schema) as the source
        lists them live, so a server can refuse a tool that changed since it was reviewed; keyed by the
        tool's remote name, which each generated class holds in `served_name_attribute`. Empty for a
        source whose definitions the served module cannot see change."""
        return {}

    def imports_allowed(self, module: ModuleSpec) -> frozenset[str]:
        """What the gate lets `module` import: `allowed_imports`, plus what this module itself names."""
        return self.allowed_imports


_registry: dict[str, Source] = {}
_read: set[str] = set()  # "builtin", "plugins": what `_registry` holds already


def register(source: Source | type[Source]) -> Source:
    """Make `source` (an instance, or a class built with no arguments) a kind `vendorgen add` takes."""
    _registered()
    return _add(source)


def _add(source: Source | type[Source]) -> Source:
    if isinstance(source, type):
        source = source()
    if not isinstance(source, Source):
        raise TypeError(f"{source!r} is not a vendorgen.sources.Source")
    _check_package_files(source)
    known = _registry.get(source.kind)
    if known is not None and type(known) is not type(source):
        raise UsageError(
            f"two sources claim the kind {source.kind!r}: {type(known).__qualname__} and {type(source).__qualname__}"
        )
    _registry[source.kind] = source
    return source


def _check_package_files(source: Source) -> None:
    """A source names only run-time files vendorgen ships, and every one its allowed imports come from."""
    from vendorgen.package import files

    unknown = sorted(set(source.package_files) - set(RUNTIME_FILES))
    imported = {name.rpartition(".")[0] for name in source.allowed_imports if files.is_runtime_import(name)}
    missing = sorted(imported - {files.module_of(name) for name in source.package_files})
    if unknown or missing or (source.package_files and RUNTIME_FILE not in source.package_files):
        raise UsageError(
            f"the source {source.kind!r} declares package_files {list(source.package_files)}: they must be among"
            f" {', '.join(RUNTIME_FILES)}, hold {RUNTIME_FILE} with any other, and hold the files its allowed_imports"
            f" come from ({', '.join(missing) or 'none missing'})"
        )


def load(kind: str) -> Source:
    """The registered source of `kind`; refused, with the kinds there are, when there is none."""
    found = _find(kind)
    if found is None:
        raise UsageError(f"unknown source kind {kind!r}; known: {', '.join(_registered())}")
    return found


def registered() -> tuple[Source, ...]:
    """Every source kind: the built-in ones, then those of installed plugins."""
    _read_plugins()
    return tuple(_registered().values())


def _find(kind: str) -> Source | None:
    known = _registered()
    if kind not in known:
        _read_plugins()
    return known.get(kind)


def _registered() -> dict[str, Source]:
    if "builtin" not in _read:
        _read.add("builtin")
        from vendorgen.sources.builtin import BUILTIN

        for source in BUILTIN:
            _add(source)
    return _registry


def _read_plugins() -> None:
    """Register the sources installed packages name in the entry-point group (once: scanning costs)."""
    if "plugins" in _read:
        return
    _read.add("plugins")
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
        except Exception as exc:  # noqa: BLE001 - whatever a plugin's import raises, said in one line
            raise VendorgenError(f"the source plugin {point.name} = {point.value} does not load: {exc}") from None
        register(loaded)


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


def split_uri(uri: str) -> tuple[Source, str]:
    """`space:owner/name` -> (the space source, `owner/name`); refused with what is missing or a likely fix."""
    kind, sep, target = uri.partition(":")
    source = _find(kind) if sep else None
    if source is not None:
        if not target:
            raise UsageError(f"{uri} says what kind of source but not which one; give {source.target}")
        return source, target
    if kind.lower() in ("http", "https") and sep:
        raise UsageError(
            f"{uri} is a URL; say what answers there: space:{uri} (a Gradio app) or mcp:{uri} (an MCP server)"
        )
    known = registered()
    close = difflib.get_close_matches(kind.lower(), [each.kind for each in known], n=1, cutoff=0.6) if sep else []
    hint = f"did you mean {close[0]}:{target}? " if close else ""
    raise UsageError(f"unknown source {uri!r}; {hint}expected one of: " + ", ".join(each.target for each in known))


def check_options(source: Source, given: Mapping[str, str]) -> None:
    """Refuse options (`AddOptions` field -> the flag as typed) that `source` does not take."""
    refused = [flag for field, flag in given.items() if field not in source.options]
    if refused:
        verb = "does" if len(refused) == 1 else "do"
        kind = source.kind
        taken = ", ".join(_FLAGS[field] for field in OPTION_FIELDS if field in source.options)
        raise UsageError(
            f"{', '.join(refused)} {verb} not apply to {kind}: sources ({kind}: takes {taken or 'no options'})"
            + (f"; {source.options_hint}" if source.options_hint else "")
        )


# The command-line flag of each AddOptions field, in `vendorgen add --help` order.
_FLAGS = {"api_name": "--api-name", "all_endpoints": "--all-endpoints", "trust": "--trust", "env": "--env",
          "tools": "--tool", "prefix": "--prefix", "class_name": "--class", "keep_going": "--keep-going",
          "name": "--name", "token": "--token"}  # fmt: skip
OPTION_FIELDS = tuple(_FLAGS)  # every AddOptions field but none other


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
