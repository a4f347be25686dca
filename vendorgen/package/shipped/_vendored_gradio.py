# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored Gradio tools (space:) share: the client, made on the first call, and its files."""

from __future__ import annotations

import inspect
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from smolagents import Tool

from ._vendored_runtime import NOT_GIVEN, _needs, _reason, _VendoredTool

_CLIENT = "gradio_client>=1.8"  # as pip spells it
_FILE_DATA = "gradio.FileData"  # what gradio_client uploads a local file for, at any depth of any argument


class SpaceTool(_VendoredTool, Tool):
    """A tool that calls one endpoint of a Gradio app; the client is created on the first call."""

    src = api_name = ""

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.client: Any = None  # a gradio_client.Client once set up
        self._uploads: set[int] = set()  # the ids of the calls' file arguments: the only dicts gradio_client uploads

    def setup(self) -> None:
        """Connect on first use: constructing the tool does no network I/O."""
        with _needs(_CLIENT):
            from gradio_client import Client
        token = _space_token(self.src, self.token)
        # gradio_client 2 takes `token`, 1.x `hf_token`; False sends no token, not even a saved one.
        keyword = "token" if "token" in inspect.signature(Client).parameters else "hf_token"
        with _gradio_errors(self.src):
            try:
                self.client = Client(self.src, verbose=False, **{keyword: token})
            except (ValueError, TypeError) as exc:  # an older gradio_client cannot read a Gradio 5+ app's API
                raise ConnectionError(
                    f"cannot read the API of the Gradio app {self.src} ({_reason(exc)}); "
                    f"an app on Gradio 5 or later needs {_CLIENT}, which this client may be older than"
                ) from None
        _guard_uploads(self.client, self._uploads)
        self.is_initialized = True

    # A generated class sets `parameter_order`, the wire names of its inputs in the app's order, `file_paths`
    # where an input holds files ({name: [position as in `_files_at`, ...]}), and `parameter_defaults`, what
    # an argument left at NOT_GIVEN is sent as: the app's default when vendored (the tool does not change with the app).
    parameter_order: list[str] = []
    parameter_defaults: dict[str, Any] = {}

    def _predict(self, arguments: dict[str, Any]) -> Any:
        """Call the endpoint with `arguments` (by wire name), sent by position in the app's order; one left at
        NOT_GIVEN gets its pinned default. Only the positions `file_paths` names upload files: a local path,
        an http(s) URL or a PIL image (saved to a temporary file, deleted after the call)."""
        if self.client is None:
            self.setup()
        values = [arguments[name] for name in self.parameter_order]
        file_paths: dict[str, list[str]] = getattr(self, "file_paths", {})
        temporary: list[str] = []
        approved: list[dict[str, Any]] = []
        try:
            for index, name in enumerate(self.parameter_order):
                if values[index] is NOT_GIVEN:
                    values[index] = self.parameter_defaults[name]
                    continue
                for position in file_paths.get(name, ()):
                    values[index] = _files_at(values[index], position, lambda item: _file(item, temporary, approved))
            self._uploads.update(id(item) for item in approved)
            with _gradio_errors(self.src):
                return self.client.predict(*values, api_name=self.api_name)
        finally:
            self._uploads.difference_update(id(item) for item in approved)
            for path in temporary:
                os.remove(path)


def _space_token(src: str, explicit: str | None) -> str | bool | None:
    """The Hub token for `src`: the one passed in, for any host; else HF_TOKEN, only for the Hub.

    A Space named owner/name, the Hub itself (the origin of HF_ENDPOINT, as huggingface_hub reads it) and
    https *.hf.space get HF_TOKEN (None lets gradio_client read it, or the saved login); others False: none.
    """
    if explicit or "://" not in src:
        return explicit or None
    try:
        target = urlsplit(src)
        hub = urlsplit(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
        origins = ((target.scheme, target.hostname, target.port), (hub.scheme, hub.hostname, hub.port))
    except ValueError:  # a port that is not a number
        return False
    if target.hostname and origins[0] == origins[1]:
        return None
    space = target.scheme == "https" and target.port in (None, 443) and (target.hostname or "").endswith(".hf.space")
    return None if space else False


@contextmanager
def _gradio_errors(src: str) -> Iterator[None]:
    """An app that cannot be reached is a ConnectionError naming it, not an httpx traceback."""
    import httpx

    try:
        yield
    except (httpx.TransportError, OSError) as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
            raise
        raise ConnectionError(f"cannot reach the Gradio app {src}: {_reason(exc)}") from None


def _files_at(value: Any, position: str, upload: Callable[[Any], Any]) -> Any:
    """`value` with `upload` applied at `position`: "" the value itself, "[*]" each item of a
    list, ".key" a property of an object, chained (".files[*]"). Missing parts are left alone."""
    if value is None:
        return value
    if not position:
        return upload(value)
    if position.startswith("[*]"):
        return [_files_at(item, position[3:], upload) for item in value] if isinstance(value, (list, tuple)) else value
    key = position[1:].split(".", 1)[0].split("[", 1)[0]
    rest = position[1 + len(key) :]
    if isinstance(value, dict) and key in value:
        return {**value, key: _files_at(value[key], rest, upload)}
    return value


def _file(value: Any, temporary: list[str], approved: list[dict[str, Any]]) -> Any:
    """A local path, an http(s) URL or a PIL image, as gradio_client sends a file."""
    from gradio_client import handle_file

    if hasattr(value, "save") and not isinstance(value, str):  # a PIL image
        with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
            value.save(file, format="PNG")
        temporary.append(file.name)
        value = file.name
    data = handle_file(str(value))
    approved.append(data)
    return data


def _guard_uploads(client: Any, uploads: set[int]) -> None:
    """Let gradio_client upload only the dicts in `uploads` (by id), the declared file arguments.

    gradio_client uploads every dict shaped like FileData at any depth of any argument; a model
    could put `{"path": "~/.ssh/id_rsa", "meta": {"_type": "gradio.FileData"}}` in a JSON argument.
    Any other such dict is hidden from its upload step and sent as the data it is.
    """

    def hide(value: Any) -> Any:
        meta = value.get("meta") if isinstance(value, dict) else None
        if isinstance(meta, dict) and meta.get("_type") == _FILE_DATA and id(value) not in uploads:
            return _Hidden(value)
        return _each(value, hide)

    def show(value: Any) -> Any:
        return value.value if isinstance(value, _Hidden) else _each(value, show)

    def guarded(process: Callable[..., tuple[Any, ...]]) -> Callable[..., tuple[Any, ...]]:
        return lambda *data: tuple(show(item) for item in process(*(hide(item) for item in data)))

    endpoints = client.endpoints.values() if isinstance(client.endpoints, dict) else client.endpoints
    for endpoint in endpoints:
        process = getattr(endpoint, "process_input_files", None)
        if process is not None:  # endpoints of Gradio 3 apps upload by component type instead
            endpoint.process_input_files = guarded(process)


class _Hidden:
    """A FileData-shaped dict that is not a declared file argument, out of gradio_client's sight."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value


def _each(value: Any, function: Callable[[Any], Any]) -> Any:
    """A copy of a dict or list with `function` applied to each item; anything else as it is."""
    if isinstance(value, dict):
        return {key: function(item) for key, item in value.items()}
    return [function(item) for item in value] if isinstance(value, list) else value


def audio_result(value: Any) -> Any:
    """An audio output as AgentAudio; its file path where AgentAudio cannot load (no smolagents[audio])."""
    from smolagents.agent_types import AgentAudio

    try:
        return AgentAudio(value)
    except ModuleNotFoundError:
        return value
