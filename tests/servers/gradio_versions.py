"""A Gradio app whose API changes between two versions: the upstream of the sync tests.

Run with ``python tests/servers/gradio_versions.py --port N --version 1|2`` (127.0.0.1 only).

Version 2 against version 1:

* ``/convert``: a new description; ``value`` defaults to 2 instead of 1; ``unit`` gains
  ``"km"``; a new ``precision`` parameter;
* ``/greet``: unchanged;
* ``/wave``: removed;
* ``/shout``: added.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402

METRES = {"m": 1.0, "ft": 0.3048, "km": 1000.0}


def convert_v1(value: float, unit: str) -> float:
    """Convert metres to another unit."""
    return value / METRES[unit]


def convert_v2(value: float, unit: str, precision: int) -> float:
    """Convert a length in metres to m, ft or km, rounded."""
    return round(value / METRES[unit], int(precision))


def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


def wave(name: str) -> str:
    """Wave at someone."""
    return f"*waves at {name}*"


def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


def build_demo(version: int) -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        value = gr.Number(label="Value", value=1 if version == 1 else 2)
        units = ["m", "ft"] if version == 1 else ["m", "ft", "km"]
        unit = gr.Dropdown(units, label="Unit", value="m")
        number = gr.Number(label="Result")
        if version == 1:
            gr.Button("Convert").click(convert_v1, [value, unit], number, api_name="convert")
        else:
            precision = gr.Number(label="Precision", value=3, precision=0)
            gr.Button("Convert").click(convert_v2, [value, unit, precision], number, api_name="convert")
        name = gr.Textbox(label="Name")
        text = gr.Textbox(label="Text")
        gr.Button("Greet").click(greet, name, text, api_name="greet")
        if version == 1:
            gr.Button("Wave").click(wave, name, text, api_name="wave")
        else:
            gr.Button("Shout").click(shout, name, text, api_name="shout")
    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Gradio app with two versions of its API")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--version", type=int, choices=(1, 2), required=True)
    args = parser.parse_args(argv)
    build_demo(args.version).launch(
        server_name="127.0.0.1", server_port=args.port, share=False, quiet=True, ssr_mode=False, mcp_server=False
    )


if __name__ == "__main__":
    main()
