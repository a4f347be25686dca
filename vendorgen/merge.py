"""Line-based three-way merge and unified diffs: how local edits survive a regeneration.

The merge is diff3's (Khanna, Kunal and Pierce, "A Formal Investigation of
Diff3", 2007): match the base against each side, walk the base lines that both
sides kept ("stable" lines), and settle each stretch between two of them: take
the side that changed it, or either when both made the same change, or write a
conflict when they differ.

Pure Python on difflib rather than `git merge-file`: no git binary at run time,
and the same bytes on every platform and git version. difflib aligns by longest
matching blocks rather than git's minimal edit script, so an ambiguous stretch
can conflict where git would merge; it never merges silently where both sides
changed the same lines.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

MARKER_SIZE = 7  # as git writes them


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
    base_lines, our_lines, their_lines = split_lines(base), split_lines(ours), split_lines(theirs)
    output: list[str] = []
    conflicts = 0
    b = o = t = 0
    # Each stable line closes the stretch before it; the ends of the three texts close the last one.
    ends = (*_stable_lines(base_lines, our_lines, their_lines), (len(base_lines), len(our_lines), len(their_lines)))
    for next_b, next_o, next_t in ends:
        chunk_base, chunk_ours, chunk_theirs = base_lines[b:next_b], our_lines[o:next_o], their_lines[t:next_t]
        if chunk_ours == chunk_base or chunk_ours == chunk_theirs:
            output += chunk_theirs
        elif chunk_theirs == chunk_base:
            output += chunk_ours
        else:
            conflicts += 1
            output += _conflict(chunk_ours, chunk_base, chunk_theirs, labels)
        if next_b < len(base_lines):
            output.append(base_lines[next_b])
        b, o, t = next_b + 1, next_o + 1, next_t + 1
    return Merged("".join(output), conflicts)


def _stable_lines(base: list[str], ours: list[str], theirs: list[str]) -> Iterator[tuple[int, int, int]]:
    """(base, ours, theirs) indexes of the base lines both sides kept, in order."""
    in_ours = _matched(base, ours)
    in_theirs = _matched(base, theirs)
    for index in sorted(in_ours.keys() & in_theirs.keys()):
        yield index, in_ours[index], in_theirs[index]


def _matched(base: list[str], other: list[str]) -> dict[int, int]:
    """base index -> other index for every line difflib matches (monotonic in both)."""
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return {
        block.a + offset: block.b + offset for block in matcher.get_matching_blocks() for offset in range(block.size)
    }


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
