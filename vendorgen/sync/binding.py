"""What decides what runs, bound together: each lock entry to its snapshot, each snapshot to its own source.

Re-inspection (`check --remote`, `update`, `diff`) starts the command, imports the module or sends
the token that a module's `source` names, with the trust its snapshot recorded at `add`. A pull
request can change one line of the lock, or a snapshot, unread. So the lock's fields that decide
what runs must be the snapshot's, the snapshot's `source` must say what the snapshot's own fields
run (a stdio command line and its environment names, a LangChain module, an app's URL), and the
reviewed file must show what the snapshot runs: be what it generates, or an edit of that which keeps
the assignments saying what runs (vendorgen.sync.reviewed), established by regenerating, never by a
hash or a string the project holds. `check` reports any mismatch; re-inspection refuses it unless the
user passes --trust on that run.
"""

from __future__ import annotations

from typing import Any

from vendorgen import sources
from vendorgen.errors import UsageError, VendorgenError
from vendorgen.generate.regeneration import regenerate, remembered
from vendorgen.project.fingerprint import Drift
from vendorgen.project.hashing import sha256_text, snapshot_sha256
from vendorgen.project.workspace import LockEntry, Workspace
from vendorgen.sources.credentials import redacted
from vendorgen.sync.reviewed import keeps_what_runs
from vendorgen.text.literals import escape_text

# The lock's fields that must be the snapshot's (`name` finds the module, `path`/`schema` are the files).
LOCK_FIELDS = ("kind", "source", "revision")


class Unbound(UsageError):
    """Re-inspection would run something other than what was reviewed."""


def unbound(entry: LockEntry, snapshot: dict[str, Any]) -> list[Drift]:
    """Each field that decides what runs and disagrees: lock against snapshot, snapshot against its source."""
    found = [
        Drift("binding", f"the lock's {field}", _mismatch(getattr(entry, field), snapshot.get(field, "")))
        for field in LOCK_FIELDS
        if getattr(entry, field) != snapshot.get(field, "")
    ]
    source = snapshot.get("source")
    kind, _, target = source.partition(":") if isinstance(source, str) else ("", "", "")
    if kind != snapshot.get("kind"):
        return [*found, Drift("binding", "the snapshot's kind", _mismatch(snapshot.get("kind"), kind))]
    try:
        implied = sources.load(kind).bound_fields(target, snapshot)
    except VendorgenError as exc:
        return [*found, Drift("binding", "the snapshot's source", escape_text(redacted(str(exc))))]
    for path, value in implied.items():
        recorded = _field(snapshot, path)
        if recorded != value:
            found.append(Drift("binding", f"the snapshot's {path}", _mismatch(recorded, value)))
    return found


def refuse_unreviewed(workspace: Workspace, entry: LockEntry, snapshot: dict[str, Any]) -> None:
    """Raise Unbound unless what `entry`'s source runs is what its reviewed file was generated from."""
    reasons = [f"{drift.locked} {drift.current}" for drift in unbound(entry, snapshot)]
    if snapshot_sha256(snapshot) != entry.schema_sha256:
        reasons.append(f"{entry.schema} is not the snapshot the lock names")
    on_disk = workspace.read_file(entry.path)
    if on_disk is None:
        reasons.append(f"{entry.path} is missing, so no reviewed file shows what {entry.schema} runs"
                       f" (`vendorgen update --offline {entry.name}` writes it again from the snapshot)")  # fmt: skip
    elif not reasons and not _shows_what_runs(workspace, entry, snapshot, on_disk):
        reasons.append(
            f"{entry.path} does not run what {entry.schema} runs (what it generates differs where it says"
            f" what runs: `vendorgen diff --offline {entry.name}` shows how)"
        )
    if reasons:
        raise Unbound(
            f"not re-inspected: {'; '.join(reasons)}; `vendorgen check` shows it, "
            f"pass --trust to run {_shown(entry.source)} anyway"
        )


def _shows_what_runs(workspace: Workspace, entry: LockEntry, snapshot: dict[str, Any], on_disk: str) -> bool:
    """The rule of vendorgen.sync.reviewed: the file is what the snapshot generates, or an edit of it that
    keeps every assignment carrying what runs; a snapshot that does not generate shows nothing."""
    if remembered(workspace, snapshot) == sha256_text(on_disk):
        return True
    try:
        generated = regenerate(snapshot, workspace).code
        bound = sources.load(entry.kind).bound_fields(entry.source.partition(":")[2], snapshot)
    except VendorgenError:
        return False
    return generated == on_disk or keeps_what_runs(generated, on_disk, bound)


def _field(snapshot: dict[str, Any], path: str) -> Any:
    value: Any = snapshot
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _mismatch(recorded: Any, expected: Any) -> str:
    return f"is {_shown(recorded)}, not {_shown(expected)}"


def _shown(value: Any) -> str:
    """A value as a printable line, a URL's user:password@ hidden (a hostile snapshot may carry one)."""
    return escape_text(redacted(repr(value)))
