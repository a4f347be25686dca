"""The review's flags of each module, cached outside the repository by what decides them, so `check` stays fast.

Building a 200-tool module from its snapshot and scanning it takes about a third of a second; `check`
over unchanged modules takes a tenth. The key is the snapshot file's sha256 (its bytes as committed,
not the lock's word for them), the rules with the project's review settings, every module's and tool's name
(shadowing), the project's overrides and filters (what the model reads) and vendorgen's version. The
cache lives in $XDG_CACHE_HOME/vendorgen/review (~/.cache/...); one that cannot be read or written is
no cache, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from vendorgen import __version__
from vendorgen.review import Flag
from vendorgen.review.project import ModuleReview, review_snapshot, rules_of

if TYPE_CHECKING:
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.project.workspace import Workspace

CACHE_ENV = "XDG_CACHE_HOME"


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache") / "vendorgen" / "review"


def cached_reviews(workspace: Workspace, chosen: Sequence[LockEntry], entries: Sequence[LockEntry]) -> list[ModuleReview]:
    rules = rules_of(workspace)
    settings = {key: workspace.config.raw.get(key) for key in ("overrides", "sources")}
    # The names of every module and tool: each module's context is these less its own (its name is in the key).
    names = sorted((entry.name, entry.tools, entry.endpoints) for entry in entries)
    shared = json.dumps([__version__, rules.digest, settings, names], sort_keys=True, default=str)
    reviews = []
    for entry in chosen:
        text = workspace.project.read_text(entry.schema)
        if text is None:
            continue  # check says the snapshot is missing
        snapshot_sha256 = hashlib.sha256(text.encode()).hexdigest()
        key = hashlib.sha256(f"{shared}\0{entry.name}\0{snapshot_sha256}".encode()).hexdigest()
        found = _read(key, entry.name)
        if found is None:
            found = review_snapshot(workspace, entry.name, workspace.read_snapshot(entry), entries, rules)
            _write(key, found)
        reviews.append(found)
    return reviews


def _read(key: str, name: str) -> ModuleReview | None:
    try:
        data = json.loads((cache_dir() / f"{key}.json").read_text(encoding="utf-8"))
        return ModuleReview(name, tuple(Flag(**flag) for flag in data["flags"]), data["error"])
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _write(key: str, review: ModuleReview) -> None:
    path = cache_dir() / f"{key}.json"
    temporary = path.with_name(f".{key}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps({"flags": [flag.to_json() for flag in review.flags], "error": review.error}),
                             encoding="utf-8")  # fmt: skip
        temporary.replace(path)
    except OSError:
        temporary.unlink(missing_ok=True)
