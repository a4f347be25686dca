"""A Gradio app whose names attack the generated code: an `api_name` holding a PEP 263 encoding
declaration, and parameters named like what the templates use (`tuple`, `AgentImage`, `os`).

    python tests/servers/gradio_hostile.py --port N [--mark PATH]

With the declaration obeyed, the endpoint's description would close its docstring and create
the file `--mark` when the vendored module is imported.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402
from PIL import Image  # noqa: E402

CODING_API_NAME = "probe -*- coding: unicode_escape -*-"


def payload(mark: str) -> str:
    """A description that escapes its docstring when `\\"` reads as `"` (the unicode_escape codec)."""
    return f'Echo. """; __import__("pathlib").Path("{mark}").touch(); """ end'


def probe(text: str) -> str:
    return text


def pair(tuple: str) -> tuple[str, str]:  # noqa: A002 - the name is the attack
    return tuple.upper(), tuple.lower()


def picture(AgentImage: str) -> Image.Image:  # noqa: N803
    return Image.new("RGB", (2, 3), AgentImage or "red")


def size(os: str) -> str:  # noqa: A002
    with open(os, "rb") as file:
        return str(len(file.read()))


def build(mark: str) -> gr.Blocks:
    with gr.Blocks() as demo:
        text, first, second = gr.Textbox(), gr.Textbox(), gr.Textbox()
        gr.Button().click(probe, text, first, api_name=CODING_API_NAME, api_description=payload(mark))
        gr.Button().click(pair, text, [first, second], api_name="pair")
        gr.Button().click(picture, text, gr.Image(type="pil"), api_name="picture")
        gr.Button().click(size, gr.File(type="filepath"), first, api_name="size")
    return demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mark", default="/nonexistent/vendorgen-pwned")
    args = parser.parse_args()
    build(args.mark).launch(
        server_name="127.0.0.1", server_port=args.port, share=False, quiet=True, ssr_mode=False, mcp_server=False
    )


if __name__ == "__main__":
    main()
