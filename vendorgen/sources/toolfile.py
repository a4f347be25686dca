"""A smolagents `tool.py`, read without running it.

`Tool.from_hub` executes the file to learn what the tool is. Here the file is
parsed with libcst, the `Tool` subclasses are found by their bases, and the
smolagents attributes are read as literals. Nothing in the file is imported or
evaluated beyond `ast.literal_eval` of those literals, so a `tool.py` that
would do something on import does nothing here.
"""

from __future__ import annotations

import ast
import json
from functools import cached_property
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from vendorgen.errors import NotOffered, SchemaError, UsageError
from vendorgen.text.literals import escape_text

# The class attributes smolagents reads; the first four are required.
ATTRIBUTES = ("name", "description", "inputs", "output_type", "output_schema")
REQUIRED = ATTRIBUTES[:4]
# Where smolagents' Tool can be imported from.
_TOOL_MODULES = ("smolagents", "smolagents.tools")


class ToolFile:
    """One parsed tool file; `label` names it in errors (`tool.py of owner/space`)."""

    def __init__(self, text: str, label: str = "tool.py") -> None:
        self.label = label
        try:
            self.tree = cst.parse_module(text)
            self._positions = MetadataWrapper(self.tree, unsafe_skip_copy=True).resolve(PositionProvider)
        except cst.ParserSyntaxError as exc:
            raise SchemaError(
                f"{label} line {exc.raw_line}, column {exc.raw_column}: syntax error (not valid Python 3 code)"
            ) from None
        except RecursionError:  # libcst walks the tree recursively: ~150 nested brackets are too many
            raise SchemaError(f"{label}: the code is nested too deeply to be read") from None
        try:
            # Compiled, never run: refuses what a parser lets through, like `return` outside a function.
            compile(text, label, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            where = f" line {exc.lineno}" if isinstance(exc, SyntaxError) and exc.lineno else ""
            problem = exc.msg if isinstance(exc, SyntaxError) else str(exc)
            raise SchemaError(f"{label}{where}: {escape_text(problem)} (not valid Python 3 code)") from None

    def line(self, node: cst.CSTNode) -> int:
        return self._positions[node].start.line

    @cached_property
    def tool_classes(self) -> dict[str, cst.ClassDef]:
        """Top-level classes deriving from smolagents' Tool, directly or through another class of this file."""
        bound = self._names_bound_to_tool()
        found: dict[str, cst.ClassDef] = {}
        for statement in self.tree.body:  # a base is defined before the classes that use it
            if isinstance(statement, cst.ClassDef):
                bases = {self.tree.code_for_node(base.value) for base in statement.bases}
                if bases & (bound | found.keys()):
                    found[statement.name.value] = statement
        return found

    @cached_property
    def namespace_tool_classes(self) -> list[str]:
        """The Tool classes left in the module's namespace once it ran, where smolagents' from_code looks:
        a class the file deletes at its top level is not there."""
        return [name for name in self.tool_classes if name not in self._deleted_names()]

    def choose(self, class_name: str | None) -> str:
        """The Tool class to read: `class_name`, or the only one there is.

        Private classes (`_Name`) are helper bases, not the tool, and so are classes the file deletes
        at its top level (smolagents' from_code never sees them): a `vendorgen push`ed tool.py holds
        the runtime's base (`SpaceTool`..., deleted at its end; `_SpaceTool` before) beside its one tool class.
        """
        names = self.namespace_tool_classes
        if not names:
            raise SchemaError(f"{self.label} defines no subclass of smolagents' Tool")
        if class_name is None:
            public = [name for name in names if not name.startswith("_")]
            if len(public) == 1:
                return public[0]
            if len(names) > 1:
                raise UsageError(
                    f"{self.label} defines {len(names)} Tool classes ({', '.join(names)}); pick one with --class"
                )
            return names[0]
        if class_name not in names:  # at re-inspection: the module is gone upstream
            raise NotOffered(f"{self.label} has no Tool class {class_name!r}; it defines: {', '.join(names)}")
        return class_name

    def attributes(self, class_name: str) -> dict[str, Any]:
        """The smolagents attributes of `class_name` as Python values, inherited ones included.

        Every value must be a literal that JSON can carry; a missing required
        attribute or any other value is an error naming the attribute and line.
        """
        found: dict[str, Any] = {}
        for node in self._lineage(class_name):
            # In one class body the last assignment wins; a nearer class wins over its bases.
            own = {target: value for target, value in _class_assignments(node) if target in ATTRIBUTES}
            for target, value in own.items():
                if target not in found:
                    found[target] = self._literal(value, f"{node.name.value}.{target}")
        if missing := [name for name in REQUIRED if name not in found]:
            raise SchemaError(
                f"{self.label}: {class_name} has no class attribute {', '.join(missing)}"
                " (vendorgen reads class-level literals only; values set in __init__ cannot be read without running it)"
            )
        return found

    def _lineage(self, class_name: str) -> list[cst.ClassDef]:
        """`class_name` and its bases defined in this file, nearest first (depth-first, left to right)."""
        order: list[cst.ClassDef] = []
        pending = [class_name]
        while pending:
            node = self.tool_classes.get(pending.pop(0))
            if node is not None and node not in order:
                order.append(node)
                pending = [self.tree.code_for_node(base.value) for base in node.bases] + pending
        return order

    def _literal(self, node: cst.BaseExpression, what: str) -> Any:
        code = self.tree.code_for_node(node).strip()
        try:
            value = ast.literal_eval(code)
            json.dumps(value, allow_nan=False)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            shown = code if len(code) <= 60 else code[:57] + "..."
            raise SchemaError(
                f"{self.label} line {self.line(node)}: {what} is not a literal vendorgen can read without running"
                f" the code ({shown}); write it as a plain dict/list/str/number literal"
            ) from None
        return value

    def _deleted_names(self) -> set[str]:
        """The names a top-level `del` statement removes from the module's namespace."""
        return {
            self.tree.code_for_node(target.value)
            for statement in self.tree.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
            if isinstance(small, cst.Del)
            for target in (
                small.target.elements if isinstance(small.target, cst.Tuple) else [cst.Element(small.target)]
            )
        }

    def _names_bound_to_tool(self) -> set[str]:
        """How this file spells smolagents' Tool: `Tool`, an alias, or `smolagents.Tool` through a module import."""
        names: set[str] = set()
        for statement in self.tree.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                    if self.tree.code_for_node(small.module) in _TOOL_MODULES and not isinstance(
                        small.names, cst.ImportStar
                    ):
                        names.update(
                            _bound_name(self.tree, alias)
                            for alias in small.names
                            if _imported(self.tree, alias) == "Tool"
                        )
                elif isinstance(small, cst.Import):
                    for alias in small.names:
                        if _imported(self.tree, alias) in _TOOL_MODULES:
                            names.add(f"{_bound_name(self.tree, alias)}.Tool")
        return names


def _class_assignments(node: cst.ClassDef) -> list[tuple[str, cst.BaseExpression]]:
    """`name = value` and `name: T = value` statements directly in the class body."""
    found = []
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                found += [(t.target.value, small.value) for t in small.targets if isinstance(t.target, cst.Name)]
            elif isinstance(small, cst.AnnAssign) and small.value is not None and isinstance(small.target, cst.Name):
                found.append((small.target.value, small.value))
    return found


def _imported(tree: cst.Module, alias: cst.ImportAlias) -> str:
    return tree.code_for_node(alias.name)


def _bound_name(tree: cst.Module, alias: cst.ImportAlias) -> str:
    """The name an import binds: its `as` name, or the name itself."""
    if alias.asname is not None:
        return tree.code_for_node(alias.asname.name)
    return _imported(tree, alias)
