"""The review rules: vendorgen's own (`rules.json`, shipped as data) and a project's, in `[tool.vendorgen.review]`.

```toml
[tool.vendorgen.review]
severity = { url = "medium", env-mention = "off" }   # a rule's severity; "off" drops the rule

[[tool.vendorgen.review.rules]]                       # a rule of the project's own
id = "internal-host"
pattern = 'intranet\\.example\\.com'                  # a case-insensitive regular expression
severity = "high"
message = "names our intranet"

[[tool.vendorgen.review.silence]]                     # a flag the project has reviewed
rule = "url"                                          # a rule id, or a kind ("invisible")
module = "text_tools"                                 # optional, like the two below
tool = "fetch"                                        # the vendored or the remote name
field = "inputs.*"                                    # fnmatch on the field path
reason = "the URL is the API's documentation"         # shown beside the silenced flag
```
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from vendorgen.errors import UsageError
from vendorgen.review import SEVERITIES

RULES_FILE = Path(__file__).with_name("rules.json")
_WHERE = "tool.vendorgen.review"


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    severity: str
    message: str
    pattern: re.Pattern[str] | None = None  # None: a rule the scanner applies in code
    prose_only: bool = False  # only in descriptions and titles, not in enum values or defaults
    requires: tuple[str, ...] = ()  # the pattern runs only where the lower-cased text holds one of these

    def may_match(self, lowered: str) -> bool:
        return not self.requires or any(word in lowered for word in self.requires)


@dataclass(frozen=True)
class Silence:
    rule: str
    reason: str
    module: str = "*"
    tool: str = "*"
    field: str = "*"

    def covers(self, module: str, tool: str, remote_tool: str, field: str, rule: Rule) -> bool:
        return (
            self.rule in (rule.id, rule.kind)
            and fnmatch.fnmatchcase(module, self.module)
            and (fnmatch.fnmatchcase(tool, self.tool) or fnmatch.fnmatchcase(remote_tool, self.tool))
            and fnmatch.fnmatchcase(field, self.field)
        )


@dataclass(frozen=True)
class RuleSet:
    rules: Mapping[str, Rule]
    silences: tuple[Silence, ...] = ()
    digest: str = ""  # what decides the flags, for caching them

    def get(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id)

    @property
    def patterns(self) -> list[Rule]:
        return [rule for rule in self.rules.values() if rule.pattern is not None]

    def silenced(self, module: str, tool: str, remote_tool: str, field: str, rule: Rule) -> str | None:
        for silence in self.silences:
            if silence.covers(module, tool, remote_tool, field, rule):
                return silence.reason
        return None


# Rules that apply only to prose: an enum value or a default that is a URL or a path is what the tool takes.
_PROSE_ONLY_KINDS = ("url", "path", "length")


def _rule(raw: Mapping[str, Any], where: str) -> Rule:
    pattern = raw.get("pattern")
    try:
        compiled = re.compile(pattern, re.IGNORECASE) if pattern is not None else None
    except re.error as exc:
        raise UsageError(f"{where}.pattern is not a regular expression: {exc}") from None
    return Rule(raw["id"], raw.get("kind", "custom"), raw["severity"], raw.get("message", raw["id"]), compiled,
                raw.get("kind") in _PROSE_ONLY_KINDS, tuple(raw.get("requires", ())))  # fmt: skip


@lru_cache(maxsize=1)
def builtin_text() -> str:
    return RULES_FILE.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def builtin() -> RuleSet:
    """vendorgen's own rules, as shipped (what the generated code's review comments name)."""
    data = json.loads(builtin_text())
    rules = {raw["id"]: _rule(raw, f"rules.json {raw['id']}") for raw in data["rules"]}
    return RuleSet(rules, (), hashlib.sha256(builtin_text().encode()).hexdigest()[:16])


def project_rules(settings: Any) -> RuleSet:
    """The built-in rules changed and extended by a project's `[tool.vendorgen.review]` table (a dict, maybe empty)."""
    if not settings:
        return builtin()
    _check(settings, _WHERE, {"severity": dict, "rules": list, "silence": list})
    rules = dict(builtin().rules)
    for index, raw in enumerate(settings.get("rules", [])):
        where = f"{_WHERE}.rules[{index}]"
        _check(raw, where, {"id": str, "kind": str, "severity": str, "pattern": str, "message": str})
        for key in ("id", "pattern", "severity"):
            if key not in raw:
                raise UsageError(f"{where} needs {key}")
        _severity(raw["severity"], f"{where}.severity", allow_off=False)
        rules[raw["id"]] = _rule(raw, where)
    for rule_id, severity in settings.get("severity", {}).items():
        where = f"{_WHERE}.severity.{rule_id}"
        if rule_id not in rules:
            raise UsageError(f"{where}: no rule {rule_id!r} (rules: {', '.join(sorted(rules))})")
        if _severity(severity, where, allow_off=True) == "off":
            del rules[rule_id]
        else:
            rules[rule_id] = Rule(**{**rules[rule_id].__dict__, "severity": severity})
    kinds = {rule.kind for rule in builtin().rules.values()} | {rule.kind for rule in rules.values()}
    silences = []
    for index, raw in enumerate(settings.get("silence", [])):
        where = f"{_WHERE}.silence[{index}]"
        _check(raw, where, {"rule": str, "reason": str, "module": str, "tool": str, "field": str})
        if not raw.get("reason", "").strip():
            raise UsageError(f"{where} needs a reason: it is shown beside the silenced flag")
        if raw.get("rule") not in set(rules) | kinds:
            raise UsageError(f"{where}.rule: {raw.get('rule')!r} is no rule id or kind")
        silences.append(Silence(**raw))
    digest = hashlib.sha256((builtin().digest + json.dumps(settings, sort_keys=True)).encode()).hexdigest()[:16]
    return RuleSet(rules, tuple(silences), digest)


def _severity(value: Any, where: str, allow_off: bool) -> str:
    allowed = (*SEVERITIES, "off") if allow_off else SEVERITIES
    if value not in allowed:
        raise UsageError(f"{where} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _check(value: Any, where: str, expected: dict[str, type]) -> None:
    if not isinstance(value, dict):
        raise UsageError(f"{where} must be a table")
    for key, item in value.items():
        if key not in expected:
            raise UsageError(f"{where}.{key} is not a known key (known: {', '.join(expected)})")
        if not isinstance(item, expected[key]):
            raise UsageError(f"{where}.{key} must be a {expected[key].__name__}")
