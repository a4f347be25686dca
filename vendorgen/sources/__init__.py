"""Source kinds: each is one `Source` object, registered in one place (`register`).

A `Source` declares what the rest of vendorgen needs to know about its kind (the
class variables) and does the two things only it can do:

- `inspect(target, options) -> list[snapshot]`: talks to the source, nothing else;
  one JSON-able snapshot per module to generate, holding all `build` needs;
- `build(snapshot) -> ModuleSpec`: pure, so a committed snapshot regenerates
  the module offline, byte for byte.

A snapshot may hold `withheld`: {remote name: why the module leaves it out}, for what the
source lists that vendored code could not call; `add` says so.

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
client library inside `inspect`. The pipeline shows a whole inspection that takes more than a
second on a terminal (`show_waits`, `shown_wait`): importing a client library and starting a
server are part of the wait; a source has nothing to do for it.
"""

from __future__ import annotations

import difflib
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import RUNTIME_FILE, RUNTIME_FILES

if TYPE_CHECKING:
    from vendorgen.model import ModuleSpec
    from vendorgen.publish.portable import Problem

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
    # MCP: also vendor the server's resources and resource templates, and its prompts (all of them, or
    # those named: a name given implies the kind).
    resources: bool = False
    resource_names: tuple[str, ...] = ()
    prompts: bool = False
    prompt_names: tuple[str, ...] = ()


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

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        """What `<kind>:<target>` and the options `snapshot` records decide of what its generated code runs
        (a command, a module, where a token goes), derived with no I/O: {dotted path in the snapshot:
        value}. `check` reports a snapshot that disagrees; re-inspection refuses it
        (vendorgen.sync.binding). Empty when nothing beside `source` decides it."""
        return {}

    def served_definitions(self, snapshot: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
        """What `vendorgen serve` pins of each upstream tool: (description, input schema) as the source
        lists them live, so a server can refuse a tool that changed since it was reviewed; keyed by the
        tool's remote name, which each generated class holds in `served_name_attribute`. Empty for a
        source whose definitions the served module cannot see change."""
        return {}

    def same_module(self, recorded: AddOptions, given: AddOptions) -> bool:
        """Whether `given` asks again for the module added with `recorded` (its snapshot's options), as far as
        can be told without contacting the source: `add` then refuses it before contacting the source."""
        return _request(recorded) == _request(given)

    def imports_allowed(self, module: ModuleSpec) -> frozenset[str]:
        """What the gate lets `module` import: `allowed_imports`, plus what this module itself names."""
        return self.allowed_imports

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        """Why the module vendored from `snapshot` may not work from a Hub Space (`vendorgen push`), offline."""
        return []

    def newer_pins(self, snapshot: dict[str, Any], prereleases: bool = False) -> tuple[str, ...]:
        """`check --remote`'s lines about packages the snapshot pins that have a later version (none pinned: ());
        a prerelease counts only with `prereleases` (`--pre`)."""
        return ()

    def moved_pins(self, uri: str, snapshot: dict[str, Any], prereleases: bool = False) -> str:
        """`uri` as `update` re-inspects it: what the snapshot pins moved to its latest version (`--pre`: prereleases too)."""
        return uri


_registry: dict[str, Source] = {}
_read: set[str] = set()  # "builtin", "plugins": what `_registry` holds already
# Held while the registry is filled: `check --remote` looks sources up from several threads, and
# none may see a part marked read before it is all there. Re-entrant: a plugin may `register` itself.
_filling = threading.RLock()


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
        with _filling:
            if "builtin" not in _read:
                from vendorgen.sources.builtin import BUILTIN

                for source in BUILTIN:
                    _add(source)
                _read.add("builtin")  # only now: another thread reads the registry without the lock
    return _registry


def _read_plugins() -> None:
    """Register the sources installed packages name in the entry-point group (once: scanning costs)."""
    if "plugins" in _read:
        return
    with _filling:
        if "plugins" in _read:
            return
        from importlib.metadata import entry_points

        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                loaded = point.load()
            except Exception as exc:  # noqa: BLE001 - whatever a plugin's import raises, said in one line
                raise VendorgenError(f"the source plugin {point.name} = {point.value} does not load: {exc}") from None
            register(loaded)
        _read.add("plugins")


def _request(options: AddOptions) -> AddOptions:
    """What names a module among `options`: not its name (compared apart), credentials or --keep-going."""
    return replace(options, name=None, token=None, keep_going=False)


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
          "name": "--name", "token": "--token", "resources": "--resources", "resource_names": "--resource",
          "prompts": "--prompts", "prompt_names": "--prompt"}  # fmt: skip
OPTION_FIELDS = tuple(_FLAGS)  # every AddOptions field but none other


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
