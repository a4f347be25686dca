"""`vendorgen catalog`: the catalog module of an output package (`catalog.py`), for agents with many tools.

Like the server module (vendorgen.serve), it is the same bytes in every project for a vendorgen
version (the logic, copied verbatim from `_vendored_catalog.py`, which ships in vendorgen)
followed by what this project catalogs: an import of each locked module, its tool classes (read
from the files the lock checks) and the search index. It holds no remote text, so there is
nothing to escape and no template: the descriptions stay in the modules, read from the tool
classes at run time; the index is made of identifiers and search terms, which are runs of ASCII
letters and digits (`_vendored_catalog.terms`) with counts. `check` compares the file with what
the lock calls for now, as for the server module.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from vendorgen import derived, runtime
from vendorgen.errors import UsageError
from vendorgen.project.paths import CATALOG_FILE
from vendorgen.project.workspace import LockEntry, Workspace

FILE_NAME = CATALOG_FILE
MODULE = FILE_NAME.removesuffix(".py")
COMMAND = "vendorgen catalog"
_SHIPPED = Path(__file__).resolve().parent / "_vendored_catalog.py"
_HEADER = """\
# The catalog of the tools vendorgen vendored into this directory: from .{module} import catalog_tools
# Written by vendorgen {version}; `vendorgen catalog` writes it, add, update and remove keep it in step with the lock.
# Up to the line "# -- What this project catalogs", the same bytes in every project vendored with that version.
"""
_TAIL_MARK = "# -- What this project catalogs"
_HEADER_START = _HEADER.split(":", 1)[0]
_TAIL_END = '''

def catalog_tools(call_tool: bool = False, matches: int = 5, listed: bool | None = None) -> list[Any]:
    """Every tool above, in one line of the prompt each, and find_tools (see the top of this file).

    call_tool: only find_tools and call_tool, for tool-calling agents. matches: how many tools
    find_tools documents at most. listed: whether the prompt lists the tools (default: up to
    LISTED_AT_MOST of them).
    """
    return build(TOOLS, INDEX, call_tool, matches, listed)
'''


@dataclass(frozen=True)
class CatalogModule:
    path: str  # relative to the root
    text: str
    tools: int


@dataclass(frozen=True)
class _ToolClass:
    module: str
    class_name: str
    name: str
    description: str
    inputs: dict[str, Any]


def catalog_module(
    workspace: Workspace, entries: list[LockEntry], pending: Mapping[str, str] | None = None
) -> CatalogModule:
    """The catalog of the locked modules `entries`, which lie in one output directory.

    `pending`: files about to be written (root-relative path -> text), read instead of the disk's.
    """
    from vendorgen import __version__
    from vendorgen._vendored_catalog import index_entry

    if not entries:
        raise UsageError("nothing vendored yet, so nothing to catalog; try `vendorgen add --help`")
    directories = sorted({PurePosixPath(entry.path).parent.as_posix() for entry in entries})
    if len(directories) > 1:
        raise UsageError(f"a catalog covers one output directory; these modules are in {', '.join(directories)}")
    path = runtime.path_beside(entries[0].path, FILE_NAME)
    found: list[_ToolClass] = []
    for entry in sorted(entries, key=lambda entry: entry.name):
        if entry.path == path:
            raise UsageError(
                f"the vendored module {entry.name} is {path}, where the catalog goes;"
                f" `vendorgen remove {entry.name}` and add it again with another --name"
            )
        found += _tool_classes(workspace, entry, pending or {})
    names = [tool.name for tool in found]
    if twice := sorted({name for name in names if names.count(name) > 1}):
        raise UsageError(f"two vendored tools are named {', '.join(twice)}; an agent takes one tool of a name")
    tail = [_TAIL_MARK, *(f"from . import {module}" for module in sorted({tool.module for tool in found}))]
    tail += ["", "TOOLS = [", *(f"    {tool.module}.{tool.class_name}," for tool in found), "]"]
    tail += ["# Each tool's search terms (of its name, description and arguments) and their weights.", "INDEX = {"]
    for tool in found:
        tail.append(f"    {json.dumps(tool.name)}: {json.dumps(index_entry(tool.name, tool.description, tool.inputs))},")
    tail.append("}")
    header = _HEADER.format(module=MODULE, version=__version__)
    text = header + _SHIPPED.read_text(encoding="utf-8") + "\n\n" + "\n".join(tail) + "\n" + _TAIL_END
    return CatalogModule(path, text, len(found))


def _tool_classes(workspace: Workspace, entry: LockEntry, pending: Mapping[str, str]) -> list[_ToolClass]:
    """Each locked tool's class in the module as it is written, with its literal name, description and inputs."""
    text = pending[entry.path] if entry.path in pending else workspace.read_file(entry.path)
    if text is None:
        raise UsageError(f"{entry.path} is missing: `vendorgen update` restores it")
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise UsageError(f"{entry.path} cannot be read ({exc}): `vendorgen check` says what is wrong") from None
    module = PurePosixPath(entry.path).stem
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            attributes = _literal_attributes(node)
            name = attributes.get("name")
            if isinstance(name, str) and name in entry.tools:
                description = attributes.get("description")
                inputs = attributes.get("inputs")
                found.append(
                    _ToolClass(
                        module,
                        node.name,
                        name,
                        description if isinstance(description, str) else "",
                        inputs if isinstance(inputs, dict) else {},
                    )
                )
    if missing := set(entry.tools) - {tool.name for tool in found}:
        raise UsageError(
            f"{entry.path} has no tool class for {', '.join(sorted(missing))}: `vendorgen check` says what is wrong"
        )
    return found


def _literal_attributes(node: ast.ClassDef) -> dict[str, Any]:
    """The class's attributes assigned a literal (a hub tool may compute some: those are left out)."""
    attributes = {}
    for statement in node.body:
        target: ast.expr | None = statement.target if isinstance(statement, ast.AnnAssign) else None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        value = getattr(statement, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            try:
                attributes[target.id] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
    return attributes


def write(workspace: Workspace, module: CatalogModule) -> bool:
    """Write the catalog if it or its lock entry differs; True when it changed."""
    return derived.write(workspace, module.path, module.text, _HEADER_START)


def problems(workspace: Workspace, entries: list[LockEntry]) -> list[str]:
    """What `check` says about each catalog the lock owns: missing, out of step with its modules, or not its hash."""
    found = []
    for locked in workspace.read_runtimes():
        if PurePosixPath(locked.path).name != FILE_NAME:
            continue
        beside = [entry for entry in entries if runtime.path_beside(entry.path, FILE_NAME) == locked.path]
        if not beside:
            found.append(f"{locked.path}: nothing vendored is left beside it to catalog; delete it")
            continue
        try:
            module = catalog_module(workspace, beside)
        except UsageError as exc:
            found.append(f"{locked.path} cannot be written now: {exc}")
            continue
        found += derived.problems(workspace, module.path, module.text, COMMAND, "does not catalog what the lock holds")
    return found
