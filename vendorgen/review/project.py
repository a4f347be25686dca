"""Reviewing what a project vendors: each module's flags, from its committed snapshot, offline.

A module is built from its snapshot by its kind (pure, no network) and passed through the
project's `[tool.vendorgen]` overrides, so what is scanned is what the model reads; the other
modules of the lock are the context shadowing is judged against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vendorgen import sources
from vendorgen.errors import Excluded, VendorgenError
from vendorgen.review import Flag
from vendorgen.review.rules import RuleSet, project_rules
from vendorgen.review.scan import ALONE, Context, scan
from vendorgen.review.texts import module_texts

if TYPE_CHECKING:
    from vendorgen.model import ModuleSpec
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.project.workspace import Workspace


@dataclass(frozen=True)
class ModuleReview:
    name: str
    flags: tuple[Flag, ...] = ()
    error: str | None = None  # why the module could not be reviewed (its snapshot does not build)

    @property
    def active(self) -> list[Flag]:
        return [flag for flag in self.flags if flag.active]

    @property
    def high(self) -> list[Flag]:
        return [flag for flag in self.active if flag.severity == "high"]


def rules_of(workspace: Workspace) -> RuleSet:
    return project_rules(workspace.config.raw.get("review"))


def context(entries: Iterable[LockEntry], excluding: str) -> Context:
    """What the lock's other modules are called and call their tools, for shadowing."""
    tools: dict[str, str] = {}
    modules: dict[str, str] = {}
    for entry in entries:
        if entry.name == excluding:
            continue
        modules[entry.name.lower()] = entry.name
        for name in (*entry.tools, *entry.endpoints):
            if name and not name.startswith("/"):  # a Gradio endpoint's path is no name a text uses
                tools.setdefault(name, entry.name)
    return Context(tools, modules)


def module_flags(
    name: str, module: ModuleSpec, snapshot: Mapping[str, Any], rules: RuleSet, where: Context = ALONE
) -> list[Flag]:
    """The flags of one built module (`module`, as `Config.apply` left it) and the snapshot it came from."""
    source = sources.load(module.kind)
    remote = {tool.name: tool.endpoint for tool in module.tools}
    texts = module_texts(module, snapshot, source)
    return scan(name, texts, source.tool_annotations(module, dict(snapshot)), rules, where, remote)


def built(workspace: Workspace, snapshot: dict[str, Any]) -> ModuleSpec:
    return workspace.config.apply(sources.load(snapshot["kind"]).build(snapshot))


def review_snapshot(
    workspace: Workspace, name: str, snapshot: dict[str, Any], entries: Sequence[LockEntry], rules: RuleSet | None = None
) -> ModuleReview:
    try:
        module = built(workspace, snapshot)
    except Excluded:
        return ModuleReview(name)  # nothing of it is vendored
    except (VendorgenError, KeyError, TypeError, ValueError) as exc:
        return ModuleReview(name, error=f"cannot review it: {exc}")
    flags = module_flags(name, module, snapshot, rules or rules_of(workspace), context(entries, name))
    return ModuleReview(name, tuple(flags))


def review_entries(workspace: Workspace, chosen: Sequence[LockEntry], entries: Sequence[LockEntry]) -> list[ModuleReview]:
    """Every chosen module's review, in lock order; `entries` (the whole lock) is the shadowing context."""
    rules = rules_of(workspace)
    reviews = []
    for entry in chosen:
        try:
            snapshot = workspace.read_snapshot(entry)
        except VendorgenError as exc:
            reviews.append(ModuleReview(entry.name, error=str(exc)))
            continue
        reviews.append(review_snapshot(workspace, entry.name, snapshot, entries, rules))
    return reviews


def review_generated(workspace: Workspace, name: str, module: ModuleSpec, snapshot: Mapping[str, Any]) -> list[Flag]:
    """The flags of a module `add` or `update` brings in, against the rest of the lock."""
    entries = workspace.read_lock()
    return module_flags(name, module, snapshot, rules_of(workspace), context(entries, name))


def counts(reviews: Iterable[ModuleReview]) -> dict[str, int]:
    """Active flags by severity, and the silenced ones (what `check` reports)."""
    flags = [flag for review in reviews for flag in review.flags]
    found = {level: sum(flag.active and flag.severity == level for flag in flags) for level in ("high", "medium", "low")}
    return {**found, "silenced": sum(not flag.active for flag in flags)}
