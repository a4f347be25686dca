"""The review flags every poisoned definition of tests/data/poisoned/ with what its label says, offline."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from vendorgen import sources
from vendorgen.review.project import module_flags
from vendorgen.review.rules import builtin
from vendorgen.review.scan import Context

CORPUS = Path(__file__).parent / "data" / "poisoned"
CASES = [(path.stem, case) for path in sorted(CORPUS.glob("*.json")) for case in json.loads(path.read_text())["cases"]]


def snapshot(case: dict) -> dict:
    found = {"kind": "mcp", "source": "mcp:http://127.0.0.1:9/mcp", "name": "poisoned", "revision": "", "prefix": "",
             "server": {"transport": "streamable-http", "url": "http://127.0.0.1:9/mcp"},
             "server_info": {"name": "poisoned", "version": "1"}, "tools": [case["tool"]]}  # fmt: skip
    found.update({key: case[key] for key in ("instructions", "prompts") if key in case})
    return found


def flags_of(case: dict) -> list:
    others = case.get("others", {})
    where = Context(others.get("tools", {}), {name.lower(): name for name in others.get("modules", [])})
    found = snapshot(case)
    return module_flags("poisoned", sources.load("mcp").build(found), found, builtin(), where)


def test_the_corpus_is_big_enough_and_labelled():
    assert len(CASES) >= 40
    assert all(case["expect"] for _, case in CASES)
    assert len({case["id"] for _, case in CASES}) == len(CASES)


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test (and is counted, in case something swallows the error)."""
    attempts = []

    def refuse(self, *args, **kwargs):
        attempts.append(args)
        raise AssertionError(f"the review opened a connection: {args}")

    for name in ("connect", "connect_ex", "sendto"):
        monkeypatch.setattr(socket.socket, name, refuse)
    monkeypatch.setattr(socket, "create_connection", lambda *args, **kwargs: refuse(None, *args))
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: refuse(None, *args))
    yield attempts
    assert attempts == []


def test_every_poisoned_definition_is_flagged_as_labelled(no_network):
    missed = []
    for group, case in CASES:
        found = {(flag.rule, flag.field) for flag in flags_of(case)}
        for expected in case["expect"]:
            if (expected["rule"], expected["field"]) not in found:
                missed.append(f"{group}/{case['id']}: {expected['rule']} at {expected['field']} (found {sorted(found)})")
    assert missed == [], "\n".join(missed)
    assert no_network == []


def test_excerpts_show_invisible_characters():
    case = next(case for _, case in CASES if case["id"] == "tag-smuggling")
    tag = next(flag for flag in flags_of(case) if flag.rule == "invisible-tag")
    assert "<U+E0020>" in tag.excerpt and "\U000e0020" not in tag.excerpt
    assert "they spell ' Ignore previous instructions" in tag.message
