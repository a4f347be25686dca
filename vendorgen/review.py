"""A static review of vendored code: what it imports and which constructs deserve a careful look.

Nothing is imported or run. Names are resolved through the file's import
statements, so `from os import system as run; run(...)` is still reported as
`os.system`. It is a reading aid for the person who passed `--trust`, not a
sandbox: code can always hide intent (getattr, string tricks), which is why the
whole file is written into the project for review.
"""

from __future__ import annotations

import builtins
import fnmatch
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, MetadataWrapper, PositionProvider

# Qualified names (after import aliases are resolved) per category. A module
# name covers everything in it; `*` is a glob. Builtins are spelled `builtins.x`.
RULES: dict[str, tuple[str, ...]] = {
    "process": (
        "subprocess", "os.system", "os.popen", "os.exec*", "os.spawn*", "os.posix_spawn*", "os.fork", "os.forkpty",
        "pty.spawn", "asyncio.create_subprocess_*", "multiprocessing",
    ),
    "dynamic code": (
        "builtins.eval", "builtins.exec", "builtins.compile", "builtins.__import__", "importlib.import_module",
        "importlib.__import__", "runpy", "ctypes", "cffi",
    ),
    "deserialization": (
        "pickle.load", "pickle.loads", "pickle.Unpickler", "marshal.load", "marshal.loads", "dill.load*",
        "cloudpickle.load*", "shelve.open", "joblib.load", "torch.load", "yaml.load", "yaml.unsafe_load",
        "yaml.full_load", "numpy.load",
    ),
    "file write": (
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames", "os.replace",
        "os.truncate", "os.open", "shutil.rmtree", "shutil.move", "shutil.copy*",
    ),
    "network": (
        "requests", "httpx", "httpx2", "urllib", "urllib3", "http.client", "socket", "ssl", "aiohttp", "websockets",
        "websocket", "ftplib", "smtplib", "telnetlib", "paramiko", "pycurl", "gradio_client", "huggingface_hub",
    ),
    "environment": ("os.environ", "os.environb", "os.getenv", "os.getenvb", "os.putenv", "os.unsetenv"),
}  # fmt: skip
# Calls that write files whatever object they are called on (pathlib and friends).
_WRITING_METHODS = ("write_text", "write_bytes")
_OPEN_FUNCTIONS = ("builtins.open", "io.open", "codecs.open")
_WRITE_MODES = set("wax+")


@dataclass(frozen=True)
class Import:
    line: int
    statement: str  # as written, on one line
    modules: tuple[str, ...]  # absolute modules it imports from ("" for a relative import)


@dataclass(frozen=True)
class Finding:
    line: int
    category: str  # a key of RULES
    construct: str  # what was seen, e.g. "os.system" or "open(..., 'w')"


@dataclass(frozen=True)
class Review:
    imports: tuple[Import, ...]
    findings: tuple[Finding, ...]

    @property
    def packages(self) -> tuple[str, ...]:
        """Top-level packages imported anywhere, in first-seen order (relative imports left out)."""
        seen: dict[str, None] = {}
        for item in self.imports:
            for module in item.modules:
                if module:
                    seen.setdefault(module.split(".")[0], None)
        return tuple(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "imports": [{"line": item.line, "statement": item.statement} for item in self.imports],
            "flagged": [asdict(finding) for finding in self.findings],
        }

    def lines(self) -> list[str]:
        """The summary `vendorgen add` prints, one entry per line."""
        lines = ["  imports:"] + [f"    line {item.line:<5} {item.statement}" for item in self.imports]
        if len(lines) == 1:
            lines = ["  imports: none"]
        if not self.findings:
            return lines + ["  flagged: nothing"]
        width = max(len(finding.category) for finding in self.findings)
        lines.append("  flagged:")
        lines += [f"    line {f.line:<5} {f.category:<{width}}  {f.construct}" for f in self.findings]
        return lines


def review(source: str) -> Review:
    """Review `source` (valid Python; the caller has parsed it already)."""
    tree = cst.parse_module(source)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    aliases = _Aliases()
    tree.visit(aliases)
    visitor = _Reviewer(tree, aliases.names)
    wrapper.visit(visitor)
    findings = sorted(set(visitor.findings), key=lambda f: (f.line, f.category, f.construct))
    return Review(tuple(visitor.imports), tuple(findings))


def category(qualified: str) -> str | None:
    """The RULES category `qualified` falls in, if any."""
    for name, patterns in RULES.items():
        for pattern in patterns:
            if fnmatch.fnmatchcase(qualified, pattern) or qualified.startswith(pattern + "."):
                return name
    return None


class _Aliases(cst.CSTVisitor):
    """Every name an import binds, anywhere in the file, mapped to what it stands for.

    Scopes are ignored on purpose: a review errs on the side of reporting.
    """

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None:
                self.names[_dotted(alias.asname.name)] = dotted
            else:  # `import os.path` binds `os`
                head = dotted.split(".")[0]
                self.names[head] = head

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = _dotted(node.module)
        for alias in node.names:
            name = _dotted(alias.name)
            bound = _dotted(alias.asname.name) if alias.asname is not None else name
            self.names[bound] = f"{module}.{name}"


class _Reviewer(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider, ExpressionContextProvider)

    def __init__(self, tree: cst.Module, aliases: dict[str, str]) -> None:
        super().__init__()
        self.tree = tree
        self.aliases = aliases
        self.imports: list[Import] = []
        self.findings: list[Finding] = []

    def line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def report(self, node: cst.CSTNode, category_name: str, construct: str) -> None:
        self.findings.append(Finding(self.line(node), category_name, construct))

    # -- imports -------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        modules = tuple(_dotted(alias.name) for alias in node.names)
        self._record_import(node, modules, {module: f"import {module}" for module in modules})
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = "" if node.relative or node.module is None else _dotted(node.module)
        names: dict[str, str] = {}
        if isinstance(node.names, cst.ImportStar):
            names[module] = f"from {module} import *"
        elif module:
            for alias in node.names:
                name = _dotted(alias.name)
                names[f"{module}.{name}"] = f"from {module} import {name}"
        self._record_import(node, (module,), names)
        return False

    def _record_import(
        self, node: cst.Import | cst.ImportFrom, modules: tuple[str, ...], names: dict[str, str]
    ) -> None:
        """Record the statement; report each imported name that falls in a category, as its own construct."""
        self.imports.append(Import(self.line(node), " ".join(self.tree.code_for_node(node).split()), modules))
        for qualified, construct in names.items():
            if found := category(qualified):
                self.report(node, found, construct)

    # -- uses ----------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        callee = self.qualified(node.func)
        if callee in _OPEN_FUNCTIONS:
            self._check_open(node, node.args[1:2], callee.removeprefix("builtins."))
        elif isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            receiver = self.tree.code_for_node(node.func.value)
            if method in _WRITING_METHODS:
                self.report(node, "file write", f"{_short(receiver)}.{method}(...)")
            elif method == "open" and callee is None:  # Path.open(mode)
                self._check_open(node, node.args[:1], f"{_short(receiver)}.open")

    def _check_open(self, node: cst.Call, positional_mode: Sequence[cst.Arg], shown: str) -> None:
        keyword = [arg for arg in node.args if arg.keyword is not None and arg.keyword.value == "mode"]
        mode_args = keyword or [arg for arg in positional_mode if arg.keyword is None and not arg.star]
        if not mode_args:
            return  # the default mode reads
        mode = mode_args[0].value
        if isinstance(mode, cst.SimpleString):
            value = mode.evaluated_value
            if isinstance(value, str) and _WRITE_MODES.isdisjoint(value):
                return
            self.report(node, "file write", f"{shown}(..., {mode.value})")
        else:
            self.report(node, "file write", f"{shown}(...) with a mode computed at run time")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return self._check_reference(node)

    def visit_Name(self, node: cst.Name) -> None:
        # Only names read as values: not definitions, parameters, or the `.attr` of an attribute.
        if self.get_metadata(ExpressionContextProvider, node, None) is ExpressionContext.LOAD:
            self._check_reference(node)

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # `f(eval=1)`: the keyword is a name, not a use of eval
        return False

    def _check_reference(self, node: cst.Attribute | cst.Name) -> bool:
        """Report a dotted reference once, as its longest spelling; look inside anything else."""
        qualified = self.qualified(node)
        if qualified is None:
            return True
        if found := category(qualified):
            self.report(node, found, qualified.removeprefix("builtins."))
        return False

    def qualified(self, node: cst.BaseExpression) -> str | None:
        """`os.environ.get` -> "os.environ.get" through the file's imports; None for local objects."""
        dotted = _dotted_or_none(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.aliases:
            target = self.aliases[head]
        elif hasattr(builtins, head):
            target = f"builtins.{head}"
        else:
            return None
        return f"{target}.{rest}" if rest else target


def _dotted(node: cst.BaseExpression) -> str:
    dotted = _dotted_or_none(node)
    if dotted is None:
        raise ValueError("not a dotted name")
    return dotted


def _dotted_or_none(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted_or_none(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def _short(code: str) -> str:
    code = " ".join(code.split())
    return code if len(code) <= 40 else code[:37] + "..."
