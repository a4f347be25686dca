"""The runtime module vendorgen ships (vendorgen/_vendored_runtime.py), without servers."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import sys
from types import SimpleNamespace

import pytest

from vendorgen import __version__, runtime
from vendorgen import _vendored_runtime as shipped
from vendorgen.errors import GateError
from vendorgen.generate.gate import check_runtime


def test_the_gate_knows_the_runtimes_hash() -> None:
    assert (
        hashlib.sha256(runtime.text().encode()).hexdigest() == runtime.KNOWN_SHA256
    ), "the runtime changed: set runtime.KNOWN_SHA256 to its new sha256"
    assert runtime.text().splitlines()[1].startswith(f"# Written by vendorgen {__version__}:")
    check_runtime(runtime.text(), "tools/_vendored_runtime.py")
    with pytest.raises(GateError, match="is not the runtime this vendorgen ships"):
        check_runtime(runtime.text() + "import os\n", "tools/_vendored_runtime.py")


def image_item(data: bytes, mime_type: str) -> SimpleNamespace:
    return SimpleNamespace(type="image", data=base64.b64encode(data).decode(), mimeType=mime_type)


def test_an_image_is_opened_only_as_the_format_its_mime_type_names() -> None:
    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (2, 2), "red").save(png, format="PNG")
    opened = shipped._content_value(image_item(png.getvalue(), "image/png"))
    assert isinstance(opened, Image.Image) and opened.format == "PNG"
    # PostScript would make PIL run Ghostscript: as "image/png" PIL refuses it, and it comes back as a file.
    eps = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 1 1\nshowpage\n"
    for mime_type in ("image/png", "application/postscript", "image/x-eps"):
        path = shipped._content_value(image_item(eps, mime_type))
        assert isinstance(path, str) and open(path, "rb").read() == eps
        os.remove(path)


def test_a_missing_client_library_is_one_line_naming_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gradio_client", None)

    class Tool(shipped.SpaceTool):
        name = "t"
        description = "t"
        inputs: dict = {}
        output_type = "string"
        src = "http://127.0.0.1:9/"

        def forward(self) -> str:
            return ""

    with pytest.raises(
        ImportError, match=r"^this vendored tool needs gradio_client>=1\.8 \(pip install 'gradio_client>=1\.8'\)"
    ):
        Tool().setup()


def test_push_inlines_only_what_the_tool_uses() -> None:
    from tests.conftest import REPO

    module = (REPO / "generated_example" / "tools" / "convert.py").read_text()
    code = runtime.inline(module)
    compile(code, "tool.py", "exec")
    assert "from ._vendored_runtime" not in code
    assert (
        "class _SpaceTool(_VendoredTool, Tool):" in code
        and "class MCPSession" not in code
        and "class LangChainTool" not in code
    )
    namespace: dict = {}
    exec(compile(code, "tool.py", "exec"), namespace)  # smolagents' from_code does the same
    from smolagents import Tool

    classes = sorted(
        name
        for name, value in namespace.items()
        if isinstance(value, type) and issubclass(value, Tool) and value is not Tool
    )
    assert classes[0] == "ConvertTool"  # what from_code instantiates


def test_a_space_module_written_before_defaults_were_pinned_says_to_update() -> None:
    """The runtime is replaced by any `add`; a module beside it from before `parameter_defaults`
    gets one clear error for an argument not given, never a bare KeyError or a guessed value."""

    class Older(shipped.SpaceTool):
        name = "older"
        description = "A module from before parameter_defaults."
        inputs = {"text": {"type": "string", "description": "t", "nullable": True}}
        output_type = "string"
        src, api_name = "http://127.0.0.1:1/", "/older"
        parameter_order = ["text"]

        def forward(self, text: str | None = shipped.NOT_GIVEN) -> str:
            return self._predict({"text": text})

    tool = Older()
    tool.client = SimpleNamespace(predict=lambda *args, **kwargs: pytest.fail("nothing is sent"))
    with pytest.raises(TypeError, match="older: no pinned default for text; `vendorgen update` regenerates"):
        tool.forward()
