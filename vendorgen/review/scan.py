"""Flagging model-read text: invisible characters, text addressed to the model, shadowing, length, annotations.

Pattern rules run on the text as a model effectively reads it: NFKC-normalised, invisible characters
dropped and Unicode tag characters read as the ASCII they encode, so `ign<U+200B>ore previous
instructions` and an instruction spelled in tag characters are both found. Excerpts show the text
with every invisible character made visible (`<U+E0041>`).
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from vendorgen.review import Flag
from vendorgen.review.annotations import behaviour
from vendorgen.review.rules import RuleSet
from vendorgen.review.texts import PROSE, Text

EXCERPT_BEFORE, EXCERPT_AFTER = 30, 60
LONG_ABSOLUTE = 4000  # characters: a description longer than this is long whatever the others are
LONG_RELATIVE, LONG_MINIMUM = 5, 1200  # or this many times the module's median, and at least this long

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters that print as nothing (Hangul fillers...)
_BLACK_FLAG = "\U0001f3f4"  # an emoji flag of a region is it followed by tag characters and U+E007F


@dataclass(frozen=True)
class Context:
    """What the rest of the project vendors: for shadowing."""

    other_tools: Mapping[str, str] = field(default_factory=dict)  # a tool name (vendored or remote) -> its module
    other_modules: Mapping[str, str] = field(default_factory=dict)  # a module or server name, lower case -> module


ALONE = Context()  # a module with no others beside it


def scan(
    module: str,
    texts: Iterable[Text],
    annotations: Mapping[str, Mapping[str, object] | None],
    rules: RuleSet,
    context: Context = ALONE,
    remote_names: Mapping[str, str] | None = None,
) -> list[Flag]:
    """Every flag of one module: its texts (`module_texts`) and its tools' annotations (`Source.tool_annotations`)."""
    texts = list(texts)
    remote_names = remote_names or {}
    found: list[Flag] = []

    def flag(text_tool: str, field_path: str, rule_id: str, excerpt: str, note: str = "") -> None:
        rule = rules.get(rule_id)
        if rule is None:  # the project turned it off
            return
        silenced = rules.silenced(module, text_tool, remote_names.get(text_tool, text_tool), field_path, rule)
        message = f"{rule.message} ({note})" if note else rule.message
        found.append(Flag(module, text_tool, field_path, rule.id, rule.kind, rule.severity, message, excerpt, silenced))

    patterns = rules.patterns
    descriptions = [len(text.text) for text in texts if text.field == "description"]
    median = statistics.median(descriptions) if len(descriptions) >= 3 else None
    for text in texts:
        for rule_id, excerpt, note in invisible(text.text):
            flag(text.tool, text.field, rule_id, excerpt, note)
        readable = model_reading(text.text)
        lowered = readable.lower()
        for rule in patterns:
            if rule.prose_only and text.role != PROSE or not rule.may_match(lowered):
                continue
            if match := rule.pattern.search(readable):  # type: ignore[union-attr]
                flag(text.tool, text.field, rule.id, excerpt_of(readable, match.start(), match.end()))
        for rule_id, start, end, note in shadowing(readable, context):
            flag(text.tool, text.field, rule_id, excerpt_of(readable, start, end), note)
        if text.field == "description" and _long(len(text.text), median):
            note = f"{len(text.text):,} characters" + (f"; the module's median is {median:,.0f}" if median else "")
            flag(text.tool, text.field, "long-description", excerpt_of(text.text, 0, 0), note)
    for tool, given in annotations.items():
        for rule_id, note in annotation_flags(given):
            flag(tool, "annotations", rule_id, note)
    return found


def _long(length: int, median: float | None) -> bool:
    return length > LONG_ABSOLUTE or (median is not None and length > max(LONG_MINIMUM, LONG_RELATIVE * median))


def annotation_flags(given: Mapping[str, object] | None) -> list[tuple[str, str]]:
    """(rule id, what the annotations say) for one MCP tool."""
    if given is None:
        return [("no-annotations", "annotations: none")]
    said = behaviour(given)
    shown = ", ".join(f"{name}={value!r}" for name, value in given.items() if name.endswith("Hint")) or "no hints"
    if given.get("readOnlyHint") is True and given.get("destructiveHint") is True:
        return [("annotations-contradict", shown)]
    if not said.read_only and said.destructive:
        return [("destructive", shown if "destructiveHint" in said.declared else f"{shown}; destructiveHint by default")]
    return []


# -- invisible characters --------------------------------------------------------------------------


def visible(text: str) -> str:
    """`text` on one line with every character a reader would not see shown as <U+XXXX>."""
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if char == " ":
        return char
    if char in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[char]
    if _is_hidden(char) or not char.isprintable() or char in _BLANK_LETTERS:
        return f"<U+{ord(char):04X}>"
    return char


def _is_hidden(char: str) -> bool:
    """Printable to Python, yet nothing a reader sees: variation selectors, the grapheme joiner."""
    return _is_variation(ord(char)) or char == "\u034f"


def _is_variation(code: int) -> bool:
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def invisible(text: str) -> list[tuple[str, str, str]]:
    """(rule id, excerpt, note) for each kind of invisible character in `text`, at its first place."""
    if text.isascii() and _plain(text):  # the usual case, checked at C speed
        return []
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    tags: list[str] = []
    for index, char in enumerate(text):
        rule_id = _invisible_rule(text, index)
        if rule_id is None:
            continue
        first.setdefault(rule_id, index)
        counts[rule_id] = counts.get(rule_id, 0) + 1
        if rule_id == "invisible-tag" and 0xE0020 <= ord(char) <= 0xE007E:
            tags.append(chr(ord(char) - 0xE0000))
    found = []
    for rule_id, index in first.items():
        note = f"{counts[rule_id]} character{'s' * (counts[rule_id] != 1)}"
        if rule_id == "invisible-tag" and tags:
            hidden = "".join(tags)
            note += f"; they spell {hidden[:80]!r}" + ("..." if len(hidden) > 80 else "")
        found.append((rule_id, excerpt_of(text, index, index + 1), note))
    return found


def _invisible_rule(text: str, index: int) -> str | None:
    char = text[index]
    if char.isascii() and char.isprintable() or char in "\n\t\r":
        return None
    code = ord(char)
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if 0xE0000 <= code <= 0xE007F:
        return None if _in_flag_sequence(text, index) else "invisible-tag"
    if char in _BIDI:
        return "invisible-bidi"
    if char in _ZERO_WIDTH:
        if char == "\u200d" and _emoji_like(before) and _emoji_like(after):
            return None  # joins an emoji sequence (a family, a profession)
        if char == "\u200c" and _letter_of_script(before) and _letter_of_script(after):
            return None  # a non-joiner between letters (Persian, Indic scripts)
        return "invisible-zero-width"
    if _is_variation(code):
        legitimate = before and not _is_variation(ord(before)) and (not before.isascii() or before in "#*0123456789")
        if code >= 0xE0100:
            legitimate = legitimate and unicodedata.category(before) == "Lo"  # ideographic variation sequences
        return None if legitimate else "invisible-variation"
    category = unicodedata.category(char)
    if category == "Cc":
        return "control-character"
    if category in ("Cf", "Zl", "Zp") or char in _BLANK_LETTERS or code == 0x034F:
        return None if char == "\u00ad" and before.isalpha() and after.isalpha() else "invisible-format"
    return None


def _in_flag_sequence(text: str, index: int) -> bool:
    """A subdivision flag: U+1F3F4, a few tag letters or digits, U+E007F (🏴 of England, Scotland, Wales)."""
    start = index
    while start > 0 and 0xE0000 <= ord(text[start - 1]) <= 0xE007F:
        start -= 1
    end = index
    while end < len(text) and 0xE0000 <= ord(text[end]) <= 0xE007F:
        end += 1
    run = text[start:end]
    return (start > 0 and text[start - 1] == _BLACK_FLAG and 2 <= len(run) <= 7 and run[-1] == "\U000e007f"
            and all(chr(ord(char) - 0xE0000).isalnum() for char in run[:-1]))  # fmt: skip


def _emoji_like(char: str) -> bool:
    return bool(char) and (unicodedata.category(char) == "So" or 0x1F3FB <= ord(char) <= 0x1F3FF
                           or ord(char) in (0xFE0F, 0x2642, 0x2640))  # fmt: skip


def _letter_of_script(char: str) -> bool:
    return bool(char) and not char.isascii() and unicodedata.category(char)[0] in "LM"


# -- what a model reads ----------------------------------------------------------------------------


def _plain(text: str) -> bool:
    return text.replace("\n", "").replace("\t", "").replace("\r", "").isprintable()


def model_reading(text: str) -> str:
    """`text` as a model reads it: tag characters as the ASCII they encode, other invisible characters gone, NFKC."""
    if text.isascii() and _plain(text):
        return text
    kept = []
    for index, char in enumerate(text):
        code = ord(char)
        if 0xE0020 <= code <= 0xE007E:
            kept.append(chr(code - 0xE0000))
        elif char in "\n\t" or _invisible_rule(text, index) is None:
            kept.append(char)
    return unicodedata.normalize("NFKC", "".join(kept))


def excerpt_of(text: str, start: int, end: int) -> str:
    """Up to EXCERPT_BEFORE characters before the span and EXCERPT_AFTER from it, made visible."""
    left = max(0, start - EXCERPT_BEFORE)
    right = min(len(text), max(end, start + EXCERPT_AFTER))
    body = visible(text[left:right])
    return ("..." if left else "") + body + ("..." if right < len(text) else "")


# -- shadowing -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z_][\w.-]*\w")
_SERVER_WORDS = re.compile(r"\W{1,3}(server|mcp|tools?|module|integration|plugin|connector)\b", re.IGNORECASE)
_QUOTES = "`'\""


def shadowing(text: str, context: Context) -> list[tuple[str, int, int, str]]:
    """(rule id, start, end, note) for the first mention of another module's tool, and of another module."""
    if not context.other_tools and not context.other_modules:
        return []
    found = []
    tool_seen = module_seen = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        start, end = match.span()
        quoted = 0 < start and end < len(text) and text[start - 1] in _QUOTES and text[end] == text[start - 1]
        if not tool_seen and token in context.other_tools and (_distinctive(token) or quoted and _called(text, start, end)):
            found.append(("shadowing-tool", start, end, f"{token} is a tool of {context.other_tools[token]}"))
            tool_seen = True
        owner = context.other_modules.get(token.lower())
        if not module_seen and owner is not None and _SERVER_WORDS.match(text, end):
            found.append(("shadowing-server", start, end, f"{token}: the module {owner}"))
            module_seen = True
    return found


_CALLED_BEFORE = re.compile(r"\b(use|call|invoke|run|using|calling|invoking|running)\W{1,3}\Z", re.IGNORECASE)
_TOOL_AFTER = re.compile(r"\W{1,3}(tool|function)\b", re.IGNORECASE)


def _called(text: str, start: int, end: int) -> bool:
    """A quoted plain word counts as a tool's name where the text calls it one, or says to call it."""
    return _CALLED_BEFORE.search(text[max(0, start - 12) : start]) is not None or _TOOL_AFTER.match(text, end) is not None


def _distinctive(name: str) -> bool:
    """A tool name no one writes by chance: snake_case, kebab-case or camelCase, not a plain word."""
    return len(name) >= 5 and ("_" in name.strip("_") or "-" in name or re.search(r"[a-z][A-Z]", name) is not None)
