"""The Jinja2 environment every template renders in, built-in or the project's: sandboxed and bounded.

A project's templates come with its pull requests, and `check`, `list`, `diff --offline` and
`update --offline` render them. So they render in jinja2's ImmutableSandboxedEnvironment (no `_`
attribute, no Python internals such as `__globals__`, no mutating a list or dict), without the
default globals no template of vendorgen's needs (`cycler`, `joiner`, `lipsum`, `namespace`,
`dict`), and with the filters whose output grows with their input only. What one render may cost
is bounded: OPERATIONS calls, filters and loop iterations (a range counts its length), SECONDS of
time, MAX_TEXT characters or items in any value a call, filter, `+`, `*` or `~` takes or makes,
MAX_NUMBER for a filter's size argument (a width, a count), 64 for a power and 2**256 for what
`*` and `**` multiply, MAX_OUTPUT characters rendered. Past a bound the render stops with a
TemplateError naming it. Not bounded: text repeated by the template's own statements (at most its
size times MAX_TEXT), and Python's recursion limit, which stops a macro calling itself.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError, safe_range

OPERATIONS = 2_000_000
SECONDS = 30.0
MAX_TEXT = 1_000_000
MAX_NUMBER = 100_000
MAX_OUTPUT = 20_000_000

# Jinja2's filters kept: their output is about as large as their input.
_KEPT_FILTERS = (
    "abs", "attr", "batch", "capitalize", "count", "d", "default", "dictsort", "e", "escape", "first", "float",
    "groupby", "indent", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "pprint",
    "reject", "rejectattr", "reverse", "round", "select", "selectattr", "slice", "sort", "string", "sum", "title",
    "tojson", "trim", "unique", "upper", "wordcount",
)  # fmt: skip
# str methods whose result can be far larger than the string: a template has filters and `~` instead.
_GROWING_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs", "replace", "format", "format_map"})


class _Budget:
    def __init__(self) -> None:
        self.left = OPERATIONS
        self.deadline = time.monotonic() + SECONDS

    def spend(self, count: int = 1) -> None:
        self.left -= count
        if self.left < 0:
            raise SecurityError(f"the template does more than {OPERATIONS} calls, filters and loop steps")
        if time.monotonic() > self.deadline:
            raise SecurityError(f"the template takes more than {SECONDS:.0f} s to render")


_budget: ContextVar[_Budget] = ContextVar("template_budget")


def render_bounded(chunks: Iterable[str]) -> str:
    """A template's output (`Template.generate`), within this module's bounds."""
    token = _budget.set(_Budget())
    try:
        out, size = [], 0
        for chunk in chunks:
            size += len(chunk)
            if size > MAX_OUTPUT:
                raise SecurityError(f"the template renders more than {MAX_OUTPUT} characters")
            out.append(chunk)
        return "".join(out)
    finally:
        _budget.reset(token)


def _spend(count: int = 1) -> None:
    budget = _budget.get(None)
    if budget is None:  # rendered without render_bounded: count against a budget of its own
        budget = _Budget()
        _budget.set(budget)
    budget.spend(count)


def _check_value(value: Any) -> Any:
    if isinstance(value, str | list | tuple | dict) and len(value) > MAX_TEXT:
        raise SecurityError(f"the template makes a value of more than {MAX_TEXT} items or characters")
    return value


def _check_sizes(args: Iterable[Any]) -> None:
    """The size arguments of a filter (a width, a count: what it allocates by), and its other values."""
    for value in args:
        _check_value(value)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise SecurityError(f"the template passes a filter a number beyond {MAX_NUMBER}")


def _bounded_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    # After the context, eval context or environment jinja2 passes first to a filter marked so.
    value_at = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(function)  # keeps jinja2's pass_context/pass_environment marks
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _spend()
        _check_value(args[value_at] if len(args) > value_at else None)
        _check_sizes([*args[value_at + 1 :], *kwargs.values()])
        return _check_value(function(*args, **kwargs))

    return bounded


def _each(values: Iterable[Any]) -> Iterator[Any]:
    """The iterable of a `{% for %}`: each step counts."""
    for value in values:
        _spend()
        yield value


def _joined(text: str) -> str:
    return _check_value(text)


def _range(*args: int) -> range:
    found = safe_range(*args)
    _spend(len(found))
    return found


class TemplateSandbox(ImmutableSandboxedEnvironment):
    """ImmutableSandboxedEnvironment with fewer globals and filters, and every cost bounded."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        for name in ("cycler", "joiner", "lipsum", "namespace", "dict"):
            self.globals.pop(name, None)
        self.globals["range"] = _range
        kept = {name: self.filters[name] for name in _KEPT_FILTERS}
        self.filters = {name: _bounded_filter(function) for name, function in kept.items()}
        self.filters["vendorgen_each"] = _each
        self.filters["vendorgen_joined"] = _joined

    def is_safe_callable(self, obj: Any) -> bool:
        if isinstance(getattr(obj, "__self__", None), str) and getattr(obj, "__name__", "") in _GROWING_METHODS:
            return False
        return super().is_safe_callable(obj)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - as jinja2's
        _spend()
        for value in (*args, *kwargs.values()):
            _check_value(value)
        return _check_value(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _spend()
        if operator == "%" and isinstance(left, str):
            raise SecurityError("the template formats a string with %: use filters and ~")
        if operator == "**" and isinstance(right, int) and abs(right) > 64:
            raise SecurityError("the template raises to a power beyond 64")
        if operator in ("*", "**") and isinstance(left, int) and isinstance(right, int):
            if max(abs(left), abs(right)).bit_length() > 256:
                raise SecurityError("the template computes with a number beyond 2**256")
        if operator == "*" and isinstance(left, int) and not isinstance(right, int):
            left, right = right, left
        if operator == "*" and isinstance(right, int) and hasattr(left, "__len__") and len(left) * right > MAX_TEXT:
            raise SecurityError(f"the template makes a value of more than {MAX_TEXT} items or characters")
        if (
            operator == "+"
            and hasattr(left, "__len__")
            and hasattr(right, "__len__")
            and len(left) + len(right) > MAX_TEXT
        ):
            raise SecurityError(f"the template makes a value of more than {MAX_TEXT} items or characters")
        return _check_value(super().call_binop(context, operator, left, right))

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """The template's tree, each loop's iterable counted and each `~` bounded (by filters: a template
        cannot redefine a filter, as it can a name)."""
        tree = super()._parse(source, name, filename)
        for parent in [tree, *tree.find_all(nodes.Node)]:  # listed first: the nodes added are not visited
            for field in parent.fields:
                value = getattr(parent, field, None)
                if isinstance(value, list):
                    setattr(parent, field, [_bounded(parent, field, item) for item in value])
                elif isinstance(value, nodes.Node):
                    setattr(parent, field, _bounded(parent, field, value))
        return tree


def _bounded(parent: nodes.Node, field: str, node: nodes.Node) -> nodes.Node:
    """`node` behind the filter that counts it, if it is a loop's iterable or a `~`."""
    if isinstance(parent, nodes.For) and field == "iter":
        return nodes.Filter(node, "vendorgen_each", [], [], None, None, lineno=node.lineno)
    if isinstance(node, nodes.Concat):
        return nodes.Filter(node, "vendorgen_joined", [], [], None, None, lineno=node.lineno)
    return node
