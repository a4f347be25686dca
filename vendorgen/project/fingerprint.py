"""What besides the snapshot and vendorgen's version decides a module's code, as the lock records it.

Each part is a field of its own (`Config.fingerprint` computes them, the lock stores them under
their own keys, `check` compares them one by one), so no part is a string that another module
has to take apart. Locks written before that hold the parts in one string; `from_legacy` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fingerprint:
    templates: str  # the built-in templates version (a hash of their bytes; "1" in the oldest locks)
    custom_templates: str = ""  # hash of the user's template files that concern this kind; "" when none
    settings: str = ""  # hash of the [tool.vendorgen] settings that concern this module; "" when none

    # The lock's keys for the parts that may be empty (written only when set).
    OPTIONAL = ("custom_templates", "settings")

    @classmethod
    def from_legacy(cls, text: str) -> Fingerprint:
        """The one-string form locks held before: `<templates> [custom:<hash>] [config:<hash>]`."""
        templates, *parts = text.split(" ")
        tagged = dict(part.split(":", 1) for part in parts if ":" in part)
        return cls(templates, tagged.get("custom", ""), tagged.get("config", ""))


@dataclass(frozen=True)
class Drift:
    """One reason the lock no longer describes what this vendorgen writes for a module.

    `part`: generator, templates, custom_templates, settings (the fingerprint's fields and the
    lock's generator), snapshot (it changed since the lock was written) or code (the snapshot
    now generates other code with everything else equal: a bug, or a hand-edited lock).
    """

    part: str
    locked: str = ""
    current: str = ""


def fingerprint_drift(locked: Fingerprint, current: Fingerprint) -> list[Drift]:
    """The parts of `locked` that differ from `current`, in the order of the fields."""
    return [
        Drift(part, getattr(locked, part), getattr(current, part))
        for part in ("templates", "custom_templates", "settings")
        if getattr(locked, part) != getattr(current, part)
    ]
