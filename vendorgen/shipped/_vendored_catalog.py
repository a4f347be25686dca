"""The vendored tools of this package as a catalog, for agents with many tools.

`catalog_tools()` gives an agent every tool of this package, callable under its own name, but
shown in the system prompt as one line each (name, arguments, first sentence of the
description; beyond LISTED_AT_MOST tools, or with `listed=False`, not at all), plus `find_tools(query)`: the full documentation of the tools that best match
the query, best first (two BM25 rankings fused, over the stems and over the character n-grams of
the words below, which vendorgen counted in each tool's name, description and arguments when it wrote
this file).

`catalog_tools(call_tool=True)` is for tool-calling agents, whose model API is sent the schema
of every tool it is given: only `find_tools` and `call_tool(name, arguments)`, which checks the
arguments against the named tool's inputs and calls it. The prompt then holds two schemas
whatever the number of tools; the price is one `find_tools` step before the first call of a
tool, and arguments the model API no longer checks against a schema (`call_tool` does).

Offline and deterministic. Building the list constructs the tool classes, which start no
process and send no request (they connect on their first call). Needs smolagents and what the
tools need; not vendorgen.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from functools import cache, cached_property
from typing import Any

# A word: a run of letters of any script or of digits, lower-cased; ASCII runs split at camelCase; runs of
# a script written without spaces (Chinese, Japanese, Korean) cut into overlapping pairs of characters, as
# search engines index them. The catalog writes words as JSON, non-ASCII escaped.
_WORD = re.compile(r"[^\W\d_]+|\d+")
_CAMEL_CASE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
_STOP_WORDS = frozenset(
    "a an and any are as at be by can do for from has have how i in is it its me my of on or that the this to"
    " what when which with you your".split()
)
_MAX_WORD = 32
NAME_WEIGHT = 3  # a word of the tool's name counts as much as three in its description
SUMMARY_CHARS = 100  # of the first sentence shown in the prompt
# Up to this many tools, the prompt lists each in one line; beyond, none (only find_tools finds them):
# at 900 tools the lines alone would be a third of the full prompt.
LISTED_AT_MOST = 100
K1, B = 1.2, 0.75  # BM25's usual term saturation and length normalisation
GRAM = 4  # characters: a word's forms and misspellings share most of theirs (music, musical; theater, theatre)
FUSION_K = 60  # reciprocal rank fusion's usual constant: a tool's share from one ranking is 1 / (FUSION_K + rank)
# The names an agent gives its own tools: smolagents' final answer and default tools, and find_tools and
# call_tool below. A tool under one of them would take the agent's own (its final answer sent to that tool's
# source) or stop it from starting (two tools of one name): refused. vendorgen renames such a tool when it
# vendors it (`final_answer_`).
AGENT_TOOL_NAMES = frozenset(
    {
        "final_answer", "python_interpreter", "user_input", "web_search", "visit_webpage", "wikipedia_search",
        "transcriber", "find_tools", "call_tool",
    }
)  # fmt: skip
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_SHOWN_KEYS = frozenset({"type", "description", "nullable", "default", "enum"})


def words(text: str) -> list[str]:
    """The words of `text` that search counts, in order: the same function indexes the tools and reads a query."""
    found = []
    for run in _WORD.findall(text):
        if run.isascii():
            found += [word.lower() for word in _CAMEL_CASE.findall(run) or [run]]
        elif _UNSPACED.fullmatch(run) and len(run) > 1:
            found += [run[start : start + 2] for start in range(len(run) - 1)]
        else:
            found.append(run.lower())
    return [word[:_MAX_WORD] for word in found if word not in _STOP_WORDS]


def stem(word: str) -> str:
    """An English word's inflections as one term: steps 1 and 5a of Porter's stemmer (M. F. Porter, 1980).

    Plurals, -ed, -ing (undoubling: booked, booking -> book; stopped -> stop), a final y or e (movies,
    movie -> movi; cities, city -> citi). A light stemmer: Porter's steps 2 to 4 also strip derivations
    (-al, -ate, -ion...), which joins words of other meanings (general, generate -> gener); the character
    n-grams match those forms instead.
    """
    if len(word) <= 2 or not word.isascii() or word.isdigit():
        return word
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        word = word[:-1] if _measure(word[:-3]) else word
    elif suffix := next((end for end in ("ed", "ing") if word.endswith(end) and "v" in _shape(word[: -len(end)])), ""):
        word = word[: -len(suffix)]
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif word[-2:] == word[-1] * 2 and _shape(word)[-1] == "c" and word[-1] not in "lsz":
            word = word[:-1]
        elif _measure(word) == 1 and _short(word):
            word += "e"  # hoping -> hope, filing -> file
    if word.endswith("y") and "v" in _shape(word[:-1]):
        word = word[:-1] + "i"
    if word.endswith("e") and (_measure(word[:-1]) > 1 or _measure(word[:-1]) == 1 and not _short(word[:-1])):
        word = word[:-1]  # Porter's step 5a, so that -e words meet their other forms: movie, movies; change, changing
    return word


def _shape(word: str) -> str:
    """`v` for each vowel of the word, `c` for each consonant; y is a vowel after a consonant (Porter's rule)."""
    shape = ""
    for letter in word:
        shape += "v" if letter in "aeiou" or (letter == "y" and shape.endswith("c")) else "c"
    return shape


def _short(word: str) -> bool:
    """Porter's *o: the word ends consonant, vowel, consonant, the last not w, x or y (hop, fil)."""
    return _shape(word).endswith("cvc") and word[-1] not in "wxy"


def _measure(word: str) -> int:
    """Porter's m: how many vowel-consonant sequences the word has (tree 0, trouble 1, troubles 2)."""
    return len(re.findall("v+c+", _shape(word)))


def grams(word: str) -> set[str]:
    """The word's runs of GRAM characters, its ends marked by spaces (a shorter word is one run)."""
    padded = f" {word} "
    return {padded[start : start + GRAM] for start in range(max(len(padded) - GRAM, 0) + 1)}


def index_entry(name: str, description: str, inputs: dict[str, Any]) -> str:
    """One tool's line of INDEX: `word:count` pairs, sorted (vendorgen writes them; they are inert text)."""
    counts = Counter({word: NAME_WEIGHT * count for word, count in Counter(words(name)).items()})
    counts.update(words(description))
    for argument, spec in inputs.items():
        counts.update(words(argument))
        counts.update(word for text in _schema_text(spec) for word in words(text))
    return " ".join(f"{word}:{count}" for word, count in sorted(counts.items()))


def _schema_text(spec: Any) -> list[str]:
    """The words of an argument's schema: descriptions, property names, allowed values (not the type keywords)."""
    if isinstance(spec, dict):
        found = []
        for key, value in spec.items():
            if key == "properties" and isinstance(value, dict):
                found += [str(name) for name in value] + _schema_text(list(value.values()))
            elif key in ("description", "enum", "items", "anyOf", "oneOf", "$defs", "examples"):
                found += _schema_text(value)
        return found
    if isinstance(spec, list):
        return [text for item in spec for text in _schema_text(item)]
    return [spec] if isinstance(spec, str) else []


class _Index:
    """The tools' INDEX lines ranked two ways, fused: BM25 over the words' stems, and BM25 over their character
    n-grams, which also meets a word's derived forms, compounds and misspellings (reciprocal rank fusion)."""

    def __init__(self, index: dict[str, str]) -> None:
        self.index = index

    @cached_property
    def rankings(self) -> tuple[_BM25, _BM25]:
        """Made on the first search (0.4 s for 900 tools), so that building the agent's tools stays quick."""
        stems: dict[str, Counter[str]] = {}
        runs: dict[str, Counter[str]] = {}
        split: dict[str, tuple[str, set[str]]] = {}  # each distinct word's stem and n-grams, worked out once
        for name, line in self.index.items():
            stems[name], runs[name] = Counter(), Counter()
            for pair in line.split():
                word, count = pair.rsplit(":", 1)
                if word not in split:
                    split[word] = stem(word), set() if word.isdigit() else grams(word)
                stems[name][split[word][0]] += int(count)
                for run in split[word][1]:
                    runs[name][run] += int(count)
        return _BM25(stems), _BM25(runs)

    def search(self, query: str, limit: int) -> list[str]:
        """The names of the `limit` best-matching tools, best first; ties by name."""
        asked = words(query)
        wanted = ({stem(word) for word in asked}, {run for word in asked if not word.isdigit() for run in grams(word)})
        fused: dict[str, float] = {}
        for bm25, terms in zip(self.rankings, wanted):
            for rank, name in enumerate(bm25.ranking(terms), start=1):
                fused[name] = fused.get(name, 0.0) + 1 / (FUSION_K + rank)
        return sorted(fused, key=lambda name: (-fused[name], name))[:limit]


class _BM25:
    """BM25 over documents of counted terms (stems, or character n-grams), with an inverted index."""

    def __init__(self, documents: dict[str, Counter[str]]) -> None:
        lengths = {name: sum(counts.values()) for name, counts in documents.items()}
        average = sum(lengths.values()) / max(len(lengths), 1) or 1.0
        self.postings: dict[str, dict[str, float]] = {}
        for name, counts in documents.items():
            norm = K1 * (1 - B + B * lengths[name] / average)
            for term, count in counts.items():
                self.postings.setdefault(term, {})[name] = count * (K1 + 1) / (count + norm)
        total = len(documents)
        self.idf = {
            term: math.log(1 + (total - len(found) + 0.5) / (len(found) + 0.5)) for term, found in self.postings.items()
        }

    def ranking(self, terms: set[str]) -> list[str]:
        """The documents holding any of `terms`, best first; ties by name. Summed in a fixed order: deterministic."""
        scores: dict[str, float] = {}
        for term in sorted(terms & self.postings.keys()):
            for name, weight in self.postings[term].items():
                scores[name] = scores.get(name, 0.0) + self.idf[term] * weight
        return sorted(scores, key=lambda name: (-scores[name], name))


def summary(tool: Any) -> str:
    """The tool's one line in the prompt: a signature of argument names and the first sentence."""
    arguments = ", ".join(name + ("=..." if spec.get("nullable") else "") for name, spec in tool.inputs.items())
    return f'def {tool.name}({arguments}): """{first_sentence(tool.description)}"""'


def first_sentence(description: str) -> str:
    text = " ".join(description.split()).replace('"""', "'''")
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 3].rstrip() + "..."


def documentation(tool: Any) -> str:
    """All a model needs to call the tool, starting with its name: signature, description, each argument, output."""
    signature = ", ".join(
        f"{name}: {_type(spec)}" + (f" = {_json(spec['default'])}" if "default" in spec else "")
        for name, spec in tool.inputs.items()
    )
    lines = [f"{tool.name}({signature}) -> {tool.output_type}", f"    {tool.description.strip()}"]
    if effect := _effect(tool):
        lines.append(f"    {effect}")
    if tool.inputs:
        lines.append("    Arguments:")
    for name, spec in tool.inputs.items():
        facts = [_type(spec)] + ["optional"] * bool(spec.get("nullable"))
        facts += [f"default {_json(spec['default'])}"] if "default" in spec else []
        facts += [f"one of {', '.join(map(_json, spec['enum']))}"] if spec.get("enum") else []
        if rest := {key: value for key, value in spec.items() if key not in _SHOWN_KEYS}:
            facts.append(f"schema {_json(rest)}")  # items, properties, branches: as the source gave them
        lines.append(f"        {name} ({'; '.join(facts)}): {' '.join(str(spec.get('description', '')).split())}")
    output_schema = getattr(tool, "output_schema", None)
    lines.append(f"    Returns: {tool.output_type}" + (f", as {_json(output_schema)}" if output_schema else ""))
    return "\n".join(lines)


def _effect(tool: Any) -> str:
    """What the tool's MCP annotations (class attributes, as vendored) say it does to the world; "" without them."""
    read_only, destructive = getattr(tool, "read_only_hint", None), getattr(tool, "destructive_hint", None)
    if not isinstance(read_only, bool):
        return ""
    effect = "Read-only." if read_only else "Destructive: may delete or overwrite data." if destructive else "Changes data."
    return effect + (" Talks to the outside world." if getattr(tool, "open_world_hint", False) else "")


def _type(spec: dict[str, Any]) -> str:
    kind = spec.get("type", "any")
    return " | ".join(kind) if isinstance(kind, list) else str(kind)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def build(
    tool_classes: list[type], index: dict[str, str], call_tool: bool, matches: int, listed: bool | None
) -> list[Any]:
    """What `catalog_tools` returns (see the module docstring)."""
    names = [str(getattr(tool_class, "name", "")) for tool_class in tool_classes]
    if taken := sorted(name for name in names if name in AGENT_TOOL_NAMES):
        raise ValueError(
            f"the tools {', '.join(taken)} have names an agent gives its own tools; rename them"
            " (`vendorgen update` renames a vendored one, as `name_`)"
        )
    tools = [tool_class() for tool_class in tool_classes]
    documented = {tool.name: documentation(tool) for tool in tools}
    listed = len(tools) <= LISTED_AT_MOST if listed is None else listed
    find_tools = _tool_classes()[0](_Index(index), documented, matches, listed and not call_tool)
    if call_tool:
        return [find_tools, _tool_classes()[1]({tool.name: tool for tool in tools})]
    for tool in tools:
        _shorten(tool, summary(tool) if listed else "")
    return [*tools, find_tools]


def _shorten(tool: Any, line: str) -> None:
    """Show the tool as `line` in the prompt; its class keeps the full text (and `find_tools` returns it).

    smolagents 1.21 to 1.26 render a tool with `to_code_prompt` / `to_tool_calling_prompt`; 1.20
    reads `description` and `inputs` directly, so those are shortened too (the argument
    descriptions emptied: the types, defaults and enums stay, and they are what a call is checked by).
    """
    tool.description = first_sentence(tool.description)
    tool.inputs = {name: {**spec, "description": ""} for name, spec in tool.inputs.items()}
    tool.to_code_prompt = tool.to_tool_calling_prompt = lambda: line


def _not_allowed(inputs: dict[str, Any], arguments: dict[str, Any]) -> str:
    """The first argument whose value is not one its `enum` allows (None where it may be null), or ""."""
    for key, value in arguments.items():
        allowed = inputs.get(key, {}).get("enum")
        if allowed and value not in allowed and not (value is None and inputs[key].get("nullable")):
            return f"Argument {key} is {_json(value)}, not one of {', '.join(map(_json, allowed))}"
    return ""


# smolagents ships no type information: to mypy its Tool is Any, which find_tools and call_tool subclass.
# mypy: allow-subclassing-any
@cache
def _tool_classes() -> tuple[type, type]:
    """find_tools and call_tool, made on first use: vendorgen imports this file for `index_entry` alone."""
    from smolagents import Tool
    from smolagents.tools import validate_tool_arguments

    class FindTools(Tool):
        name = "find_tools"
        description = (
            "Search the tools by what you want to do (keywords, tool or argument names). Returns the full"
            " documentation of the best matches, best first: their arguments, types, defaults, allowed values"
            " and output. Call it before using a tool whose arguments you do not know."
        )
        inputs = {"query": {"type": "string", "description": "What you want to do, in a few words."}}
        output_type = "string"

        def __init__(self, index: _Index, documented: dict[str, str], matches: int, listed: bool) -> None:
            super().__init__()
            self.index, self.documented, self.matches = index, documented, matches
            if not listed:
                self.description += (
                    f" {len(documented)} tools are callable by their names but not listed here: find them with it."
                )

        def forward(self, query: str) -> str:
            found = self.index.search(query, self.matches)
            if not found:
                return "No tool matches these words; try others (every tool is listed by name in your instructions)."
            return "\n\n".join(self.documented[name] for name in found)

    class CallTool(Tool):
        name = "call_tool"
        description = (
            "Call the tool named `name` with `arguments` (an object of argument names and values), as"
            " find_tools documents it. Returns what the tool returns."
        )
        inputs = {
            "name": {"type": "string", "description": "The tool's name, as find_tools gives it."},
            "arguments": {
                "type": "object",
                "description": "The tool's arguments by name; leave out those with defaults you keep.",
                "nullable": True,
            },
        }
        output_type = "any"

        def __init__(self, tools: dict[str, Any]) -> None:
            super().__init__()
            self.tools = tools

        def forward(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
            tool = self.tools.get(name)
            if tool is None:
                raise ValueError(f"no tool is named {name!r}; find_tools finds the tools by what they do")
            arguments = {} if arguments is None else arguments
            if not isinstance(arguments, dict):
                raise ValueError(f"the arguments of {name} are an object of argument names and values")
            try:  # smolagents 1.20 returns the problem, later versions raise it
                problem = validate_tool_arguments(tool, arguments)
            except (TypeError, ValueError) as exc:
                problem = str(exc)
            problem = problem or _not_allowed(tool.inputs, arguments)  # smolagents checks types, not values
            if problem:
                raise ValueError(problem)
            return tool(**arguments)

    return FindTools, CallTool
