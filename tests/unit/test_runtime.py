"""The run-time files vendorgen ships (vendorgen/shipped/), without servers."""

from __future__ import annotations

import ast
import base64
import io
import os
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from vendorgen import __version__, sources
from vendorgen.errors import GateError
from vendorgen.generate.gate import check_runtime
from vendorgen.package import files
from vendorgen.package.inline import inline
from vendorgen.shipped import _vendored_gradio as gradio
from vendorgen.shipped import _vendored_mcp as mcp

RUNTIME_FILES = tuple(files.runtime_files())  # the core, then each built-in kind's


@pytest.mark.parametrize("name", RUNTIME_FILES)
def test_the_gate_accepts_each_run_time_file_as_shipped_and_nothing_else(name: str) -> None:
    text = files.text(name)
    assert text.splitlines()[0].startswith(f"# Written by vendorgen {__version__}:"), "bump the header with the version"
    assert "`vendorgen update` replaces it" in text.splitlines()[1]
    check_runtime(text, f"tools/{name}")
    with pytest.raises(GateError, match="is not the run-time file this vendorgen ships"):
        check_runtime(text + "import os\n", f"tools/{name}")
    other = next(other for other in RUNTIME_FILES if other != name)
    with pytest.raises(GateError):  # accepted only under its own name
        check_runtime(text, f"tools/{other}")
    with pytest.raises(GateError, match="is not the run-time file this vendorgen ships"):  # and no other name
        check_runtime(text, "tools/_vendored_other.py")


def image_item(data: bytes, mime_type: str) -> SimpleNamespace:
    return SimpleNamespace(type="image", data=base64.b64encode(data).decode(), mimeType=mime_type)


def test_an_image_is_opened_only_as_the_format_its_mime_type_names() -> None:
    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (2, 2), "red").save(png, format="PNG")
    opened = mcp._content_value(image_item(png.getvalue(), "image/png"))
    assert isinstance(opened, Image.Image) and opened.format == "PNG"
    # PostScript would make PIL run Ghostscript: as "image/png" PIL refuses it, and it comes back as a file.
    eps = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 1 1\nshowpage\n"
    for mime_type in ("image/png", "application/postscript", "image/x-eps"):
        path = mcp._content_value(image_item(eps, mime_type))
        assert isinstance(path, str) and open(path, "rb").read() == eps
        os.remove(path)


def png_with_a_broken_chunk(kind: bytes) -> bytes:
    """A 20x20 PNG with a colour profile (as server-everything's image has) whose chunk `kind` has a wrong CRC."""
    from PIL import Image

    png = io.BytesIO()
    Image.new("RGB", (20, 20), "blue").save(png, format="PNG", icc_profile=b"a profile")
    data = bytearray(png.getvalue())
    start = data.index(kind) - 4
    end = start + 12 + int.from_bytes(data[start : start + 4], "big")
    data[end - 1] ^= 0xFF  # the last byte of its CRC
    return bytes(data)


def test_an_image_with_a_broken_optional_chunk_is_decoded_as_browsers_do() -> None:
    """server-everything's image has a bad CRC in its colour profile (iCCP): PIL alone refuses the whole image."""
    from PIL import Image

    image = mcp._content_value(image_item(png_with_a_broken_chunk(b"iCCP"), "image/png"))
    assert isinstance(image, Image.Image) and image.size == (20, 20) and image.getpixel((0, 0)) == (0, 0, 255)
    # A broken critical chunk (the header) is not repaired: the file comes back untouched.
    broken = png_with_a_broken_chunk(b"IHDR")
    path = mcp._content_value(image_item(broken, "image/png"))
    assert isinstance(path, str) and open(path, "rb").read() == broken
    os.remove(path)


@pytest.mark.parametrize("side", [13000, 20000])  # 20000: beyond PIL's own bound, which refuses to open it
def test_an_image_result_bomb_is_refused_before_it_is_decoded(side: int) -> None:
    """A 13000x13000 PNG of a few hundred bytes would take 730 MB decoded: one error, no pixel decoded."""
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    header = side.to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])  # 8-bit grey
    bomb = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 13001))
        + chunk(b"IEND", b"")
    )
    with pytest.raises(mcp.MCPToolError, match=r"^the server's image is .*over 40000000(?: pixels)?: refused$"):
        mcp._content_value(image_item(bomb, "image/png"))
    too_long = SimpleNamespace(type="image", data="A" * (mcp.MAX_IMAGE_BYTES * 4 // 3 + 8), mimeType="image/png")
    with pytest.raises(mcp.MCPToolError, match=f"over {mcp.MAX_IMAGE_BYTES} bytes: refused"):
        mcp._content_value(too_long)


def test_a_missing_client_library_is_one_line_naming_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gradio_client", None)

    class Tool(gradio.SpaceTool):
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
    code = inline(module)
    compile(code, "tool.py", "exec")
    assert "from ._vendored" not in code
    assert (
        "class SpaceTool(_VendoredTool, Tool):" in code
        and "class MCPSession" not in code
        and "class LangChainTool" not in code
        and "def to_langchain" in code  # of the core, which the Gradio part builds on
    )
    namespace: dict = {}
    exec(compile(code, "tool.py", "exec"), namespace)  # smolagents' from_code does the same
    from smolagents import Tool

    classes = [value for value in namespace.values() if isinstance(value, type) and issubclass(value, Tool)]
    assert [cls.__name__ for cls in classes if cls is not Tool] == ["ConvertTool"]  # what from_code instantiates
    assert classes[-1].__mro__[1].__name__ == "SpaceTool"  # the base is kept, only its name is deleted


@pytest.mark.parametrize("source", [source for source in sources.registered() if files.needed_by(source)], ids=lambda source: source.kind)
def test_a_kinds_run_time_files_define_each_name_once(source: Any) -> None:
    """`push` inlines a kind's run-time files into one tool.py: a name two of them define would be the last one's."""
    defined: dict[str, str] = {}
    for name in files.needed_by(source):
        for node in ast.parse(files.text(name)).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                assert node.name not in defined, f"{node.name} is defined in {defined[node.name]} and in {name}"
                defined[node.name] = name


def test_the_shipped_directory_holds_the_built_in_kinds_run_time_files() -> None:
    """`naming` reads vendorgen's own run-time files from the directory (it cannot ask the registry, whose kinds import
    it): besides the server's and the catalog's files, the directory holds exactly the core and the built-in kinds'."""
    from vendorgen.package import builtin_files

    built_in = {name for name, path in files.runtime_files().items() if path.parent == builtin_files.SHIPPED}
    assert builtin_files.runtime_file_names() == built_in == set(RUNTIME_FILES)


def test_call_tool_refuses_what_the_tool_does_not_take_before_calling_it() -> None:
    """The catalog's call_tool (made with the real smolagents): an unknown name, arguments that are no object, a
    value its enum does not allow; a good call reaches the tool."""
    from smolagents import Tool

    from vendorgen.shipped._vendored_catalog import _tool_classes

    class Convert(Tool):
        name = "convert"
        description = "Convert a temperature."
        inputs = {"unit": {"type": "string", "description": "C or F.", "enum": ["C", "F"]},
                  "note": {"type": "string", "description": "Free.", "nullable": True, "enum": ["x"]}}  # fmt: skip
        output_type = "string"

        def forward(self, unit: str, note: str | None = None) -> str:
            return f"{unit}:{note}"

    call_tool = _tool_classes()[1]({"convert": Convert()})
    with pytest.raises(ValueError, match="no tool is named 'other'"):
        call_tool.forward("other", {})
    with pytest.raises(ValueError, match="an object of argument names and values"):
        call_tool.forward("convert", ["C"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match='Argument unit is "K", not one of "C", "F"'):
        call_tool.forward("convert", {"unit": "K"})
    assert call_tool.forward("convert", {"unit": "F", "note": None}) == "F:None"  # null where it may be null


def test_a_data_uri_without_its_comma_is_refused() -> None:
    from vendorgen.shipped._vendored_runtime import _data_uri_bytes

    with pytest.raises(ValueError, match="needs a comma"):
        _data_uri_bytes("data:text/plain;base64")
    assert _data_uri_bytes("data:text/plain,a%20b") == b"a b"
