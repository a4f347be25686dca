"""Example Gradio app for vendorgen: one endpoint per interesting shape of the `view_api` schema.

Run it with ``python examples/gradio_app.py --port 7860``; it serves on 127.0.0.1 only.

Everything here is deterministic (no randomness, no clocks), because the tools that vendorgen
generates from this app's schema are committed as golden files, and the tests check results.

Endpoints (named with ``api_name``; all public except ``/reverse``):

* ``/convert``     Number + Dropdown + Dropdown -> Number        (a small useful tool)
* ``/describe``    Textbox, Number(precision=0), Slider, Checkbox, Radio -> Textbox
* ``/thumbnail``   Image(type="pil") + Slider -> Image
* ``/tone``        Number + Number -> Audio (numpy sine wave)
* ``/file_info``   File -> JSON
* ``/echo_json``   JSON -> JSON
* ``/stats``       Textbox -> Number, Number, Textbox            (three outputs)
* ``/optional``    ``def greet(name, title=None)``               (default from the function)
* ``/keyword``     parameters named ``from`` (a keyword) and ``max-stops`` (not an identifier),
                   passed with ``inputs_kwargs`` to a ``**kwargs`` function
* ``/nothing``     Textbox -> no outputs
* ``/no_inputs``   no inputs -> Textbox
* ``/reverse``     Textbox -> Textbox with ``api_visibility="undocumented"``: only the server's
                   ``/gradio_api/info?all_endpoints=True`` lists it, never ``Client.view_api()``
                   (whatever its ``all_endpoints``), yet ``predict(api_name="/reverse")`` works
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
from typing import Any

# The example must never phone home (analytics / version check), also when run by hand.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

# Length of one unit in metres. Exact by definition for the imperial ones.
UNITS_IN_METRES: dict[str, float] = {
    "mm": 0.001,
    "cm": 0.01,
    "m": 1.0,
    "km": 1000.0,
    "in": 0.0254,
    "ft": 0.3048,
}
UNITS = list(UNITS_IN_METRES)

SAMPLE_RATE = 16000
MAX_TONE_SECONDS = 5.0


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert a length from one unit to another (mm, cm, m, km, in, ft).

    Args:
        value: The length to convert, in `from_unit`.
        from_unit: The unit `value` is given in.
        to_unit: The unit to convert to.
    """
    if from_unit not in UNITS_IN_METRES or to_unit not in UNITS_IN_METRES:
        raise gr.Error(f"units must be among {UNITS}")
    metres = float(value) * UNITS_IN_METRES[from_unit]
    # Rounded so that results such as 0.1 m -> cm print as 10.0, not 10.000000000000002.
    return round(metres / UNITS_IN_METRES[to_unit], 9)


def describe(name: str, age: int, height: float, member: bool, color: str) -> str:
    """Describe a person in one sentence from a few scalar fields.

    Args:
        name: The person's name.
        age: Age in whole years.
        height: Height in metres.
        member: Whether the person is a club member.
        color: Favourite colour.
    """
    who = name.strip() or "Someone"
    membership = "a member" if member else "not a member"
    return (
        f"{who} is {int(age)} years old, {float(height):.2f} m tall, "
        f"{membership}, and likes {color}."
    )


def thumbnail(image: Image.Image | None, size: int) -> Image.Image:
    """Shrink an image so that its longer side is at most `size` pixels.

    Args:
        image: The image to shrink.
        size: The maximum width and height of the result, in pixels.
    """
    if image is None:
        raise gr.Error("an image is required")
    result = image.convert("RGB")
    result.thumbnail((int(size), int(size)), Image.Resampling.LANCZOS)
    return result


def tone(frequency: float, seconds: float) -> tuple[int, np.ndarray]:
    """Generate a sine-wave tone as a 16 kHz mono WAV audio clip.

    Args:
        frequency: Pitch of the tone in hertz.
        seconds: Length of the clip in seconds (at most 5).
    """
    if not 0 < float(seconds) <= MAX_TONE_SECONDS:
        raise gr.Error(f"seconds must be in (0, {MAX_TONE_SECONDS}]")
    if not 0 < float(frequency) < SAMPLE_RATE / 2:
        raise gr.Error(f"frequency must be in (0, {SAMPLE_RATE // 2}) Hz")
    samples = np.arange(int(round(float(seconds) * SAMPLE_RATE)), dtype=np.float64)
    wave = 0.5 * np.sin(2 * math.pi * float(frequency) * samples / SAMPLE_RATE)
    return SAMPLE_RATE, (wave * 32767).astype(np.int16)


def file_info(path: str | None) -> dict[str, Any]:
    """Report the name, size in bytes and SHA-256 digest of an uploaded file.

    Args:
        path: The file to inspect.
    """
    if path is None:
        raise gr.Error("a file is required")
    with open(path, "rb") as handle:
        content = handle.read()
    return {
        "name": os.path.basename(path),
        "size": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
    }


def echo_json(data: Any) -> str:
    """Return the JSON value it is given, unchanged.

    Args:
        data: Any JSON value.
    """
    # gr.JSON parses a returned `str` as JSON text (and warns about bare numbers), so a bare
    # JSON string such as "hi" could not be echoed as it is. Returning the JSON text of every
    # value echoes all of them: objects, arrays, strings, numbers, booleans and null.
    return json.dumps(data)


def stats(text: str) -> tuple[int, int, str]:
    """Count the words and characters of a text and return it in upper case.

    Args:
        text: The text to analyse.
    """
    text = text or ""
    return len(text.split()), len(text), text.upper()


def greet(name: str, title: str | None = None) -> str:
    """Greet someone, with an optional title such as "Dr".

    Args:
        name: Who to greet.
        title: An optional title to put before the name.
    """
    full_name = f"{title} {name}" if title else name
    return f"Hello, {full_name}!"


# The /keyword endpoint's parameters are named `from`, `to` and `max-stops`. `from` is a Python
# keyword and `max-stops` is not an identifier, so neither can be a `def` parameter (nor an
# `inspect.Parameter`, which rejects both). gradio's `inputs_kwargs` passes them by name to a
# `**kwargs` function, and `view_api` reports those names as `parameter_name`.
def route(**kwargs: Any) -> str:
    """Plan a trip between two places, with at most a given number of stops.

    Args:
        from: Where the trip starts.
        to: Where the trip ends.
        max-stops: The largest number of stops allowed on the way.
    """
    start = kwargs.get("from") or "?"
    end = kwargs.get("to") or "?"
    stops = kwargs.get("max-stops")
    stops = 0 if stops is None else int(stops)
    return f"From {start} to {end} with at most {stops} stop(s)."


def nothing(note: str) -> None:
    """Accept a note and return nothing (an endpoint with no outputs).

    Args:
        note: Any text; it is ignored.
    """
    return None


def no_inputs() -> str:
    """List the length units that /convert understands (an endpoint with no inputs)."""
    return ", ".join(UNITS)


def reverse(text: str) -> str:
    """Reverse a text (an undocumented endpoint, hidden from the API listing).

    Args:
        text: The text to reverse.
    """
    return (text or "")[::-1]


def build_demo() -> gr.Blocks:
    with gr.Blocks(title="vendorgen example app", analytics_enabled=False) as demo:
        gr.Markdown("# vendorgen example app")

        with gr.Tab("convert"):
            value = gr.Number(value=1, label="Value")
            from_unit = gr.Dropdown(choices=UNITS, value="m", label="From unit")
            to_unit = gr.Dropdown(choices=UNITS, value="ft", label="To unit")
            converted = gr.Number(label="Result")
            gr.Button("Convert").click(
                convert, [value, from_unit, to_unit], converted, api_name="convert"
            )

        with gr.Tab("describe"):
            name = gr.Textbox(label="Name", placeholder="e.g. Ada")
            age = gr.Number(value=30, precision=0, label="Age")
            height = gr.Slider(minimum=0.5, maximum=2.5, step=0.01, value=1.7, label="Height")
            member = gr.Checkbox(value=False, label="Member")
            color = gr.Radio(choices=["red", "green", "blue"], value="blue", label="Colour")
            description = gr.Textbox(label="Description")
            gr.Button("Describe").click(
                describe, [name, age, height, member, color], description, api_name="describe"
            )

        with gr.Tab("thumbnail"):
            image = gr.Image(type="pil", label="Image")
            size = gr.Slider(minimum=16, maximum=256, step=16, value=64, label="Size")
            small = gr.Image(label="Thumbnail")
            gr.Button("Shrink").click(thumbnail, [image, size], small, api_name="thumbnail")

        with gr.Tab("tone"):
            frequency = gr.Number(value=440, label="Frequency (Hz)")
            seconds = gr.Number(value=0.5, label="Seconds")
            audio = gr.Audio(label="Tone")
            gr.Button("Play").click(tone, [frequency, seconds], audio, api_name="tone")

        with gr.Tab("file_info"):
            upload = gr.File(type="filepath", label="File")
            info = gr.JSON(label="File info")
            gr.Button("Inspect").click(file_info, upload, info, api_name="file_info")

        with gr.Tab("echo_json"):
            data_in = gr.JSON(label="Data")
            data_out = gr.JSON(label="Echo")
            gr.Button("Echo").click(echo_json, data_in, data_out, api_name="echo_json")

        with gr.Tab("stats"):
            text = gr.Textbox(label="Text", lines=3)
            words = gr.Number(label="Words", precision=0)
            characters = gr.Number(label="Characters", precision=0)
            upper = gr.Textbox(label="Uppercase")
            gr.Button("Count").click(stats, text, [words, characters, upper], api_name="stats")

        with gr.Tab("optional"):
            person = gr.Textbox(label="Name")
            title = gr.Textbox(value=None, label="Title")
            greeting = gr.Textbox(label="Greeting")
            gr.Button("Greet").click(greet, [person, title], greeting, api_name="optional")

        with gr.Tab("keyword"):
            origin = gr.Textbox(label="From")
            destination = gr.Textbox(label="To")
            max_stops = gr.Number(value=1, precision=0, label="Max stops")
            trip = gr.Textbox(label="Trip")
            gr.Button("Plan").click(
                route,
                inputs=None,
                inputs_kwargs={"from": origin, "to": destination, "max-stops": max_stops},
                outputs=trip,
                api_name="keyword",
            )

        with gr.Tab("nothing"):
            note = gr.Textbox(label="Note")
            gr.Button("Send").click(nothing, note, None, api_name="nothing")

        with gr.Tab("no_inputs"):
            units = gr.Textbox(label="Units")
            gr.Button("List units").click(no_inputs, None, units, api_name="no_inputs")

        with gr.Tab("reverse"):
            forwards = gr.Textbox(label="Text")
            backwards = gr.Textbox(label="Reversed")
            gr.Button("Reverse").click(
                reverse, forwards, backwards, api_name="reverse", api_visibility="undocumented"
            )

    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=7860, help="port on 127.0.0.1 (default 7860)")
    args = parser.parse_args(argv)
    demo = build_demo()
    demo.launch(
        server_name="127.0.0.1",
        server_port=args.port,
        share=False,
        quiet=True,
        show_error=True,
        ssr_mode=False,
        mcp_server=False,
        inbrowser=False,
        prevent_thread_lock=True,  # to say when it is ready: quiet, Gradio says nothing
    )
    print(f"serving the vendorgen example app on http://127.0.0.1:{args.port}/ (Ctrl-C stops it)", flush=True)
    demo.block_thread()


if __name__ == "__main__":
    main()
