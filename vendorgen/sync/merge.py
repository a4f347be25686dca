"""Line-based three-way merge and unified diffs: how local edits survive a regeneration.

The merge is the `merge3` library's (Bazaar's diff3, on difflib): match the base
against each side, and settle each stretch between lines both kept: take the side
that changed it, or either when both made the same change, or write a conflict
when they differ. vendorgen only writes the conflict blocks, git's way (with the
base), and counts them.

Pure Python rather than `git merge-file`: no git binary at run time, and the same
bytes on every platform and git version. difflib aligns by longest matching blocks
rather than git's minimal edit script, so an ambiguous stretch can conflict where
git would merge; it never merges silently where both sides changed the same lines.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from merge3 import Merge3

MARKER_SIZE = 7  # as git writes them


class _Matcher(difflib.SequenceMatcher[str]):
    """difflib with its "junk" heuristic off by default: it drops lines frequent in a long file (blank lines, `)`) from matching."""

    def __init__(
        self,
        isjunk: Callable[[str], bool] | None = None,
        a: Sequence[str] = (),
        b: Sequence[str] = (),
        autojunk: bool = False,
    ) -> None:
        super().__init__(isjunk, a, b, autojunk=autojunk)


@dataclass(frozen=True)
class Merged:
    text: str
    conflicts: int  # number of conflict blocks written into `text`


def split_lines(text: str) -> list[str]:
    """Lines with their `\\n`; only `\\n` ends a line, so joining gives `text` back exactly."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def merge3(base: str, ours: str, theirs: str, labels: tuple[str, str, str] = ("ours", "base", "theirs")) -> Merged:
    """`base` changed into `ours` and into `theirs`: both sets of changes, or conflict blocks.

    `labels` name ours, base and theirs after the `<<<<<<<`, `|||||||` and `>>>>>>>` markers.
    """
    # merge3 types the matcher's blocks as list[tuple], difflib returns list[Match] (a NamedTuple): the same at run time.
    merger = Merge3(split_lines(base), split_lines(ours), split_lines(theirs), sequence_matcher=_Matcher)  # type: ignore[arg-type]
    output: list[str] = []
    conflicts = 0
    for group in merger.merge_groups():
        if group[0] == "conflict":
            _, chunk_base, chunk_ours, chunk_theirs = group
            conflicts += 1
            output += _conflict(list(chunk_ours), list(chunk_base), list(chunk_theirs), labels)
        else:
            output += group[1]
    return Merged("".join(output), conflicts)


def _conflict(ours: list[str], base: list[str], theirs: list[str], labels: tuple[str, str, str]) -> list[str]:
    return [
        f"{'<' * MARKER_SIZE} {labels[0]}\n", *_terminated(ours),
        f"{'|' * MARKER_SIZE} {labels[1]}\n", *_terminated(base),
        f"{'=' * MARKER_SIZE}\n", *_terminated(theirs),
        f"{'>' * MARKER_SIZE} {labels[2]}\n",
    ]  # fmt: skip


def _terminated(lines: list[str]) -> list[str]:
    """`lines` ending in a newline, so the marker after them starts a line."""
    if lines and not lines[-1].endswith("\n"):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines


def has_conflict_markers(text: str) -> bool:
    return any(line.startswith(("<" * MARKER_SIZE + " ", ">" * MARKER_SIZE + " ")) for line in text.split("\n"))


def unified_diff(old: str, new: str, old_path: str, new_path: str) -> str:
    """A `git apply`-able unified diff of two texts; "" when they are equal."""
    lines = []
    for line in difflib.unified_diff(split_lines(old), split_lines(new), old_path, new_path):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)
