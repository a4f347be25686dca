"""inspect -> ToolSpec -> render -> format -> gate -> workspace, for every source."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vendorgen import TEMPLATES_VERSION, __version__, sources
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.formatter import format_source
from vendorgen.gate import check_module
from vendorgen.model import ModuleSpec
from vendorgen.render import render_module
from vendorgen.workspace import SCHEMAS_DIR, LockEntry, Workspace, canonical_json, sha256_text

GENERATOR = f"vendorgen {__version__}"


@dataclass(frozen=True)
class Generated:
    """A module ready to write: its spec, the snapshot it came from and its code."""

    module: ModuleSpec
    snapshot: dict[str, Any]
    schema_sha256: str
    code: str


def generate(snapshot: dict[str, Any], workspace: Workspace) -> Generated:
    """Snapshot to final code, offline and deterministic."""
    source = sources.load(snapshot["kind"])
    module: ModuleSpec = source.build(snapshot)
    schema_sha256 = sha256_text(canonical_json(snapshot))
    rendered = render_module(module, schema_sha256, workspace.templates_dir())
    code = format_source(rendered, workspace.config.line_length)
    check_module(code, module, source.ALLOWED_IMPORTS)
    return Generated(module, snapshot, schema_sha256, code)


def inspect(uri: str, options: sources.AddOptions) -> list[dict[str, Any]]:
    kind, target = sources.split_uri(uri)
    return sources.load(kind).inspect(target, options)


def add(workspace: Workspace, uri: str, options: sources.AddOptions, out_dir: str | None, dry_run: bool) -> list[Generated]:
    """Vendor `uri` into the project: every module or none."""
    out = workspace.inside(Path(out_dir or workspace.config.output_dir), "output directory")
    generated = [generate(snapshot, workspace) for snapshot in inspect(uri, options)]
    names = [item.module.name for item in generated]
    if len(set(names)) != len(names):
        raise VendorgenError(f"two modules would share a name: {', '.join(sorted(names))}")
    if dry_run:
        return generated
    with workspace.mutex():
        entries = {entry.name: entry for entry in workspace.read_lock()}
        owned = {entry.path: entry for entry in entries.values()}
        files: dict[str, str] = {}
        for item in generated:
            path = workspace.relative(out / f"{item.module.name}.py")
            _check_target(workspace, path, item.module.name, entries, owned)
            snapshot_path = f"{SCHEMAS_DIR}/{item.module.name}.json"
            files[path] = item.code
            files[snapshot_path] = snapshot_text(item.snapshot)
            entries[item.module.name] = lock_entry(item, path, snapshot_path)
        workspace.commit(files, list(entries.values()))
    return generated


def _check_target(
    workspace: Workspace, path: str, name: str, entries: dict[str, LockEntry], owned: dict[str, LockEntry]
) -> None:
    """Never overwrite what vendorgen does not own, nor a vendored file the user edited."""
    target = workspace.root / path
    entry = owned.get(path)
    if entry is None:
        if target.exists():
            raise UsageError(f"{path} exists and was not written by vendorgen; move it or pick --name/--out")
        if name in entries:
            raise UsageError(f"{name!r} is already vendored at {entries[name].path}; pick another --name")
        return
    if entry.name != name:
        raise UsageError(f"{path} belongs to the vendored module {entry.name!r}")
    if target.exists() and sha256_text(target.read_text(encoding="utf-8")) != entry.sha256:
        raise UsageError(f"{path} has local edits; use `vendorgen update {name}` to merge them")


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
        templates=TEMPLATES_VERSION,
    )


def snapshot_text(snapshot: dict[str, Any]) -> str:
    """The committed snapshot: canonical content, indented so a diff reads well."""
    return json.dumps(snapshot, sort_keys=True, indent=1, ensure_ascii=True) + "\n"
