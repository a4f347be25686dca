"""The validation gate: a generated module must have exactly the shape its spec promises.

Remote text reaches the code only through escaped literals, so any difference
between the module and its spec is a template bug or an attempt to smuggle code
through a schema. Either way the module is refused and nothing is written.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import hashlib
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, NoReturn

import libcst as cst

from vendorgen.errors import GateError
from vendorgen.model import ANNOTATIONS, NO_DEFAULT, ModuleSpec, ToolSpec
from vendorgen.naming import FORBIDDEN_NAMES
from vendorgen.package import files
from vendorgen.project.paths import is_runtime_import
from vendorgen.text.formatter import DEFAULT_LINE_LENGTH, without_gc
from vendorgen.text.pysource import check_as_written

if TYPE_CHECKING:
    from vendorgen.sources import Source

# Entry points a template may define beside the tool classes.
PUBLIC_HELPERS = frozenset({"tools"})
# Nodes that hold only spaces, newlines and comments: more than half of a module's nodes,
# and nothing in them is code, so the walk in `check_everywhere` skips them.
_LAYOUT = (cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline, cst.Comment)


def check_runtime(text: str, path: str) -> None:
    """A run-time file is accepted by its known hash, never by its shape: it is vendorgen's own file."""
    name = PurePosixPath(path).name
    if name not in files.runtime_files() or hashlib.sha256(text.encode("utf-8")).hexdigest() != files.sha256(name):
        raise GateError(f"{path} is not the run-time file this vendorgen ships (its installation was changed?)")


def check_module(code: str, module: ModuleSpec, source: Source, line_length: int = DEFAULT_LINE_LENGTH) -> None:
    """Raise GateError unless `code` is exactly the module `module` describes, as `source` (which built it) writes it."""
    with without_gc():  # libcst makes several objects per token
        _check_module(code, module, source, line_length)


def _check_module(code: str, module: ModuleSpec, source: Source, line_length: int) -> None:
    check_as_written(code, module.name)
    try:
        tree = cst.parse_module(code)
    except cst.ParserSyntaxError as exc:
        raise GateError(f"{module.name}: generated code does not parse: {exc.message}") from None
    try:
        # Compiling (never running) also catches what a parser allows, like duplicate arguments.
        compile(code, f"<{module.name}>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise GateError(f"{module.name}: generated code does not compile: {exc.msg} (line {exc.lineno})") from None
    if source.check_written(code, module, line_length):  # not rendered from its template: checked by its kind
        return
    check_shadowing(code, module)
    _Checker(tree, module, source.imports_allowed(module), {**ANNOTATIONS, **source.annotations}).run()


def check_shadowing(source: str, module: ModuleSpec) -> None:
    """No remote-derived name hides a module-level name the template's code relies on.

    A tool class never takes the name of another module-level definition, and a `forward`
    parameter never takes a module-level name: `forward` would call the argument ("'str' object
    is not callable"). naming.template_names() keeps remote names clear of these (and of the builtins
    and locals `forward` uses, which only the templates' text shows); this check holds whatever
    the templates import or define.
    """
    tree = ast.parse(source)
    defined = [name for statement in tree.body for name in _module_bindings(statement)]
    for statement in tree.body:
        if not isinstance(statement, ast.ClassDef) or statement.name not in {t.class_name for t in module.tools}:
            continue
        if defined.count(statement.name) > 1:
            raise GateError(f"{module.name}: the tool class {statement.name} shadows a name the module defines")
        for method in statement.body:
            if isinstance(method, ast.FunctionDef) and method.name == "forward":
                for param in method.args.args[1:]:
                    if param.arg in defined:
                        raise GateError(
                            f"{module.name}: parameter {param.arg} of {statement.name}.forward shadows"
                            f" the module's {param.arg}"
                        )


def _module_bindings(statement: ast.stmt) -> Iterator[str]:
    """The names a module-level statement binds (`from __future__` binds nothing code reads)."""
    if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
        return
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        yield from ((alias.asname or alias.name).partition(".")[0] for alias in statement.names)
    elif isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        yield statement.name
    else:  # an assignment: its targets
        yield from (
            node.id for node in ast.walk(statement) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        )


class _Checker:
    def __init__(
        self, tree: cst.Module, module: ModuleSpec, allowed_imports: frozenset[str], annotations: dict[str, str]
    ) -> None:
        self.tree = tree
        self.module = module
        self.allowed_imports = allowed_imports
        self.annotations = annotations
        self.tools = {tool.class_name: tool for tool in module.tools}
        self.wire_strings = {spec.wire_name for tool in module.tools for spec in tool.inputs}
        self.private_bases = {
            statement.name.value
            for statement in tree.body
            if isinstance(statement, cst.ClassDef) and statement.name.value.startswith("_")
        }
        # Tool base classes the run-time files provide, as this module imports them.
        self.runtime_bases = {
            name.rpartition(".")[2]
            for statement in tree.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
            if isinstance(small, cst.ImportFrom)
            for name in _imported_names(tree, small)
            if is_runtime_import(name) and name.rpartition(".")[2] in files.tool_bases()
        }
        # Filled by `run`, read by the one walk in `check_everywhere`: the roots of template
        # code (whose strings must be plain) and, inside them, the values already compared
        # with the spec (forward's defaults, where remote text belongs).
        self.template_roots: set[int] = set()
        self.checked_values: set[int] = set()

    def fail(self, message: str) -> NoReturn:
        raise GateError(f"{self.module.name}: {message}")

    def code(self, node: cst.CSTNode) -> str:
        return self.tree.code_for_node(node)

    def value(self, node: cst.CSTNode, what: str) -> Any:
        # A plain string is its own token (parentheses around it change nothing): no codegen.
        text = node.value if isinstance(node, cst.SimpleString) else self.code(node).strip()
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError):
            self.fail(f"{what} is not a literal")

    def run(self) -> None:
        seen_classes: set[str] = set()
        constants = self.module.constants_dict()
        seen_constants: set[str] = set()
        shapes = {shape.name: shape.expression for shape in self.module.typed_dicts}
        seen_shapes: set[str] = set()
        for statement in self.tree.body:
            if isinstance(statement, cst.ClassDef):
                name = statement.name.value
                if name in self.tools:
                    self.check_tool_class(statement, self.tools[name])
                elif not name.startswith("_"):
                    self.fail(f"unexpected class {name}")
                else:
                    self.mark_template_code(statement)
                seen_classes.add(name)
            elif isinstance(statement, cst.FunctionDef):
                if statement.name.value not in PUBLIC_HELPERS and not statement.name.value.startswith("_"):
                    self.fail(f"unexpected function {statement.name.value}")
                self.mark_template_code(statement)
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        self.check_import(small)
                    elif (assignment := self._assignment(small)) is not None and assignment[0] in constants:
                        target, value = assignment
                        if not _same(self.value(value, target), constants[target]):
                            self.fail(f"module constant {target} differs from the spec")
                        seen_constants.add(target)
                    elif assignment is not None and assignment[0] in shapes and isinstance(small, cst.Assign):
                        target, value = assignment
                        # Keys and Literal values are remote text: compared with the spec as a whole.
                        if not _same_expression(self.code(value), shapes[target]):
                            self.fail(f"TypedDict {target} differs from the spec")
                        seen_shapes.add(target)
                    else:
                        self.fail(f"unexpected module-level statement: {self.code(small).strip()[:80]!r}")
            else:
                self.fail(f"unexpected module-level statement: {self.code(statement).strip()[:80]!r}")
        if missing := set(self.tools) - seen_classes:
            self.fail(f"missing tool classes: {', '.join(sorted(missing))}")
        if missing := set(constants) - seen_constants:
            self.fail(f"missing module constants: {', '.join(sorted(missing))}")
        if missing := set(shapes) - seen_shapes:
            self.fail(f"missing TypedDicts: {', '.join(sorted(missing))}")
        self.check_everywhere()

    def _assignment(self, node: cst.BaseSmallStatement) -> tuple[str, cst.BaseExpression] | None:
        """(name, value) of `name = value` or `name: annotation = value`; None for any other statement.

        An annotation must be the one `model.ANNOTATIONS` or the source gives the name.
        """
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            return node.targets[0].target.value, node.value
        if isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name) and node.value is not None:
            name = node.target.value
            if self.code(node.annotation.annotation) != self.annotations.get(name):
                self.fail(f"unexpected annotation of {name}")
            return name, node.value
        return None

    def check_import(self, node: cst.Import | cst.ImportFrom) -> None:
        for name in _imported_names(self.tree, node):
            if name not in self.allowed_imports:
                self.fail(f"import of {name} is not allowed")

    def check_tool_class(self, node: cst.ClassDef, tool: ToolSpec) -> None:
        bases = {"Tool", *self.private_bases, *self.runtime_bases}
        if node.decorators or len(node.bases) != 1 or self.code(node.bases[0].value) not in bases:
            self.fail(f"class {tool.class_name} must subclass Tool (or a helper base here) and nothing else")
        body = list(node.body.body)
        if not body or not _is_docstring(body[0]):
            self.fail(f"class {tool.class_name} has no docstring")
        docstring = self.value(body[0].body[0].value, "docstring")  # type: ignore[attr-defined]
        if _normal_doc(docstring) != _normal_doc(tool.docstring(self.module.source)):
            self.fail(f"class {tool.class_name}: docstring differs from the spec")
        expected = tool.class_attributes()
        seen: set[str] = set()
        methods: dict[str, cst.FunctionDef] = {}
        for statement in body[1:]:
            if isinstance(statement, cst.FunctionDef):
                methods[statement.name.value] = statement
                continue
            one_line = isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            assignment = self._assignment(statement.body[0]) if one_line else None  # type: ignore[attr-defined]
            if assignment is None or assignment[0] not in expected:
                self.fail(f"class {tool.class_name}: unexpected statement {self.code(statement).strip()[:80]!r}")
            target, value = assignment
            if not _same(self.value(value, f"{tool.class_name}.{target}"), expected[target]):
                self.fail(f"class {tool.class_name}: {target} differs from the spec")
            seen.add(target)
        if missing := set(expected) - seen:
            self.fail(f"class {tool.class_name}: missing {', '.join(sorted(missing))}")
        if "forward" not in methods:
            self.fail(f"class {tool.class_name} has no forward method")
        self.check_forward(methods["forward"], tool)
        for method in methods.values():
            self.mark_template_code(method, defaults_checked=method is methods["forward"])

    def check_forward(self, node: cst.FunctionDef, tool: ToolSpec) -> None:
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT and params.star_arg is not None:
            self.fail(f"{tool.class_name}.forward takes *args")
        if params.star_kwarg is not None or params.kwonly_params or params.posonly_params:
            self.fail(f"{tool.class_name}.forward has an unexpected signature")
        names = [param.name.value for param in params.params]
        expected = ["self", *(spec.name for spec in tool.inputs)]
        if names != expected:
            self.fail(f"{tool.class_name}.forward parameters {names[1:]} differ from inputs {expected[1:]}")
        for param, spec in zip(params.params[1:], tool.inputs):
            if param.annotation is None or not _same_expression(
                self.code(param.annotation.annotation), spec.annotation
            ):
                self.fail(f"{tool.class_name}.forward: annotation of {spec.name} differs from the spec")
            if spec.python_default is NO_DEFAULT:
                if param.default is not None:
                    self.fail(f"{tool.class_name}.forward: {spec.name} must not have a default")
            elif spec.python_default is None:  # the source applies its own default: the runtime's sentinel
                if not (isinstance(param.default, cst.Name) and param.default.value == "NOT_GIVEN"):
                    self.fail(f"{tool.class_name}.forward: default of {spec.name} must be NOT_GIVEN")
            elif param.default is None or not _same(self.value(param.default, spec.name), spec.python_default):
                self.fail(f"{tool.class_name}.forward: default of {spec.name} differs from the spec")
        returns = node.returns
        if returns is None or not _same_expression(self.code(returns.annotation), tool.return_annotation):
            self.fail(f"{tool.class_name}.forward: return annotation differs from the spec")

    def mark_template_code(self, node: cst.ClassDef | cst.FunctionDef, defaults_checked: bool = False) -> None:
        """Template code: only plain ASCII text or this module's wire names in its strings.

        `defaults_checked`: the parameter defaults and annotations of `forward` were already
        compared with the spec, so remote text is expected there. The strings are
        checked in `check_everywhere`'s walk, so the tree is walked once.
        """
        self.template_roots.add(id(node))
        if defaults_checked and isinstance(node, cst.FunctionDef):
            # Its annotations too: `Literal[...]` holds enum values, compared with the spec by check_forward.
            params = node.params.params
            checked = [node.returns, *(param.default for param in params), *(param.annotation for param in params)]
            self.checked_values.update(id(value) for value in checked if value is not None)

    def check_template_string(self, node: cst.SimpleString) -> None:
        value = self.value(node, "string")
        if isinstance(value, bytes):
            self.fail("bytes literal in generated code")
        if value in self.wire_strings:
            return
        if not (value.isascii() and value.isprintable() and "\\" not in value):
            self.fail(f"unexpected text in template code: {value[:60]!r}")

    def check_everywhere(self) -> None:
        """One walk of the whole tree: names and imports anywhere, strings in template code."""
        stack: list[tuple[cst.CSTNode, bool]] = [(self.tree, False)]
        while stack:
            node, in_template = stack.pop()
            if id(node) in self.template_roots:
                in_template = True
            elif id(node) in self.checked_values:
                in_template = False
            role = _role(type(node))
            if role is _Role.NAME:
                if node.value in FORBIDDEN_NAMES:  # type: ignore[attr-defined]
                    self.fail(f"use of {node.value} is not allowed")  # type: ignore[attr-defined]
            elif role is _Role.IMPORT:
                self.check_import(node)  # type: ignore[arg-type]
            elif role is _Role.STRING and in_template:
                self.check_template_string(node)  # type: ignore[arg-type]
            stack.extend((child, in_template) for child in _children(node) if _role(type(child)) is not _Role.LAYOUT)


def _imported_names(tree: cst.Module, node: cst.Import | cst.ImportFrom) -> Iterator[str]:
    if isinstance(node, cst.Import):
        for alias in node.names:
            yield tree.code_for_node(alias.name)
        return
    # A relative import keeps its dots: `._vendored_gradio.SpaceTool`.
    module = "." * len(node.relative) + (tree.code_for_node(node.module) if node.module else "")
    if isinstance(node.names, cst.ImportStar):
        yield f"{module}.*"
        return
    for alias in node.names:
        yield f"{module}.{tree.code_for_node(alias.name)}"


def _children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes `node.children` lists, read from the dataclass fields.

    libcst's `children` runs a visitor over the node; reading the fields is several
    times faster, and a unit test checks both give the same nodes.
    """
    for name in _node_fields(type(node)):
        value: Any = getattr(node, name)
        for item in value if isinstance(value, (tuple, list)) else (value,):
            item_type: type = type(item)
            if _role(item_type) is not _Role.NOT_A_NODE:
                yield item


@functools.cache
def _node_fields(node_type: type[cst.CSTNode]) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(node_type))


class _Role(enum.Enum):
    """What the walk in `check_everywhere` does with a node of some type."""

    NOT_A_NODE = enum.auto()
    LAYOUT = enum.auto()
    NAME = enum.auto()
    IMPORT = enum.auto()
    STRING = enum.auto()
    OTHER = enum.auto()


@functools.cache
def _role(node_type: type) -> _Role:
    """Decided once per type: `isinstance` against libcst's abstract classes is most of a walk's time."""
    if not issubclass(node_type, cst.CSTNode):
        return _Role.NOT_A_NODE
    if issubclass(node_type, _LAYOUT):
        return _Role.LAYOUT
    if issubclass(node_type, cst.Name):
        return _Role.NAME
    if issubclass(node_type, (cst.Import, cst.ImportFrom)):
        return _Role.IMPORT
    if issubclass(node_type, cst.SimpleString):
        return _Role.STRING
    return _Role.OTHER


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _normal_doc(text: str) -> str:
    """Docstrings compared as black leaves them: dedented, lines stripped."""
    # Every line stripped (that is all the dedent needed); no cleandoc: it expands tabs by
    # column, so a tab inside a line would compare differently once the docstring is indented.
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def _same_expression(code: str, expected: str) -> bool:
    try:
        return ast.dump(ast.parse(code.strip(), mode="eval")) == ast.dump(ast.parse(expected, mode="eval"))
    except SyntaxError:
        return False


def _same(actual: Any, expected: Any) -> bool:
    """Equal by value *and* JSON type (so True never passes for 1)."""
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(expected)
            and all(_same(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and list(actual) == list(expected)
            and all(_same(actual[key], expected[key]) for key in expected)
        )
    return type(actual) is type(expected) and actual == expected
