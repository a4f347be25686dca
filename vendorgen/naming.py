"""Python names for remote names: identifiers, never keywords, collisions refused."""

from __future__ import annotations

import keyword
import re
import unicodedata
from collections.abc import Iterable

from vendorgen.errors import SchemaError

# Names a generated parameter or tool must not take: they would shadow what the
# generated code relies on (the class's own names, and the locals of the templates' `forward`).
_RESERVED = {"self", "cls", "Tool", "Any", "Literal", "arguments", "uploads", "result", "_source"}
# Names no generated module has a reason to touch: the gate refuses a module that uses one, so a
# remote parameter called `compile` or `vars` becomes `compile_`, `vars_`.
FORBIDDEN_NAMES = frozenset(
    {"eval", "exec", "compile", "__import__", "breakpoint", "globals", "locals", "vars", "setattr", "delattr"}
)


def python_name(remote: str) -> str:
    """A snake_case-ish identifier for `remote`: `get-weather` -> `get_weather`, `class` -> `class_`."""
    # Fold accents (`résumé` -> `resume`) so names stay ASCII and greppable.
    text = unicodedata.normalize("NFKD", remote).encode("ascii", "ignore").decode()
    text = re.sub(r"\W", "_", text.replace("-", "_"), flags=re.ASCII)
    text = re.sub(r"_+", "_", text).strip("_") or "tool"
    if text[0].isdigit():
        text = f"_{text}"
    if keyword.iskeyword(text) or keyword.issoftkeyword(text) or text in _RESERVED:
        text = f"{text}_"
    return text


def module_name(remote: str) -> str:
    """A module (file) name vendorgen derives: lower snake case, `Python_REPL` -> `python_repl`."""
    return python_name(remote.lower())


def parameter_name(remote: str) -> str:
    """A parameter name: kept as is when it is a usable identifier."""
    if is_parameter(remote) and remote not in FORBIDDEN_NAMES:
        return remote
    name = python_name(remote)
    return f"{name}_" if name in FORBIDDEN_NAMES else name


def is_parameter(name: str) -> bool:
    """Whether `name` can name a parameter of `forward` as it is (in an author's own code, a hub tool.py)."""
    return name.isidentifier() and name.isascii() and not _is_reserved(name)


def class_name(tool_name: str) -> str:
    """PascalCase + `Tool`: `get_weather` -> `GetWeatherTool`."""
    words = [word for word in tool_name.split("_") if word]
    base = "".join(word[:1].upper() + word[1:] for word in words) or "Vendored"
    if base[0].isdigit():
        base = f"T{base}"
    name = base if base.endswith("Tool") else f"{base}Tool"
    return f"Vendored{name}" if name in _RESERVED else name


def unique(pairs: Iterable[tuple[str, str]], what: str, hint: str) -> None:
    """Refuse two remote names that map to one Python name, naming both and how to fix it."""
    seen: dict[str, str] = {}
    for remote, python in pairs:
        if python in seen:
            raise SchemaError(
                f"{what} {seen[python]!r} and {remote!r} both become {python!r}; {hint}"
            )
        seen[python] = remote


def _is_reserved(name: str) -> bool:
    return keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in _RESERVED or name.startswith("__")
