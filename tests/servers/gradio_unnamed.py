"""A Gradio app with no public endpoints: `view_api()` reports empty `named_endpoints`.

Run with ``python tests/servers/gradio_unnamed.py --port N`` (127.0.0.1 only). For the error
path "the app exposes nothing vendorgen can wrap".

gradio 6 names every event after its function unless told otherwise, so "unnamed" means
private here: ``api_name=False`` (gradio turns it into ``api_visibility="private"``) and an
explicit ``api_visibility="private"``. Private endpoints are left out even with
``view_api(all_endpoints=True)``; ``unnamed_endpoints`` is always ``{}`` in gradio 6.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402


def shout(text: str) -> str:
    """Upper-case a text."""
    return (text or "").upper()


def whisper(text: str) -> str:
    """Lower-case a text."""
    return (text or "").lower()


def build_demo() -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        text = gr.Textbox(label="Text")
        result = gr.Textbox(label="Result")
        gr.Button("Shout").click(shout, text, result, api_name=False)
        gr.Button("Whisper").click(whisper, text, result, api_visibility="private")
    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Gradio app without public endpoints")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    build_demo().launch(
        server_name="127.0.0.1",
        server_port=args.port,
        share=False,
        quiet=True,
        ssr_mode=False,
        mcp_server=False,
    )


if __name__ == "__main__":
    main()
