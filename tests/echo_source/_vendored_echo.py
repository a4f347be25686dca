"""What the echo tools share (tests/echo_source): shipped by the echo kind beside its modules, as a plugin's
run-time file is, and imported by them."""

from __future__ import annotations


def echoed(prefix: str, text: str) -> str:
    """`text` after `prefix`: what an echo tool returns."""
    return prefix + text
