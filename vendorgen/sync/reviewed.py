"""Whether the file on disk shows what a snapshot runs: the rule re-inspection follows before it runs anything.

Re-inspection (`check --remote`, `diff`, `update`) starts the command, imports the module or sends
the token that a module's lock entry and snapshot name (the two are bound: vendorgen.sync.binding).
It does so without --trust only when the file on disk, the code the user reviewed, shows that same
thing, decided from what the snapshot generates now (vendorgen.generate.regeneration), never from a
string the project holds:

- the file is exactly what the snapshot generates; or
- it is an edit of it that leaves alone every assignment carrying what runs: each module-level or
  class-level assignment whose value, in the generated code, holds one of the strings the source's
  `bound_fields` derive (an MCP `SERVER`, a Space's `src`, a LangChain `SOURCE_MODULE`), is in the
  file with the same value, compared as parsed Python. An edit anywhere else (a description, a
  method) is the user's code and keeps updates working; a pull request that points the snapshot
  somewhere else leaves the old assignment in the file, which then differs. When the generated code
  does not carry every bound string in such an assignment, only the exact file is accepted.

A custom template cannot make the generated code say something else: the gate (vendorgen.generate.gate)
refuses generated code whose module constants and class attributes are not the spec's, by value.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# A scope and a name: ("SERVER",) at module level, ("ConvertTool", "src") in a class.
Place = tuple[str, ...]


def keeps_what_runs(generated: str, on_disk: str, bound: dict[str, Any]) -> bool:
    """Whether `on_disk` holds, unchanged, each assignment of `generated` that carries a value of `bound`."""
    strings = {value for value in _strings(list(bound.values())) if value}
    try:
        ours, theirs = _assignments(generated), _assignments(on_disk)
    except (SyntaxError, ValueError):
        return False
    carriers = {place: found for place, found in ours.items() if found.strings & strings}
    if not strings or strings - {text for found in carriers.values() for text in found.strings}:
        return False  # what runs is not (all) in assignments this rule can compare
    return all(place in theirs and theirs[place].values == found.values for place, found in carriers.items())


@dataclass
class _Assigned:
    values: list[str] = field(default_factory=list)  # each value assigned there, as `ast.dump` gives it
    strings: set[str] = field(default_factory=set)  # the string constants in them


def _assignments(code: str) -> dict[Place, _Assigned]:
    """Each module-level and class-level assignment to a name, by place."""
    found: dict[Place, _Assigned] = {}
    for statement, scope in _statements(ast.parse(code).body, ()):
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        for target in targets:
            name = target.id if isinstance(target, ast.Name) else ast.dump(target)
            assigned = found.setdefault((*scope, name), _Assigned())
            assigned.values.append(ast.dump(value))
            assigned.strings |= {
                node.value for node in ast.walk(value) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            }
    return found


def _statements(body: list[ast.stmt], scope: tuple[str, ...]) -> Iterator[tuple[ast.stmt, tuple[str, ...]]]:
    for statement in body:
        yield statement, scope
        if isinstance(statement, ast.ClassDef) and not scope:
            yield from _statements(statement.body, (statement.name,))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
