"""Property-based attack on the Gradio generator: refusal or an exact, inert module."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from tests.hostile.strategies import (
    hostile_settings,
    hostile_text,
    json_values,
    load_module,
    names,
    printable_source,
    property_schemas,
)
from vendorgen import pipeline
from vendorgen.errors import VendorgenError
from vendorgen.sources import space
from vendorgen.workspace import Workspace

COMPONENTS = ["Textbox", "Number", "Slider", "Checkbox", "Dropdown", "Json", "Image", "Audio", "File"]
WORKSPACE = Workspace(Path(tempfile.mkdtemp(prefix="vendorgen-hostile-")))  # defaults; nothing is written


@st.composite
def endpoints(draw) -> dict:
    parameters = []
    for _ in range(draw(st.integers(0, 5))):
        has_default = draw(st.booleans())
        parameters.append(
            {
                "label": draw(hostile_text),
                "parameter_name": draw(names),
                "parameter_has_default": has_default,
                "parameter_default": draw(json_values) if has_default else None,
                "type": draw(property_schemas()),
                "component": draw(st.sampled_from(COMPONENTS)),
            }
        )
    returns = [
        {"label": draw(hostile_text), "type": draw(property_schemas()), "component": draw(st.sampled_from(COMPONENTS))}
        for _ in range(draw(st.integers(0, 3)))
    ]
    return {"description": draw(hostile_text), "parameters": parameters, "returns": returns}


class Sent(Exception):
    """Raised by RecordingClient with what forward would have sent to the app."""


class RecordingClient:
    """Stands in for gradio_client.Client to see exactly what forward sends, and stops there."""

    def predict(self, **arguments):
        raise Sent(arguments)


@hostile_settings
@given(endpoint=endpoints(), api_name=names)
@example(endpoint={"description": "x" * 1_000_000, "parameters": [], "returns": []}, api_name="big")
def test_hostile_endpoint_is_refused_or_exact(endpoint: dict, api_name: str) -> None:
    snapshot = {"kind": "space", "source": "space:http://127.0.0.1:1/", "src": "http://127.0.0.1:1/",
                "name": space.naming.python_name(api_name), "revision": "", "api_name": "/" + api_name,
                "endpoint": endpoint}  # fmt: skip
    try:
        generated = pipeline.generate(snapshot, WORKSPACE)  # build, config, render, black, gate
    except VendorgenError:
        return  # a clear refusal is a fine answer to a hostile schema
    module, code = generated.module, generated.code
    assert printable_source(code)
    namespace = load_module(code)  # the generated module, never remote code
    spec = module.tools[0]
    tool = namespace[spec.class_name]()  # smolagents validation runs here
    assert tool.description == (endpoint["description"] if endpoint["description"].strip() else spec.description)
    assert tool.inputs == spec.smolagents_inputs()
    by_wire = {input_spec.wire_name: input_spec for input_spec in spec.inputs}
    for index, parameter in enumerate(endpoint["parameters"]):
        input_spec = by_wire[parameter["parameter_name"] or f"param_{index}"]  # the remote name, exactly
        entry = tool.inputs[input_spec.name]
        assert entry["description"].startswith(parameter["label"])
        if input_spec.upload:
            continue
        if parameter["parameter_has_default"]:
            assert entry["default"] == parameter["parameter_default"]
        if isinstance(parameter["type"].get("enum"), list) and None not in parameter["type"]["enum"]:
            assert entry["enum"] == parameter["type"]["enum"]
    # forward sends every required input under its wire name, untouched
    tool.client = RecordingClient()
    required = {input_spec.name: f"value-{index}" for index, input_spec in enumerate(spec.inputs) if input_spec.required}
    if not any(input_spec.upload for input_spec in spec.inputs):
        try:
            tool.forward(**required)
        except Sent as sent_arguments:
            sent = sent_arguments.args[0]
        assert sent.pop("api_name") == "/" + api_name
        expected = {input_spec.wire_name: required[input_spec.name] for input_spec in spec.inputs if input_spec.required}
        assert {key: value for key, value in sent.items() if key in expected} == expected
