import keyword

import pytest

from vendorgen.errors import SchemaError
from vendorgen.naming import class_name, parameter_name, python_name, unique


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


def test_module_names_are_lower_snake_case() -> None:
    from vendorgen.naming import module_name

    assert module_name("Python_REPL") == "python_repl"
    assert module_name("Get-Weather") == "get_weather"
    assert module_name("Class") == "class_"  # lowered first, then kept off keywords
