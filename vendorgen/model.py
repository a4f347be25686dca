"""The source-independent tool model every inspector produces and every template reads.

Plain frozen dataclasses: no I/O, nothing source-specific beyond a few literal
values a template embeds. Everything a template prints is computed here, so a
test can see it in the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vendorgen.text.literals import python_literal

# smolagents' AUTHORIZED_TYPES.
SMOLAGENTS_TYPES = ("string", "boolean", "integer", "number", "image", "audio", "array", "object", "any", "null")


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()

# The type annotations generated code gives some names (a tool class attribute, a module constant),
# for type checkers: smolagents ships no type information, and a literal mixing strings and lists
# would be inferred too narrowly. Templates write them; the gate allows these and no others. An
# annotated class attribute is also what smolagents' `validate_tool_attributes` accepts holding a
# list (it calls a plain `x = [...]` "complex", smolagents PR #2527). Every module has `inputs`,
# a tool with an argument the source refuses null for `null_refused` (`null_refused_constant`);
# a source adds the names of its own (`Source.annotations`).
ANNOTATIONS = {"inputs": "dict[str, dict[str, Any]]", "null_refused": "dict[str, Any]"}


@dataclass(frozen=True)
class TypedDictSpec:
    """A TypedDict the generated module defines: one object branch of a union an argument takes."""

    name: str  # private (a leading underscore): no parameter or tool class takes it
    fields: tuple[tuple[str, str], ...]  # (key, annotation; `NotRequired[...]` for a key it may leave out)

    @property
    def expression(self) -> str:
        """The definition's right-hand side, in the functional form, which takes any key."""
        items = ", ".join(f"{python_literal(key)}: {annotation}" for key, annotation in self.fields)
        return f"TypedDict({python_literal(self.name)}, {{{items}}})"


@dataclass(frozen=True)
class InputSpec:
    """One argument of `forward` and its entry in `inputs`."""

    name: str  # the Python parameter name
    wire_name: str  # the name the source expects on the wire
    type: str | tuple[str, ...]  # smolagents type, or several for a union
    annotation: str  # Python source of the annotation
    description: str
    required: bool
    default: Any = NO_DEFAULT  # a JSON value; a required input has none
    accepts_null: bool = False  # the schema allows an explicit null
    enum: tuple[Any, ...] | None = None
    schema: dict[str, Any] = field(default_factory=dict)  # extra JSON Schema kept for the LLM (items, properties…)
    typed_dicts: tuple[TypedDictSpec, ...] = ()  # the shapes a union of objects takes, named in `annotation`

    @property
    def nullable(self) -> bool:
        """smolagents' rule: the key is present iff the parameter has a default or an Optional hint.

        A required input whose only type is null has the hint `None`, which is not Optional.
        """
        return not self.required or (self.accepts_null and self.annotation != "None")

    @property
    def refuses_null(self) -> bool:
        """smolagents lets the model pass None (the input is `nullable`), but the source's schema refuses
        null (an untyped schema, `any`, takes any JSON value)."""
        return not self.required and not self.accepts_null and self.type != "any"

    @property
    def python_default(self) -> Any:
        """The default written in the signature.

        A scalar schema default is kept; anything else (no default, a list, a
        dict) becomes None, which the generated code leaves out of the call so
        the source applies its own default. No mutable defaults in signatures.
        """
        if self.required:
            return NO_DEFAULT
        if isinstance(self.default, (str, int, float, bool)):
            return self.default
        return None

    def smolagents_input(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "type": list(self.type) if isinstance(self.type, tuple) else self.type,
            "description": self.description,
        }
        if self.enum is not None:
            entry["enum"] = list(self.enum)
        entry.update(self.schema)
        if self.default is not NO_DEFAULT:
            entry["default"] = self.default
        if self.nullable:
            entry["nullable"] = True
        return entry


@dataclass(frozen=True)
class OutputSpec:
    """One value the tool returns (several come back as a tuple)."""

    name: str
    type: str  # smolagents type
    annotation: str
    description: str = ""  # what the value is, for the returns note of several outputs


@dataclass(frozen=True)
class ToolSpec:
    """One generated `Tool` subclass."""

    name: str  # smolagents tool name: an identifier, not a keyword
    class_name: str
    description: str
    endpoint: str  # the name the source calls the tool by
    inputs: tuple[InputSpec, ...]
    outputs: tuple[OutputSpec, ...]
    output_type: str
    output_schema: dict[str, Any] | None = None
    # Literal class attributes the template adds after the smolagents ones (what the runtime reads:
    # each source's declaration in vendorgen/sources/builtin.py says). The gate checks them by value.
    constants: tuple[tuple[str, Any], ...] = ()
    # The description is vendorgen's own sentence (the source gave none): the docstring does not repeat it.
    generated_description: bool = False
    # What the source says the tool does to the world, in a sentence (MCP annotations): the docstring says it.
    behaviour: str = ""

    @property
    def return_annotation(self) -> str:
        if not self.outputs:
            return "None"
        if len(self.outputs) == 1:
            return self.outputs[0].annotation
        return "tuple[" + ", ".join(output.annotation for output in self.outputs) + "]"

    @property
    def renamed_inputs(self) -> tuple[InputSpec, ...]:
        return tuple(spec for spec in self.inputs if spec.name != spec.wire_name)

    def smolagents_inputs(self) -> dict[str, dict[str, Any]]:
        return {spec.name: spec.smolagents_input() for spec in self.inputs}

    def class_attributes(self) -> dict[str, Any]:
        """Every class-level assignment of the generated class, in order."""
        attributes: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "inputs": self.smolagents_inputs(),
            "output_type": self.output_type,
        }
        if self.output_schema is not None:
            attributes["output_schema"] = self.output_schema
        attributes.update(self.constants)
        return attributes

    def docstring(self, source: str) -> str:
        """What a reviewer reads first: the description, where the call goes, what comes back."""
        calls = f"Calls {self.endpoint} on {source}."
        if self.generated_description or not self.description.strip():
            lines = [calls, *self.description.strip().split("\n")[1:]]  # a returns note stays
        else:
            lines = [self.description.strip(), "", calls]
        if self.behaviour:
            lines.insert(lines.index(calls) + 1, self.behaviour)
        if self.renamed_inputs:
            lines.append(
                "Renamed arguments: "
                + ", ".join(f"{spec.name} is sent as {spec.wire_name}" for spec in self.renamed_inputs)
                + "."
            )
        for spec in self.inputs:
            if spec.typed_dicts:
                names = " or ".join(shape.name for shape in spec.typed_dicts)
                lines.append(f"{spec.name} takes one of the shapes defined above: {names}.")
        if len(self.outputs) > 1 and returns_note(self.outputs) not in self.description:
            lines += ["", returns_note(self.outputs)]
        elif not self.outputs:
            lines += ["", "Returns nothing."]
        return "\n".join(lines)


def null_refused_constant(inputs: tuple[InputSpec, ...]) -> tuple[tuple[str, Any], ...]:
    """The tool constant `null_refused`, where an input refuses null: {wire name: its signature
    default, or None where that is NOT_GIVEN}. Given None, such an argument is sent as if not given
    (its default, or left out where the source applies its own): a call never carries a null the
    source did not declare. By wire name, as every tool constant (`Config.apply` renames Python names)."""
    refused = {spec.wire_name: spec.python_default for spec in inputs if spec.refuses_null}
    return (("null_refused", refused),) if refused else ()


def returns_note(outputs: tuple[OutputSpec, ...]) -> str:
    """Several outputs: their order, said where smolagents shows the model the tool (the description)."""
    parts = [f"{output.name} ({output.description or output.type})" for output in outputs]
    return f"Returns a tuple of {len(outputs)} values, in this order: " + ", ".join(parts) + "."


@dataclass(frozen=True)
class ModuleSpec:
    """One generated file: the tools of one source and what they share."""

    name: str  # module name, also the file stem and the lock key
    kind: str  # the source kind that built it (the lock's `kind`)
    source: str  # the source URI as given to `vendorgen add`
    revision: str  # upstream commit / version when known, else ""
    tools: tuple[ToolSpec, ...]
    # Module-level literals the template embeds (server address, command line...).
    constants: tuple[tuple[str, Any], ...] = ()
    requirements: tuple[str, ...] = ()  # distributions the generated code imports at run time
    # Third-party code the module carries as its author wrote it (the template writes it below
    # vendorgen's header). Such code runs as it is, so the gate checks it is unchanged rather than
    # its shape, `add` prints a review of it, and `update` takes a new version only with --trust.
    carried_code: str = ""

    @property
    def endpoints(self) -> tuple[str, ...]:
        return tuple(tool.endpoint for tool in self.tools)

    @property
    def typed_dicts(self) -> tuple[TypedDictSpec, ...]:
        return tuple(shape for tool in self.tools for spec in tool.inputs for shape in spec.typed_dicts)

    @property
    def typing_imports(self) -> str:
        """What the module imports from `typing`: `Any`, and what its annotations use."""
        annotations = [spec.annotation for tool in self.tools for spec in tool.inputs]
        annotations += [tool.return_annotation for tool in self.tools]
        annotations += [shape.expression for shape in self.typed_dicts]
        used = [name for name in ("Literal", "NotRequired") if any(f"{name}[" in text for text in annotations)]
        return ", ".join(["Any", *used, *(["TypedDict"] if self.typed_dicts else [])])

    def constants_dict(self) -> dict[str, Any]:
        return dict(self.constants)
