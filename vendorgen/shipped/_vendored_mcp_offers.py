# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored MCP resources, resource templates and prompts share: reading them through their module's
session (_vendored_mcp.py), and what the server returns as Python values that keep its URI and MIME type."""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import quote

# smolagents ships no type information: to mypy its Tool is Any, and the tools here subclass it.
# mypy: allow-subclassing-any
from smolagents import Tool

from ._vendored_mcp import MAX_IMAGE_BYTES, MCPToolError, _ClosesSession, _field, _temporary_file, decoded_image
from ._vendored_runtime import _VendoredTool

# The most contents one read or messages one prompt may return (a server that sends without end is cut).
MAX_ITEMS = 1_000
# RFC 6570 expressions of level 1 (`{var}`) and the reserved expansion of level 2 (`{+var}`): what vendorgen vendors.
_EXPRESSION = re.compile(r"\{(\+?)([A-Za-z0-9_.%]+)\}")
# What a level-1 expansion leaves as it is (RFC 6570's unreserved set); everything else is percent-encoded.
_UNRESERVED = "-._~"
_RESERVED = _UNRESERVED + ":/?#[]@!$&'()*+,;="


class ResourceText(str):
    """A text the server returned for a resource: a str with the `uri` and `mime_type` it came with."""

    uri: str
    mime_type: str | None


class ResourceBlob(bytes):
    """A blob the server returned for a resource: bytes with the `uri` and `mime_type` it came with."""

    uri: str
    mime_type: str | None


def expand(uri_template: str, values: dict[str, Any]) -> str:
    """`uri_template` with each `{var}` replaced by its value percent-encoded (RFC 6570 level 1), each `{+var}`
    keeping reserved characters (level 2); vendorgen vendors no template with other expressions."""

    def value(found: re.Match[str]) -> str:
        return quote(str(values[found.group(2)]), safe=_RESERVED if found.group(1) else _UNRESERVED)

    return _EXPRESSION.sub(value, uri_template)


def matches(uri_template: str, uri: str) -> bool:
    """Whether `uri` is an expansion of `uri_template` (as `expand` makes them)."""
    pattern, position = [], 0
    for found in _EXPRESSION.finditer(uri_template):
        pattern.append(re.escape(uri_template[position : found.start()]))
        pattern.append(".+" if found.group(1) else "[A-Za-z0-9._~%-]+")
        position = found.end()
    pattern.append(re.escape(uri_template[position:]))
    return re.fullmatch("".join(pattern), uri) is not None


def content_value(item: Any) -> Any:
    """One resource content, or one prompt message's content, as Python: text as ResourceText (str), a blob as
    ResourceBlob (bytes), an image blob or image item as a PIL image (bounded as tool images are) with `uri`
    and `mime_type` set, audio as the path of a temporary file; anything else as the JSON the server sent."""
    kind = getattr(item, "type", None)
    if kind == "resource":  # a prompt message's embedded resource: its contents
        return content_value(item.resource)
    if kind in ("image", "audio"):
        return _media(item.data, _field(item, "mimeType"), "", kind)
    if kind == "text":
        return str(item.text)
    if kind == "resource_link":
        return str(item.uri)
    uri, mime_type = str(getattr(item, "uri", "")), _field(item, "mimeType")
    if getattr(item, "text", None) is not None:
        return _tagged(ResourceText(item.text), uri, mime_type)
    if getattr(item, "blob", None) is not None:
        return _media(item.blob, mime_type, uri, "blob")
    return item.model_dump(mode="json", by_alias=True, exclude_none=True)


def _media(data: str, mime_type: str | None, uri: str, kind: str) -> Any:
    if len(data) * 3 // 4 > MAX_IMAGE_BYTES:
        raise MCPToolError(f"the server's {kind} is over {MAX_IMAGE_BYTES} bytes: refused")
    raw = base64.b64decode(data)
    if kind == "audio":
        return _temporary_file(raw, mime_type)
    image = decoded_image(raw, mime_type)  # None unless the MIME type names an image format PIL may read
    if image is None and kind == "image":
        return _temporary_file(raw, mime_type)
    return _tagged(image if image is not None else ResourceBlob(raw), uri, mime_type)


def _tagged(value: Any, uri: str, mime_type: str | None) -> Any:
    value.uri, value.mime_type = uri, mime_type
    return value


def _bounded(items: list[Any], what: str) -> list[Any]:
    if len(items) > MAX_ITEMS:
        raise MCPToolError(f"{what}: the server returned {len(items)} items, over {MAX_ITEMS}: refused")
    return items


class ResourceTool(_ClosesSession, _VendoredTool, Tool):
    """Reads a resource of the module's MCP server: one of `resources` (by URI), or the URI the `uriTemplate` of
    `resource_template` makes of the arguments. Returns the content (several: a list), converted by `content_value`."""

    # The static resources this tool reads: {uri: what the server listed of it}; none for a template's tool.
    resources: dict[str, dict[str, Any]] = {}
    # The template this tool reads by, as the server listed it; none for the static resources' tool.
    resource_template: dict[str, Any] = {}

    def __init__(self, timeout: float | None) -> None:
        super().__init__()
        self.timeout = timeout

    def _call(self, arguments: dict[str, Any]) -> Any:
        if self.resource_template:
            uri = expand(self.resource_template["uriTemplate"], arguments)
        else:
            uri = str(arguments["uri"])
            if uri not in self.resources:  # only what was vendored, of the server that listed it
                raise MCPToolError(f"{self.name}: {uri!r} is not one of the resources vendored here")
        result = self.session.read_resource(uri, self.timeout)
        values = [content_value(item) for item in _bounded(list(result.contents), uri)]
        if not values:
            return None
        return values[0] if len(values) == 1 else values


class PromptTool(_ClosesSession, _VendoredTool, Tool):
    """Renders a prompt of the module's MCP server (`prompt`, as the server listed it): its messages, each
    {"role": ..., "content": ...} with the content converted by `content_value` (text as str, an image as a PIL
    image...)."""

    prompt: dict[str, Any] = {}

    def __init__(self, timeout: float | None) -> None:
        super().__init__()
        self.timeout = timeout

    def _call(self, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        sent = {key: str(value) for key, value in self._sent(arguments).items()}  # prompt arguments are strings
        result = self.session.get_prompt(self.prompt["name"], sent, self.timeout)
        messages = _bounded(list(result.messages), self.prompt["name"])
        return [{"role": str(message.role), "content": content_value(message.content)} for message in messages]
