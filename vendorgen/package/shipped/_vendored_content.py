"""A served tool's value as MCP content items (text, images, audio, blobs), an upstream MCP tool's answer as a
client of the vendored server (`_vendored_server.py` beside this file) gets it, and a client's data: URI image
as a PIL image. Shipped with the server and owned with it by the lock.
"""

from __future__ import annotations

import base64
import io
import json
import mimetypes
import sys
from typing import Any

from . import _vendored_runtime as runtime


def passed_on(tool: Any, result: Any) -> tuple[list[Any], Any]:
    """An upstream MCP tool's answer as the client gets it: each content item as the upstream sent it (text,
    image, audio, resource link, embedded resource, with its URI and MIME type); structured content where
    the tool has an output schema. An error answer raises MCPToolError with the upstream's text."""
    if sys.modules[f"{__package__}._vendored_mcp"]._field(result, "isError") or getattr(tool, "output_schema", None):
        value = tool._value(result)
        return list(result.content), value if isinstance(value, dict) else None
    return list(result.content), None


def data_uri_image(uri: str) -> Any:
    """A client's data: URI as a PIL image (ValueError if it is not one or too large), decoded only up to the run time's MAX_IMAGE_PIXELS (as an MCP result
    is): a small PNG can expand to gigabytes."""
    with runtime._needs("pillow"):
        from PIL import Image
    raw = runtime._data_uri_bytes(uri)  # ValueError: not one
    try:
        image = Image.open(io.BytesIO(raw), formats=["PNG", "JPEG", "GIF", "WEBP", "BMP"])  # the header only
    except Image.DecompressionBombError:
        image = None
    if image is None or image.width * image.height > runtime.MAX_IMAGE_PIXELS:
        raise ValueError(f"an image over {runtime.MAX_IMAGE_PIXELS} pixels is refused")
    image.load()
    return image


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def items(value: Any, output_type: str) -> list[dict[str, Any]]:
    """A tool's return value as MCP content items: text, images, audio; several for a tuple, and for a list that
    holds media (a list of plain data is one JSON text)."""
    if value is None:
        return []
    if isinstance(value, tuple) or (isinstance(value, list) and any(map(_is_media, value))):
        return [item for part in value for item in items(part, "any")]
    if hasattr(value, "to_raw") and type(value).__name__ == "AgentAudio":
        return [_media(_read(value.to_string()), "audio/wav", "audio")]
    if hasattr(value, "to_raw") and type(value).__name__ == "AgentImage":
        value = value.to_raw()
    if _is_pil_image(value):
        buffer = io.BytesIO()
        value.save(buffer, format="PNG")
        return [_media(buffer.getvalue(), "image/png", "image")]
    if isinstance(value, str):  # read only a file the runtime wrote for the call; any other path is text
        if output_type in ("image", "audio") and isinstance(value, runtime.ResultFile):
            mime = mimetypes.guess_type(value)[0] or f"{output_type}/octet-stream"
            return [_media(_read(value), mime, output_type)]
        return [text(value)]
    if isinstance(value, bytes):
        blob = base64.b64encode(value).decode("ascii")
        return [
            {
                "type": "resource",
                "resource": {"uri": "vendored:result", "mimeType": "application/octet-stream", "blob": blob},
            }
        ]
    return [text(json.dumps(value, ensure_ascii=False, default=str))]


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
