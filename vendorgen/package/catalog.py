"""`vendorgen catalog`: the catalog module of an output package (`catalog.py`), for agents with many tools.

Like the server module (vendorgen.package.serve), it is the same bytes in every project for a vendorgen
version (the logic, copied verbatim from `_vendored_catalog.py`, which ships in vendorgen)
followed by what this project catalogs: an import of each locked module, its tool classes (read
from the files the lock checks) and the search index. It holds no remote text, so there is
nothing to escape and no template: the descriptions stay in the modules, read from the tool
classes at run time; the index is made of identifiers and words, which are runs of letters
or digits (`_vendored_catalog.words`; JSON escapes the non-ASCII ones) with counts. `check` compares the file with what
the lock calls for now, as for the server module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from vendorgen import __version__
from vendorgen.errors import UsageError
from vendorgen.package import derived, files
from vendorgen.package.builtin_files import CATALOG_LOGIC
from vendorgen.project.paths import CATALOG_FILE
from vendorgen.project.workspace import LockEntry, Workspace
from vendorgen.shipped._vendored_catalog import index_entry
from vendorgen.sources.base import SHIPPED

FILE_NAME = CATALOG_FILE
MODULE = FILE_NAME.removesuffix(".py")
COMMAND = "vendorgen catalog"
_SHIPPED = SHIPPED / CATALOG_LOGIC
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

    @property
    def files(self) -> dict[str, str]:
        """What cataloguing writes (root-relative path -> text), as every derived package file says it."""
        return {self.path: self.text}


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
    path = f"{derived.one_directory(entries, COMMAND)}/{FILE_NAME}"
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
    # `from .module import Class` (mypy reads no `from . import module` in a directory without __init__.py);
    # a class name two modules share is imported under the module's name too.
    shared = {tool.class_name for tool in found if [other.class_name for other in found].count(tool.class_name) > 1}
    local = {id(tool): f"{tool.module}_{tool.class_name}" if tool.class_name in shared else tool.class_name for tool in found}
    tail = [_TAIL_MARK]
    for tool in found:
        alias = f" as {local[id(tool)]}" if tool.class_name in shared else ""
        tail.append(f"from .{tool.module} import {tool.class_name}{alias}")
    tail += ["", "TOOLS: list[type] = [", *(f"    {local[id(tool)]}," for tool in found), "]"]
    tail += ["# Each tool's words (of its name, description and arguments) and their weights.", "INDEX = {"]
    for tool in found:
        tail.append(f"    {json.dumps(tool.name)}: {json.dumps(index_entry(tool.name, tool.description, tool.inputs))},")
    tail.append("}")
    header = _HEADER.format(module=MODULE, version=__version__)
    text = header + _SHIPPED.read_text(encoding="utf-8") + "\n\n" + "\n".join(tail) + "\n" + _TAIL_END
    return CatalogModule(path, text, len(found))


def _tool_classes(workspace: Workspace, entry: LockEntry, pending: Mapping[str, str]) -> list[_ToolClass]:
    """Each locked tool's class in the module as written, with its literal name, description and inputs."""
    module = PurePosixPath(entry.path).stem
    found = []
    for class_name, attributes in derived.tool_classes(workspace, entry, pending):
        description, inputs = attributes.get("description"), attributes.get("inputs")
        found.append(
            _ToolClass(
                module,
                class_name,
                attributes["name"],
                description if isinstance(description, str) else "",
                inputs if isinstance(inputs, dict) else {},
            )
        )
    return found


def write(workspace: Workspace, module: CatalogModule) -> bool:
    """Write the catalog if it or its lock entry differs; True when it changed."""
    return derived.write(workspace, module.path, module.text, _HEADER_START)


def problems(workspace: Workspace, entries: list[LockEntry]) -> list[str]:
    """What `check` says about each catalog the lock owns: missing, out of step with its modules, or not its hash."""
    found = []
    for locked in workspace.read_runtimes():
        if PurePosixPath(locked.path).name != FILE_NAME:
            continue
        beside = [entry for entry in entries if files.path_beside(entry.path, FILE_NAME) == locked.path]
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
