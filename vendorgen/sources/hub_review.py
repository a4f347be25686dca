"""A static review of vendored code: what it imports and which constructs deserve a careful look.

Nothing is imported or run. Names are read as Python reads them (NFKC, PEP 3131)
and resolved through the file's imports and plain assignments, so
`from os import system as run; run(...)` and `o = open; o(p, "w")` are still
reported as `os.system` and `open`. The rules think in categories (processes,
network, files, environment, deserialization, dynamic code, dynamic access):
a module that has no harmless use is flagged whole, whatever name of it is
used; the few modules every tool imports (os, sys, io, pathlib...) are flagged
name by name, anything of them not known to be harmless included. Whatever
lets code reach a name without spelling it (getattr, globals(), star imports,
`__dict__`, a module passed around as a value) is flagged as dynamic access,
since from there the reader cannot follow it. It is a reading aid for the
person who passed `--trust`, not a sandbox: `UNSEEN` says what no static
reader sees, and the whole file is written into the project to be read.
"""

from __future__ import annotations

import builtins
import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, MetadataWrapper, PositionProvider

from vendorgen.errors import SchemaError
from vendorgen.sources.hub_review_rules import COMMON, category, hidden_attribute, module_category

# Callables whose mode argument says whether they write: positional index of the mode, by qualified name.
_OPENERS = {
    "builtins.open": 1, "io.open": 1, "io.FileIO": 1, "codecs.open": 1, "os.fdopen": 1, "gzip.open": 1,
    "gzip.GzipFile": 1, "bz2.open": 1, "bz2.BZ2File": 1, "lzma.open": 1, "lzma.LZMAFile": 1, "tarfile.open": 1,
    "tarfile.TarFile": 1, "zipfile.ZipFile": 1, "pathlib.Path.open": 1,
}  # fmt: skip
_OPENER_NAMES = frozenset(name.rsplit(".", 1)[1] for name in _OPENERS)
# Methods that write files whatever object they are called on (pathlib and friends, archives).
_WRITING_METHODS = frozenset(
    {"write_text", "write_bytes", "touch", "mkdir", "unlink", "rmdir", "symlink_to", "hardlink_to", "chmod",
     "extractall", "to_pickle"}
)  # fmt: skip
# A string that names the user's own files, secrets or the system's: a tool reading them (and returning
# them to the model) leaks them without any network call.
_PRIVATE_PATHS = re.compile(
    r"^~|^/(?:proc|etc|root|home|Users|dev|sys|var)/|\.ssh\b|id_rsa|id_ed25519|\.aws/|\.netrc|\.git-credentials"
    r"|\.gnupg|\.kube/|\.docker/config|huggingface/token|(?:^|/)\.env$|\.bash_history|\.pypirc"
)
_WRITE_MODES = set("wax+")
# What a mode string looks like (`rb`, `w+`, tarfile's `w:gz`), to tell it from a path or a member name.
_MODE = re.compile(r"[rwxabtU+]{1,4}(?:[:|][\w*]*)?")
# What no static reader sees, said with every review.
UNSEEN = "code made at run time (fetched, decoded or built from strings) and the inside of imported packages"


@dataclass(frozen=True)
class Import:
    line: int
    statement: str  # as written, on one line
    modules: tuple[str, ...]  # absolute modules it imports from ("" for a relative import)


@dataclass(frozen=True)
class Finding:
    line: int
    category: str  # a key of MODULES or NAMES, "internals" or "non-ASCII name"
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

    @property
    def third_party(self) -> tuple[str, ...]:
        """The imported packages outside the standard library: their own code is not reviewed."""
        return tuple(name for name in self.packages if name not in sys.stdlib_module_names)

    def to_json(self) -> dict[str, Any]:
        return {
            "imports": [{"line": item.line, "statement": item.statement} for item in self.imports],
            "flagged": [asdict(finding) for finding in self.findings],
            "not_seen": self.unseen(),
        }

    def unseen(self) -> str:
        """What a static reader cannot tell, said plainly (the last line of the summary)."""
        return UNSEEN + (f" ({', '.join(self.third_party)})" if self.third_party else "")

    def lines(self) -> list[str]:
        """The summary `vendorgen add` prints, one entry per line (source text as written: escape to print)."""
        lines = ["  imports:"] + [f"    line {item.line:<5} {item.statement}" for item in self.imports]
        if len(lines) == 1:
            lines = ["  imports: none"]
        if not self.findings:
            lines.append("  flagged: nothing")
        else:
            width = max(len(finding.category) for finding in self.findings)
            lines.append("  flagged:")
            lines += [f"    line {f.line:<5} {f.category:<{width}}  {f.construct}" for f in self.findings]
        return lines + [f"  not seen: {self.unseen()}"]


def review(source: str) -> Review:
    """Review `source` (valid Python that toolfile.ToolFile has read, so not nested too deeply to walk)."""
    tree = cst.parse_module(source)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    names = _Names()
    wrapper.visit(names)
    visitor = _Reviewer(tree, names)
    wrapper.visit(visitor)
    positions = wrapper.resolve(PositionProvider)
    first_use: dict[str, int] = {}  # each spelling once, where it first appears
    for node, raw in _non_ascii_names(tree):
        first_use[raw] = min(first_use.get(raw, positions[node].start.line), positions[node].start.line)
    for raw, line in first_use.items():
        shown = raw if identifier(raw) == raw else f"{raw} (Python reads it as {identifier(raw)})"
        visitor.findings.append(Finding(line, "non-ASCII name", shown))
    findings = sorted(set(visitor.findings), key=lambda f: (f.line, f.category, f.construct))
    return Review(tuple(visitor.imports), tuple(findings))


def refuse_disguised_names(source: str, label: str) -> None:
    """Refuse an identifier Python reads as another one (NFKC: `ｅｘｅｃ` is `exec`, `ﬁle` is `file`).

    Its plain spelling runs the same, so no honest file needs it; the file is vendored as it is, and a
    name that reads as one thing while running as another is refused like the invisible characters.
    Other non-ASCII names (PEP 3131: `größe`) run as they read: the review flags them.
    """
    tree = cst.parse_module(source)
    positions = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, raw in _non_ascii_names(tree):
        if identifier(raw) != raw:
            where = positions[node].start
            raise SchemaError(
                f"{label} line {where.line}, column {where.column + 1}: the name {ascii(raw)[1:-1]} is read by "
                f"Python as {identifier(raw)!r}; a vendored file is kept as it is, so a name that does not read as "
                "what it runs is refused"
            )


def identifier(name: str) -> str:
    """`name` as Python binds it: identifiers are NFKC-normalised (PEP 3131)."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def _non_ascii_names(tree: cst.Module) -> Iterator[tuple[cst.Name, str]]:
    """Every identifier spelled with non-ASCII characters, anywhere (imports, attributes, definitions)."""
    collector = _NonAsciiNames()
    tree.visit(collector)
    yield from collector.found


class _NonAsciiNames(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[cst.Name, str]] = []

    def visit_Name(self, node: cst.Name) -> None:
        if not node.value.isascii():
            self.found.append((node, node.value))


class _Names(cst.CSTVisitor):
    """What each name of the file stands for, anywhere: imports, plain assignments, star imports.

    Scopes and order are ignored on purpose: a name bound twice (`import os as q` ... `import json as q`)
    stands for both, and a review errs on the side of reporting.
    """

    METADATA_DEPENDENCIES = (ExpressionContextProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.aliases: dict[str, list[str]] = {}  # name -> the qualified names it stands for
        self.modules: set[str] = set()  # qualified names bound by `import x` (module objects)
        self.bound: set[str] = set()  # names the file binds itself (assignments, definitions, parameters)
        self.star: list[str] = []  # modules imported with `from x import *`

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None:
                self._bind(_dotted(alias.asname.name), dotted)
                self.modules.add(dotted)
            else:  # `import os.path` binds `os`
                head = dotted.split(".")[0]
                self._bind(head, head)
                self.modules.add(head)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        module = _dotted(node.module)
        if isinstance(node.names, cst.ImportStar):
            self.star.append(module)
            return
        for alias in node.names:
            name = _dotted(alias.name)
            bound = _dotted(alias.asname.name) if alias.asname is not None else name
            self._bind(bound, f"{module}.{name}")

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._alias(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._alias(node.target, node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._alias(node.target, node.value)

    def _alias(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`o = open`, `q = os`, `a, b = os.system, eval`: the name stands for what it is given."""
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)):
            for element, item in zip(target.elements, value.elements):
                self._alias(element.value, item.value)
        elif isinstance(target, cst.Name) and (dotted := _dotted_or_none(value)) is not None:
            head, _, rest = dotted.partition(".")
            builtin = [f"builtins.{head}"] if hasattr(builtins, head) or head == "__builtins__" else []
            for stands_for in self.aliases.get(head, builtin):
                self._bind(identifier(target.value), f"{stands_for}.{rest}" if rest else stands_for)

    def _bind(self, name: str, qualified: str) -> None:
        if qualified not in (targets := self.aliases.setdefault(name, [])):
            targets.append(qualified)

    def visit_Name(self, node: cst.Name) -> None:
        if self.get_metadata(ExpressionContextProvider, node, None) in (ExpressionContext.STORE,
                                                                          ExpressionContext.DEL):  # fmt: skip
            self.bound.add(identifier(node.value))


class _Reviewer(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider, ExpressionContextProvider)

    def __init__(self, tree: cst.Module, names: _Names) -> None:
        super().__init__()
        self.tree = tree
        self.names = names
        self.called: set[int] = set()  # id() of the expressions called (`open` in `open(...)`)
        self.imports: list[Import] = []
        self.findings: list[Finding] = []

    def line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def report(self, node: cst.CSTNode, category_name: str, construct: str) -> None:
        self.findings.append(Finding(self.line(node), category_name, construct))

    # -- imports -------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        modules = tuple(_dotted(alias.name) for alias in node.names)
        self._record_import(node, modules)
        for module in modules:
            if found := module_category(module):
                self.report(node, found, f"import {module}")
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = "" if node.relative or node.module is None else _dotted(node.module)
        self._record_import(node, (module,))
        if isinstance(node.names, cst.ImportStar):
            self.report(node, "dynamic access", f"from {module or '.'} import * (names the file never spells)")
            if module and (found := module_category(module)):
                self.report(node, found, f"from {module} import *")
        elif module:
            for alias in node.names:
                name = _dotted(alias.name)
                if f"{module}.{name}" not in _OPENERS and (found := category(f"{module}.{name}")):
                    self.report(node, found, f"from {module} import {name}")
        return False

    def _record_import(self, node: cst.Import | cst.ImportFrom, modules: tuple[str, ...]) -> None:
        self.imports.append(Import(self.line(node), " ".join(self.tree.code_for_node(node).split()), modules))

    # -- uses ----------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(id(node.func))
        callee = self.qualified(node.func)
        if callee in _OPENERS:
            self._check_open(node, _OPENERS[callee], callee.removeprefix("builtins."))
        elif isinstance(node.func, cst.Attribute) and identifier(node.func.attr.value) in _OPENER_NAMES:
            # `Path(p).open(mode)`, `archive.open(name, mode)`, `wave.open(p, mode)`: another opener; its
            # mode is the first argument for a path and the second for most others, so either may write.
            self._check_open(node, None, f"{_short(self.tree.code_for_node(node.func.value))}.{node.func.attr.value}")

    def _check_open(self, node: cst.Call, mode_index: int | None, shown: str) -> None:
        """Report an opener called with a writing mode, or one the reader cannot see.

        `mode_index` None: an unknown object's `open`, whose mode is the first argument for a path and the
        second for an archive member; either is checked when it is a literal that looks like a mode.
        """
        if any(arg.star for arg in node.args):
            self.report(node, "file write", f"{shown}(...) with arguments unpacked at run time")
            return
        keyword = [arg for arg in node.args if arg.keyword is not None and identifier(arg.keyword.value) == "mode"]
        positional = [arg for arg in node.args if arg.keyword is None]
        known = bool(keyword) or mode_index is not None
        modes = keyword or (positional[mode_index : mode_index + 1] if mode_index is not None else positional[:2])
        for mode_arg in modes:
            mode = mode_arg.value
            if isinstance(mode, cst.SimpleString):
                value = mode.evaluated_value
                looks_like_mode = isinstance(value, str) and (known or bool(_MODE.fullmatch(value)))
                if looks_like_mode and not _WRITE_MODES.isdisjoint(value) or known and not isinstance(value, str):
                    self.report(node, "file write", f"{shown}(..., {mode.value})")
            elif known:
                self.report(node, "file write", f"{shown}(...) with a mode computed at run time")

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        if _PRIVATE_PATHS.search(value):
            self.report(node, "file read", f"{_short(node.value)} (the user's or the system's files)")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if self.qualified(node) is None:  # an attribute of a local object: judged by its name alone
            attribute = identifier(node.attr.value)
            if attribute in _WRITING_METHODS:
                self.report(node, "file write", f"{_short(self.tree.code_for_node(node.value))}.{attribute}")
            if attribute == "expanduser":
                self.report(node, "file read", f"{_short(self.tree.code_for_node(node.value))}.{attribute}")
            if hidden_attribute(attribute):
                self.report(node, "dynamic access", f"{_short(self.tree.code_for_node(node))}")
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
        shown = qualified.removeprefix("builtins.")
        if qualified in _OPENERS:
            if id(node) not in self.called:
                self.report(node, "file write", f"{shown} used as a value (its mode cannot be read)")
        elif found := category(qualified):
            self.report(node, found, shown)
        elif qualified in self.names.modules and qualified in COMMON:
            self.report(node, "dynamic access", f"{shown} used as a value (what is taken from it cannot be read)")
        return False

    def qualified(self, node: cst.BaseExpression) -> str | None:
        """`os.environ.get` -> "os.environ.get" through the file's names; None for local objects."""
        dotted = _dotted_or_none(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        targets: list[str] = []
        if head in self.names.aliases:
            targets = self.names.aliases[head]
        elif hasattr(builtins, head) or head == "__builtins__":
            targets = [f"builtins.{head}"]
        elif head not in self.names.bound and (star := self._from_star(head)) is not None:
            targets = [star]
        candidates = [f"{target}.{rest}" if rest else target for target in targets]
        # A name bound to several things is read as the one that deserves a look.
        notable = [name for name in candidates if category(name) or name in _OPENERS or name in COMMON]
        return next(iter(notable or candidates), None)

    def _from_star(self, name: str) -> str | None:
        """A name the file never binds may come from a star import: the first one it is risky in."""
        for module in self.names.star:
            if category(f"{module}.{name}") or f"{module}.{name}" in _OPENERS:
                return f"{module}.{name}"
        return None


def _dotted(node: cst.BaseExpression) -> str:
    dotted = _dotted_or_none(node)
    if dotted is None:
        raise ValueError("not a dotted name")
    return dotted


def _dotted_or_none(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return identifier(node.value)
    if isinstance(node, cst.Attribute):
        head = _dotted_or_none(node.value)
        return None if head is None else f"{head}.{identifier(node.attr.value)}"
    return None


def _short(code: str) -> str:
    code = " ".join(code.split())
    return code if len(code) <= 40 else code[:37] + "..."
