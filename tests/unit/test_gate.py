"""The gate refuses any module whose shape differs from its spec."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from vendorgen.errors import GateError
from vendorgen.generate.gate import check_module
from vendorgen.generate.render import render_module
from vendorgen.sources import load, space
from vendorgen.text.formatter import format_source

SPACE = load("space")
MCP = load("mcp")

API = json.loads((Path(__file__).resolve().parents[1] / "data" / "gradio_view_api.json").read_text())


def module_for(api_name: str, endpoint: dict | None = None):
    snapshot = {
        "kind": "space",
        "source": "space:http://127.0.0.1:7860/",
        "src": "http://127.0.0.1:7860/",
        "name": api_name.strip("/"),
        "revision": "",
        "api_name": api_name,
        "endpoint": endpoint or API["named_endpoints"][api_name],
    }
    module = space.build(snapshot)
    return module, format_source(render_module(module, "0" * 64, SPACE))


@pytest.mark.parametrize("api_name", sorted(API["named_endpoints"]))
def test_every_example_endpoint_passes(api_name: str) -> None:
    module, code = module_for(api_name)
    check_module(code, module, SPACE)


TAMPERINGS = [
    ("from ._vendored_gradio import SpaceTool\n", "from ._vendored_gradio import SpaceTool\nimport subprocess\n",
     "import of subprocess"),
    ("import SpaceTool\n", "import SpaceTool, _needs\n", "import of ._vendored_gradio._needs"),
    ("from ._vendored_gradio import SpaceTool\n", "from ._vendored_mcp import MCPTool as SpaceTool\n",
     "import of ._vendored_mcp.MCPTool"),
    ("class DescribeTool(SpaceTool):\n", "class DescribeTool(dict):\n", "must subclass Tool"),
    ('    name = "describe"\n', '    name = "describe2"\n', "name differs"),
    ('    output_type = "string"\n', '    output_type = "string"\n    extra = 1\n', "unexpected statement"),
    ("        return self._predict(\n", "        eval('1')\n        return self._predict(\n", "eval"),
    ("    def forward(\n        self,\n", "    def forward(\n        self,\n        sneaky: int,\n", "parameters"),
    ('        color: Literal["red", "green", "blue"] = "blue",\n', '        color: str = "blue",\n', "annotation of color"),
    ("        age: int = 30,\n", "        age: int = 31,\n", "default of age"),
    ("class DescribeTool(SpaceTool):\n", "print('hi')\n\n\nclass DescribeTool(SpaceTool):\n", "module-level statement"),
    ("class DescribeTool(SpaceTool):\n", "class Other:\n    pass\n\n\nclass DescribeTool(SpaceTool):\n",
     "unexpected class Other"),
    ("        return self._predict(\n", '        print("\\u202e")\n        return self._predict(\n', "unexpected text"),
    ("    Calls /describe on", "    Calls /somewhere-else on", "docstring differs"),
    ("    inputs: dict[str, dict[str, Any]] = {", "    inputs: Any = {", "unexpected annotation of inputs"),
    ('    name = "describe"\n', '    name: str = "describe"\n', "unexpected annotation of name"),
    # Python obeys a coding declaration on line 1 or 2: only UTF-8 passes, and the text must be what Python reads.
    ("# Vendored by", "# -*- coding: unicode_escape -*-\n# Vendored by", "declares the encoding unicode_escape"),
    ("# Provenance", "# vim: set fileencoding=latin-1 :\n# Provenance", "declares the encoding iso-8859-1"),
    ("# Vendored by", "# coding: no-such-codec\n# Vendored by", "unknown encoding"),
    ("# Vendored by", "\ufeff# Vendored by", "byte order mark"),
    ('    name = "describe"\n', '    name = "describe"\r\n', "other text than vendorgen checked"),
    # A parameter must not shadow what the module defines: forward would call the argument.
    ("        age: int = 30,\n", "        SpaceTool: int = 30,\n", "shadows the module.s SpaceTool"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "reason"), TAMPERINGS, ids=[t[2] for t in TAMPERINGS])
def test_tampered_module_is_refused(old: str, new: str, reason: str) -> None:
    module, code = module_for("/describe")
    assert old in code, f"fixture drifted: {old!r} not in generated code"
    with pytest.raises(GateError, match=reason):
        check_module(code.replace(old, new, 1), module, SPACE)


def test_unparsable_module_is_refused() -> None:
    module, code = module_for("/describe")
    with pytest.raises(GateError, match="does not parse"):
        check_module(code + "\ndef broken(:\n", module, SPACE)


def test_hostile_schema_text_stays_inside_literals() -> None:
    hostile = 'x"""\n\nimport os; os.system("rm -rf /")  # \u202e\x00\u2028'
    endpoint = {
        "description": hostile,
        "parameters": [
            {"label": hostile, "parameter_name": "text", "parameter_has_default": True, "parameter_default": hostile,
             "type": {"type": "string"}, "component": "Textbox"},
            {"label": "pick", "parameter_name": hostile, "parameter_has_default": False,
             "type": {"type": "string", "enum": [hostile, "b"]}, "component": "Dropdown"},
        ],
        "returns": [{"label": hostile, "type": {"type": "string"}, "component": "Textbox"}],
    }  # fmt: skip
    module, code = module_for("/describe", endpoint)
    check_module(code, module, SPACE)
    assert "\u202e" not in code and "\x00" not in code and "\u2028" not in code
    # The generated module, not remote code, beside the runtime (vendorgen ships them in vendorgen/shipped/).
    namespace: dict = {"__name__": "vendorgen.shipped.hostile", "__package__": "vendorgen.shipped"}
    exec(compile(code, "hostile.py", "exec"), namespace)
    tool_class = namespace[module.tools[0].class_name]
    assert tool_class.description == hostile
    assert tool_class.inputs["text"]["default"] == hostile
    wire = module.tools[0].inputs[0].wire_name
    assert wire == hostile
    assert tool_class.inputs[module.tools[0].inputs[0].name]["enum"] == [hostile, "b"]


def mcp_module_code() -> str:
    from tests.servers.mcp_many import make_tools
    from vendorgen.sources import mcp

    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in make_tools(8)]
    snapshot = {"kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "many",
                "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
                "server_info": {"name": "many", "version": "1"}, "tools": tools}  # fmt: skip
    return format_source(render_module(mcp.build(snapshot), "0" * 64, MCP))


@pytest.mark.parametrize("code", [module_for("/describe")[1], mcp_module_code()], ids=["space", "mcp"])
def test_the_gate_walks_the_same_nodes_as_libcst_children(code: str) -> None:
    import libcst as cst

    from vendorgen.generate.gate import _children

    stack = [cst.parse_module(code)]
    while stack:
        node = stack.pop()
        children = list(_children(node))
        assert sorted(map(id, children)) == sorted(map(id, node.children)), type(node).__name__
        stack.extend(children)


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("SERVER: dict[str, Any] = {", "SERVER: Any = {", "unexpected annotation of SERVER"),
        ("TIMEOUT = 60.0\n", "TIMEOUT: float = 60.0\n", "unexpected annotation of TIMEOUT"),
        ("SERVER: dict[str, Any] = {", "SERVER = {", None),  # a template may leave it plain
    ],
)
def test_only_the_known_annotations_pass_on_module_constants(old: str, new: str, reason: str | None) -> None:
    from tests.servers.mcp_many import make_tools
    from vendorgen.sources import mcp

    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in make_tools(2)]
    snapshot = {"kind": "mcp", "source": "mcp:stdio:server", "name": "many",
                "server": {"transport": "stdio", "command": "server", "args": ["--x"], "env": []},
                "server_info": {"name": "many", "version": "1"}, "tools": tools}  # fmt: skip
    module = mcp.build(snapshot)
    code = format_source(render_module(module, "0" * 64, MCP))
    assert old in code
    if reason is None:
        check_module(code.replace(old, new, 1), module, MCP)
        return
    with pytest.raises(GateError, match=reason):
        check_module(code.replace(old, new, 1), module, MCP)


def test_utf8_declarations_pass() -> None:
    module, code = module_for("/describe")
    for declaration in ("# -*- coding: utf-8 -*-\n", "# coding=utf8\n", "# vim: set fileencoding=UTF_8 :\n"):
        check_module(declaration + code, module, SPACE)


def test_a_parameter_shadowing_a_module_name_is_refused() -> None:
    """The check that holds whatever the templates define: a parameter named like an import."""
    module, code = module_for("/describe")
    spec = module.tools[0]
    renamed = replace(spec.inputs[0], name="SpaceTool")
    tool = replace(spec, inputs=(renamed, *spec.inputs[1:]))
    shadowing = replace(module, tools=(tool,))
    code = format_source(render_module(shadowing, "0" * 64, SPACE))
    with pytest.raises(GateError, match="parameter SpaceTool of DescribeTool.forward shadows the module.s SpaceTool"):
        check_module(code, shadowing, SPACE)


def union_module() -> tuple[Any, str]:
    """An MCP module whose one argument is a union of two objects told apart by a `const`."""
    from vendorgen.sources import mcp

    branch = {"type": "object", "required": ["id"],
              "properties": {"kind": {"const": "page"}, "id": {"type": "string"}}}  # fmt: skip
    other = {**branch, "properties": {"kind": {"const": "block"}, "id": {"type": "string"}}}
    tool = {"name": "move", "inputSchema": {"type": "object", "properties": {"to": {"oneOf": [branch, other]}}}}
    snapshot = {"kind": "mcp", "source": "mcp:http://127.0.0.1:1/mcp", "name": "union",
                "server": {"transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
                "server_info": {"name": "union", "version": "1"}, "tools": [tool]}  # fmt: skip
    module = mcp.build(snapshot)
    return module, format_source(render_module(module, "0" * 64, MCP))


UNION_TAMPERINGS = [
    (
        '{"kind": NotRequired[Literal["page"]], "id": str}',
        '{"kind": NotRequired[Literal["page"]], "id": int}',
        "TypedDict _Move_To_Page differs from the spec",
    ),
    ("_Move_To_Block = TypedDict(", "_Move_To_Other = TypedDict(", "unexpected module-level statement"),
    ("to: _Move_To_Page | _Move_To_Block", "to: _Move_To_Page", "annotation of to differs"),
]


def test_a_union_of_objects_passes_as_typed_dicts() -> None:
    module, code = union_module()
    assert "to: _Move_To_Page | _Move_To_Block | None = NOT_GIVEN" in code
    check_module(code, module, MCP)


@pytest.mark.parametrize(("old", "new", "reason"), UNION_TAMPERINGS, ids=[t[2] for t in UNION_TAMPERINGS])
def test_a_tampered_typed_dict_is_refused(old: str, new: str, reason: str) -> None:
    module, code = union_module()
    assert old in code, f"fixture drifted: {old!r} not in generated code"
    with pytest.raises(GateError, match=reason):
        check_module(code.replace(old, new, 1), module, MCP)
