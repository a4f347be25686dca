"""LangChain tools from the user's own code: `langchain:<module>:<attr>`.

`inspect` imports `<module>` (this runs its code, as the user's program would) and reads
each tool's `tool_call_schema`: the arguments a model gives, so injected arguments are
left out. The schema is deep-copied before anything reads it: the source tool is never
changed (smolagents' `Tool.from_langchain` changes it in place).

`<attr>` may be a `BaseTool`, a `BaseTool` subclass built with no arguments, a toolkit
(instance or class: each of `get_tools()`), a list of tools, or a function taking no
arguments that returns any of those. The generated `forward` imports the same object at
call time, finds the tool by its LangChain name and calls `.invoke()` with the wire names.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect as inspect_module
import keyword
import os
import re
import sys
import typing
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from vendorgen import naming
from vendorgen.errors import NotOffered, SchemaError, UsageError, VendorgenError
from vendorgen.model import ModuleSpec, OutputSpec, ToolSpec, null_refused_constant
from vendorgen.project import interpreter as project_python
from vendorgen.sources.base import COMMON_IMPORTS, AddOptions, Inspection, Source, replay_options
from vendorgen.text import limits, schema
from vendorgen.text.literals import escape_text

if TYPE_CHECKING:
    from vendorgen.project.interpreter import Interpreter

SHAPES = ("tool", "tool_class", "toolkit", "toolkit_class", "list", "factory")
# Return annotations with a smolagents type; anything else is "any".
_RETURNS = {str: ("string", "str"), int: ("integer", "int"), float: ("number", "float"), bool: ("boolean", "bool"),
            dict: ("object", "dict[str, Any]"), list: ("array", "list[Any]")}  # fmt: skip


def parse_target(target: str) -> tuple[str, str]:
    """`pkg.module:attr` -> (`pkg.module`, `attr`), both checked to be plain dotted identifiers."""
    module, sep, attr = target.rpartition(":")
    shown = escape_text(target)  # an error is one printable line, whatever the target holds
    if not sep or not module or not attr:
        raise UsageError(f"langchain:{shown} should be langchain:<module>:<attr>, e.g. langchain:my_agent.tools:search")
    for part in (*module.split("."), attr):
        if not (part.isidentifier() and part.isascii()) or keyword.iskeyword(part):
            raise UsageError(f"langchain:{shown}: {part!r} is not a Python identifier")
        if part in naming.FORBIDDEN_NAMES:  # the generated `from module import attr` would be refused
            raise UsageError(
                f"langchain:{shown}: {part!r} is a name vendored code may not use; expose the tools under another"
            )
    return module, attr


def inspect(target: str, options: AddOptions, interpreter: Interpreter) -> list[dict[str, Any]]:
    """Inspect in the project's interpreter (vendorgen/project/interpreter.py), so the user's own
    langchain and pydantic read the user's tools; in-process when that is vendorgen's own."""
    if interpreter.is_vendorgens_own:
        return inspect_here(target, options)
    fields = {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in vars(options).items()
        if key != "token"
    }  # not needed here, and a command line is visible to every user
    return project_python.call(interpreter, "sources.langchain", "inspect_in_child", target, fields, cwd=os.getcwd())


def bound_fields(target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The generated code imports the object `langchain:<target>` names, as re-inspection does."""
    module, attr = parse_target(target)
    return {"module": module, "attr": attr}


def inspect_in_child(target: str, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """`inspect_here` in the project's interpreter, from JSON arguments (see `inspect`)."""
    given: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value for key, value in fields.items()}
    options = AddOptions(**given)
    return inspect_here(target, options)


def inspect_here(target: str, options: AddOptions) -> list[dict[str, Any]]:
    module_name, attr = parse_target(target)
    module = _import(module_name)
    try:
        value = getattr(module, attr)
    except AttributeError:
        found = _offered(module, module_name)
        hint = f"; it has {', '.join(found)}" if found else ""
        raise NotOffered(f"{module_name} has no attribute {attr}{hint}") from None
    except Exception as exc:  # a module-level __getattr__ that fails
        raise VendorgenError(f"reading {module_name}:{attr} failed: {type(exc).__name__}: {_line(exc)}") from None
    shape, tools = tools_of(value, f"{module_name}:{attr}")
    names = [tool.name for tool in tools]
    if len(set(names)) != len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise SchemaError(f"{module_name}:{attr} gives several tools named {', '.join(twice)}")
    limits.TOOLS.check(len(tools), f"{module_name}:{attr}")
    if options.tools:
        tools = _select(tools, options.tools, options.prefix, f"{module_name}:{attr}")
    described = [_described(tool) for tool in tools]
    limits.check_listing(described, f"the tool schemas of {module_name}:{attr}")
    single = len(described) == 1
    default = naming.module_name(tool_name(described[0]["name"], options.prefix) if single else attr)
    name = naming.python_name(options.name) if options.name else default
    again = replay_options(name, tools=list(options.tools), prefix=options.prefix)
    return [
        {
            "kind": "langchain",
            "source": f"langchain:{target}",
            "name": name,
            "module": module_name,
            "attr": attr,
            "shape": shape,
            "revision": _revision(module),
            "prefix": options.prefix,
            # --name names the tool too when there is one (as for a single Space endpoint). Only a name
            # other than the default: `update` replays every module's name as if it had been given.
            "tool_name": name if single and name != default else "",
            "tools": described,
            "options": again,
            # What `forward` imports at call time comes from these (langchain-community), beside langchain-core.
            **({"distributions": found} if (found := _distributions([module_name, *map(_class_module, tools)])) else {}),
        }
    ]


def _class_module(tool: Any) -> str:
    return type(tool).__module__


def _distributions(module_names: list[str]) -> list[str]:
    """The installed distributions whose files hold these modules (the user's own code is in none), sorted."""
    from importlib import metadata

    by_import = metadata.packages_distributions()
    found: set[str] = set()
    for module_name in dict.fromkeys(module_names):
        path = getattr(sys.modules.get(module_name), "__file__", None)
        if not path:
            continue
        for distribution_name in by_import.get(module_name.split(".")[0], []):
            distribution = metadata.distribution(distribution_name)
            files = {os.path.realpath(str(distribution.locate_file(file))) for file in distribution.files or ()}
            if os.path.realpath(path) in files:
                found.add(distribution.metadata["Name"])
    return sorted(found - {"langchain-core", "langchain_core"})


def _import(module_name: str) -> Any:
    """Import the user's module, from the current directory first (as `python -m` would)."""
    added = os.getcwd() not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise UsageError(
                f"cannot import {module_name}: no module {exc.name} here (run vendorgen where your code imports from,"
                " or set PYTHONPATH)"
            ) from None
        raise VendorgenError(f"importing {module_name} failed: {type(exc).__name__}: {exc}") from None
    except (Exception, SystemExit) as exc:  # the user's module raised (or exited) while importing
        raise VendorgenError(f"importing {module_name} failed: {type(exc).__name__}: {exc}") from None
    finally:
        if added:
            sys.path.remove(os.getcwd())


def _revision(module: Any) -> str:
    """The first 12 hex digits of the module file's sha256: which version of the code was read."""
    path = getattr(module, "__file__", None)
    if not path or not os.path.isfile(path):
        return ""
    with open(path, "rb") as handle:
        return "sha256:" + hashlib.sha256(handle.read()).hexdigest()[:12]


def _is_tool_like(value: Any) -> bool:
    from langchain_core.tools import BaseTool, BaseToolkit

    return isinstance(value, (BaseTool, BaseToolkit)) or (
        isinstance(value, type) and issubclass(value, (BaseTool, BaseToolkit)) and not inspect_module.isabstract(value)
    )


def _offered(module: Any, module_name: str) -> list[str]:
    """What `<attr>` could name in `module`: tools, tool classes, toolkits, lists of tools and factories."""
    from langchain_core.tools import BaseTool

    def offered(value: Any) -> bool:
        if _is_tool_like(value):
            return not isinstance(value, type) or value.__module__ == module_name  # not imported classes
        if isinstance(value, (list, tuple)):
            return bool(value) and all(isinstance(item, BaseTool) for item in value)
        return _is_factory(value, module_name)

    return sorted(name for name, value in vars(module).items() if not name.startswith("_") and offered(value))


def _is_factory(value: Any, module_name: str) -> bool:
    """A function of the module that needs no arguments and, if its return is annotated, returns tools."""
    if not inspect_module.isfunction(value) or value.__module__ != module_name or _required_arguments(value):
        return False
    returns = inspect_module.signature(value).return_annotation
    return returns is inspect_module.Signature.empty or "Tool" in str(returns)


def _required_arguments(function: Any) -> list[str]:
    try:
        parameters = inspect_module.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    variadic = (inspect_module.Parameter.VAR_POSITIONAL, inspect_module.Parameter.VAR_KEYWORD)
    return [
        parameter.name
        for parameter in parameters
        if parameter.default is parameter.empty and parameter.kind not in variadic
    ]


def tools_of(value: Any, where: str, depth: int = 0) -> tuple[str, list[Any]]:
    """(shape, LangChain tools) of what `<attr>` names; the generated code resolves it the same way."""
    from langchain_core.tools import BaseTool, BaseToolkit

    if isinstance(value, BaseTool):
        return "tool", [value]
    if isinstance(value, BaseToolkit):
        try:
            return "toolkit", list(value.get_tools())
        except Exception as exc:
            raise VendorgenError(f"{where}.get_tools() failed: {type(exc).__name__}: {_line(exc)}") from None
    if isinstance(value, type) and issubclass(value, (BaseTool, BaseToolkit)):
        try:
            built = value()
        except Exception as exc:
            raise UsageError(f"{where} cannot be built with no arguments: {type(exc).__name__}: {_line(exc)}") from None
        return ("tool_class" if issubclass(value, BaseTool) else "toolkit_class"), tools_of(built, where, depth + 1)[1]
    if isinstance(value, (list, tuple)) and value and all(isinstance(item, BaseTool) for item in value):
        return "list", list(value)
    if callable(value) and not isinstance(value, type) and depth == 0:
        if required := _required_arguments(value):
            raise UsageError(
                f"{where} is a function that needs arguments ({', '.join(required)}); give one that needs none"
            )
        try:
            result = value()
        except Exception as exc:
            raise VendorgenError(f"calling {where}() failed: {type(exc).__name__}: {_line(exc)}") from None
        return "factory", tools_of(result, f"{where}()", depth + 1)[1]
    raise UsageError(
        f"{where} is a {type(value).__name__}, not a LangChain tool, tool class, toolkit, list of tools"
        " or function returning one"
    )


def _select(tools: list[Any], wanted: tuple[str, ...], prefix: str, where: str) -> list[Any]:
    by_name: dict[str, Any] = {}
    for tool in tools:
        by_name[tool.name] = tool
        by_name.setdefault(tool_name(tool.name, prefix), tool)
    unknown = [name for name in wanted if name not in by_name]
    if unknown:
        raise NotOffered(
            f"no tool {', '.join(unknown)} in {where}; available: {', '.join(tool.name for tool in tools)}"
        )
    chosen: list[Any] = []
    for name in wanted:
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    return chosen


def _described(tool: Any) -> dict[str, Any]:
    """`describe(tool)`; the tool's own code failing on the way (a schema property) is one error line."""
    try:
        return describe(tool)
    except VendorgenError:
        raise
    except Exception as exc:
        raise SchemaError(
            f"reading the arguments of tool {tool.name!r} failed: {type(exc).__name__}: {_line(exc)}"
        ) from None


def describe(tool: Any) -> dict[str, Any]:
    """One tool as JSON: what `build` needs, read without changing the tool."""
    call_schema = _json_schema(tool.tool_call_schema)
    input_schema = _json_schema(tool.get_input_schema())
    # `tool_call_schema` names a pydantic field by its Python name, the input schema (what
    # `.invoke()` validates) by its alias: the alias is the wire name.
    arguments = call_schema.get("properties") or {}
    aliases = {name: alias for name, alias in _aliases(tool.get_input_schema()).items() if name in arguments}
    visible = {aliases.get(name, name) for name in arguments}
    injected = [name for name in (input_schema.get("properties") or {}) if name not in visible]
    required = set(input_schema.get("required") or [])
    if missing := [name for name in injected if name in required]:
        raise SchemaError(
            f"tool {tool.name!r} needs injected argument(s) {', '.join(missing)} with no default: only a LangChain"
            " runtime can give them, so a vendored tool could never call it"
        )
    kind, annotation = _output(tool)
    described = {
        "name": tool.name,
        "description": tool.description or "",
        "schema": call_schema,
        "injected": injected,
        "output_type": kind,
        "output_annotation": annotation,
    }
    if aliases:
        described["aliases"] = aliases
    if is_async(tool):
        described["is_async"] = True
    return described


def _aliases(model: Any) -> dict[str, str]:
    """{Python name: alias} of a pydantic model's fields that `.invoke()` expects under another name."""
    fields = getattr(model, "model_fields", None)
    if not isinstance(fields, Mapping):
        return {}
    found = {}
    for name, info in fields.items():
        alias = getattr(info, "validation_alias", None) or getattr(info, "alias", None)
        if isinstance(alias, str) and alias != name:
            found[name] = alias
    return found


def is_async(tool: Any) -> bool:
    """A tool built from a coroutine only (`StructuredTool.from_function(coroutine=...)`): `.invoke()`
    raises NotImplementedError on it, only `.ainvoke()` runs it."""
    return getattr(tool, "func", False) is None and getattr(tool, "coroutine", None) is not None


def _json_schema(value: Any) -> dict[str, Any]:
    """A JSON Schema copy of a pydantic model class or a dict schema; the original is untouched."""
    if isinstance(value, Mapping):
        return copy.deepcopy(dict(value))
    if hasattr(value, "model_json_schema"):
        return copy.deepcopy(value.model_json_schema())
    raise SchemaError(f"cannot read the argument schema {value!r}")


def _output(tool: Any) -> tuple[str, str]:
    """The smolagents output type from the function's return annotation; `any` when unsure."""
    if getattr(tool, "response_format", "content") != "content":
        return "any", "Any"
    function = getattr(tool, "func", None) or getattr(tool, "coroutine", None) or getattr(type(tool), "_run", None)
    try:
        hint = typing.get_type_hints(function).get("return") if function is not None else None
    except Exception:  # unresolvable annotations: not worth failing over
        hint = None
    origin = typing.get_origin(hint) or hint
    return _RETURNS.get(origin, ("any", "Any")) if isinstance(origin, type) else ("any", "Any")


def _line(exc: BaseException) -> str:
    return escape_text(" ".join(str(exc).split()))


def tool_name(lc_name: str, prefix: str = "") -> str:
    if prefix:
        return naming.tool_name(f"{prefix.rstrip('_')}_{lc_name}")
    return naming.tool_name(lc_name)


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    module_name, attr = snapshot["module"], snapshot["attr"]
    parse_target(f"{module_name}:{attr}")  # the snapshot may have been edited: these become code
    if snapshot.get("shape") not in SHAPES:
        raise SchemaError(f"unknown LangChain object shape {snapshot.get('shape')!r}")
    tools = []
    listing = limits.listing_budget(f"{module_name}:{attr}")
    for raw in snapshot["tools"]:
        given = snapshot.get("tool_name")  # --name; an edited snapshot may hold anything
        name = naming.tool_name(given) if given else tool_name(raw["name"], snapshot.get("prefix", ""))
        tools.append(_tool(raw, name, listing))
    return ModuleSpec(
        name=naming.python_name(snapshot["name"]),
        kind="langchain",
        source=snapshot["source"],
        revision=snapshot.get("revision", ""),
        tools=tuple(tools),
        constants=(("SOURCE_MODULE", module_name), ("SOURCE_ATTR", attr)),
        requirements=(*LangChainSource.requirements, *_distribution_names(snapshot.get("distributions", []))),
    )


_DISTRIBUTION = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\Z")


def _distribution_names(names: Any) -> list[str]:
    """The snapshot's distributions, each a plain name: they reach requirements files (an edited snapshot
    could hold an option line such as `--index-url`)."""
    if not isinstance(names, list) or not all(isinstance(name, str) and _DISTRIBUTION.match(name) for name in names):
        raise SchemaError(f"the snapshot's distributions are not distribution names: {escape_text(repr(names))[:200]}")
    return names


def _tool(raw: Mapping[str, Any], name: str, listing: limits.NodeBudget) -> ToolSpec:
    lc_name = raw["name"]
    try:
        inputs = schema.inputs_from_object(raw["schema"], listing, lc_name)
    except SchemaError as exc:
        raise SchemaError(f"tool {lc_name!r}: {exc}") from None
    aliases = raw.get("aliases") or {}
    if not isinstance(aliases, Mapping) or not all(isinstance(alias, str) for alias in aliases.values()):
        raise SchemaError(f"tool {lc_name!r}: `aliases` is not a map of names")
    inputs = tuple(replace(spec, wire_name=aliases.get(spec.wire_name, spec.wire_name)) for spec in inputs)
    # Only `.ainvoke()` runs an async-only tool: the runtime runs it on an event loop of its own.
    constants: tuple[tuple[str, Any], ...] = (("lc_name", lc_name),)
    if raw.get("is_async") is True:
        constants += (("is_async", True),)
    constants += null_refused_constant(inputs)
    kind = raw.get("output_type", "any")
    annotation = raw.get("output_annotation", "Any")
    if (kind, annotation) not in _RETURNS.values():
        kind, annotation = "any", "Any"
    description = raw.get("description") or ""
    return ToolSpec(
        name=name,
        class_name=naming.class_name(name),
        description=schema.description_text(description) if description.strip() else f"The {lc_name} tool.",
        endpoint=lc_name,
        inputs=inputs,
        outputs=(OutputSpec("result", kind, annotation, "what the LangChain tool returns"),),
        output_type=kind,
        constants=constants,
        generated_description=not description.strip(),
    )


class LangChainSource(Source):
    """LangChain tools from the user's own code: the module imports that code at call time.

    What the runtime's LangChainTool reads from a tool's constants: `lc_name`; `is_async`
    (True only), when only `.ainvoke()` runs the tool; `null_refused` (`model.null_refused_constant`).
    """

    kind = "langchain"
    target = "langchain:<module>:<attr>"
    options = frozenset({"tools", "prefix", "name"})
    help = """langchain: imports <module> (from this directory first) and runs its code,
  as your own program would; <attr> is a BaseTool, a BaseTool class, a
  toolkit, or a function returning one of those or a list of tools."""
    template = "langchain.py.j2"
    allowed_imports = COMMON_IMPORTS | {
        "smolagents.Tool",
        "._vendored_langchain.LangChainTool",
        "._vendored_runtime.NOT_GIVEN",
    }
    runtime_files = ("_vendored_langchain.py",)
    requirements = ("smolagents", "langchain-core")
    ranges = MappingProxyType({**Source.ranges, "langchain-core": ">=0.3,<2"})

    # Each hook calls this module's function of the same name (a method's body sees the module's names).
    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        return inspect(target, options, context.interpreter())

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        return build(snapshot)

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        return bound_fields(target, snapshot)

    def imports_allowed(self, module: ModuleSpec) -> frozenset[str]:
        """Also the user's object the module's tools come from."""
        constants = module.constants_dict()
        return self.allowed_imports | {f"{constants['SOURCE_MODULE']}.{constants['SOURCE_ATTR']}"}
