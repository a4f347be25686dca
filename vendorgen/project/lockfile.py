"""`vendorgen.lock`: its entries, and its text (read and written; `Workspace` decides when)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import tomli_w

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.fingerprint import Fingerprint
from vendorgen.project.paths import LOCK_NAME, module_files, package_file

LOCK_VERSION = 1


@dataclass(frozen=True)
class RuntimeEntry:
    """One package file as the lock's `[[runtime]]` records it: a run-time file (vendorgen.package.files), or a
    server (vendorgen.package.serve)."""

    path: str  # relative to the root
    sha256: str
    generator: str

    FIELDS = ("path", "sha256", "generator")


@dataclass(frozen=True)
class LockEntry:
    """One generated module as the lock records it."""

    name: str
    kind: str
    source: str
    endpoints: tuple[str, ...]
    tools: tuple[str, ...]
    revision: str
    schema: str  # snapshot path, relative to the root
    schema_sha256: str
    path: str  # generated file, relative to the root
    sha256: str
    generator: str
    templates: Fingerprint  # the lock's keys templates, custom_templates and settings
    requirements: tuple[str, ...] = ()  # what the module needs installed (ModuleSpec.requirements)

    FIELDS = ("name", "kind", "source", "endpoints", "tools", "revision", "schema", "schema_sha256", "path",
              "sha256", "generator", "templates", "requirements")  # fmt: skip
    LISTS = ("endpoints", "tools", "requirements")
    OPTIONAL = ("requirements",)  # absent from locks written before it existed

    @classmethod
    def from_toml(cls, table: Any) -> LockEntry:
        """One `[[module]]` of the lock, refused unless every field has its type and its files follow the rule."""
        if not isinstance(table, dict):
            raise VendorgenError(f"{LOCK_NAME}: every module must be a [[module]] table")
        name = table.get("name", "?")
        values: dict[str, Any] = {}
        for key in (*cls.FIELDS, *Fingerprint.OPTIONAL):
            if key not in table:
                if key in cls.OPTIONAL or key in Fingerprint.OPTIONAL:
                    continue
                raise VendorgenError(f"{LOCK_NAME}: entry {name!r} lacks {key}")
            value = table[key]
            if key in cls.LISTS:
                if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                    raise VendorgenError(f"{LOCK_NAME}: {key} of entry {name!r} must be a list of strings")
                value = tuple(value)
            elif not isinstance(value, str):
                raise VendorgenError(f"{LOCK_NAME}: {key} of entry {name!r} must be a string")
            values[key] = value
        parts = (values.pop(key, "") for key in Fingerprint.OPTIONAL)
        values["templates"] = _fingerprint(name, values["templates"], *parts)
        entry = cls(**values)
        try:
            entry.files  # noqa: B018 - validates them
        except UsageError as exc:
            raise VendorgenError(f"{LOCK_NAME}: {exc}; nothing was changed") from None
        return entry

    def to_toml(self) -> dict[str, Any]:
        """The `[[module]]` table: lists as arrays, the fingerprint's parts as keys of their own (empty ones out)."""
        table: dict[str, Any] = {}
        for key in self.FIELDS:
            value = getattr(self, key)
            if key == "templates":
                table["templates"] = value.templates
                table.update((part, getattr(value, part)) for part in Fingerprint.OPTIONAL if getattr(value, part))
            else:
                table[key] = list(value) if isinstance(value, tuple) else value
        return table

    @property
    def files(self) -> tuple[str, ...]:
        """The files of this module, checked to be what vendorgen derives from its name."""
        return module_files(self.name, self.path, self.schema)


def lock_owns(entries: Iterable[LockEntry], runtimes: Iterable[RuntimeEntry] = ()) -> dict[str, str]:
    """Every file a lock of `entries` and `runtimes` (its package files) may own, and what owns it (a
    module's name, or the package file's own): what any write or delete is checked against."""
    owned: dict[str, str] = {}
    claims = [(relative, f"module {entry.name}") for entry in entries for relative in entry.files]
    claims += [(runtime.path, f"the package file {PurePosixPath(runtime.path).name}") for runtime in runtimes]
    for relative, owner in claims:
        if relative in owned:
            raise VendorgenError(f"{LOCK_NAME}: {relative} belongs to two owners, {owned[relative]} and {owner}")
        owned[relative] = owner
    return owned


LOCK_HEADER = "# Written by vendorgen: what is vendored, from where, and the hashes that tell edits from drift.\n"


def dump_lock(entries: list[LockEntry], runtimes: Iterable[RuntimeEntry] = ()) -> str:
    modules = [entry.to_toml() for entry in sorted(entries, key=lambda e: e.name)]
    data: dict[str, Any] = {"version": LOCK_VERSION, "module": modules}
    if runtimes := sorted(runtimes, key=lambda r: r.path):
        data["runtime"] = [{key: getattr(runtime, key) for key in RuntimeEntry.FIELDS} for runtime in runtimes]
    return LOCK_HEADER + tomli_w.dumps(data)


def _fingerprint(name: str, templates: str, custom_templates: str, settings: str) -> Fingerprint:
    """The fingerprint of entry `name`; locks written before its parts had keys of their own hold all in `templates`."""
    if " " not in templates:
        return Fingerprint(templates, custom_templates, settings)
    if custom_templates or settings:
        raise VendorgenError(f"{LOCK_NAME}: templates of entry {name!r} must be one version, not {templates!r}")
    return Fingerprint.from_legacy(templates)


def parse_lock_text(text: str) -> tuple[list[LockEntry], list[RuntimeEntry]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VendorgenError(
            f"{LOCK_NAME} is not valid TOML: {exc}; `git diff {LOCK_NAME}` shows what changed since the last commit,"
            f" `git checkout {LOCK_NAME}` restores the committed one"
        ) from None
    if data.get("version") != LOCK_VERSION:
        raise VendorgenError(f"{LOCK_NAME} has version {data.get('version')!r}; this vendorgen reads {LOCK_VERSION}")
    modules = data.get("module", [])
    if not isinstance(modules, list):
        raise VendorgenError(f"{LOCK_NAME}: module must be an array of [[module]] tables")
    entries = [LockEntry.from_toml(table) for table in modules]
    tables = data.get("runtime", [])
    if not isinstance(tables, list):
        raise VendorgenError(f"{LOCK_NAME}: runtime must be an array of [[runtime]] tables")
    runtimes = [_runtime_from_toml(table, entries) for table in tables]
    lock_owns(entries, runtimes)  # two owners claiming one file
    return entries, runtimes


def _runtime_from_toml(table: Any, entries: list[LockEntry]) -> RuntimeEntry:
    """One `[[runtime]]` of the lock: string fields, and a path that is a package file beside a vendored module."""
    if not isinstance(table, dict) or not all(isinstance(table.get(key), str) for key in RuntimeEntry.FIELDS):
        raise VendorgenError(f"{LOCK_NAME}: a [[runtime]] entry needs the strings {', '.join(RuntimeEntry.FIELDS)}")
    runtime = RuntimeEntry(**{key: table[key] for key in RuntimeEntry.FIELDS})
    try:
        package_file(runtime.path, [entry.path for entry in entries])
    except UsageError as exc:
        raise VendorgenError(f"{LOCK_NAME}: {exc}; nothing was changed") from None
    return runtime
