"""Package files derived from the lock (the server module, the catalog): written, owned and checked alike.

Each is rewritten from the lock by its command (`vendorgen serve`, `vendorgen catalog`) and
then owned by the lock like the runtime beside it: a `[[runtime]]` entry with the sha256 it was
written with. `Workspace.commit` writes it, so never half-written and never through a link;
add, update and remove keep it in step (vendorgen.runtime_sync), `remove` of the last module
beside it deletes it.
"""

from __future__ import annotations

from vendorgen.project.config import GENERATOR
from vendorgen.errors import UsageError
from vendorgen.project.hashing import sha256_text
from vendorgen.runtime import RuntimeEntry
from vendorgen.project.workspace import LOCK_NAME, Workspace


def write(workspace: Workspace, path: str, text: str, header_start: str) -> bool:
    """Write the file at `path` if it or its lock entry differs; True when it changed.

    A file already there is replaced only when the lock owns it or it begins as vendorgen
    writes it (`header_start`); a vendored module's own file never.
    """
    written = RuntimeEntry(path, sha256_text(text), GENERATOR)
    with workspace.mutex():
        files = workspace.read_runtimes()
        on_disk = workspace.read_file(path)
        if on_disk == text and written in files:
            return False
        if any(entry.path == path for entry in workspace.read_lock()):
            raise UsageError(f"{path} is a vendored module's file; rename the module (`vendorgen remove`, then add --name)")
        owned = any(entry.path == path for entry in files)
        if on_disk is not None and not owned and not on_disk.startswith(header_start):
            raise UsageError(f"{path} exists and was not written by vendorgen; move it")
        others = [entry for entry in files if entry.path != path]
        workspace.commit({path: text}, workspace.read_lock(), runtimes=[*others, written])
    return True


def problems(workspace: Workspace, path: str, text: str, command: str, stale: str) -> list[str]:
    """What `check` says about the file at `path`, which `command` writes as `text` (`stale`: how it differs)."""
    on_disk = workspace.read_file(path)
    entry = next((entry for entry in workspace.read_runtimes() if entry.path == path), None)
    if on_disk is None:
        return [f"{path} is missing: `{command}` writes it"]
    if on_disk != text:
        return [f"{path} {stale}: `{command}` rewrites it"]
    if entry is None or entry.sha256 != sha256_text(on_disk):
        return [f"{path} is not the file {LOCK_NAME} records: `{command}` rewrites it"]
    return []
