"""The hashes the lock records: of a file's text, and of a snapshot's canonical JSON."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def canonical_json(value: Any) -> str:
    """The bytes a schema hash is taken over: no whitespace, ASCII, keys in their order.

    Key order is kept, not sorted: a schema's property order is its parameter order.
    """
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def snapshot_sha256(snapshot: dict[str, Any]) -> str:
    """The lock's `schema_sha256` of a snapshot."""
    return sha256_text(canonical_json(snapshot))
