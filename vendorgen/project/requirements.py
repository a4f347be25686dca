"""What vendored code needs installed at run time, as version ranges.

The ranges are the ones the compatibility matrix (tests/matrix/) runs generated code on: its
rows sit at the low and the high end of each. Each source kind declares those of what its code
imports (`Source.ranges`); the registry gathers them (`vendorgen.sources.requirement_ranges`) and
passes them here. The lock records them per module;
`vendorgen requirements` prints their union for the project; `vendorgen add` checks them
against the project's interpreter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

PYTHON = ">=3.11"  # the matrix runs 3.11 and 3.12


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def ranged(requirements: Iterable[str], ranges: Mapping[str, str]) -> tuple[str, ...]:
    """Each bare distribution name that has a proven range in `ranges` (name -> specifiers) gets it; anything
    else is kept as written."""
    by_canonical = {canonical(name): name for name in ranges}
    return tuple(
        f"{by_canonical[canonical(item)]}{ranges[by_canonical[canonical(item)]]}" if canonical(item) in by_canonical
        else item
        for item in requirements
    )  # fmt: skip


def union(requirement_lists: Iterable[Iterable[str]], ranges: Mapping[str, str]) -> list[str]:
    """One line per distribution, sorted; the specifiers of the same name are intersected.

    A line that is no plain requirement (a URL a Hub tool's requirements.txt may hold) is kept as it is.
    """
    from packaging.requirements import InvalidRequirement, Requirement

    merged: dict[str, Requirement] = {}
    other: list[str] = []
    for item in (item for items in requirement_lists for item in ranged(items, ranges)):
        try:
            requirement = Requirement(item)
        except InvalidRequirement:
            other += [item] if item not in other else []
            continue
        key = canonical(requirement.name)
        if key in merged:
            merged[key].specifier &= requirement.specifier
            merged[key].extras |= requirement.extras
        else:
            merged[key] = requirement
    return [str(merged[key]) for key in sorted(merged)] + other


@dataclass(frozen=True)
class Status:
    requirement: str
    installed: str | None  # the version installed for the project's interpreter

    @property
    def ok(self) -> bool:
        from packaging.requirements import Requirement

        return self.installed is not None and Requirement(self.requirement).specifier.contains(
            self.installed, prereleases=True
        )

    def line(self) -> str:
        if self.installed is None:
            return f"  {self.requirement}: not installed"
        return f"  {self.requirement}: {self.installed}" + ("" if self.ok else " (outside the range)")


def plain(requirements: list[str]) -> dict[str, str]:
    """distribution name -> requirement, for the plain requirements among `requirements`."""
    from packaging.requirements import InvalidRequirement, Requirement

    found = {}
    for item in requirements:
        try:
            found[Requirement(item).name] = item
        except InvalidRequirement:
            continue
    return found


def status(requirements: list[str], installed: dict[str, str | None]) -> list[Status]:
    """Each plain requirement with the version installed for it (`installed`: name -> version or None)."""
    return [Status(item, installed.get(name)) for name, item in plain(requirements).items()]
