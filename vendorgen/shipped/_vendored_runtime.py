# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What every vendored tool shares: NOT_GIVEN, one validation, `to_langchain`, one-line errors. Each source
kind's part is a file beside it (_vendored_gradio.py...) that imports its client library on first use."""

from __future__ import annotations

import base64
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from smolagents import Tool


@contextmanager
def _needs(requirement: str) -> Iterator[None]:
    """Imports inside; one that fails says in one line to install `requirement` (as pip spells it)."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(f"this vendored tool needs {requirement} (pip install '{requirement}'): {exc}") from None


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The first real error inside nested exception groups."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[union-attr]
    return exc


def _reason(exc: BaseException | None) -> str:
    """The first real error inside nested exception groups (`_leaf`), as one line."""
    leaf = _leaf(exc)
    text = " ".join(str(leaf).split())
    return f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


# The default of an optional argument whose default the source applies itself: one left at NOT_GIVEN is not sent,
# None is sent as null only where the source takes null (`null_refused`; smolagents passes only what the model gave).
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
    # Where the source refuses null for arguments: {wire name: its signature default, None for NOT_GIVEN}.
    null_refused: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.forward is Tool.forward:  # a shared base: skip Tool's wrapping
            super(Tool, cls).__init_subclass__(**kwargs)
        else:
            super().__init_subclass__(**kwargs)

    def _sent(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """What of `arguments` (by wire name) is sent: not those at NOT_GIVEN, nor a None the source refuses."""
        nulls = {key: NOT_GIVEN if default is None else default for key, default in self.null_refused.items()}
        return _given({key: nulls.get(key, value) if value is None else value for key, value in arguments.items()})

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with its JSON schema, which `get_input_schema()` gives as a
        pydantic model (LangChain's generic one names no argument)."""
        with _needs("langchain-core>=0.3"):
            from langchain_core.tools import StructuredTool
        from pydantic import ConfigDict, create_model

        properties = {key: _json_schema(spec) for key, spec in self.inputs.items()}
        required = [key for key, spec in self.inputs.items() if not spec.get("nullable")]
        schema = {"type": "object", "properties": properties, "required": required}
        fields: dict[str, Any] = {key: (Any, ... if key in required else None) for key in self.inputs}
        config = ConfigDict(json_schema_extra=lambda model_schema: model_schema.update(schema))
        model = create_model(self.name, __config__=config, **fields)  # its fields take any value: the tool checks

        class VendoredTool(StructuredTool):
            def get_input_schema(self, config: Any = None) -> Any:
                return model

        made: dict[str, Any] = {"func": self.__call__, "name": self.name, "description": self.description}
        try:
            return VendoredTool.from_function(**made, args_schema=model.model_json_schema())
        except (TypeError, ValueError):  # langchain-core before 0.3.36 takes only a pydantic model
            return VendoredTool.from_function(**made, args_schema=model)


def _json_schema(spec: dict[str, Any], media: str | None = None) -> dict[str, Any]:
    """One smolagents input as JSON Schema (to_langchain, serve): a union as anyOf of one type each, since
    clients of one-`type` dialects refuse a type list; a nullable input admits null, which strict clients
    otherwise refuse. Image and audio take the type `media` (None: untyped, as any is)."""
    schema = {key: value for key, value in spec.items() if key not in ("type", "nullable")}
    kinds = spec.get("type", "any")
    kinds = [media if kind in ("image", "audio") else kind for kind in (kinds if isinstance(kinds, list) else [kinds])]
    nullable = spec.get("nullable") and "null" not in kinds
    if kept := [key for key in ("anyOf", "oneOf") if key in schema]:  # upstream's branches say it all
        schema[kept[0]] = schema[kept[0]] + [{"type": "null"}] * bool(nullable)
    elif None not in kinds and "any" not in kinds:  # else: no type at all, which admits null too
        kinds += ["null"] * bool(nullable)
        schema.update({"type": kinds[0]} if len(kinds) == 1 else {"anyOf": [{"type": kind} for kind in kinds]})
    return schema


class ResultFile(str):
    """The path of a file this runtime wrote for the call that returned it (a Gradio output, an MCP item):
    the only path a result is read back from; any other string is text its source sent."""


# What marks a project's root, as vendorgen finds it: the lock that owns the vendored modules first.
_LOCK = "vendorgen.lock"
_ROOT_MARKERS = (_LOCK, "pyproject.toml", ".git")


def _project_root() -> Path:
    """The nearest directory above this file holding vendorgen.lock (which owns it), else a project marker.

    A stdio server's paths inside the project are stored relative to it, so the tools start the same
    server wherever the agent runs; a file argument is read from inside it.
    """
    here = Path(__file__).resolve().parent
    for markers in ((_LOCK,), _ROOT_MARKERS):
        for directory in (here, *here.parents):
            if any((directory / marker).exists() for marker in markers):
                return directory
    return here.parent


def _confined(path: str, roots: list[str] | None) -> str:
    """`path` resolved (symlinks followed) if inside one of `roots` (resolved too), else PermissionError.

    None: the project, the working directory and VENDORGEN_FILE_ROOTS (os.pathsep-separated); a list
    replaces all of them (serve: --files).
    """
    if roots is None:
        rule = f"the project ({_project_root()}) and the working directory ({os.getcwd()})"
        widen = f"add a directory to VENDORGEN_FILE_ROOTS (separated by {os.pathsep!r}) or set the tool's file_roots"
        extra = os.environ.get("VENDORGEN_FILE_ROOTS", "").split(os.pathsep)
        roots = [str(_project_root()), os.getcwd(), *filter(None, extra)]
    else:
        rule = f"the tool's file_roots ({', '.join(roots) or 'none'})"
        widen = "send the file's content as a data: URI, or widen file_roots (vendorgen serve: --files)"
    resolved = os.path.realpath(path)
    for root in map(os.path.realpath, roots):
        if os.path.commonpath([resolved, root]) == root:
            return resolved
    raise PermissionError(f"refused to upload {path}: file arguments are read only from inside {rule}; {widen}")


def _open_confined(path: str, roots: list[str] | None) -> Any:
    """The regular file at `path`, inside `roots` (see `_confined`), opened once for reading (binary).

    The resolved path is walked from its root one directory at a time without following a link (O_NOFOLLOW
    at each step, each opened in the one before): a component another process swapped for a link after the
    check fails to open instead of leading outside. Read the file through what this returns, never by its name.
    """
    import stat

    resolved = _confined(path, roots)
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    refused = f"refused to read {path}"
    try:
        if not nofollow or os.open not in os.supports_dir_fd:  # no such walk here (Windows): the resolved path
            descriptor = os.open(resolved, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        else:
            descriptor = _walk(Path(resolved).parts, os.O_RDONLY | nofollow | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise PermissionError(f"{refused}: it changed while it was opened ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO or a device would block or never end
        os.close(descriptor)
        raise PermissionError(f"{refused}: not a regular file")
    return os.fdopen(descriptor, "rb")


def _walk(parts: tuple[str, ...], flags: int) -> int:
    """The descriptor of the file at `parts` (an absolute path), opened with `flags`, each directory on the way
    opened without following a link."""
    directory = os.open(parts[0], os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[1:-1]:
            step = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=directory)
            os.close(directory)
            directory = step
        return os.open(parts[-1], flags, dir_fd=directory)
    finally:
        os.close(directory)


MAX_IMAGE_PIXELS = 40_000_000  # of any image decoded here: 8K video has 33 million; a 0.66 MB PNG can hold 169 million
# The formats an image decoded here may have, told by its first bytes before any decoder runs (PIL's `formats`):
# others run external programs (EPS and PostScript start Ghostscript) or decoders no tool needs.
IMAGE_FORMATS = ("PNG", "JPEG", "GIF", "WEBP", "BMP", "TIFF")


def _open_image(source: Any) -> Any:
    """`source` (a path or a binary file) as a PIL image of one of IMAGE_FORMATS, of at most MAX_IMAGE_PIXELS;
    ValueError otherwise. Only its header is read: its pixels are decoded on first use."""
    with _needs("pillow"):
        from PIL import Image
    try:
        image = Image.open(source, formats=IMAGE_FORMATS)
    except Image.DecompressionBombError:  # beyond PIL's own bound, far beyond ours
        image = None
    except (OSError, ValueError, SyntaxError):  # UnidentifiedImageError, or a broken header
        raise ValueError(f"is not an image of one of the formats {', '.join(IMAGE_FORMATS)}: refused") from None
    if image is None or image.width * image.height > MAX_IMAGE_PIXELS:
        if image is not None:
            image.close()
        raise ValueError(f"is over {MAX_IMAGE_PIXELS} pixels: refused")
    return image


def _data_uri_bytes(uri: str) -> bytes:
    """The content of a data: URI (base64 or percent-encoded), as serve's clients send files; ValueError if not one."""
    header, comma, data = uri.partition(",")
    if not comma:
        raise ValueError("a data: URI needs a comma before its content")
    try:
        return base64.b64decode(data, validate=True) if header.endswith(";base64") else unquote_to_bytes(data)
    except ValueError:  # binascii.Error
        raise ValueError("the data: URI's content is not valid base64") from None
