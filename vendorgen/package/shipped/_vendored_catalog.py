"""The vendored tools of this package as a catalog, for agents with many tools.

`catalog_tools()` gives an agent every tool of this package, callable under its own name, but
shown in the system prompt as one line each (name, arguments, first sentence of the
description; beyond LISTED_AT_MOST tools, or with `listed=False`, not at all), plus `find_tools(query)`: the full documentation of the tools that best match
the query, best first (BM25 over the terms below, which vendorgen counted in each tool's name,
description and arguments when it wrote this file).

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
from functools import cache
from typing import Any

# A term: a run of letters of any script or of digits, lower-cased; ASCII runs split at camelCase and
# stemmed; runs of a script written without spaces (Chinese, Japanese, Korean) cut into overlapping
# pairs of characters, as search engines index them. The catalog writes terms as JSON, non-ASCII escaped.
_WORD = re.compile(r"[^\W\d_]+|\d+")
_CAMEL_CASE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
_STOP_WORDS = frozenset(
    "a an and any are as at be by can do for from has have how i in is it its me my of on or that the this to"
    " what when which with you your".split()
)
_SUFFIXES = ("ing", "ed", "es", "s")
_MAX_TERM = 32
NAME_WEIGHT = 3  # a word of the tool's name counts as much as three in its description
SUMMARY_CHARS = 100  # of the first sentence shown in the prompt
# Up to this many tools, the prompt lists each in one line; beyond, none (only find_tools finds them):
# at 900 tools the lines alone would be a third of the full prompt.
LISTED_AT_MOST = 100
K1, B = 1.2, 0.75  # BM25's usual term saturation and length normalisation
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_SHOWN_KEYS = frozenset({"type", "description", "nullable", "default", "enum"})


def terms(text: str) -> list[str]:
    """The search terms of `text`, in order: the same function indexes the tools and reads a query."""
    found = []
    for run in _WORD.findall(text):
        if run.isascii():
            words = (word.lower() for word in _CAMEL_CASE.findall(run) or [run])
            found += [_stem(word)[:_MAX_TERM] for word in words if word not in _STOP_WORDS]
        elif _UNSPACED.fullmatch(run) and len(run) > 1:
            found += [run[start : start + 2] for start in range(len(run) - 1)]
        else:
            found.append(run.lower()[:_MAX_TERM])
    return found


def _stem(word: str) -> str:
    """A crude stemmer that maps a word's common forms to one term (movie, movies -> mov; city, cities -> cit)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    while len(word) > 3 and word[-1] in "eiy":
        word = word[:-1]
    return word


def index_entry(name: str, description: str, inputs: dict[str, Any]) -> str:
    """One tool's line of INDEX: `term:count` pairs, sorted (vendorgen writes them; they are inert text)."""
    counts = Counter({term: NAME_WEIGHT * count for term, count in Counter(terms(name)).items()})
    counts.update(terms(description))
    for argument, spec in inputs.items():
        counts.update(terms(argument))
        counts.update(term for text in _schema_text(spec) for term in terms(text))
    return " ".join(f"{term}:{count}" for term, count in sorted(counts.items()))


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
    """BM25 over the tools' INDEX lines."""

    def __init__(self, index: dict[str, str]) -> None:
        self.documents = {
            name: {term: int(count) for term, count in (pair.split(":") for pair in line.split())}
            for name, line in index.items()
        }
        self.lengths = {name: sum(counts.values()) for name, counts in self.documents.items()}
        self.average_length = sum(self.lengths.values()) / max(len(self.lengths), 1) or 1.0
        frequencies = Counter(term for counts in self.documents.values() for term in counts)
        total = len(self.documents)
        self.idf = {term: math.log(1 + (total - df + 0.5) / (df + 0.5)) for term, df in frequencies.items()}

    def search(self, query: str, limit: int) -> list[str]:
        """The names of the `limit` best-matching tools, best first; ties by name."""
        wanted = set(terms(query))
        scores: dict[str, float] = {}
        for name, counts in self.documents.items():
            norm = K1 * (1 - B + B * self.lengths[name] / self.average_length)
            score = sum(
                self.idf[term] * counts[term] * (K1 + 1) / (counts[term] + norm) for term in wanted if term in counts
            )
            if score > 0:
                scores[name] = score
        return sorted(scores, key=lambda name: (-scores[name], name))[:limit]


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


def _type(spec: dict[str, Any]) -> str:
    kind = spec.get("type", "any")
    return " | ".join(kind) if isinstance(kind, list) else str(kind)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def build(
    tool_classes: list[type], index: dict[str, str], call_tool: bool, matches: int, listed: bool | None
) -> list[Any]:
    """What `catalog_tools` returns (see the module docstring)."""
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


@cache
def _tool_classes() -> tuple[type, type]:
    """find_tools and call_tool, made on first use: vendorgen imports this file for `terms` alone."""
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
            if problem:
                raise ValueError(problem)
            return tool(**arguments)

    return FindTools, CallTool
