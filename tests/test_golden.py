"""Each golden record (golden/<variant>/) is what this vendorgen regenerates under the variant's config."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import record, regenerate, variants


@pytest.mark.parametrize("variant", variants(), ids=lambda path: path.name)
def test_the_golden_record_is_what_is_generated(variant: Path, tmp_path: Path) -> None:
    regenerate(variant, tmp_path)
    expected, generated = record(variant), record(tmp_path)
    assert sorted(generated) == sorted(expected), "run `make regen-example`"
    differing = [path for path in expected if generated[path] != expected[path]]
    assert differing == [], f"{differing} differ from golden/{variant.name}/: run `make regen-example`"


def test_every_variant_changes_what_is_generated() -> None:
    """A variant whose config changed nothing would prove nothing about the config."""
    example = record(Path(__file__).resolve().parent.parent / "generated_example")
    for variant in variants():
        modules = {path: text for path, text in record(variant).items() if path.startswith("tools/")}
        assert any(example.get(path) != text for path, text in modules.items()), variant.name
