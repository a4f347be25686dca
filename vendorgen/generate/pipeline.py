"""inspect -> ToolSpec -> render -> format -> gate -> workspace, for every source.

The `Source` is found once, from the URI given (or the kind a committed snapshot names),
and travels down with the spec: no stage looks it up again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vendorgen import naming, sources
from vendorgen.errors import Excluded, UsageError, VendorgenError
from vendorgen.interrupts import raise_if_interrupted
from vendorgen.model import ModuleSpec
from vendorgen.package import copies
from vendorgen.project.config import GENERATOR
from vendorgen.project.fingerprint import Fingerprint
from vendorgen.project.hashing import sha256_text, snapshot_sha256
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.requirements import ranged
from vendorgen.project.workspace import SCHEMAS_DIR, Workspace
from vendorgen.sources import Source
from vendorgen.sources.base import Inspection, snapshot_options


@dataclass(frozen=True)
class Generated:
    """A module ready to write: the source that built it, its spec, the snapshot it came from and its code."""

    source: Source
    module: ModuleSpec
    snapshot: dict[str, Any]
    schema_sha256: str
    code: str
    templates: Fingerprint  # the lock's `templates`: built-in version plus custom templates and settings


def generate(snapshot: dict[str, Any], workspace: Workspace) -> Generated:
    """A committed snapshot to final code, offline and deterministic, by the source its `kind` names."""
    return generate_from(sources.load(snapshot["kind"]), snapshot, workspace)


def generate_from(source: Source, snapshot: dict[str, Any], workspace: Workspace) -> Generated:
    """`source`'s snapshot to final code."""
    # Config overrides apply here, once for every source; the gate checks the result.
    module: ModuleSpec = workspace.config.apply(source.build(snapshot))
    schema_sha256 = snapshot_sha256(snapshot)
    code = module_code(source, module, schema_sha256, workspace)
    templates = workspace.config.fingerprint(module.kind, module.source, (tool.name for tool in module.tools))
    return Generated(source, module, snapshot, schema_sha256, code, templates)


def module_code(source: Source, module: ModuleSpec, schema_sha256: str, workspace: Workspace) -> str:
    """`module` rendered, formatted and passed through the gate (also `push`'s one-tool modules)."""
    # Not imported above: `inspect` has them imported while a source waits on its server.
    from vendorgen.generate.gate import check_module
    from vendorgen.generate.render import render_module
    from vendorgen.text.formatter import format_source

    for tool in module.tools:  # a name given as it is (a hub tool's own, an override) is not renamed: refused
        naming.refuse_agent_tool_name(tool.name, f"{module.name}.{tool.class_name}")
    rendered = render_module(module, schema_sha256, source, workspace.templates_dir())
    code = format_source(rendered, workspace.config.line_length)
    check_module(code, module, source, workspace.config.line_length)
    return code


def inspect(uri: str, options: sources.AddOptions, workspace: Workspace) -> list[dict[str, Any]]:
    """What the source `uri` names offers now, inspected for `workspace`'s project: one snapshot per module."""
    source, target = sources.split_uri(uri)
    return _inspect(source, target, uri, options, workspace)


def _context(workspace: Workspace) -> Inspection:
    return Inspection(workspace.root, workspace.waits)


def _inspect(
    source: Source, target: str, uri: str, options: sources.AddOptions, workspace: Workspace
) -> list[dict[str, Any]]:
    raise_if_interrupted()  # a source read after Ctrl-C (another thread's) is not contacted
    with workspace.waits.shown(uri):
        snapshots = source.inspect(target, options, _context(workspace))
    # Through JSON and back, so what is generated now is exactly what the committed snapshot regenerates.
    return [json.loads(snapshot_text(snapshot)) for snapshot in snapshots]


@dataclass(frozen=True)
class Failure:
    """A source that `add --keep-going` left out, and why."""

    uri: str
    error: VendorgenError


@dataclass(frozen=True)
class Added:
    generated: list[Generated]
    failed: list[Failure]  # only with `keep_going`; otherwise the first failure is raised
    runtime_written: tuple[str, ...] = ()  # the run-time files written beside the modules (root-relative)


def add(
    workspace: Workspace,
    uri: str,
    options: sources.AddOptions,
    out_dir: str | None,
    dry_run: bool,
    progress: Callable[[list[str]], Iterable[str]] = iter,
) -> Added:
    """Vendor `uri` into the project: every module or none, or with `keep_going` every source that works.

    `progress` wraps the list of member sources (a collection's Spaces) for display.
    """
    out = workspace.inside(Path(out_dir or workspace.config.output_dir), "output directory")
    generated: list[Generated] = []
    excluded: list[Excluded] = []  # modules whose every tool [tool.vendorgen.sources] filters out
    failed: list[Failure] = []
    source, target = sources.split_uri(uri)
    uris = source.members(target, options, _context(workspace))
    for member in progress(uris):
        try:
            found, skipped = _generate_member(member, options, workspace, failed)
        except VendorgenError as exc:
            if not options.keep_going:
                raise exc if member == uri else type(exc)(f"{member}: {exc}") from None
            failed.append(Failure(member, exc))
            continue
        generated += found
        excluded += skipped
    if excluded and not generated and not failed:
        raise excluded[0]
    names = [item.module.name for item in generated]
    if len(set(names)) != len(names):
        raise VendorgenError(f"two modules would share a name: {', '.join(sorted(names))}")
    if taken := sorted(set(names) & naming.module_reserved()):
        raise UsageError(
            f"{taken[0]!r} is a name `vendorgen serve`'s server module uses for its own code; pick another --name"
        )
    if dry_run or not generated:
        return Added(generated, failed)
    with workspace.mutex():
        entries = {entry.name: entry for entry in workspace.read_lock()}
        owned = {entry.path: entry for entry in entries.values()}
        files: dict[str, str] = {}
        for item in generated:
            path = workspace.relative(out / f"{item.module.name}.py")
            _check_target(workspace, path, item.module, entries, owned)
            snapshot_path = f"{SCHEMAS_DIR}/{item.module.name}.json"
            files[path] = item.code
            files[snapshot_path] = snapshot_text(item.snapshot)
            entries[item.module.name] = lock_entry(item, path, snapshot_path)
        _refuse_shared_tool_names(entries, generated)
        runtime = copies.plan(workspace, entries.values(), pending=files)
        workspace.commit({**files, **runtime.files}, list(entries.values()), tuple(runtime.removed), runtime.entries)
    return Added(generated, failed, tuple(sorted(runtime.files)))


def _generate_member(
    uri: str, options: sources.AddOptions, workspace: Workspace, failed: list[Failure]
) -> tuple[list[Generated], list[Excluded]]:
    """The modules of one source; with `keep_going`, one that fails (an endpoint of
    `--all-endpoints`) is added to `failed` and the others are still generated."""
    generated: list[Generated] = []
    excluded: list[Excluded] = []
    source, target = sources.split_uri(uri)
    _refuse_vendored(workspace, source, uri, options)
    for snapshot in _inspect(source, target, uri, options, workspace):
        try:
            generated.append(generate_from(source, snapshot, workspace))
        except Excluded as exc:
            excluded.append(exc)
        except VendorgenError as exc:
            if not options.keep_going:
                raise
            failed.append(Failure(f"{uri} (module {snapshot['name']})", exc))
    return generated, excluded


def _refuse_vendored(workspace: Workspace, source: Source, uri: str, options: sources.AddOptions) -> None:
    """Refuse, before contacting the source, what the lock shows is vendored already: the module these
    options named before, or a --name another source's module holds."""
    name = naming.python_name(options.name) if options.name else None
    for entry in workspace.read_lock():
        if name == entry.name and entry.source != uri:
            raise UsageError(f"{name!r} is already vendored from {entry.source}; pick another --name")
        if entry.source != uri or name not in (None, entry.name):
            continue
        try:
            recorded = snapshot_options(workspace.read_snapshot(entry))
        except VendorgenError:  # an unreadable snapshot is `check`'s to report; inspecting finds the name
            continue
        if source.same_module(recorded, options):
            raise UsageError(f"already vendored: vendorgen update {entry.name}")


def _refuse_shared_tool_names(entries: dict[str, LockEntry], generated: list[Generated]) -> None:
    """Two modules with a tool of the same name cannot be served, nor told apart by an agent."""
    added = {item.module.name: item for item in generated}
    for tool, modules in naming.shared_tool_names({entry.name: entry.tools for entry in entries.values()}).items():
        new = next((added[module] for module in modules if module in added), None)
        if new is not None:
            hint = "re-add it with --prefix P" if "prefix" in new.source.options else "re-add it with --name NAME"
            raise UsageError(f"the tool name {tool} would be vendored by {' and '.join(modules)}; {hint}")


def _check_target(
    workspace: Workspace, path: str, module: ModuleSpec, entries: dict[str, LockEntry], owned: dict[str, LockEntry]
) -> None:
    """Never overwrite what vendorgen does not own, another source's module, or a module vendored already
    (the pre-check missed it: the source names itself differently than the URI given)."""
    name = module.name
    target = workspace.root / path
    entry = owned.get(path)
    if entry is None:
        if target.exists():
            raise UsageError(f"{path} exists and was not written by vendorgen; move it or pick --name/--out")
        if name in entries and entries[name].source == module.source:
            raise UsageError(f"already vendored: vendorgen update {name}")
        if name in entries:
            raise UsageError(f"{name!r} is already vendored at {entries[name].path}; pick another --name")
        return
    if entry.name != name:
        raise UsageError(f"{path} belongs to the vendored module {entry.name!r}")
    if entry.source != module.source:
        raise UsageError(f"{name!r} is already vendored from {entry.source}; pick another --name")
    if dropped := [endpoint for endpoint in entry.endpoints if endpoint not in module.endpoints]:
        raise UsageError(
            f"{name!r} already vendors {', '.join(dropped)} from {entry.source}, which this would drop;"
            f" pick another --name, or `vendorgen remove {name}` first"
        )
    raise UsageError(f"already vendored: vendorgen update {name}")


def lock_entry(item: Generated, path: str, snapshot_path: str) -> LockEntry:
    module = item.module
    return LockEntry(
        name=module.name,
        kind=module.kind,
        source=module.source,
        endpoints=module.endpoints,
        tools=tuple(tool.name for tool in module.tools),
        revision=module.revision,
        schema=snapshot_path,
        schema_sha256=item.schema_sha256,
        path=path,
        sha256=sha256_text(item.code),
        generator=GENERATOR,
        templates=item.templates,
        requirements=ranged(module.requirements, sources.requirement_ranges()),  # the versions the matrix runs it on
    )


def snapshot_text(snapshot: dict[str, Any]) -> str:
    """The committed snapshot, indented so a diff reads well; keys keep their order (see canonical_json)."""
    return json.dumps(snapshot, indent=1, ensure_ascii=True) + "\n"
