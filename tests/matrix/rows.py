"""The compatibility matrix: the runtime dependencies vendored code is proven to run on.

Each row is a venv holding only what generated code imports (smolagents, the source's client
library, pillow) at one end of each supported range; no vendorgen. The ranges the source kinds
declare (`Source.ranges`, gathered by `vendorgen.sources.requirement_ranges`) are what the rows
prove, what the lock records and what `vendorgen requirements` prints; tests/matrix/test_matrix.py
checks that they agree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    name: str
    python: str  # the interpreter's version, found on PATH as python<version>
    requirements: tuple[str, ...]
    why: str


ROWS = (
    Row(
        "low",
        "3.11",
        # mcp 1.10 imports a pydantic private that 2.12's successors dropped: the pydantic of its day.
        ("smolagents==1.20.0", "mcp==1.10.1", "gradio_client==1.8.0", "langchain-core==0.3.0", "pydantic==2.11.7"),
        "the oldest release of each range, with the pydantic of their time",
    ),
    Row(
        "high",
        "3.12",
        ("smolagents==1.26.0", "mcp==2.3.0", "gradio_client==2.7.2", "langchain-core==1.8.3"),
        "the newest release of each range (mcp 2, gradio_client 2, langchain-core 1)",
    ),
    Row(
        "last-of-old-majors",
        "3.12",
        ("smolagents==1.26.0", "mcp==1.30.0", "gradio_client==1.14.0", "langchain-core==0.3.86"),
        "the newest 1.x / 0.3 releases: what a project that never upgraded a major has",
    ),
    Row(
        "first-of-new-majors",
        "3.11",
        ("smolagents==1.20.0", "mcp==2.0.0", "gradio_client==2.0.0", "langchain-core==1.0.0"),
        "the first mcp 2, gradio_client 2 and langchain-core 1 with the oldest smolagents",
    ),
)
