"""What was vendored at a git revision (`vendorgen review --base origin/main`): its lock and snapshots, read with
`git show`, never checked out. Read as hostile as the working tree: a bad lock or snapshot there is an error
naming the revision.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from typing import Any

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.project.lockfile import LockEntry, parse_lock_text
from vendorgen.project.paths import LOCK_NAME
from vendorgen.project.workspace import Workspace


@dataclass(frozen=True)
class Base:
    revision: str
    entries: list[LockEntry]
    snapshots: dict[str, dict[str, Any]]  # module name -> its snapshot at the revision


def read_base(workspace: Workspace, revision: str) -> Base:
    """The lock and snapshots at `revision`; an empty base where the lock did not exist yet."""
    if revision.startswith("-"):
        raise UsageError(f"--base {revision}: a revision, not an option")
    if _git(workspace, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}") is None:
        raise UsageError(f"--base {revision}: no such revision in the git repository at {workspace.root}")
    lock = _git(workspace, "show", f"{revision}:./{LOCK_NAME}")
    if lock is None:
        return Base(revision, [], {})
    try:
        entries = parse_lock_text(lock)[0]
        snapshots = {}
        for entry in entries:
            text = _git(workspace, "show", f"{revision}:./{entry.schema}")
            snapshot = json.loads(text) if text is not None else None
            if isinstance(snapshot, dict):
                snapshots[entry.name] = snapshot
    except (VendorgenError, ValueError) as exc:
        raise VendorgenError(f"cannot read what {revision} vendors: {exc}") from None
    return Base(revision, entries, snapshots)


def _git(workspace: Workspace, *args: str) -> str | None:
    try:
        result = subprocess.run(["git", "-C", str(workspace.root), *args], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    try:
        return result.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None
