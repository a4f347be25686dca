"""A Gradio app shaped like popular Spaces: file inputs nested in lists and objects, a parameter
named like a `Client.predict` keyword, several outputs, and no descriptions.

Run with ``python tests/servers/gradio_files.py --port N`` (127.0.0.1 only). Endpoints:

- ``/files``: `gr.File(file_count="multiple")` (a list of FileData) -> the files' names and sizes;
- ``/chat``: `gr.MultimodalTextbox` ({"text", "files": [FileData]}) -> the text and the file count;
- ``/edit``: `gr.ImageEditor` ({"background": FileData, "layers": [...], "composite": FileData});
- ``/headers``: a parameter called `headers`, and one called `api_name`, two outputs;
- ``/tags``: a `gr.CheckboxGroup` whose default is a list (not a literal a signature can hold);
- ``/deep``: a JSON input whose default nests deeper than vendorgen accepts (refused alone).
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402


def files(uploads: list[str] | None) -> str:
    return ", ".join(f"{os.path.basename(path)}:{os.path.getsize(path)}" for path in uploads or [])


def chat(message: dict) -> str:
    return f"{message.get('text', '')} + {len(message.get('files') or [])} file(s)"


def edit(image: dict) -> str:
    background = image.get("background")
    return f"background: {'yes' if background is not None else 'no'}, layers: {len(image.get('layers') or [])}"


def headers_and_api_name(headers: str, api_name: str = "x") -> tuple[str, int]:
    return f"{headers}|{api_name}", len(headers)


def tags(chosen: list[str]) -> str:
    return ",".join(chosen)


def deep(value: dict) -> str:
    return "deep"


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels):
        value = {"a": value}
    return value


def build_demo() -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        uploads = gr.File(file_count="multiple", label="Uploads")
        message = gr.MultimodalTextbox(label="Message")
        image = gr.ImageEditor(label="Image", type="filepath")
        headers = gr.Textbox(label="Headers")
        api_name = gr.Textbox(label="Api name", value="x")
        text = gr.Textbox(label="Text")
        length = gr.Number(label="Length")
        gr.Button("files").click(files, uploads, text, api_name="files")
        gr.Button("chat").click(chat, message, text, api_name="chat")
        gr.Button("edit").click(edit, image, text, api_name="edit")
        gr.Button("headers").click(headers_and_api_name, [headers, api_name], [text, length], api_name="headers")
        chosen = gr.CheckboxGroup(choices=["a", "b", "c"], value=["a", "c"], label="Tags")
        gr.Button("tags").click(tags, chosen, text, api_name="tags")
        gr.Button("deep").click(deep, gr.JSON(value=nested(80), label="Deep"), text, api_name="deep")
    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Gradio app with nested file inputs")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    build_demo().launch(server_name="127.0.0.1", server_port=args.port, show_error=True, quiet=True)


if __name__ == "__main__":
    main()
