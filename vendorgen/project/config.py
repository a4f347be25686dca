"""`[tool.vendorgen]` in pyproject.toml: read, validated, and applied to every generated module.

```toml
[tool.vendorgen]
output_dir = "tools"            # where `add` writes modules
line_length = 99                # black's line length for generated code
templates = "vendorgen_templates"  # files here override the built-in templates, file by file
mcp_resources = true            # `add mcp:...` vendors resources and templates, as with --resources
mcp_prompts = true              # ... and prompts, as with --prompts

[tool.vendorgen.overrides.convert]   # keyed by the tool name vendorgen gives by default
name = "convert_length"
class_name = "LengthTool"            # default: derived from `name`
description = "Convert a length."
params = { from_unit = "source" }    # parameter (wire name or default Python name) -> new name

[tool.vendorgen.sources."mcp:http://127.0.0.1:8000/mcp"]
include = ["get_*"]                  # fnmatch patterns on tool names (default or remote)
exclude = ["get_secret"]
```

Unknown keys and wrong types are refused with the full key path (exit 2). Overrides
and filters are applied in one place, `Config.apply`, between a source's `build`
and rendering, so every source gets them and the gate checks the result.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from vendorgen import __version__, naming, templates_version
from vendorgen.errors import Excluded, UsageError
from vendorgen.model import InputSpec, ModuleSpec, ToolSpec
from vendorgen.project.fingerprint import Fingerprint
from vendorgen.text.formatter import DEFAULT_LINE_LENGTH

# What the lock records as the generator; a different one means version drift.
GENERATOR = f"vendorgen {__version__}"
DEFAULT_OUTPUT_DIR = "tools"
_ROOT_KEY = "tool.vendorgen"


@dataclass(frozen=True)
class ToolOverride:
    name: str | None = None
    class_name: str | None = None
    description: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SourceFilter:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def keeps(self, tool: ToolSpec) -> bool:
        """Patterns match the default tool name or the remote name."""

        def matches(patterns: tuple[str, ...]) -> bool:
            return any(
                fnmatch.fnmatchcase(name, pattern) for pattern in patterns for name in (tool.name, tool.endpoint)
            )

        return (not self.include or matches(self.include)) and not matches(self.exclude)


@dataclass(frozen=True)
class Config:
    output_dir: str = DEFAULT_OUTPUT_DIR
    line_length: int = DEFAULT_LINE_LENGTH
    templates_dir: Path | None = None  # resolved, checked to exist inside the project
    overrides: Mapping[str, ToolOverride] = field(default_factory=dict)
    sources: Mapping[str, SourceFilter] = field(default_factory=dict)
    # What `add` takes of an MCP server besides its tools unless told (--resources, --prompts).
    mcp_resources: bool = False
    mcp_prompts: bool = False
    raw: dict[str, Any] = field(default_factory=dict)
    _template_hashes: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    # -- applying ----------------------------------------------------------

    def apply(self, module: ModuleSpec) -> ModuleSpec:
        """`module` filtered by `sources` and renamed by `overrides`."""
        source_filter = self.sources.get(module.source)
        tools = tuple(tool for tool in module.tools if source_filter is None or source_filter.keeps(tool))
        if not tools:
            raise Excluded(f"{_key(_ROOT_KEY, 'sources', module.source)} excludes every tool of {module.name}")
        tools = tuple(self._override(tool) for tool in tools)
        # Names are checked once, here, after overrides: an override can fix a collision.
        fix = "rename one with --prefix/--name or [tool.vendorgen.overrides.<tool>] name/class_name"
        naming.unique(((tool.endpoint, tool.name) for tool in tools), "tools", fix)
        naming.unique(((tool.endpoint, tool.class_name) for tool in tools), "tool classes", fix)
        for tool in tools:
            naming.unique(
                ((spec.wire_name, spec.name) for spec in tool.inputs),
                f"parameters of {tool.name}",
                f"rename one with [tool.vendorgen.overrides.{tool.name}.params]",
            )
        return replace(module, tools=tools)

    def _override(self, tool: ToolSpec) -> ToolSpec:
        override = self.overrides.get(tool.name)
        if override is None:
            return tool
        name = override.name or tool.name
        # A class name derived from the tool name follows a rename; one the source chose stays.
        derived = tool.class_name == naming.class_name(tool.name)
        class_name = override.class_name or (naming.class_name(name) if derived else tool.class_name)
        return replace(
            tool,
            name=name,
            class_name=class_name,
            description=override.description or tool.description,
            inputs=_renamed_inputs(tool, override.params),
        )

    # -- what the lock records ---------------------------------------------

    def fingerprint(self, kind: str, source: str, tools: Iterable[str]) -> Fingerprint:
        """What besides the snapshot and vendorgen's version decides a module's code.

        The built-in templates version, the hash of the user's template files for this
        kind and the hash of the settings that concern this module (`tools`: its final
        tool names); either hash is "" when there is nothing to hash.
        """
        custom = ""
        if self.templates_dir is not None:
            if kind not in self._template_hashes:
                self._template_hashes[kind] = _hash_templates(self.templates_dir, kind)
            custom = self._template_hashes[kind]
        settings = self._settings_for(source, set(tools))
        settings_hash = _short_hash(json.dumps(settings, sort_keys=True).encode()) if settings else ""
        return Fingerprint(templates_version(), custom, settings_hash)

    def _settings_for(self, source: str, tools: set[str]) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        if self.line_length != DEFAULT_LINE_LENGTH:
            settings["line_length"] = self.line_length
        if source in self.sources:
            settings["sources"] = self.raw["sources"][source]
        # An override concerns a module when it names one of its tools, before or after renaming.
        overrides = {
            key: self.raw["overrides"][key]
            for key, override in self.overrides.items()
            if key in tools or override.name in tools
        }
        if overrides:
            settings["overrides"] = overrides
        return settings


def _renamed_inputs(tool: ToolSpec, renames: Mapping[str, str]) -> tuple[InputSpec, ...]:
    known = {spec.wire_name for spec in tool.inputs} | {spec.name for spec in tool.inputs}
    for key in renames:
        if key not in known:
            available = ", ".join(spec.wire_name for spec in tool.inputs) or "none"
            raise UsageError(
                f"{_key(_ROOT_KEY, 'overrides', tool.name, 'params', key)}: {tool.name} has no parameter {key!r}"
                f" (its parameters: {available})"
            )
    inputs = tuple(
        replace(spec, name=renames.get(spec.wire_name, renames.get(spec.name, spec.name))) for spec in tool.inputs
    )
    return inputs


def _hash_templates(directory: Path, kind: str) -> str:
    """Hash of the user's template files that can take part in rendering `kind`.

    Every file counts but the other kinds' top-level templates, so overriding
    `mcp.py.j2` leaves `space` modules alone.
    """
    from vendorgen.sources import (
        registered,  # upward (pyproject.toml's ignore_imports): the templates' names are the kinds'
    )

    others = {source.template for source in registered() if source.kind != kind}
    digest = hashlib.sha256()
    count = 0
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory).as_posix()
        if path.is_file() and relative not in others:
            digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
            count += 1
    return digest.hexdigest()[:12] if count else ""


def _short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


# -- reading and validating ----------------------------------------------------


def load_config(root: Path) -> Config:
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return Config()
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"pyproject.toml: {exc}") from None
    table = document.get("tool", {}).get("vendorgen", {})
    _check_table(table, _ROOT_KEY, {"output_dir": str, "line_length": int, "templates": str, "overrides": dict,
                                    "sources": dict, "review": dict, "mcp_resources": bool,
                                    "mcp_prompts": bool})  # fmt: skip
    output_dir = table.get("output_dir", DEFAULT_OUTPUT_DIR)
    if not output_dir.strip():
        raise UsageError(f"{_key(_ROOT_KEY, 'output_dir')} must not be empty")
    line_length = table.get("line_length", DEFAULT_LINE_LENGTH)
    if line_length < 1:
        raise UsageError(f"{_key(_ROOT_KEY, 'line_length')} must be a positive integer, got {line_length}")
    return Config(
        output_dir=output_dir,
        line_length=line_length,
        templates_dir=_templates_dir(root, table.get("templates")),
        overrides={name: _override(name, value) for name, value in table.get("overrides", {}).items()},
        sources={uri: _source_filter(uri, value) for uri, value in table.get("sources", {}).items()},
        mcp_resources=table.get("mcp_resources", False),
        mcp_prompts=table.get("mcp_prompts", False),
        raw=table,
    )


def _templates_dir(root: Path, templates: str | None) -> Path | None:
    if templates is None:
        return None
    where = _key(_ROOT_KEY, "templates")
    resolved = (root / templates).resolve()
    if resolved != root and root not in resolved.parents:
        raise UsageError(f"{where}: {templates} is outside the project {root}")
    if not resolved.is_dir():
        raise UsageError(f"{where}: {templates} is not a directory")
    return resolved


def _override(tool: str, value: Any) -> ToolOverride:
    where = _key(_ROOT_KEY, "overrides", tool)
    _check_table(value, where, {"name": str, "class_name": str, "description": str, "params": dict})
    for key in ("name", "class_name"):
        if key in value:
            _check_identifier(value[key], _key(where, key))
    if "description" in value and not value["description"].strip():
        raise UsageError(f"{_key(where, 'description')} must not be empty")
    params = value.get("params", {})
    for wire, new in params.items():
        if not isinstance(new, str):
            raise UsageError(f"{_key(where, 'params', wire)} must be a string, not {_type_name(new)}")
        _check_identifier(new, _key(where, "params", wire))
    return ToolOverride(value.get("name"), value.get("class_name"), value.get("description"), dict(params))


def _source_filter(uri: str, value: Any) -> SourceFilter:
    from vendorgen.sources import split_uri  # upward (pyproject.toml's ignore_imports): a filter's key is a source URI

    where = _key(_ROOT_KEY, "sources", uri)
    try:
        split_uri(uri)
    except UsageError as exc:
        raise UsageError(f"{where}: {exc}") from None
    _check_table(value, where, {"include": list, "exclude": list})
    for key in ("include", "exclude"):
        for item in value.get(key, []):
            if not isinstance(item, str):
                raise UsageError(f"{_key(where, key)} must be a list of strings, not contain {_type_name(item)}")
    return SourceFilter(tuple(value.get("include", ())), tuple(value.get("exclude", ())))


def _check_table(value: Any, where: str, expected: dict[str, type]) -> None:
    if not isinstance(value, dict):
        raise UsageError(f"{where} must be a table, not {_type_name(value)}")
    for key, item in value.items():
        if key not in expected:
            raise UsageError(f"{_key(where, key)} is not a known key (known: {', '.join(expected)})")
        wanted = expected[key]
        if not isinstance(item, wanted) or (wanted is int and isinstance(item, bool)):
            raise UsageError(f"{_key(where, key)} must be {_TYPE_NAMES[wanted]}, not {_type_name(item)}")


def _check_identifier(value: str, where: str) -> None:
    # parameter_name keeps exactly the names that are safe as they are.
    if naming.parameter_name(value) != value:
        raise UsageError(f"{where}: {value!r} is not a usable Python name (try {naming.python_name(value)!r})")


_TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", list: "an array", dict: "a table"}


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return _TYPE_NAMES.get(type(value), f"a {type(value).__name__}")


def _key(prefix: str, *keys: str) -> str:
    """`prefix` (a key path already) extended by `keys`, quoting those that are not bare TOML keys."""
    bare = (key if key and key.isascii() and all(ch.isalnum() or ch in "-_" for ch in key) else json.dumps(key)
            for key in keys)  # fmt: skip
    return ".".join((prefix, *bare))


# -- vendorgen init --------------------------------------------------------------------------------


def init_table(root: Path, output_dir: str | None = None, line_length: int | None = None) -> Path:
    """Add a commented `[tool.vendorgen]` table to `root`'s pyproject.toml (created if missing); its path.

    Edited with tomlkit, so the rest of the file, comments and layout included, stays as it was.
    An existing table is refused, never overwritten.
    """
    import tomlkit

    path = root / "pyproject.toml"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    try:
        document = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise UsageError(f"pyproject.toml: {exc}") from None
    tool = document.get("tool")
    if tool is not None and "vendorgen" in tool:
        raise UsageError(f"{path} already has a [{_ROOT_KEY}] table; edit it there")
    if output_dir is not None and not output_dir.strip():
        raise UsageError("--output-dir must not be empty")
    table = tomlkit.table()
    table.add(tomlkit.comment("How vendorgen writes vendored tools; every key is optional (README: Configuration)."))
    for key, value, comment in (
        ("output_dir", output_dir or DEFAULT_OUTPUT_DIR, "where `vendorgen add` writes modules"),
        ("line_length", line_length or DEFAULT_LINE_LENGTH, "black's line length for generated code"),
    ):
        table.add(key, value)
        table[key].comment(comment)
        table[key].trivia.comment_ws = "  "
    table.add(tomlkit.comment('templates = "vendorgen_templates"  # files here override the built-in templates'))
    table.add(tomlkit.comment("[tool.vendorgen.overrides.<tool>]: name, class_name, description, params"))
    table.add(tomlkit.comment('[tool.vendorgen.sources."<source>"]: include, exclude (fnmatch patterns)'))
    if tool is None:
        tool = tomlkit.table(is_super_table=True)
        document.add("tool", tool)
    tool.add("vendorgen", table)
    temporary = path.with_name(f".{path.name}.vendorgen-new")  # replaced in one step: never half-written
    try:
        temporary.write_text(tomlkit.dumps(document), encoding="utf-8")
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)
    return path
