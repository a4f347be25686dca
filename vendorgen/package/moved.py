"""Local edits of a run-time file whose code moved to other files: each edit follows its code.

vendorgen wrote one `_vendored_runtime.py` for every source kind before it split it into a core of
that name and one file per kind. An edit of the old file is carried, by top-level statement (a
class, a function, an import, with the comments above it), into the file that defines that
statement now, and merged there three ways like any edit. An edit with no place (a statement no file defines any more, text
after the last statement) stops `update` with one error naming it: nothing is dropped silently.
"""

from __future__ import annotations

import ast

from vendorgen.errors import VendorgenError
from vendorgen.package import files
from vendorgen.package.builtin_files import defined_names

Chunks = dict[str, str]  # key (the names a statement defines, else its text) -> its lines, comments above included


def chunks(text: str) -> Chunks:
    """The top-level statements of `text`, each with the lines above it back to the previous statement."""
    lines = text.splitlines(keepends=True)
    found: Chunks = {}
    start = 0
    for node in ast.parse(text).body:
        end = node.end_lineno or node.lineno
        piece = "".join(lines[start:end])
        found.setdefault(",".join(defined_names(node)) or piece, piece)
        start = end
    found[""] = "".join(lines[start:])  # what follows the last statement
    return found


def moved_away(base: str, name: str) -> bool:
    """`base`, the run-time file `name` as an older vendorgen wrote it, defines what this one ships in another file."""
    here = set(chunks(files.text(name)))
    return any(set(chunks(files.text(other))) & (set(chunks(base)) - here - {""}) for other in files.runtime_files())


def carry(path: str, base: str, ours: str, targets: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Where the edits of `ours` (the file at `path`, written as `base`) land: for each file of `targets`
    (path -> its text now) that receives any, (its base, its text with the edits), to merge with its text now.

    Refused, naming them, when edits have no place in `targets`.
    """
    was, now = chunks(base), chunks(ours)
    edited = {key for key in was.keys() | now.keys() if was.get(key) != now.get(key)}
    landing: dict[str, tuple[str, str]] = {}
    placed: set[str] = set()
    for target, text in targets.items():
        shipped = chunks(text)
        receives = edited & (set(shipped) - {""})
        if not receives:
            continue
        placed |= receives
        landing[target] = (
            "".join(was.get(key, piece) for key, piece in shipped.items()),
            "".join(now.get(key, "") if key in was or key in now else piece for key, piece in shipped.items()),
        )
    if lost := sorted(_describe(key) for key in edited - placed):
        raise VendorgenError(
            f"{path} has local edits that have no place in the run-time files vendorgen writes now ({'; '.join(lost)}):"
            " save them, delete the file, then update again"
        )
    return landing


def _describe(key: str) -> str:
    if not key:
        return "text after the last statement"
    if "\n" in key or " " in key:
        return f"the statement {key.strip().splitlines()[0][:60]!r}"
    return key
