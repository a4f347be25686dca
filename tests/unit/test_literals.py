import ast
import io
import re
import tokenize

import pytest

from vendorgen.errors import SchemaError
from vendorgen.text.literals import comment_text, docstring_body, escape_text, python_literal

HOSTILE = [
    "plain",
    'quote " and \' both',
    '"""triple""" and \'\'\'triple\'\'\'',
    "back\\slash\\",
    "nul\x00byte",
    "cr\rlf\n",
    "line\u2028para\u2029",
    "bidi \u202eevil\u202c \u2066isolate\u2069",
    "zero\u200bwidth",
    "\x1b[31mansi",
    "{{ jinja }} {% raw %}",
    "ünïcödé ok, кириллица ok",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_literal_round_trips_and_hides_nothing(text: str) -> None:
    source = python_literal(text)
    assert ast.literal_eval(source) == text
    assert all(ch.isprintable() for ch in source)


@pytest.mark.parametrize(
    "value", [None, True, False, 0, -3, 2.5, [], {}, {"a": [1, "x", None, {"b": False}]}, ["\u202e", {"\n": 1}]]
)
def test_literal_round_trips_json_values(value) -> None:
    assert ast.literal_eval(python_literal(value)) == value


def test_literal_refuses_what_json_cannot_hold() -> None:
    for bad in ({1: "x"}, object()):
        with pytest.raises(ValueError):
            python_literal(bad)


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_number_anywhere_is_a_clear_refusal(number: float) -> None:
    """`float("nan")` is no literal and JSON has no NaN: a schema error (one clear line), not a crash."""
    for value in (number, [1, number], {"a": {"b": [number]}}):
        with pytest.raises(SchemaError, match="JSON cannot carry"):
            python_literal(value)


@pytest.mark.parametrize(
    "text", ["1.0 -*- coding: unicode_escape -*-", "coding=latin-1", "vim: set fileencoding=utf-7 :", "CODING: x",
             "# coding\x3a raw", "a\ncoding:\nb"],
)  # fmt: skip
def test_a_comment_never_holds_an_encoding_declaration(text: str) -> None:
    """PEP 263's pattern matches no comment the filter writes, and the escape reads back as the text."""
    comment = comment_text(text)
    assert not re.search(r"coding[:=]", comment, re.IGNORECASE)
    assert comment.encode("latin-1", "backslashreplace").decode("unicode_escape") == text
    encoding, _ = tokenize.detect_encoding(io.BytesIO(f"# {comment}\n# {comment}\n".encode()).readline)
    assert encoding == "utf-8"


@pytest.mark.parametrize("text", HOSTILE)
def test_docstring_body_is_one_string_with_the_same_text(text: str) -> None:
    module = ast.parse(f'"""{docstring_body(text)}"""')
    assert len(module.body) == 1
    assert module.body[0].value.value == text
    assert all(ch.isprintable() or ch == "\n" for ch in docstring_body(text))


def test_docstring_keeps_newlines_readable() -> None:
    assert docstring_body("one\ntwo") == "one\ntwo"


@pytest.mark.parametrize("text", HOSTILE)
def test_comment_text_stays_on_one_line(text: str) -> None:
    rendered = comment_text(text)
    assert "\n" not in rendered and "\r" not in rendered
    assert all(ch.isprintable() for ch in rendered)
    assert escape_text("a\\b") == "a\\\\b"


@pytest.mark.parametrize("render", [python_literal, docstring_body, comment_text])
def test_lone_surrogates_are_refused_clearly(render) -> None:
    from vendorgen.errors import SchemaError

    with pytest.raises(SchemaError, match="lone surrogate"):
        render("text \ud800 here")
