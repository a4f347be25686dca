"""generated_example/ is the committed output for the bundled examples; any drift fails here.

Rewrite it with `make regen-example`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, Project
from vendorgen import pipeline
from vendorgen.workspace import Workspace

EXAMPLE = REPO / "generated_example"
WORKSPACE = Workspace(EXAMPLE)
ENTRIES = WORKSPACE.read_lock()


def test_the_example_has_modules() -> None:
    assert ENTRIES, "generated_example/vendorgen.lock lists nothing: run `make regen-example`"


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_regenerating_from_the_snapshot_gives_the_same_bytes(entry) -> None:
    generated = pipeline.generate(WORKSPACE.read_snapshot(entry), WORKSPACE)
    on_disk = (EXAMPLE / entry.path).read_text(encoding="utf-8")
    assert generated.code == on_disk, f"{entry.path} drifted: run `make regen-example` and review the diff"
    assert generated.schema_sha256 == entry.schema_sha256
    assert pipeline.lock_entry(generated, entry.path, entry.schema) == entry


def test_snapshots_match_the_bundled_app(gradio_app: str) -> None:
    """The committed schemas are what examples/gradio_app.py serves today."""
    from gradio_client import Client

    live = Client(gradio_app, verbose=False, analytics_enabled=False).view_api(return_format="dict", print_info=False)
    spaces = [entry for entry in ENTRIES if entry.kind == "space"]
    assert sorted(entry.endpoints[0] for entry in spaces) == sorted(live["named_endpoints"])
    for entry in spaces:
        snapshot = WORKSPACE.read_snapshot(entry)
        assert snapshot["endpoint"] == live["named_endpoints"][snapshot["api_name"]], entry.name


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_example_modules_import_and_instantiate(entry) -> None:
    module = Project(EXAMPLE).import_module(entry.path)
    for tool_name in entry.tools:
        classes = [value for value in vars(module).values() if getattr(value, "name", None) == tool_name]
        assert len(classes) == 1
        classes[0]()


def test_snapshots_are_canonical_json() -> None:
    for entry in ENTRIES:
        text = (EXAMPLE / entry.schema).read_text(encoding="utf-8")
        assert text == pipeline.snapshot_text(json.loads(text))
        assert Path(entry.schema).parts[0] == ".vendorgen"
