"""Run-time requirements: ranges, their union, and the check against an interpreter's versions."""

from __future__ import annotations

from vendorgen import sources
from vendorgen.project import requirements as runtime

RANGES = sources.requirement_ranges()  # the built-in kinds' (`Source.ranges`)


def test_bare_names_get_the_proven_range_and_others_stay_as_written() -> None:
    assert runtime.ranged(["smolagents", "gradio-client", "requests>=2"], RANGES) == (
        "smolagents>=1.20,<2",
        "gradio_client>=1.8,<3",
        "requests>=2",
    )


def test_the_union_has_one_line_per_distribution_with_intersected_specifiers() -> None:
    lines = runtime.union([("smolagents", "mcp"), ("smolagents", "langchain-core"), ("mcp<2", "git+https://x/y.git")], RANGES)
    assert lines == ["langchain-core<2,>=0.3", "mcp<2,<3,>=1.10", "smolagents<2,>=1.20", "git+https://x/y.git"]


def test_status_tells_installed_missing_and_outside_the_range() -> None:
    needed = runtime.union([("smolagents", "mcp", "gradio_client")], RANGES)
    found = runtime.status(needed, {"smolagents": "1.26.0", "mcp": "3.0.0", "gradio_client": None})
    assert [(item.requirement.split("<")[0], item.ok) for item in found] == [
        ("gradio_client", False), ("mcp", False), ("smolagents", True)]  # fmt: skip
    assert [item.line().split(": ")[1] for item in found] == ["not installed", "3.0.0 (outside the range)", "1.26.0"]
