"""Python names for remote names: identifiers, never keywords, collisions refused."""

from __future__ import annotations

import keyword
import re
import symtable
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache

from vendorgen.errors import SchemaError

# Names a generated parameter or tool must not take: they would shadow what the
# generated code relies on (the class's own names, and the locals of the templates' `forward`).
_RESERVED = {"self", "cls", "Tool", "Any", "Literal", "arguments", "uploads", "result", "_source"}
# What a remote-derived name must not shadow where the templates put it. A parameter is a local of
# `forward`, which reads the names below: builtins it calls, locals it reads after binding them, and
# every name a generated module defines (imports, constants, helpers). A tool class sits beside
# those module names. A remote parameter `tuple` or `AgentImage` becomes `tuple_`, `AgentImage_`
# (the wire name is kept); the gate refuses a module where one still shadows a module name, and
# tests/unit/test_naming.py checks `template_names()` against what the rendered templates read.
_TEMPLATES_OWN = frozenset(
    {
        # forward's locals read after they are bound (an argument of that name would be lost),
        # and the builtins it reads
        "self", "arguments", "uploads", "result", "_source",
        "tuple", "list", "dict", "str", "ModuleNotFoundError",
        # builtins the TypedDicts of unions of objects read at module level
        "int", "float", "bool",
        # module-level names the templates write: imports, constants, public helpers (private ones
        # start with "_", which no parameter or tool class name does)
        "Tool", "Any", "Literal", "NotRequired", "TypedDict", "AgentImage", "AgentAudio", "tools",
        "SERVER", "TIMEOUT", "CONNECT_TIMEOUT", "SOURCE_MODULE", "SOURCE_ATTR",
        # what the templates import from the run-time files
        "NOT_GIVEN", "SpaceTool", "image_result", "audio_result", "LangChainTool",
        "MCPSession", "MCPTool", "MCPToolError", "ToolList", "PromptTool", "ResourceTool",
    }
)  # fmt: skip


def template_names() -> frozenset[str]:
    """The names above: what a parameter must not hide from `forward` (a parameter is one of its locals, so the
    run-time files' own module-level names, which only their functions read, stay free: `time`, `headers`)."""
    return _TEMPLATES_OWN


@cache
def module_level_names() -> frozenset[str]:
    """What a tool class must not take: the names above, and the run-time files' public ones, beside which
    `push` inlines the class into a tool.py."""
    from vendorgen.package import (
        builtin_files,  # upward (pyproject.toml's ignore_imports): the shipped files' catalogue sits in package/
    )

    return _TEMPLATES_OWN | builtin_files.public_names()


# Names no generated module has a reason to touch: the gate refuses a module that uses one, so a
# remote parameter called `compile` or `vars` becomes `compile_`, `vars_`.
FORBIDDEN_NAMES = frozenset(
    {"eval", "exec", "compile", "__import__", "breakpoint", "globals", "locals", "vars", "setattr", "delattr"}
)


# The names an agent gives its own tools: smolagents' final answer and default tools, and the catalog's
# find_tools and call_tool. An upstream tool under one of them would take the agent's own (its final answer
# sent upstream) or stop it from starting (two tools of one name): a remote name becomes `final_answer_`, as
# `self` becomes `self_`; a name given as it is (a hub tool's own, an override) is refused. The shipped catalog
# refuses them too (its AGENT_TOOL_NAMES; tests/test_agent_tool_names.py holds both to smolagents' list).
AGENT_TOOL_NAMES = frozenset(
    {
        "final_answer", "python_interpreter", "user_input", "web_search", "visit_webpage", "wikipedia_search",
        "transcriber", "find_tools", "call_tool",
    }
)  # fmt: skip


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


def tool_name(remote: str) -> str:
    """A tool name for `remote`: python_name, and never a name of the agent's own tools (`final_answer_`)."""
    name = python_name(remote)
    return f"{name}_" if name in AGENT_TOOL_NAMES else name


def refuse_agent_tool_name(name: str, where: str) -> None:
    """Refuse a tool name given as it is (a hub tool's, an override's) that the agent gives one of its own tools."""
    if name in AGENT_TOOL_NAMES:
        raise SchemaError(
            f"{where}: the tool name {name!r} is one an agent gives its own tool (smolagents, the catalog):"
            f" it would replace that tool or stop the agent from starting; use another name (e.g. {name + '_'!r})"
        )


def module_name(remote: str) -> str:
    """A module (file) name vendorgen derives: lower snake case, `Python_REPL` -> `python_repl`,
    `JSON` -> `json_module` (a suffix python_name keeps: the name is read back through it)."""
    name = python_name(remote.lower())
    return f"{name}_module" if name in module_reserved() else name


@cache
def module_reserved() -> frozenset[str]:
    """Names a vendored module must not take: the server module imports every module of its package into
    its own namespace (`from . import NAME`), where NAME would replace what its code looks up there (an
    import such as `json`, a helper, a builtin such as `dict`). Read from the server module as `vendorgen
    serve` writes it, so a name it starts to use is reserved with it. Nothing else binds a module's name:
    generated modules and the shipped files import only `_vendored_*` siblings, which no module name can be."""
    from vendorgen.package.server_text import served_text  # upward (pyproject.toml's ignore_imports): as above

    return global_names(served_text())


def global_names(text: str) -> frozenset[str]:
    """Every name the module `text` binds at module level, and every name its code looks up as a global or builtin."""
    names: set[str] = set()
    tables = [symtable.symtable(text, "<shipped>", "exec")]
    while tables:
        table = tables.pop()
        module_scope = table.get_type() == "module"
        names |= {symbol.get_name() for symbol in table.get_symbols() if module_scope or symbol.is_global()}
        tables += table.get_children()
    return frozenset(names)


def parameter_name(remote: str) -> str:
    """A parameter name: kept as is when it is a usable identifier that shadows nothing `forward` reads."""
    # A leading underscore is the templates' own namespace (`_Session`, `_call`): never a parameter's.
    name = remote if is_parameter(remote) and not remote.startswith("_") else python_name(remote)
    return f"{name}_" if name in FORBIDDEN_NAMES or name in template_names() else name


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
    return f"Vendored{name}" if name in _RESERVED or name in module_level_names() else name


def unique(pairs: Iterable[tuple[str, str]], what: str, hint: str) -> None:
    """Refuse two remote names that map to one Python name, naming both and how to fix it."""
    seen: dict[str, str] = {}
    for remote, python in pairs:
        if python in seen:
            raise SchemaError(f"{what} {seen[python]!r} and {remote!r} both become {python!r}; {hint}")
        seen[python] = remote


def _is_reserved(name: str) -> bool:
    return keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in _RESERVED or name.startswith("__")


def shared_tool_names(tools_by_module: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Tool name -> the modules (two or more, sorted) that each have a tool of that name."""
    holders: dict[str, list[str]] = {}
    for module, tools in sorted(tools_by_module.items()):
        for tool in dict.fromkeys(tools):
            holders.setdefault(tool, []).append(module)
    return {tool: modules for tool, modules in sorted(holders.items()) if len(modules) > 1}
