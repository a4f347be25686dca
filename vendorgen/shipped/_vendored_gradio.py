# Written by vendorgen 0.1.0: the same bytes in every project vendored with that version.
# Do not edit it here: `vendorgen update` replaces it (and merges a local edit like any vendored file).
"""What vendored Gradio tools (space:) share: the client, made on the first call, and its files."""

from __future__ import annotations

import hashlib
import inspect
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, urlsplit

# smolagents ships no type information: to mypy its Tool is Any, and the tools here subclass it.
# mypy: allow-subclassing-any
from smolagents import Tool

from ._vendored_runtime import ResultFile, _data_uri_bytes, _needs, _open_confined, _open_image, _reason, _VendoredTool

_CLIENT = "gradio_client>=1.8"  # as pip spells it
_FILE_DATA = "gradio.FileData"  # what gradio_client uploads a local file for, at any depth of any argument


class SpaceTool(_VendoredTool, Tool):
    """A tool that calls one endpoint of a Gradio app; the client is created on the first call."""

    src = api_name = ""
    # Where a local file argument may be read from (see `_confined`): a model can be talked into naming any path.
    file_roots: list[str] | None = None
    # A file the app's answer places at another origin than the app's own: refused (False), or fetched
    # without the token and cookies (True). The app's own origin gets them, as on upload.
    files_from_other_origins = False
    # The most bytes an output file may take, and the seconds its download may take: a bigger or slower one is
    # refused (the app's answer chooses what is downloaded, and it can send without end).
    max_result_bytes = 1_000_000_000
    result_seconds = 300.0
    # A generated class sets `parameter_order`, the wire names of its inputs in the app's order, `file_paths`
    # where an input holds files ({name: [position as in `_files_at`, ...]}), and `parameter_defaults`, what
    # an argument left at NOT_GIVEN is sent as: the app's default when vendored (the tool does not change with the app).
    parameter_order: list[str] = []
    parameter_defaults: dict[str, Any] = {}

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.client: Any = None  # a gradio_client.Client once set up
        self._uploads: set[int] = set()  # the ids of the calls' file arguments: the only dicts gradio_client uploads

    def setup(self) -> None:
        """Connect on first use: constructing the tool does no network I/O."""
        with _needs(_CLIENT):
            from gradio_client import Client
        # gradio_client 2 takes `token`, 1.x `hf_token`; False sends no token, not even a saved one.
        keyword = "token" if "token" in inspect.signature(Client).parameters else "hf_token"
        with _gradio_errors(self.src):
            address, token = _space_address(self.src, self.token)
            try:
                self.client = Client(address, verbose=False, **{keyword: token})
            except (ValueError, TypeError) as exc:  # an older gradio_client cannot read a Gradio 5+ app's API
                raise ConnectionError(
                    f"cannot read the API of the Gradio app {self.src} ({_reason(exc)}); "
                    f"an app on Gradio 5 or later needs {_CLIENT}, which this client may be older than"
                ) from None
        _guard_uploads(self.client, self._uploads)
        _guard_downloads(self.client, self)
        self.is_initialized = True

    def _predict(self, arguments: dict[str, Any]) -> Any:
        """Call the endpoint with `arguments` (by wire name) by position in the app's order. Only the
        positions `file_paths` names upload files: a local path, an http(s) URL, a data: URI or a PIL image."""
        if self.client is None:
            self.setup()
        sent = self._sent(arguments)
        file_paths: dict[str, list[str]] = getattr(self, "file_paths", {})
        temporary: list[str] = []  # deleted after the call
        approved: list[dict[str, Any]] = []
        try:
            values = []
            for name in self.parameter_order:
                if name not in sent:  # left at NOT_GIVEN
                    values.append(self.parameter_defaults[name])
                    continue
                value = sent[name]
                for position in file_paths.get(name, ()):
                    value = _files_at(value, position, lambda item: _file(item, self.file_roots, temporary, approved))
                values.append(value)
            self._uploads.update(id(item) for item in approved)
            with _gradio_errors(self.src):
                return self.client.predict(*values, api_name=self.api_name)
        finally:
            self._uploads.difference_update(id(item) for item in approved)
            for path in temporary:
                if os.path.isdir(path):
                    shutil.rmtree(path)
                else:
                    os.remove(path)


def _space_address(src: str, explicit: str | None) -> tuple[str, str | bool | None]:
    """Where to connect for `src`, and the Hub token to send there: the one passed in, for any host; else
    the machine's only where `_token_allowed` says (None: gradio_client reads it; False: none at all).

    A Space named owner/name is looked up on the Hub first: gradio_client would send the token to
    whatever host the Hub names, so a host that is not the Space's own gets the app URL and False.
    """
    hub = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    if explicit:
        return src, explicit
    if "://" in src:
        return src, None if _token_allowed(src, None, hub) else False
    from huggingface_hub import HfApi

    host = HfApi(endpoint=hub).space_info(src).host or ""
    return (src, None) if _token_allowed(host, src, hub) else (host or src, False)


def _token_allowed(url: str, space_id: str | None, hub_endpoint: str) -> bool:
    """Whether a request to `url` may carry the machine's Hub token: the Hub's own origin and, for the Space
    `space_id`, its https://<owner>-<name>.hf.space host (not any *.hf.space app URL: it names no Space).
    The rule of vendorgen's `sources.hub_client.token_allowed`; a test holds the two to one table."""
    target, hub = _origin(url), _origin(hub_endpoint)
    if target is None or hub is None or not target[1]:
        return False
    scheme, host, port = target
    if target == hub:
        return True
    if space_id is None or scheme != "https" or port not in (None, 443):
        return False
    subdomain = re.sub(r"[^a-z0-9]+", "-", space_id.lower()).strip("-")
    return host in (f"{subdomain}.hf.space", f"{subdomain}.static.hf.space")


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """Scheme, host and port of `url`; None for a port that is not a number (no origin of any app)."""
    try:
        parts = urlsplit(url)
        return parts.scheme, (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None


@contextmanager
def _gradio_errors(src: str) -> Iterator[None]:
    """An app that cannot be reached is a ConnectionError naming it, not an httpx traceback."""
    import httpx

    try:
        yield
    except (httpx.TransportError, OSError) as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError, TimeoutError)):  # ours, not httpx's
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
    if isinstance(value, dict) and key in value:
        return {**value, key: _files_at(value[key], position[1 + len(key) :], upload)}
    return value


def _file(value: Any, roots: list[str] | None, temporary: list[str], approved: list[dict[str, Any]]) -> Any:
    """A local path inside `roots` (see `_confined`), an http(s) URL, a data: URI (the file's content, as
    serve's clients send it) or a PIL image, as gradio_client sends a file. A local file is copied, opened
    once without following a link (`_open_confined`), and the copy sent: gradio_client opens what it sends by
    name, later, when a link swapped in meanwhile would lead it anywhere."""
    import mimetypes

    from gradio_client import handle_file
    from gradio_client.utils import is_http_url_like

    if hasattr(value, "save") and not isinstance(value, str):  # a PIL image
        with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
            value.save(file, format="PNG")
        temporary.append(value := file.name)
    elif isinstance(value, str) and value.startswith("data:"):
        suffix = mimetypes.guess_extension(value[5:].partition(",")[0].partition(";")[0]) or ""
        with tempfile.NamedTemporaryFile(suffix=suffix, delete=False) as file:
            file.write(_data_uri_bytes(value))
        temporary.append(value := file.name)
    elif not is_http_url_like(str(value)):
        with _open_confined(str(value), roots) as source:
            directory = tempfile.mkdtemp()  # the copy keeps the file's name, which the app may read
            temporary.append(directory)
            name = os.path.basename(os.path.realpath(str(value))) or "file"
            with open(value := os.path.join(directory, name), "wb") as copy:
                shutil.copyfileobj(source, copy)
    approved.append(data := handle_file(str(value)))
    return data


def _endpoints(client: Any) -> Any:
    return client.endpoints.values() if isinstance(client.endpoints, dict) else client.endpoints


def _guard_uploads(client: Any, uploads: set[int]) -> None:
    """Let gradio_client upload only the dicts in `uploads` (by id), the declared file arguments.

    gradio_client uploads every dict shaped like FileData at any depth of any argument; a model could put
    `{"path": "~/.ssh/id_rsa", "meta": {"_type": "gradio.FileData"}}` in a JSON argument: any other such
    dict is hidden from its upload step and sent as the data it is.
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

    for endpoint in _endpoints(client):
        if hasattr(endpoint, "process_input_files"):  # endpoints of Gradio 3 apps upload by component type instead
            endpoint.process_input_files = guarded(endpoint.process_input_files)


def _guard_downloads(client: Any, tool: SpaceTool) -> None:
    """Download the files of the app's answers as gradio_client would (`_download`), but send its headers
    (the Hub token) and cookies only to the app's own origin."""
    for endpoint in _endpoints(client):
        if hasattr(endpoint, "_download_file"):  # endpoints of Gradio 3 apps have none
            endpoint._download_file = lambda file, root=endpoint.root_url: _download(client, root, file, tool)


class _Hidden:
    """A FileData-shaped dict that is not a declared file argument, out of gradio_client's sight."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value


def _each(value: Any, function: Callable[[Any], Any]) -> Any:
    """A copy of a dict or list with `function` applied to each item; anything else as it is."""
    if isinstance(value, dict):
        return {key: function(item) for key, item in value.items()}
    return [function(item) for item in value] if isinstance(value, list) else value


_REDIRECTS = 20  # how many redirects a download follows (httpx's default limit)


def _download(client: Any, root_url: str, file: dict[str, Any], tool: SpaceTool) -> ResultFile:
    """One output file, stored where gradio_client stores it: <output_dir>/<sha256>/<name>.

    gradio_client fetches an answer's FileData `url` when it is a stream, wherever it points, with the
    client's headers, following redirects: the app's answer would choose where the token goes. Here
    another origin is refused, or fetched without credentials (the tool's `files_from_other_origins`), redirects
    included; within the tool's `max_result_bytes` and `result_seconds`.
    """
    import httpx

    src = tool.src
    url = file.get("url") if file.get("is_stream") else None
    if isinstance(url, str) and url:
        url = url if url.startswith(("http://", "https://")) else root_url + url.lstrip("/")
        name = url.rpartition("/")[2].partition("?")[0]
    else:
        path = str(file["path"])
        url, name = f"{root_url}file={quote(path, safe='/')}", path.rpartition("/")[2]
    with httpx.Client(verify=client.ssl_verify, follow_redirects=False) as http:
        for _ in range(_REDIRECTS):
            own = _origin(url) == _origin(root_url)
            if not own and not tool.files_from_other_origins:
                raise PermissionError(
                    f"the Gradio app {src} answered with a file at another origin ({url}): not fetched; "
                    "set the tool's files_from_other_origins to fetch such files without credentials"
                )
            credentials = {"headers": client.headers, "cookies": client.cookies} if own else {}
            response = http.send(http.build_request("GET", url, **credentials), stream=True)
            if not response.is_redirect or response.next_request is None:
                break
            response.close()
            url = str(response.next_request.url)
        else:
            raise ConnectionError(f"the Gradio app {src} redirected a file more than {_REDIRECTS} times")
        try:
            response.raise_for_status()
            part, sha256 = _stored(_bounded(response.iter_bytes(), tool), client.output_dir)
        finally:
            response.close()
    directory = os.path.join(client.output_dir, sha256)
    os.makedirs(directory, exist_ok=True)
    destination = os.path.join(directory, name if name not in ("", ".", "..") else "file")
    os.replace(part, destination)
    return ResultFile(os.path.realpath(destination))


def _bounded(chunks: Iterator[bytes], tool: SpaceTool) -> Iterator[bytes]:
    """`chunks` while they stay within the tool's max_result_bytes and result_seconds; ValueError or TimeoutError
    (naming the attribute to raise) beyond."""
    import time

    deadline, size = time.monotonic() + tool.result_seconds, 0
    for chunk in chunks:
        size += len(chunk)
        if size > tool.max_result_bytes:
            raise ValueError(f"the Gradio app {tool.src} sent a file over {tool.max_result_bytes:,} bytes: refused"
                             " (the tool's max_result_bytes)")  # fmt: skip
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Gradio app {tool.src} took over {tool.result_seconds:g} s to send a file:"
                               " refused (the tool's result_seconds)")  # fmt: skip
        yield chunk


def _stored(chunks: Iterator[bytes], directory: str) -> tuple[str, str]:
    """`chunks` in a new file in `directory`: (its path, their sha256). Nothing is left on failure."""
    os.makedirs(directory, exist_ok=True)
    digest = hashlib.sha256()
    with tempfile.NamedTemporaryFile(dir=directory, delete=False) as part:
        try:
            for chunk in chunks:
                digest.update(chunk)
                part.write(chunk)
        except BaseException:
            os.remove(part.name)
            raise
    return part.name, digest.hexdigest()


def image_result(value: Any) -> Any:
    """An image output as AgentImage when it is a file this runtime downloaded, opened here once: one of
    IMAGE_FORMATS (told by its bytes: an EPS would start Ghostscript) within MAX_IMAGE_PIXELS (AgentImage would
    decode up to PIL's own bound, 179 M), else ValueError. Anything else the app answered (a path it names on
    this machine) as it came: text, never read."""
    from smolagents.agent_types import AgentImage

    if not isinstance(value, ResultFile):
        return value
    try:
        return AgentImage(_open_image(value))
    except ValueError as exc:
        raise ValueError(f"the app's image {exc}") from None


def audio_result(value: Any) -> Any:
    """An audio output as AgentAudio when it is a file this runtime downloaded (its path where
    AgentAudio cannot load: no smolagents[audio]); anything else as it came, never read."""
    from smolagents.agent_types import AgentAudio

    try:
        return AgentAudio(value) if isinstance(value, ResultFile) else value
    except ModuleNotFoundError:
        return value
