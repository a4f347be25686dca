"""npm's versions: Semantic Versioning 2.0.0, ordered as npm (node-semver) orders them.

npm's registry holds nothing else, so a version that is not semver (`1!0.0`, which PEP 440 reads as
epoch 1, later than every version) is not one to pin or move to: `parse` refuses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = r"0|[1-9]\d*"
_IDENTIFIER = rf"(?:{_NUMBER}|\d*[A-Za-z-][0-9A-Za-z-]*)"
_SEMVER = re.compile(
    rf"(?P<major>{_NUMBER})\.(?P<minor>{_NUMBER})\.(?P<patch>{_NUMBER})"
    rf"(?:-(?P<pre>{_IDENTIFIER}(?:\.{_IDENTIFIER})*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\Z"
)


@dataclass(frozen=True)
class SemVer:
    major: int
    minor: int
    patch: int
    prerelease: tuple[int | str, ...]

    @property
    def is_prerelease(self) -> bool:
        return bool(self.prerelease)

    def key(self) -> tuple[object, ...]:
        """Precedence (semver 11): numbers, then a release above its prereleases; prerelease identifiers in
        turn, numeric ones numerically and below alphanumeric ones, a longer list above its prefix."""
        identifiers = tuple((0, part, "") if isinstance(part, int) else (1, 0, part) for part in self.prerelease)
        return (self.major, self.minor, self.patch, not self.prerelease, identifiers)


def parse(text: str) -> SemVer:
    """`text` as a semver version; ValueError for anything else (a range, a tag, PEP 440's forms)."""
    found = _SEMVER.match(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{text!r} is not a semver version")
    pre = found["pre"].split(".") if found["pre"] else []
    return SemVer(int(found["major"]), int(found["minor"]), int(found["patch"]),
                  tuple(int(part) if part.isdigit() else part for part in pre))  # fmt: skip


def is_semver(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True
