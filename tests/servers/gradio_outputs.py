"""A Gradio app whose answers point the client at files it should not read or fetch.

    python tests/servers/gradio_outputs.py --port N --secret PATH --foreign URL

Its Image and Audio outputs are real components whose `postprocess` passes a path or a dict
through, so the app answers what an app under someone else's control could:

- ``/local_image``, ``/local_audio``: the plain local path `--secret`, where a file belongs;
- ``/foreign``: FileData with `is_stream` and the third-party `url` `--foreign`, which
  gradio_client downloads with its headers (the Hub token included) by itself;
- ``/redirected``: FileData whose `url` is on this app, which answers it with a redirect to `--foreign`;
- ``/picture``: a real image, as a well-behaved app sends it;
- ``/bomb``: a PNG of a few hundred bytes whose header claims 13000x13000 pixels (169 MB decoded);
- ``/size``: the size of an uploaded file (what a file argument sends upstream);
- ``/eps``: an Encapsulated PostScript file as an Image output (PIL would start Ghostscript to decode it);
- ``/endless``, ``/trickle``: a file on the app's own origin that never ends, fast (1 MiB a chunk) or slowly.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import zlib
from typing import Any

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.responses import RedirectResponse, StreamingResponse  # noqa: E402
from PIL import Image as PILImage  # noqa: E402

REDIRECT_PATH = "/redirect-out"
ENDLESS_PATH, TRICKLE_PATH = "/endless-file", "/trickle-file"
# A 10x10 point EPS: PIL reads its header, and decoding it runs `gs`.
EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n0 0 moveto 10 10 lineto stroke\nshowpage\n%%EOF\n"


def passing_through(component: Any) -> Any:
    """`component` answering the function's value as it is: what an app under anyone's control
    can send. (An instance attribute: a subclass would make gradio write a .pyi beside this file.)"""
    original = component.postprocess
    component.postprocess = lambda value: value if isinstance(value, (str, dict)) else original(value)
    return component


def stream(url: str) -> dict[str, Any]:
    return {"path": "out.png", "url": url, "is_stream": True, "meta": {"_type": "gradio.FileData"}}


async def endless(size: int, pause: float) -> Any:
    """Chunks of `size` bytes without end, `pause` seconds apart."""
    import asyncio

    chunk = b"x" * size
    while True:
        yield chunk
        await asyncio.sleep(pause)


def bomb_png(side: int = 13000) -> bytes:
    """A PNG whose header claims `side`x`side` 8-bit grey pixels, its data cut short: a few hundred bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    header = side.to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    pixels = zlib.compress(b"\0" * (side + 1))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def build(secret: str, foreign: str, redirect: str, own: str) -> gr.Blocks:
    def local(text: str) -> str:
        return secret

    def at_foreign(text: str) -> dict[str, Any]:
        return stream(foreign)

    def redirected(text: str) -> dict[str, Any]:
        return stream(redirect)

    def picture(text: str) -> PILImage.Image:
        return PILImage.new("RGB", (3, 2), text or "red")

    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:  # where gradio serves files from
        file.write(bomb_png())

    def bomb(text: str) -> str:
        return file.name

    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as postscript:  # named as an image, as an app may
        postscript.write(EPS)

    def eps(text: str) -> str:
        return postscript.name

    def size(path: str) -> str:
        return str(os.path.getsize(path))

    with gr.Blocks(analytics_enabled=False) as demo:
        text = gr.Textbox(label="Text")
        gr.Button().click(local, text, passing_through(gr.Image(label="Leaked")), api_name="local_image")
        gr.Button().click(local, text, passing_through(gr.Audio(label="Leaked")), api_name="local_audio")
        gr.Button().click(at_foreign, text, passing_through(gr.Image(label="Foreign")), api_name="foreign")
        gr.Button().click(redirected, text, passing_through(gr.Image(label="Redirected")), api_name="redirected")
        gr.Button().click(picture, text, gr.Image(label="Picture", type="pil"), api_name="picture")
        gr.Button().click(bomb, text, gr.Image(label="Bomb", type="filepath"), api_name="bomb")
        gr.Button().click(lambda text: stream(own + ENDLESS_PATH), text, passing_through(gr.File()), api_name="endless")
        gr.Button().click(lambda text: stream(own + TRICKLE_PATH), text, passing_through(gr.File()), api_name="trickle")
        gr.Button().click(eps, text, gr.Image(label="Postscript", type="filepath"), api_name="eps")
        gr.Button().click(size, gr.File(type="filepath", label="Upload"), gr.Textbox(label="Size"), api_name="size")
    return demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--foreign", required=True)
    args = parser.parse_args()
    app = FastAPI()
    app.get(REDIRECT_PATH)(lambda: RedirectResponse(args.foreign, status_code=302))
    app.get(ENDLESS_PATH)(lambda: StreamingResponse(endless(1 << 20, 0), media_type="application/octet-stream"))
    app.get(TRICKLE_PATH)(lambda: StreamingResponse(endless(1 << 10, 0.2), media_type="application/octet-stream"))
    own = f"http://127.0.0.1:{args.port}"  # absolute: gradio rewrites a relative stream url
    app = gr.mount_gradio_app(app, build(args.secret, args.foreign, own + REDIRECT_PATH, own), path="")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
