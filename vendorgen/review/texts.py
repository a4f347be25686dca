"""The text a model reads of one vendored module, as (tool, field path, text) triples.

Every kind gives the same part from its `ModuleSpec` (as `Config.apply` leaves it, so an override's
description is what is read): each tool's description, its inputs' descriptions, enum values and
defaults, the titles, descriptions and examples inside their schemas, the output schema's. A kind
adds what its snapshot holds beside the spec (`Source.read_texts`: an MCP tool's `title` and `annotations.title`),
and server-level fields any snapshot may hold (`SERVER_FIELDS`: an MCP server's `instructions`,
prompts, resources) are read wherever they appear, so a new field plugs in with one name here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vendorgen.model import NO_DEFAULT, ModuleSpec, ToolSpec

if TYPE_CHECKING:
    from vendorgen.sources import Source

PROSE = "prose"  # written to explain: descriptions, titles, instructions
VALUE = "value"  # a value the model may pass or is shown: enum values, defaults, examples


@dataclass(frozen=True)
class Text:
    tool: str  # the vendored tool name; "" for the server's own text
    field: str  # where in the tool (or server), e.g. "inputs.path.description"
    text: str
    role: str = PROSE


# Snapshot keys holding server-level text a model reads, of any kind; walked whole.
SERVER_FIELDS = ("instructions", "prompts", "resources", "resource_templates", "resourceTemplates")
# Keys inside them that are addresses or types, not text for the model.
_NOT_TEXT = frozenset({"uri", "uriTemplate", "mimeType", "icons", "_meta", "size"})
# Keys of a JSON Schema whose string values a model reads.
_SCHEMA_PROSE = ("description", "title")
_SCHEMA_VALUES = ("enum", "default", "examples", "const")


def module_texts(module: ModuleSpec, snapshot: Mapping[str, Any], source: Source) -> list[Text]:
    """Every model-read text of `module` (built from `snapshot` by `source`), tools in order, then the server's."""
    texts: list[Text] = []
    for tool in module.tools:
        texts += tool_texts(tool)
    texts += source.read_texts(module, dict(snapshot))
    for key in SERVER_FIELDS:
        if key in snapshot:
            texts += [Text("", path, text) for path, text in _strings(snapshot[key], f"server.{key}")]
    return texts


def tool_texts(tool: ToolSpec) -> list[Text]:
    texts = [Text(tool.name, "description", tool.description)]
    for spec in tool.inputs:
        where = f"inputs.{spec.name}"
        texts.append(Text(tool.name, f"{where}.description", spec.description))
        for index, value in enumerate(spec.enum or ()):
            if isinstance(value, str):
                texts.append(Text(tool.name, f"{where}.enum[{index}]", value, VALUE))
        if isinstance(spec.default, str) and spec.default is not NO_DEFAULT:
            texts.append(Text(tool.name, f"{where}.default", spec.default, VALUE))
        texts += [Text(tool.name, path, text, role) for path, text, role in _schema_texts(spec.schema, where)]
    if tool.output_schema is not None:
        texts += [Text(tool.name, path, text, role) for path, text, role in _schema_texts(tool.output_schema, "output_schema")]
    return [text for text in texts if text.text]


def _schema_texts(schema: Any, path: str, depth: int = 0) -> Iterator[tuple[str, str, str]]:
    """The strings a model reads inside a JSON Schema (nested properties, items, branches)."""
    if depth > MAX_DEPTH:
        return
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _schema_texts(item, f"{path}[{index}]", depth + 1)
        return
    if not isinstance(schema, Mapping):
        return
    for key, value in schema.items():
        if not isinstance(key, str):
            continue
        where = f"{path}.{key}"
        if key in _SCHEMA_PROSE and isinstance(value, str):
            yield where, value, PROSE
        elif key in _SCHEMA_VALUES:
            for sub_path, text in _strings(value, where, depth + 1):
                yield sub_path, text, VALUE
        elif key == "properties" and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _schema_texts(sub, f"{where}.{name}", depth + 1)
        elif isinstance(value, (Mapping, list)):
            yield from _schema_texts(value, where, depth + 1)


MAX_DEPTH = 64  # deeper than any real prompt or schema; a hostile snapshot's nesting stops here


def _strings(value: Any, path: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """Every string inside a JSON value, with its path (list items by index, or by `name` when they have one)."""
    if isinstance(value, str):
        yield path, value
    elif depth > MAX_DEPTH:
        return
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and key not in _NOT_TEXT:
                yield from _strings(item, f"{path}.{key}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            name = item.get("name") if isinstance(item, Mapping) else None
            where = f"{path}[{name!r}]" if isinstance(name, str) else f"{path}[{index}]"
            yield from _strings(item, where, depth + 1)

