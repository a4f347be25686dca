"""The contract of a source kind: `Source`, the options `vendorgen add` passes it, and their helpers.

Everything here is a declaration or a pure helper: a kind's module imports it, and so does the
registry (`vendorgen.sources`), which imports the kinds: the contract sits below both.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project import interpreter as project_python
from vendorgen.waits import NO_WAITS, Waits

if TYPE_CHECKING:
    from vendorgen.model import ModuleSpec
    from vendorgen.project.config import Config
    from vendorgen.project.interpreter import Interpreter
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.review.texts import Text
    from vendorgen.sources.portable import Problem

# What every generated module may import, whatever its source.
COMMON_IMPORTS = frozenset(
    {"__future__.annotations", "typing.Any", "typing.Literal", "typing.NotRequired", "typing.TypedDict"}
)
TRUST_NOTE = "(needs --trust)"  # `help_note` of a kind that runs or installs code only with --trust
# Where vendorgen's own run-time files sit (a kind's `runtime_dir` when None); vendorgen.package.files reads them.
SHIPPED = Path(__file__).resolve().parent.parent / "shipped"


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
    # An HTTP MCP server's credentials, by name only: "Header=template with ${VARIABLE}"; a pre-registered
    # OAuth client's id, the variable holding its secret, or the URL of its client metadata document.
    headers: tuple[str, ...] = ()
    client_id: str | None = None
    client_secret_env: str | None = None
    client_metadata_url: str | None = None


class Review(Protocol):
    """What a person should read of a module's code before it first runs (`Source.review`)."""

    def lines(self) -> list[str]: ...  # as `add` and `update` print it, one entry per line

    def to_json(self) -> dict[str, Any]: ...  # as `--json` holds it


@dataclass(frozen=True)
class Inspection:
    """What the caller gives an inspection, which never reads it from the process around it: the project it
    runs for (a path on a server's command line is the project's), and how a long wait is shown."""

    root: Path
    waits: Waits = NO_WAITS

    def interpreter(self) -> Interpreter:
        """The project's Python (vendorgen/project/interpreter.py): where the user's own code is imported."""
        return project_python.find(self.root)


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
    # The run-time files this kind ships, which its generated code imports (`._vendored_echo.X`): plain module names
    # `_vendored_<name>.py`, in the order they import each other, read from `runtime_dir` (None: vendorgen's own,
    # vendorgen/shipped/). Each is copied verbatim beside its modules with the core `_vendored_runtime.py`,
    # which every run-time file may import: written with the first such module of a directory, owned by the lock by
    # its sha256 (the gate accepts a copy only by it), deleted with the last (vendorgen.package.files).
    runtime_files: ClassVar[tuple[str, ...]] = ()
    runtime_dir: ClassVar[Path | None] = None
    # The annotations its templates give module constants and class attributes, by name, beside
    # `model.ANNOTATIONS`; the gate allows these and no others.
    annotations: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # Distributions its generated code always imports at run time (a build may add its own).
    requirements: ClassVar[tuple[str, ...]] = ()
    # The version range of each distribution its generated code is proven to run on (tests/matrix/): the lock
    # records a requirement with it. Every kind's code imports smolagents; a kind adds its client library's.
    ranges: ClassVar[Mapping[str, str]] = MappingProxyType({"smolagents": ">=1.20,<2"})
    # The tool class attribute holding a tool's remote name, for a source with `served_definitions`.
    served_name_attribute: ClassVar[str] = ""
    # Its modules are code their author wrote, vendored as it is under vendorgen's header rather than rendered
    # from its template: `push` publishes the vendored file itself.
    vendored_as_written: ClassVar[bool] = False

    def runtime_directory(self) -> Path:
        """Where its `runtime_files` are read from."""
        return self.runtime_dir or SHIPPED

    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        raise NotImplementedError(f"{self.kind}: sources are not inspected, only their members")

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        raise NotImplementedError(f"{self.kind}: sources have no modules of their own")

    def members(self, target: str, options: AddOptions, context: Inspection) -> list[str]:
        """The sources `<kind>:<target>` stands for; itself, unless the kind is a collection of others."""
        return [f"{self.kind}:{target}"]

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        """What `<kind>:<target>` and the options `snapshot` records decide of what its generated code runs
        (a command, a module, where a token goes), derived with no I/O: {dotted path in the snapshot:
        value}. `check` reports a snapshot that disagrees; re-inspection refuses it
        (vendorgen.sync.binding). Empty when nothing beside `source` decides it."""
        return {}

    def served_definitions(self, snapshot: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        """What `vendorgen serve` pins of each upstream tool: (description, input schema[, annotations[, output
        schema]]) as the source lists them live, so a server can refuse a tool that changed since it was reviewed
        (and serves the schemas as listed, from the snapshot the server module names); keyed by the
        tool's remote name, which each generated class holds in `served_name_attribute`. Empty for a
        source whose definitions the served module cannot see change.

        The shipped server checks every pin it is given, whatever the kind: before the first call on a connection,
        against what the tool's upstream lists now over its MCP session (the run time's `session`); a pinned tool
        with no MCP session is refused, since nothing could tell it changed. So only a kind whose tools reach their
        upstream over MCP has a reason to pin."""
        return {}

    def served_read_only(self, snapshot: dict[str, Any]) -> set[str]:
        """The remote names of the tools among `served_definitions` that say they only read (`serve --read-only`
        serves those alone): said by the source and pinned with them, so a change is refused like any other."""
        return set()

    def same_module(self, recorded: AddOptions, given: AddOptions) -> bool:
        """Whether `given` asks again for the module added with `recorded` (its snapshot's options), as far as
        can be told without contacting the source: `add` then refuses it before contacting the source."""
        return _request(recorded) == _request(given)

    def imports_allowed(self, module: ModuleSpec) -> frozenset[str]:
        """What the gate lets `module` import: `allowed_imports`, plus what this module itself names."""
        return self.allowed_imports

    def check_written(self, code: str, module: ModuleSpec, line_length: int) -> bool:
        """The gate's check of `code`, generated for `module`, when this kind does not render it from its template
        (GateError when it fails): True when it did, and the template's checks (imports, shapes) do not apply."""
        return False

    def review(self, code: str) -> Review | None:
        """What a person should read of `code`, one of its generated modules, before it first runs (`add` and
        `update` print it): None for code rendered from its template, which the gate holds to its shapes."""
        return None

    def unreviewed(self, new: ModuleSpec, locked: dict[str, Any], on_disk: str | None, entry: LockEntry,
                   line_length: int) -> str:  # fmt: skip
        """Why `update` writes `new` (re-inspection's module of `entry`) only with --trust: it runs code the file on
        disk (`on_disk`) does not hold as the user reviewed it, whether new since the snapshot `locked` or
        changed in it. '' when nothing is: code rendered from a template runs only as the gate allowed it."""
        return ""

    def project_options(self, config: Config) -> dict[str, Any]:
        """`AddOptions` fields the project's `[tool.vendorgen]` turns on for this kind, as if given to `add` (and so
        recorded in the snapshot's options)."""
        return {}

    def added_notes(self, module: ModuleSpec, snapshot: dict[str, Any]) -> list[str]:
        """What `add` says of `module`, which it wrote from `snapshot`, besides its classes: where a credential
        came from, say. Plain text; the CLI escapes it."""
        return []

    def read_texts(self, module: ModuleSpec, snapshot: dict[str, Any]) -> list[Text]:
        """What a model reads of `module` beside its spec (vendorgen.review.texts reads the spec's part for every
        kind): fields of `snapshot` that clients show or pass to a model, for `vendorgen review` to flag."""
        return []

    def tool_annotations(self, module: ModuleSpec, snapshot: dict[str, Any]) -> dict[str, Mapping[str, Any] | None]:
        """{tool name: what the source says the tool may do, in MCP's annotation vocabulary (`readOnlyHint`...),
        None where it said nothing}; {} for a kind whose tools say nothing of it."""
        return {}

    def secrets(self, snapshot: dict[str, Any]) -> list[str]:
        """The environment variables the module's tools read for their upstream's credentials: a Space they are
        pushed to needs them as its secrets."""
        return []

    def log_in(self, name: str, snapshot: dict[str, Any]) -> str:
        """`vendorgen login NAME`: authorize the module's upstream again (a person may be asked); what to say when
        done. The snapshot is the reviewed one. Refused for a kind with nothing to log in to."""
        raise UsageError(f"{name} is a {self.kind}: module: nothing to log in to")

    def log_out(self, name: str, snapshot: dict[str, Any]) -> str:
        """`vendorgen logout NAME`: forget what `log_in` stored; what to say."""
        raise UsageError(f"{name} is a {self.kind}: module: nothing to log out of")

    def push_problems(self, snapshot: dict[str, Any], root: Path) -> list[Problem]:
        """Why the module vendored from `snapshot` may not work from a Hub Space (`vendorgen push`), offline."""
        return []

    def newer_pins(self, snapshot: dict[str, Any], root: Path, prereleases: bool = False) -> tuple[str, ...]:
        """`check --remote`'s lines about packages the snapshot pins that have a later version (none pinned: ());
        a prerelease counts only with `prereleases` (`--pre`). `root`: the project's, which paths are relative to."""
        return ()

    def moved_pins(self, uri: str, snapshot: dict[str, Any], root: Path, prereleases: bool = False) -> str:
        """`uri` as `update` re-inspects it: what the snapshot pins moved to its latest version (`--pre`: prereleases too)."""
        return uri


def _request(options: AddOptions) -> AddOptions:
    """What names a module among `options`: not its name (compared apart), credentials or --keep-going."""
    return replace(options, name=None, token=None, keep_going=False)


def replay_options(name: str, **given: Any) -> dict[str, Any]:
    """A snapshot's `options`: the module's name plus the options that were given (see above)."""
    return {"name": name, **{key: value for key, value in given.items() if value}}


def snapshot_options(snapshot: dict[str, Any]) -> AddOptions:
    """The AddOptions a snapshot records for re-inspection (the contract in vendorgen.sources)."""
    recorded = snapshot.get("options", {"name": snapshot.get("name")})
    known = {field.name for field in dataclasses.fields(AddOptions)} - {"token"}
    if not isinstance(recorded, dict) or not set(recorded) <= known:
        raise VendorgenError(f"the snapshot of {snapshot.get('name')} records unusable options: {recorded!r}")
    options: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value for key, value in recorded.items()
    }
    return AddOptions(**options)


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
          "prompts": "--prompts", "prompt_names": "--prompt", "headers": "--header", "client_id": "--client-id",
          "client_secret_env": "--client-secret-env", "client_metadata_url": "--client-metadata-url"}  # fmt: skip
OPTION_FIELDS = tuple(_FLAGS)  # every AddOptions field but none other
