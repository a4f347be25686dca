# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What every vendored tool shares: NOT_GIVEN, one validation, `to_langchain`, one-line errors. Each source
kind's part is a file beside it (_vendored_gradio.py...) that imports its client library on first use."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from smolagents import Tool


@contextmanager
def _needs(requirement: str) -> Iterator[None]:
    """Imports inside; one that fails says in one line to install `requirement` (as pip spells it)."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(f"this vendored tool needs {requirement} (pip install '{requirement}'): {exc}") from None


def _reason(exc: BaseException | None) -> str:
    """The first real error inside nested exception groups, as one line."""
    exc = _leaf(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The first real error inside nested exception groups."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[union-attr]
    return exc


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


# The default of an optional argument whose default the source applies itself: one left at NOT_GIVEN is not
# sent, one given as None is sent as null (smolagents calls forward with only the arguments the model gave).
NOT_GIVEN: Any = _NotGiven()


def _given(arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` without the ones left at NOT_GIVEN."""
    return {key: value for key, value in arguments.items() if value is not NOT_GIVEN}


class _VendoredTool:
    """What the runtime's tool classes add to smolagents' Tool: one validation, and `to_langchain`.

    A mixin, not a Tool: smolagents wraps the __init__ of every Tool subclass to validate the tool after
    it, and a class inherits its base's wrapped __init__, so each shared base that is a Tool would validate
    every tool once more. Only a class with a forward (a tool, not a shared base) gets that wrapper.
    """

    # What the mixed-in Tool provides (smolagents ships no type information).
    name: str
    description: str
    inputs: dict[str, dict[str, Any]]
    forward: Callable[..., Any]
    __call__: Callable[..., Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.forward is Tool.forward:  # a shared base: skip Tool's wrapping
            super(Tool, cls).__init_subclass__(**kwargs)
        else:
            super().__init_subclass__(**kwargs)

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with its JSON schema, which `get_input_schema()` gives as a
        pydantic model (LangChain's generic one names no argument); langchain-core before 0.3.36 takes only that."""
        with _needs("langchain-core>=0.3"):
            from langchain_core.tools import StructuredTool
        model = _arguments_model(self.name, self.inputs)

        class VendoredTool(StructuredTool):
            def get_input_schema(self, config: Any = None) -> Any:
                return model

        made: dict[str, Any] = {"func": self.__call__, "name": self.name, "description": self.description}
        try:
            return VendoredTool.from_function(**made, args_schema=model.model_json_schema())
        except (TypeError, ValueError):  # langchain-core before 0.3.36 takes only a pydantic model
            return VendoredTool.from_function(**made, args_schema=model)


def _arguments_model(name: str, inputs: dict[str, dict[str, Any]]) -> Any:
    """A pydantic model whose JSON schema is `inputs`; its fields take any value (the tool checks them)."""
    from pydantic import ConfigDict, create_model

    untyped = ("image", "audio", "any")  # no JSON Schema type
    properties = {
        key: {k: v for k, v in spec.items() if k != "nullable" and not (k == "type" and v in untyped)}
        for key, spec in inputs.items()
    }
    required = [key for key, spec in inputs.items() if not spec.get("nullable")]
    schema = {"type": "object", "properties": properties, "required": required}
    fields: dict[str, Any] = {key: (Any, ... if key in required else None) for key in inputs}
    config = ConfigDict(json_schema_extra=lambda model_schema: model_schema.update(schema))
    return create_model(name, __config__=config, **fields)
