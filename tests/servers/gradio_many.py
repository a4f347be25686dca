"""A Gradio app with `--count` (default 100) named endpoints, for writer fault tests that need many files.

Run with ``python tests/servers/gradio_many.py --port N [--count 100]`` (127.0.0.1 only).
Endpoint i is ``/tool_{i:03d}``: a text and a number in, a text out, with an enum and a
default so every generated module is a realistic size. `vendorgen add space:<url>
--all-endpoints` writes one module and one snapshot per endpoint.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402


def make_handler(index: int):
    def handler(text: str, times: float, mode: str) -> str:
        return f"{index}:{mode}:{text * int(times)}"

    handler.__doc__ = f"Tool number {index}: repeats the text and tags it."
    return handler


def build_demo(count: int) -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        text = gr.Textbox(label="Text")
        times = gr.Number(label="Times", value=1)
        mode = gr.Dropdown(["plain", "loud", "quiet"], value="plain", label="Mode")
        result = gr.Textbox(label="Result")
        for index in range(count):
            handler = make_handler(index)
            gr.Button(f"Run {index}").click(handler, [text, times, mode], result, api_name=f"tool_{index:03d}")
    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Gradio app with many named endpoints")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args(argv)
    build_demo(args.count).launch(
        server_name="127.0.0.1", server_port=args.port, share=False, quiet=True, ssr_mode=False, mcp_server=False
    )


if __name__ == "__main__":
    main()
