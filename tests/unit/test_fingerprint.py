"""The lock's fingerprint is fields: read from old one-string locks, written as keys, compared part by part."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import REPO
from vendorgen import templates_version
from vendorgen.cli.report import drift_reason
from vendorgen.errors import VendorgenError
from vendorgen.project.config import GENERATOR
from vendorgen.project.fingerprint import Drift, Fingerprint, fingerprint_drift
from vendorgen.project.hashing import canonical_json, sha256_text
from vendorgen.project.lockfile import LockEntry, dump_lock, parse_lock_text
from vendorgen.project.workspace import Workspace
from vendorgen.sync.local import lock_drift

SNAPSHOT = {
    "kind": "space",
    "source": "space:http://127.0.0.1:7860/",
    "src": "http://127.0.0.1:7860/",
    "name": "convert",
}


def entry(**table: object) -> LockEntry:
    fields = {"name": "convert", "kind": "space", "source": "space:http://127.0.0.1:7860/",
              "endpoints": ["/convert"], "tools": ["convert"], "revision": "",
              "schema": ".vendorgen/schemas/convert.json", "schema_sha256": sha256_text(canonical_json(SNAPSHOT)),
              "path": "tools/convert.py", "sha256": "0" * 64, "generator": GENERATOR,
              "templates": templates_version()}  # fmt: skip
    return LockEntry.from_toml({**fields, **table})


@pytest.mark.parametrize(
    "text, parts",
    [
        ("1", ("1", "", "")),
        ("96e6a42cb89e custom:0123456789ab", ("96e6a42cb89e", "0123456789ab", "")),
        ("96e6a42cb89e config:ba9876543210", ("96e6a42cb89e", "", "ba9876543210")),
        ("96e6a42cb89e custom:0123456789ab config:ba9876543210", ("96e6a42cb89e", "0123456789ab", "ba9876543210")),
    ],
)
def test_an_old_lock_string_is_read_into_fields(text: str, parts: tuple[str, str, str]) -> None:
    assert entry(templates=text).templates == Fingerprint(*parts)


def test_the_lock_writes_each_part_as_a_key_and_reads_it_back() -> None:
    old = entry(templates="96e6a42cb89e custom:0123456789ab config:ba9876543210")
    text = dump_lock([old])
    table = tomllib.loads(text)["module"][0]
    assert (table["templates"], table["custom_templates"], table["settings"]) == (
        "96e6a42cb89e", "0123456789ab", "ba9876543210",
    )  # fmt: skip
    assert parse_lock_text(text)[0] == [old]  # migrated on the next write, nothing lost
    plain = tomllib.loads(dump_lock([entry()]))["module"][0]
    assert plain["templates"] == templates_version() and not {"custom_templates", "settings"} & set(plain)


def test_both_forms_at_once_are_refused() -> None:
    with pytest.raises(VendorgenError, match="templates of entry 'convert' must be one version"):
        entry(templates="1 config:ba9876543210", settings="ba9876543210")
    with pytest.raises(VendorgenError, match="settings of entry 'convert' must be a string"):
        entry(settings=1)


def test_the_oldest_committed_layout_reads() -> None:
    text = (REPO / "tests" / "data" / "layout_0_1" / "vendorgen.lock").read_text()
    entries, _ = parse_lock_text(text)
    assert entries and {item.templates for item in entries} == {Fingerprint("1")}


def test_drift_is_computed_field_by_field() -> None:
    locked = Fingerprint("1", "0123456789ab", "")
    assert fingerprint_drift(locked, locked) == []
    assert fingerprint_drift(locked, Fingerprint("2", "0123456789ab", "ba9876543210")) == [
        Drift("templates", "1", "2"),
        Drift("settings", "", "ba9876543210"),
    ]
    assert fingerprint_drift(locked, Fingerprint("1")) == [Drift("custom_templates", "0123456789ab", "")]


@pytest.mark.parametrize(
    "drift, reason",
    [
        (
            Drift("generator", "vendorgen 0.0.9", "vendorgen 0.1.0"),
            "written by vendorgen 0.0.9, this is vendorgen 0.1.0",
        ),
        (Drift("templates", "1", "2"), "built-in templates changed (version 1 -> 2)"),
        (Drift("custom_templates", "", "ab"), "custom templates now override the built-in ones"),
        (Drift("custom_templates", "ab", ""), "custom templates no longer apply"),
        (Drift("custom_templates", "ab", "cd"), "custom templates changed"),
        (Drift("settings", "", "ab"), "[tool.vendorgen] settings for it changed"),
        (Drift("snapshot", "ab", "cd"), ".vendorgen/schemas/convert.json changed since vendorgen.lock was written"),
        (Drift("code"), "vendorgen.lock records the hash of code its snapshot does not generate (a hand-edited lock?)"),
        (
            Drift("binding", "the lock's source", "is 'a', not 'b'"),
            "the lock's source is 'a', not 'b', so it runs something other than what was reviewed",
        ),
    ],
)
def test_each_drift_reads_as_what_moved(drift: Drift, reason: str) -> None:
    assert drift_reason(entry(), drift) == reason


def test_lock_drift_names_each_part_that_moved(tmp_path: Path) -> None:
    workspace = Workspace(tmp_path)  # no pyproject.toml: no custom templates, no settings
    assert lock_drift(workspace, entry(), SNAPSHOT) == []
    old = replace(entry(templates="1 config:ba9876543210"), generator="vendorgen 0.0.9")
    assert [drift.part for drift in lock_drift(workspace, old, {**SNAPSHOT, "name": "other"})] == [
        "generator", "templates", "settings", "snapshot",
    ]  # fmt: skip
    elsewhere = {**SNAPSHOT, "src": "http://127.0.0.1:9/"}  # what the generated code calls is not its source
    assert lock_drift(workspace, entry(schema_sha256=sha256_text(canonical_json(elsewhere))), elsewhere) == [
        Drift("binding", "the snapshot's src", "is 'http://127.0.0.1:9/', not 'http://127.0.0.1:7860/'")
    ]
