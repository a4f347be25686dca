"""Source kinds: each is one `Source` object, registered in one place (`register`).

A `Source` declares what the rest of vendorgen needs to know about its kind (the
class variables) and does the two things only it can do:

- `inspect(target, options, context) -> list[snapshot]`: talks to the source, nothing else;
  one JSON-able snapshot per module to generate, holding all `build` needs. `context`
  (`Inspection`) is what the caller gives it instead of the process around it: the
  project's root (a path on a command line is the project's), its interpreter, and
  where waits are shown;
- `build(snapshot) -> ModuleSpec`: pure, so a committed snapshot regenerates
  the module offline, byte for byte.

A snapshot may hold `withheld`: {remote name: why the module leaves it out}, for what the
source lists that vendored code could not call; `add` says so.

A kind that only stands for other sources (a Hub collection) implements `members`
instead and has no template.

A snapshot holds `kind`, `source`, `name`, `revision` and, for `update` and
`check --remote`, `options`: the `AddOptions` fields (JSON values, never the
token) with which `inspect(target, AddOptions(**options), context)` returns this module
again, under the same `name`, among its snapshots. Without `options`, only
`name` is passed.

`Config.apply` renames tools and parameters after `build`, so anything that
depends on Python names (a wire-name map) belongs in the template, computed
from `InputSpec.name` / `wire_name`, not in `constants`.

The contract is `vendorgen.sources.base` (re-exported here). Each built-in kind is one
`Source` subclass in its own module, `vendorgen.sources.<kind>`; another package adds one
with an entry point in the group `vendorgen.sources` naming its `Source` subclass
(`echo = "my_package.echo:EchoSource"`), read the first time a kind is not a built-in one,
or by calling `register` itself. Registering imports nothing heavy: a source imports its
client library inside `inspect`. The pipeline shows a whole inspection that takes more than a
second on a terminal (`context.waits`): importing a client library and starting a server are
part of the wait; a source has nothing to do for it, unless it stands for other sources and
waits itself (`members`).
"""

from __future__ import annotations

import difflib
import threading

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.paths import (
    CATALOG_FILE,
    PACKAGE_PREFIX,
    RUNTIME_FILE,
    SERVER_FILES,
    is_package_file_name,
    is_runtime_import,
    module_of,
)
from vendorgen.sources.base import (
    COMMON_IMPORTS,
    OPTION_FIELDS,
    TRUST_NOTE,
    AddOptions,
    Inspection,
    Source,
    check_options,
    replay_options,
    seconds_from_env,
)

__all__ = [
    "COMMON_IMPORTS", "OPTION_FIELDS", "TRUST_NOTE", "AddOptions", "Inspection", "Source", "check_options", "load", "register",
    "registered", "replay_options", "requirement_ranges", "seconds_from_env", "split_uri",
]  # fmt: skip

ENTRY_POINT_GROUP = "vendorgen.sources"


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
    _check_runtime_files(source)
    known = _registry.get(source.kind)
    if known is not None and type(known) is not type(source):
        raise UsageError(
            f"two sources claim the kind {source.kind!r}: {type(known).__qualname__} and {type(source).__qualname__}"
        )
    _registry[source.kind] = source
    return source


def _check_runtime_files(source: Source) -> None:
    """A kind's run-time files are plain module names of vendorgen's package-file namespace that no other file takes,
    each a regular file where it says, and hold every run-time module its allowed imports name but the core's."""
    reserved = {RUNTIME_FILE, CATALOG_FILE, *SERVER_FILES}  # the core's, the server's, the catalog's
    shipped = {name: kind for kind in _registry.values() if kind.kind != source.kind for name in kind.runtime_files}
    wrong = [
        name
        for name in source.runtime_files
        if not is_package_file_name(name) or name in reserved or name in shipped or source.runtime_files.count(name) > 1
    ]
    if wrong:
        raise UsageError(
            f"the source {source.kind!r} ships {', '.join(map(repr, wrong))}: a run-time file is named"
            f" {PACKAGE_PREFIX}<letters, digits, _>.py, once, and not {', '.join(sorted(reserved))}"
            " or a file another kind ships"
            + "".join(f" ({name}: {shipped[name].kind})" for name in wrong if name in shipped)
        )
    directory = source.runtime_directory()
    missing = [name for name in source.runtime_files if not (directory / name).is_file()]
    imported = {name.rpartition(".")[0] for name in source.allowed_imports if is_runtime_import(name)}
    unshipped = sorted(imported - {module_of(name) for name in (RUNTIME_FILE, *source.runtime_files)})
    problems = [f"{', '.join(missing)} not there as a file"] if missing else []
    problems += [f"its allowed_imports name {', '.join(unshipped)}, which it does not ship"] if unshipped else []
    if problems:
        raise UsageError(
            f"the source {source.kind!r} declares runtime_files {list(source.runtime_files)} in {directory}: "
            + "; ".join(problems)
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


def requirement_ranges() -> dict[str, str]:
    """The proven version range of each distribution some kind's generated code imports (`Source.ranges`)."""
    return {name: specifiers for source in registered() for name, specifiers in source.ranges.items()}


def _find(kind: str) -> Source | None:
    known = _registered()
    if kind not in known:
        _read_plugins()
    return known.get(kind)


def _registered() -> dict[str, Source]:
    if "builtin" not in _read:
        with _filling:
            if "builtin" not in _read:
                # Imported on first use: a kind's module costs its helpers' imports, which `vendorgen --help`
                # and commands that never look a kind up need not pay.
                from vendorgen.sources import collection, hub, langchain, mcp, space

                kinds = (space.SpaceSource, hub.HubSource, collection.CollectionSource, mcp.MCPSource,
                         langchain.LangChainSource)  # fmt: skip
                for kind in kinds:  # in `vendorgen add --help`'s order
                    _add(kind)
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
