"""Property-based attack on the Gradio generator: refusal or an exact, inert module."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from tests.hostile.strategies import (
    check_header,
    hostile_settings,
    hostile_text,
    json_values,
    load_module,
    names,
    printable_source,
    property_schemas,
    vendor,
    vendors_at_least,
)
from vendorgen.project.workspace import Workspace
from vendorgen.sources import space

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


class RecordingClient:
    """Stands in for gradio_client.Client: records what forward sends (by position, in the app's
    order: `wire_names`), answers one value per output; the app's API is the endpoint's."""

    def __init__(self, outputs: int, wire_names: list[str], endpoint: dict, api_name: str) -> None:
        self.answer = [f"answer-{index}" for index in range(outputs)] if outputs > 1 else "answer"
        self.wire_names, self.info = wire_names, {"named_endpoints": {api_name: endpoint}}
        self.sent: dict = {}  # wire name -> value
        self.sent_api_name = ""

    def view_api(self, print_info: bool, return_format: str) -> dict:
        return self.info

    def predict(self, *values, api_name: str):
        assert len(values) == len(self.wire_names)
        self.sent, self.sent_api_name = dict(zip(self.wire_names, values)), api_name  # a parameter may be called api_name
        return self.answer


@vendors_at_least("space", 0.2)
@hostile_settings
@given(endpoint=endpoints(), api_name=names)
@example(endpoint={"description": "x" * 1_000_000, "parameters": [], "returns": []}, api_name="big")
@example(endpoint={"description": "", "returns": [], "parameters": [  # sent by position, not as Client.predict's keyword
    {"label": "", "parameter_name": "api_name", "parameter_has_default": False, "parameter_default": None,
     "type": {"type": "string"}, "component": "Textbox"}]}, api_name="predict")  # fmt: skip
def test_hostile_endpoint_is_refused_or_exact(endpoint: dict, api_name: str) -> None:
    snapshot = {"kind": "space", "source": "space:http://127.0.0.1:1/", "src": "http://127.0.0.1:1/",
                "name": space.naming.python_name(api_name), "revision": "", "api_name": "/" + api_name,
                "endpoint": endpoint}  # fmt: skip
    generated = vendor(snapshot)  # build, config, render, black, gate; the gate may not refuse
    if generated is None:
        return  # a clear refusal (vendor checked it is one printable line)
    module, code = generated.module, generated.code
    assert printable_source(code)
    check_header(generated)
    namespace = load_module(code)  # from the file, as Python reads it, beside the runtime
    spec = module.tools[0]
    tool = namespace[spec.class_name]()  # smolagents validation runs here
    described = endpoint["description"]
    if not described.strip():
        assert tool.description == spec.description
    elif len(spec.outputs) > 1:  # the order of several outputs follows, where the model sees it
        assert tool.description.startswith(f"{described.rstrip()}\n\nReturns a tuple of {len(spec.outputs)} values, in this order:")
    else:
        assert tool.description == described
    assert tool.inputs == spec.smolagents_inputs()
    by_wire = {input_spec.wire_name: input_spec for input_spec in spec.inputs}
    files = dict(spec.constants).get("file_paths", {})  # the inputs holding files, by wire name
    for index, parameter in enumerate(endpoint["parameters"]):
        input_spec = by_wire[parameter["parameter_name"] or f"param_{index}"]  # the remote name, exactly
        entry = tool.inputs[input_spec.name]
        assert entry["description"].startswith(parameter["label"])
        if input_spec.wire_name in files:
            continue
        if parameter["parameter_has_default"]:
            assert entry["default"] == parameter["parameter_default"]
        if isinstance(parameter["type"].get("enum"), list) and None not in parameter["type"]["enum"]:
            assert entry["enum"] == parameter["type"]["enum"]
    # forward sends every required input under its wire name, untouched, and gives back the answer:
    # a parameter shadowing a name forward uses (`tuple`, `AgentImage`, `os`) breaks here.
    order = list(tool.parameter_order)  # wire names
    tool.client = client = RecordingClient(len(spec.outputs), order, endpoint, "/" + api_name)
    # Every file input gets a real file (an optional one's default is whatever the app said, maybe no file).
    required = {input_spec.name: argument(input_spec, index, files) for index, input_spec in enumerate(spec.inputs)
                if input_spec.required or input_spec.wire_name in files}  # fmt: skip
    result = tool.forward(**required)
    sent = client.sent
    assert client.sent_api_name == "/" + api_name
    expected = {input_spec.wire_name: required[input_spec.name] for input_spec in spec.inputs
                if input_spec.required and input_spec.wire_name not in files}  # fmt: skip
    assert {key: value for key, value in sent.items() if key in expected} == expected
    if len(spec.outputs) > 1:
        assert result == tuple(client.answer)
    elif spec.outputs and spec.outputs[0].type not in ("image", "audio"):
        assert result == client.answer


UPLOAD = Path(tempfile.mkdtemp(prefix="vendorgen-hostile-upload-")) / "upload.txt"
UPLOAD.write_text("uploaded")


def argument(input_spec, index: int, files: dict) -> object:
    """A value for one input: an existing file where the endpoint takes files."""
    if input_spec.wire_name not in files:
        return f"value-{index}"
    return [str(UPLOAD)] if input_spec.type == "array" else str(UPLOAD)
