"""How a call of the vendored MCP server (`_vendored_server.py` beside this file) crosses between its client and a
tool: a file argument in (a data: URI, or a file inside --files read once), the tool's value out as MCP content
items, an upstream MCP tool's answer passed on as the upstream sent it. Shipped with the server and owned with it
by the lock; needs what the server needs, not vendorgen.
"""

from __future__ import annotations

import base64
import io
import json
import mimetypes
import sys
from typing import Any

MEDIA = ("image", "audio")


def _runtime() -> Any:
    from . import _vendored_runtime

    return _vendored_runtime


def passed_on(tool: Any, result: Any) -> tuple[list[Any], Any]:
    """An upstream MCP tool's answer as the client gets it: each content item as the upstream sent it (text,
    image, audio, resource link, embedded resource, with its URI and MIME type); structured content where
    the tool has an output schema. An error answer raises MCPToolError with the upstream's text."""
    if sys.modules[f"{__package__}._vendored_mcp"]._field(result, "isError") or getattr(tool, "output_schema", None):
        value = tool._value(result)
        return list(result.content), value if isinstance(value, dict) else None
    return list(result.content), None


def is_media(spec: dict[str, Any]) -> bool:
    """An input that takes a file: its type is image or audio, or a list that holds one (["image", "string"])."""
    kinds = spec.get("type")
    return any(kind in MEDIA for kind in (kinds if isinstance(kinds, list) else [kinds]))


def file_argument(value: str, spec: dict[str, Any], roots: list[str]) -> Any:
    """A client's string for the file input `spec` as the tool gets it: an http(s) URL as it is; a data: URI, or
    the content of a file inside `roots` read once without following a link (never its name, which another
    process could point elsewhere before the tool opens it), as a PIL image where the input takes images, else
    as a data: URI. PermissionError for a file outside `roots`; ValueError for content that is refused."""
    runtime = _runtime()
    if value.startswith(("http://", "https://")):
        return value
    if value.startswith("data:"):
        raw = runtime._data_uri_bytes(value)
        mime = value[5:].partition(",")[0].partition(";")[0]
    else:
        with runtime._open_confined(value, roots) as file:
            raw = file.read()
        mime = mimetypes.guess_type(value)[0] or "application/octet-stream"
        value = f"data:{mime};base64,{base64.b64encode(raw).decode('ascii')}"
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    others = [kind for kind in kinds if kind not in ("image", "null")]
    if "image" not in kinds or (others and not mime.startswith("image/")):  # not meant as an image
        return value
    try:
        image = runtime._open_image(io.BytesIO(raw))
    except ValueError as exc:
        raise ValueError(f"the image {exc}") from None
    image.load()
    return image


def text_item(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def content(value: Any, output_type: str) -> list[dict[str, Any]]:
    """A tool's return value as MCP content items: text, images, audio; several for a tuple, and for a list that
    holds media (a list of plain data is one JSON text)."""
    if value is None:
        return []
    if isinstance(value, tuple) or (isinstance(value, list) and any(map(_is_media, value))):
        return [item for part in value for item in content(part, "any")]
    if hasattr(value, "to_raw") and type(value).__name__ == "AgentAudio":
        return [_media(_read(value.to_string()), "audio/wav", "audio")]
    if hasattr(value, "to_raw") and type(value).__name__ == "AgentImage":
        value = _raw_image(value)
    if _is_pil_image(value):
        buffer = io.BytesIO()
        value.save(buffer, format="PNG")
        return [_media(buffer.getvalue(), "image/png", "image")]
    if isinstance(value, str):  # read only a file the runtime wrote for the call; any other path is text
        if output_type in MEDIA and isinstance(value, _runtime().ResultFile):
            mime = mimetypes.guess_type(value)[0] or f"{output_type}/octet-stream"
            return [_media(_read(value), mime, output_type)]
        return [text_item(value)]
    if isinstance(value, bytes):
        blob = base64.b64encode(value).decode("ascii")
        return [
            {
                "type": "resource",
                "resource": {"uri": "vendored:result", "mimeType": "application/octet-stream", "blob": blob},
            }
        ]
    return [text_item(json.dumps(value, ensure_ascii=False, default=str))]


def _raw_image(image: Any) -> Any:
    """An AgentImage's PIL image; one it holds only as a file is opened as the run time opens images
    (IMAGE_FORMATS, MAX_IMAGE_PIXELS), where AgentImage.to_raw would let PIL run any decoder (EPS: Ghostscript)."""
    if getattr(image, "_raw", None) is None and getattr(image, "_path", None) is not None:
        try:
            return _runtime()._open_image(str(image._path))
        except ValueError as exc:
            raise ValueError(f"the tool's image {exc}") from None
    return image.to_raw()


def _is_media(value: Any) -> bool:
    """An image (PIL's or smolagents'), a sound or bytes: what is a content item of its own."""
    return isinstance(value, bytes) or hasattr(value, "to_raw") or _is_pil_image(value)


def _is_pil_image(value: Any) -> bool:
    return hasattr(value, "save") and hasattr(value, "mode")


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _media(data: bytes, mime: str, kind: str) -> dict[str, Any]:
    return {"type": kind, "data": base64.b64encode(data).decode("ascii"), "mimeType": mime}
