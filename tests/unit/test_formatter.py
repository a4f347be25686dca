"""The formatter: black's output, black's message for invalid code, the collector back on afterwards."""

from __future__ import annotations

import gc

import pytest

from tests.servers.mcp_many import make_tools
from vendorgen.errors import GateError
from vendorgen.generate.render import render_module
from vendorgen.sources import load, mcp
from vendorgen.text import formatter


def mcp_module(count: int) -> str:
    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in make_tools(count)]
    snapshot = {"kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "many",
                "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
                "server_info": {"name": "many", "version": "1"}, "tools": tools}  # fmt: skip
    return render_module(mcp.build(snapshot), "0" * 64, load("mcp"))


def test_a_generated_module_is_formatted_as_black_formats_it() -> None:
    import black

    source = mcp_module(12)
    formatted = formatter.format_source(source)
    mode = black.Mode(line_length=formatter.DEFAULT_LINE_LENGTH, target_versions={black.TargetVersion.PY311})
    assert formatted == black.format_str(source, mode=mode) != source
    assert formatter.format_source(formatted) == formatted
    assert gc.isenabled()


def test_invalid_code_is_refused_with_blacks_message_and_line() -> None:
    source = mcp_module(3) + "\ndef broken(:\n"
    line = source[: source.index("def broken")].count("\n") + 1
    with pytest.raises(GateError, match=f"rendered module is not valid Python: cannot parse .*: {line}:11"):
        formatter.format_source(source)
    assert gc.isenabled()
