"""Formatting a module in pieces gives black's output for the whole module, byte for byte."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.servers.mcp_many import make_tools
from vendorgen import formatter
from vendorgen.errors import GateError
from vendorgen.render import render_module
from vendorgen.sources import mcp, space

VIEW_API = json.loads((Path(__file__).resolve().parents[1] / "data" / "gradio_view_api.json").read_text())
EXAMPLES = int(os.environ.get("VENDORGEN_HYPOTHESIS_EXAMPLES", "150"))


def mcp_module(count: int) -> str:
    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in make_tools(count)]
    snapshot = {"kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "many",
                "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
                "server_info": {"name": "many", "version": "1"}, "tools": tools}  # fmt: skip
    return render_module(mcp.build(snapshot), "0" * 64)


def space_module(api_name: str) -> str:
    snapshot = {"kind": "space", "source": "space:http://127.0.0.1:7860/", "src": "http://127.0.0.1:7860/",
                "name": api_name.strip("/"), "revision": "", "api_name": api_name,
                "endpoint": VIEW_API["named_endpoints"][api_name]}  # fmt: skip
    return render_module(space.build(snapshot), "0" * 64)


def at_every_cut_point(source: str) -> list[str]:
    points = formatter._cut_points(source)
    return [source[start:end] for start, end in zip([0, *points], [*points, len(source)])]


def formatted_in_pieces(source: str) -> str | None:
    return formatter.join_pieces([formatter.format_piece(piece) for piece in at_every_cut_point(source)])


def test_a_generated_mcp_module_formats_the_same_cut_at_every_class() -> None:
    source = mcp_module(24)
    assert len(at_every_cut_point(source)) >= 24  # one piece per tool class, at least
    assert formatted_in_pieces(source) == formatter.format_piece(source)


def test_generated_space_modules_format_the_same_in_pieces() -> None:
    for api_name in VIEW_API["named_endpoints"]:
        source = space_module(api_name)
        assert formatted_in_pieces(source) == formatter.format_piece(source), api_name


def test_a_big_module_is_formatted_in_parallel_pieces_to_the_same_bytes() -> None:
    source = mcp_module(60)
    assert len(source) >= 2 * formatter.MIN_PIECE_CHARS  # big enough for format_source to cut it
    whole = formatter.format_piece(source)
    pieces = formatter.split_source(source, 3)
    assert len(pieces) == 3
    # In forked processes, even on a machine with one CPU (where format_source formats it whole).
    assert formatter.join_pieces(formatter.format_in_parallel(pieces, formatter.DEFAULT_LINE_LENGTH)) == whole
    assert formatter.format_source(source) == whole


def test_invalid_code_is_refused_with_blacks_message_for_the_whole_file() -> None:
    source = mcp_module(60) + "\ndef broken(:\n"
    assert formatter.split_source(source, 2) == [source]  # nothing to cut where `ast` cannot parse
    line = source[: source.index("def broken")].count("\n") + 1
    with pytest.raises(GateError, match=f"rendered module is not valid Python: cannot parse .*: {line}:11"):
        formatter.format_source(source)


def test_files_black_may_treat_across_statements_are_never_cut() -> None:
    source = mcp_module(30)
    assert len(formatter.split_source(source, 4)) == 4
    for marker in ("# fmt: off\n", "# yapf: disable\n"):
        assert formatter.split_source(marker + source, 4) == [marker + source]
    assert formatter.split_source(source.replace("\n", "\r\n"), 4) == [source.replace("\n", "\r\n")]


# Random modules: top-level statements of every kind black treats specially around
# blank lines (decorators, comments, stubs, docstrings, imports, dedents, nested
# definitions), separated by 0 to 3 blank lines.
CLASS_BODIES = [
    '    """Doc."""\n',
    '    """Doc.\n\nA line at column zero.\n    """\n\n    x = 1\n',
    "    x: int = 1\n    def f(self): ...\n",
    "    def method(self, a, b={'k': [1, 2, 3]}, *args, **kwargs):\n        return a\n",
    "    class Inner:\n        pass\n",
    "    pass\n    # the last line of the body is a comment\n",
    "    def f(self):\n        return 1\n\n\n\n    def g(self): pass\n",
    "    value = {'a_long_key_number_one': 1, 'a_long_key_number_two': 2, 'a_long_key_number_three': [3, 4, 5]}\n",
    "    @staticmethod\n    def s():\n        pass\n",
    "    if True:\n        y = 2\n    else:\n        y = 3\n",
    "    # -*- coding: latin-1 -*-\n    x = 1\n",
    "    # -*- coding: unknown -*-\n    x = 1\n",
    "  two_space_indent = 1\n  def f(self):\n    return (1,\n    2)\n",
    "    x = [\n        1,\n    ]\n",
    "    async def run(self):\n        await self.other()\n",
]
STATEMENTS = [
    "def function(x, y=1):\n    return x\n",
    "def stub(): ...\n",
    "async def coroutine():\n    await x\n",
    "@overload\ndef over(x: int) -> int: ...\n",
    "@decorator\nclass Decorated:\n    pass\n",
    "# a comment at column zero\n",
    "x = 1\n",
    "import os\n",
    "from typing import Any\n",
    "if TYPE_CHECKING:\n    import os\nelse:\n    pass\n",
    '"""A string statement."""\n',
    "try:\n    import x\nexcept ImportError:\n    x = None\n",
    "class OneLine: pass\n",
    "class Stub: ...\n",
    "class Commented:  # a comment on the class line\n    x = 1\n",
    "\f\n",
    "for item in []:\n    def inner():\n        pass\n",
]


@st.composite
def modules(draw) -> str:
    parts = []
    for index in range(draw(st.integers(1, 12))):
        if draw(st.booleans()):
            body = "".join(draw(st.lists(st.sampled_from(CLASS_BODIES), min_size=1, max_size=3)))
            base = draw(st.sampled_from(["", "(Base)", "(\n    Base,\n)", "(\n    Base\n)"]))
            part = f"class C{index}{base}:\n{body}"
        else:
            part = draw(st.sampled_from(STATEMENTS))
        parts.append("\n" * draw(st.integers(0, 3)) + part)
    source = "".join(parts)
    return source if draw(st.booleans()) else source.rstrip("\n")  # with or without a final newline


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=modules())
def test_any_module_formats_the_same_in_pieces(source: str) -> None:
    try:
        whole = formatter.format_piece(source)
    except GateError:
        return  # the random statements do not always make valid Python (a body mixing indents)
    joined = formatted_in_pieces(source)
    assert joined is None or joined == whole


def test_a_piece_whose_second_line_black_makes_a_comment_is_not_joined() -> None:
    # Only a file's first two lines may declare its encoding, so black looks at a comment
    # there; the caller then formats the whole file instead.
    source = "class A:\n    x = 1\n\n\nclass B(\n    Base\n):\n    # -*- coding: latin-1 -*-\n    x = 1\n"
    pieces = formatter.split_source(source, 2)
    assert len(pieces) == 2
    assert formatter.join_pieces([formatter.format_piece(piece) for piece in pieces]) is None
