import ast
import keyword

import pytest

from tests.conftest import REPO
from vendorgen.errors import SchemaError
from vendorgen.naming import class_name, module_level_names, parameter_name, python_name, template_names, unique


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("get-weather", "get_weather"),
        ("class", "class_"),
        ("match", "match_"),
        ("self", "self_"),
        ("1st-tool", "_1st_tool"),
        ("dotted.name", "dotted_name"),
        ("résumé", "resume"),
        ('say "hi"', "say_hi"),
        ("", "tool"),
        ("/convert", "convert"),
    ],
)
def test_python_name(remote: str, expected: str) -> None:
    assert python_name(remote) == expected
    assert expected.isidentifier() and not keyword.iskeyword(expected)


@pytest.mark.parametrize(
    ("remote", "expected"),
    [("city", "city"), ("maxResults", "maxResults"), ("from", "from_"), ("max-results", "max_results"),
     ("self", "self_"), ("__init__", "init"), ("with space", "with_space")],
)  # fmt: skip
def test_parameter_name_keeps_valid_names(remote: str, expected: str) -> None:
    assert parameter_name(remote) == expected


@pytest.mark.parametrize(
    ("tool", "expected"),
    [("get_weather", "GetWeatherTool"), ("convert", "ConvertTool"), ("search_tool", "SearchTool"),
     ("tool", "VendoredTool"), ("_1st", "T1stTool")],
)  # fmt: skip
def test_class_name(tool: str, expected: str) -> None:
    assert class_name(tool) == expected


def test_collision_names_both() -> None:
    with pytest.raises(SchemaError, match="'max-results' and 'max_results' both become 'max_results'; rename"):
        unique([("max-results", "max_results"), ("max_results", "max_results")], "parameters", "rename one")


@pytest.mark.parametrize(
    ("remote", "expected"),
    [("tuple", "tuple_"), ("AgentImage", "AgentImage_"), ("os", "os"), ("time", "time"), ("self", "self_"), ("arguments", "arguments_"),
     ("tools", "tools_"), ("SERVER", "SERVER_"), ("_Session", "Session"), ("_call", "call"), ("type", "type")],
)  # fmt: skip
def test_a_parameter_never_takes_a_name_the_templates_use(remote: str, expected: str) -> None:
    assert parameter_name(remote) == expected


def test_a_tool_class_never_takes_a_name_the_templates_use() -> None:
    assert class_name("tool") == "VendoredTool"
    assert all(class_name(name) not in module_level_names() for name in module_level_names())


def test_template_names_holds_every_name_the_rendered_templates_use() -> None:
    """What the generated modules define, or their `forward` reads without binding it, is in template_names().

    (Private `_` names aside: no parameter starts with one.)

    The modules of generated_example/ cover every template; a name a template starts using
    fails here until naming.template_names() keeps remote names off it.
    """
    used: dict[str, str] = {}
    for path in sorted((REPO / "generated_example" / "tools").glob("[!_]*.py")):  # the runtime's names stay in it
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tool_classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef) and not node.name.startswith("_")}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                continue
            for name in _bound(node):
                used.setdefault(name, f"{path.name}: module level")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "forward":
                parameters = {argument.arg for argument in node.args.args}
                for name in _names(node.body) - _stored(node.body) - parameters:
                    used.setdefault(name, f"{path.name}: forward")
        for name in tool_classes - {"MCPToolError"}:
            used.pop(name, None)
    missing = {name: where for name, where in used.items() if not name.startswith("_") and name not in template_names()}
    assert not missing, f"add to naming.template_names(): {missing}"


def _bound(statement: ast.stmt) -> set[str]:
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef)):
        return {statement.name}
    return _names([statement])


def _stored(statements: list[ast.stmt]) -> set[str]:
    module = ast.Module(body=statements, type_ignores=[])
    return {node.id for node in ast.walk(module) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _names(statements: list[ast.stmt]) -> set[str]:
    names = set()
    for node in ast.walk(ast.Module(body=statements, type_ignores=[])):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).partition(".")[0])
    return names


def test_module_names_are_lower_snake_case() -> None:
    from vendorgen.naming import module_name

    assert module_name("Python_REPL") == "python_repl"
    assert module_name("Get-Weather") == "get_weather"
    assert module_name("Class") == "class_"  # lowered first, then kept off keywords


def test_module_names_never_shadow_what_the_server_module_looks_up() -> None:
    """The server module imports each module by name into its own namespace: a derived module name keeps off
    every name that namespace binds or looks up (its imports, definitions and the builtins its code reads)."""
    from vendorgen.naming import global_names, module_name, module_reserved

    assert global_names("import os\n\ndef count(items):\n    total = len(items)\n    return total\n") == {
        "os",
        "count",
        "len",
    }
    assert {"json", "hashlib", "dict", "isinstance", "main", "Toolset", "TOOLS", "PINNED"} <= module_reserved()
    assert [module_name(name) for name in ("JSON", "hashlib", "dict", "text-tools")] == [
        "json_module",
        "hashlib_module",
        "dict_module",
        "text_tools",
    ]
