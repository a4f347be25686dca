"""An in-memory Hugging Face Hub served on 127.0.0.1, for tests that must never reach the real Hub.

Stdlib only. It speaks the HTTP API that huggingface_hub 2.x and smolagents call, with the headers and
error codes the real Hub sends, so the real clients work against it unchanged:

    with FakeHub() as hub:
        sha = hub.add_space("tester/echo", {"tool.py": b"..."})
        HfApi(endpoint=hub.endpoint, token="hf_test").space_info("tester/echo").sha == sha

Repos keep a real history: every commit gets a new sha and "main" moves; any past sha still resolves.
Every file is a regular git blob: preupload always answers uploadMode "regular" and no response carries
Xet or LFS headers, so neither hf_xet nor git-lfs is ever used.

Run standalone with `python -m tests.servers.fakehub --port 8000`.
"""

from __future__ import annotations

import argparse
import base64
import fnmatch
import hashlib
import json
import mimetypes
import os
import re
import socket
import threading
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

DEFAULT_USER = "tester"
DEFAULT_TOKEN = "hf_test"

# URL plural -> repo type, and repo type -> prefix of its web/resolve URLs (as in huggingface_hub.constants).
_KINDS = {"models": "model", "datasets": "dataset", "spaces": "space"}
_URL_PREFIX = {"model": "", "dataset": "datasets/", "space": "spaces/"}
_SPACE_SDKS = ("gradio", "streamlit", "docker", "static")

# The messages the real Hub uses; huggingface_hub tests some of them verbatim.
_INVALID_TOKEN = "Invalid credentials in Authorization header"
_ANONYMOUS = "Invalid username or password."
_REPO_NOT_FOUND = "Repository not found"
_SERVER_ERROR = "Internal Error - We're working hard to fix this as soon as possible!"

_GITATTRIBUTES = b"""*.7z filter=lfs diff=lfs merge=lfs -text
*.bin filter=lfs diff=lfs merge=lfs -text
*.ckpt filter=lfs diff=lfs merge=lfs -text
*.gz filter=lfs diff=lfs merge=lfs -text
*.h5 filter=lfs diff=lfs merge=lfs -text
*.onnx filter=lfs diff=lfs merge=lfs -text
*.parquet filter=lfs diff=lfs merge=lfs -text
*.pt filter=lfs diff=lfs merge=lfs -text
*.safetensors filter=lfs diff=lfs merge=lfs -text
*.zip filter=lfs diff=lfs merge=lfs -text
"""


def git_blob_sha(data: bytes) -> str:
    """The git blob id of `data`: the ETag the Hub sends for a regular (non-LFS) file."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _object_id(*parts: str) -> str:
    """A 24-hex id shaped like the Hub's MongoDB ids, stable for the same parts."""
    return hashlib.md5("\0".join(parts).encode()).hexdigest()[:24]


def parse_front_matter(readme: bytes) -> dict[str, Any]:
    """Read the YAML front matter of a README, for `cardData`.

    A small subset of YAML is enough for Hub cards: `key: scalar` and `key:` followed by `- item` lines,
    which is what huggingface_hub's RepoCard writes. Anything else is skipped.
    """
    lines = readme.decode("utf-8", errors="replace").splitlines()
    if not lines or lines[0].strip() != "---":
        return {}
    data: dict[str, Any] = {}
    last_key: str | None = None
    for line in lines[1:]:
        if line.strip() == "---":
            break
        if line.startswith(("- ", "  - ")) and last_key is not None:
            if not isinstance(data.get(last_key), list):
                data[last_key] = []
            data[last_key].append(_scalar(line.split("- ", 1)[1]))
        elif ":" in line and not line.startswith((" ", "#")):
            key, _, value = line.partition(":")
            last_key = key.strip()
            data[last_key] = _scalar(value) if value.strip() else None
    return data


def _scalar(text: str) -> Any:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~"):
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


class HubError(Exception):
    """An error answer, with the Hub's JSON body and X-Error-Code / X-Error-Message headers."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.headers = dict(headers or {})
        self.body = {"error": message, **(body or {})}


@dataclass
class _Commit:
    oid: str
    parent: str | None
    files: dict[str, bytes]
    title: str
    message: str
    date: datetime


@dataclass
class _Repo:
    type: str
    id: str
    private: bool
    sdk: str | None
    object_id: str
    created_at: datetime
    commits: dict[str, _Commit] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)  # "main" or "refs/pr/N" -> commit sha
    next_pr: int = 1

    @property
    def web_path(self) -> str:
        return f"{_URL_PREFIX[self.type]}{self.id}"

    def resolve(self, revision: str) -> _Commit:
        """A branch, PR ref or full commit sha -> commit; unknown -> 404 RevisionNotFound."""
        name = revision.removeprefix("refs/heads/")
        sha = self.refs.get(name, name)
        commit = self.commits.get(sha)
        if commit is None:
            raise HubError(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        return commit

    def history(self, sha: str) -> Iterable[_Commit]:
        """Commits from `sha` back to the first one."""
        current: str | None = sha
        while current is not None:
            commit = self.commits[current]
            yield commit
            current = commit.parent


@dataclass
class _Fault:
    pattern: re.Pattern[str]
    status: int
    remaining: int
    method: str | None
    code: str | None
    message: str | None
    breakage: str | None = None  # a BREAKAGES mode instead of an error answer


# What `break_next` can do to an answer, as a network or a broken server would.
BREAKAGES = ("hang", "malformed", "truncated", "cut", "trickle")


class FakeHub:
    """An in-memory Hub on 127.0.0.1; see the module docstring.

    `tokens=None` accepts any bearer token as the user `user`; otherwise only the given tokens are valid and
    any other token gets the Hub's 401 "Invalid credentials in Authorization header". Anonymous requests may
    read public repos but not write.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        tokens: Iterable[str] | None = None,
        user: str = DEFAULT_USER,
    ) -> None:
        self.host = host
        self.port = port
        self.user = user
        self.tokens = None if tokens is None else frozenset(tokens)
        self.requests: list[tuple[str, str]] = []  # (method, path without query), in arrival order
        self.errors: list[str] = []  # tracebacks of handler bugs (answered as 500); tests can assert it stays empty
        self._repos: dict[tuple[str, str], _Repo] = {}
        self._collections: dict[str, dict[str, Any]] = {}
        # Where a Space runs (space_info's `host`), when a test serves its app itself; else <sub>.hf.space.
        self.space_hosts: dict[str, str] = {}
        self._faults: list[_Fault] = []
        self._serial = 0  # mixed into commit shas so that two identical commits still differ
        self._lock = threading.RLock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------- lifecycle

    @property
    def endpoint(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeHub is not started")
        return f"http://{self.host}:{self.port}"

    def start(self) -> FakeHub:
        """Serve in a daemon thread; port 0 (the default) lets the OS pick a free port."""
        handler = type("_BoundHandler", (_Handler,), {"hub": self})
        self._server = ThreadingHTTPServer((self.host, self.port), handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        # A short poll interval keeps stop() (which waits for the next poll) fast.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fakehub", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def client_env(self, hf_home: str | os.PathLike[str], token: str = DEFAULT_TOKEN) -> dict[str, str]:
        """Environment for huggingface_hub in a subprocess: this Hub, its own HF_HOME (no cache or login
        shared with the machine) and `token` as HF_TOKEN."""
        return {"HF_ENDPOINT": self.endpoint, "HF_HOME": os.fspath(hf_home), "HF_TOKEN": token,
                "HF_HUB_DISABLE_PROGRESS_BARS": "1"}  # fmt: skip

    # ------------------------------------------------------------ seeding state

    def add_repo(
        self,
        repo_id: str,
        files: Mapping[str, bytes],
        *,
        repo_type: str = "model",
        sdk: str | None = None,
        private: bool = False,
        message: str = "Upload files",
        branch: str = "main",
    ) -> str:
        """Create the repo if needed (as the Hub does), then commit `files` onto `branch`; return the sha.

        Files not named are kept: this is one commit, not a replacement of the repo. A new branch
        starts from main.
        """
        with self._lock:
            repo = self._repos.get((repo_type, repo_id)) or self._create_repo(repo_type, repo_id, private, sdk)
            repo.refs.setdefault(branch, repo.refs["main"])
            head = repo.resolve(branch)
            return self._commit(repo, branch, {**head.files, **files}, message)

    def add_space(
        self,
        repo_id: str,
        files: Mapping[str, bytes],
        sdk: str = "gradio",
        *,
        private: bool = False,
        message: str = "Upload files",
        branch: str = "main",
    ) -> str:
        """A Space with its Hub-made README.md and .gitattributes plus `files`; returns the new commit sha."""
        return self.add_repo(
            repo_id, files, repo_type="space", sdk=sdk, private=private, message=message, branch=branch
        )

    def add_collection(
        self,
        slug: str,
        items: Iterable[tuple[str, str]],
        title: str | None = None,
        *,
        description: str | None = None,
        private: bool = False,
    ) -> str:
        """A collection `owner/name-<id>` of `(item_type, item_id)`, e.g. ("space", "tester/echo")."""
        owner = slug.split("/", 1)[0]
        with self._lock:
            self._collections[slug] = {
                "title": title or slug.split("/", 1)[-1],
                "description": description,
                "private": private,
                "items": list(items),
                "owner": owner,
                "updated": datetime.now(timezone.utc),
            }
        return slug

    def commit_sha(self, repo_id: str, revision: str = "main", repo_type: str | None = None) -> str:
        with self._lock:
            return self._find(repo_id, repo_type).resolve(revision).oid

    def files(self, repo_id: str, revision: str = "main", repo_type: str | None = None) -> dict[str, bytes]:
        with self._lock:
            return dict(self._find(repo_id, repo_type).resolve(revision).files)

    def fail_next(
        self,
        path_regex: str,
        status: int,
        times: int = 1,
        *,
        method: str | None = None,
        error_code: str | None = None,
        message: str | None = None,
    ) -> None:
        """Answer the next `times` requests whose path matches `path_regex` with an error.

        The regex is searched in the raw URL path, still percent-encoded and without the query string,
        i.e. the path as it appears in `requests`.

        Defaults follow the Hub: 401 -> X-Error-Code RepoNotFound (what an anonymous caller gets for a
        private or missing repo); 404 -> EntryNotFound on /resolve/ paths, RepoNotFound elsewhere;
        403 and 5xx -> no code. Pass `error_code` (e.g. "GatedRepo") or `message` to change them.
        """
        if error_code is None:
            if status == 401:
                error_code = "RepoNotFound"
            elif status == 404:
                error_code = "EntryNotFound" if "resolve" in path_regex else "RepoNotFound"
        with self._lock:
            self._faults.append(
                _Fault(re.compile(path_regex), status, times, method and method.upper(), error_code, message)
            )

    def break_next(self, path_regex: str, breakage: str, times: int = 1) -> None:
        """Break the answer to the next `times` requests whose path matches `path_regex` (as in `fail_next`).

        `hang`: never answer. `malformed`: 200 with a body that is not JSON. `truncated`: the first half of
        the real answer's body, sent as the whole body. `cut`: the real answer's headers, half its body,
        then the connection closes. `trickle`: the real answer, its body one byte a second.
        """
        if breakage not in BREAKAGES:
            raise ValueError(f"unknown breakage {breakage!r}; one of {BREAKAGES}")
        with self._lock:
            self._faults.append(_Fault(re.compile(path_regex), 200, times, None, None, None, breakage))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    # ------------------------------------------------------------- repo model

    def _find(self, repo_id: str, repo_type: str | None) -> _Repo:
        """Look a repo up for the Python-side helpers; with no type, the id must be unique across types."""
        types = [repo_type] if repo_type else list(_URL_PREFIX)
        found = [self._repos[(kind, repo_id)] for kind in types if (kind, repo_id) in self._repos]
        if len(found) != 1:
            raise KeyError(f"{repo_id!r} ({repo_type or 'any type'}): {len(found)} repos match")
        return found[0]

    def _create_repo(self, repo_type: str, repo_id: str, private: bool, sdk: str | None) -> _Repo:
        now = datetime.now(timezone.utc)
        repo = _Repo(repo_type, repo_id, private, sdk, _object_id(repo_type, repo_id), now)
        self._repos[(repo_type, repo_id)] = repo
        # The Hub creates repos with a first commit; a Space also gets a README whose front matter
        # holds its config (smolagents' push_to_hub relies on it: metadata_update needs a README).
        files = {".gitattributes": _GITATTRIBUTES}
        if repo_type == "space":
            name = repo_id.split("/")[-1]
            config = f"title: {name}\nemoji: 🔧\ncolorFrom: blue\ncolorTo: gray\nsdk: {sdk}\n"
            if sdk in ("gradio", "streamlit"):
                config += "app_file: app.py\n"
            files["README.md"] = (
                f"---\n{config}pinned: false\n---\n\n"
                "Check out the configuration reference in the Hub documentation (spaces-config-reference)\n"
            ).encode()
        self._commit(repo, "main", files, "initial commit")
        return repo

    def _commit(self, repo: _Repo, ref: str, files: dict[str, bytes], title: str, message: str = "") -> str:
        parent = repo.refs.get(ref)
        self._serial += 1
        tree = "".join(f"{path}\0{git_blob_sha(data)}\n" for path, data in sorted(files.items()))
        header = f"{repo.type}/{repo.id}\n{parent}\n{self._serial}\n{title}\n{message}\n"
        oid = hashlib.sha1((header + tree).encode()).hexdigest()
        now = datetime.now(timezone.utc)
        repo.commits[oid] = _Commit(oid, parent, dict(files), title, message, now)
        repo.refs[ref] = oid
        return oid


class _Handler(BaseHTTPRequestHandler):
    """One request: record it, apply injected faults, route it, answer JSON or file bytes."""

    hub: FakeHub  # set on the per-server subclass
    protocol_version = "HTTP/1.1"  # keep-alive, as the Hub serves httpx's pooled connections
    server_version = "FakeHub/1.0"
    timeout = 30  # drop idle keep-alive connections eventually

    _REPO = r"(?P<ns>[^/]+)/(?P<name>[^/]+)"
    _API = rf"/api/(?P<kind>models|datasets|spaces)/{_REPO}"
    ROUTES: list[tuple[str, re.Pattern[str], str]] = [
        (m, re.compile(p), h)
        for m, p, h in [
            ("GET", r"/api/whoami-v2", "whoami"),
            ("GET", r"/api/agent-harnesses", "agent_harnesses"),
            ("POST", r"/api/validate-yaml", "validate_yaml"),
            ("POST", r"/api/repos/create", "create_repo"),
            ("DELETE", r"/api/repos/delete", "delete_repo"),
            ("GET", r"/api/collections/(?P<slug>[^/]+/[^/]+)", "collection"),
            ("GET", rf"{_API}(?:/revision/(?P<rev>[^/]+))?", "repo_info"),
            ("GET", rf"/api/spaces/{_REPO}/runtime", "space_runtime"),
            ("POST", rf"{_API}/preupload/(?P<rev>[^/]+)", "preupload"),
            ("POST", rf"{_API}/commit/(?P<rev>[^/]+)", "commit"),
            ("GET", rf"{_API}/tree/(?P<rev>[^/]+)(?:/(?P<path>.*))?", "tree"),
            ("POST", rf"{_API}/paths-info/(?P<rev>[^/]+)", "paths_info"),
            ("GET", rf"{_API}/refs", "refs"),
            ("GET", rf"{_API}/commits/(?P<rev>[^/]+)", "commits"),
            ("GET", rf"/(?:(?P<kind>datasets|spaces)/)?{_REPO}/resolve/(?P<rev>[^/]+)/(?P<path>.+)", "resolve"),
        ]
    ]

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # tests read hub.requests instead of a noisy stderr

    # ---------------------------------------------------------------- plumbing

    def _dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        self.query = parse_qs(url.query)
        self.body = self._read_body()
        self.breakage: str | None = None
        hub = self.hub
        with hub._lock:
            hub.requests.append((method, url.path))
        try:
            self.breakage = self._apply_faults(method, url.path)
            if self.breakage == "hang":
                threading.Event().wait()  # never answers; the daemon thread ends with the process
            if self.breakage == "malformed":
                self._send(200, b"{'not': json,,", {"Content-Type": "application/json"})
                return
            route_method = "GET" if method == "HEAD" else method
            for allowed, pattern, name in self.ROUTES:
                match = pattern.fullmatch(url.path)
                if match and allowed == route_method:
                    params = {k: unquote(v) for k, v in match.groupdict().items() if v is not None}
                    with hub._lock:
                        result = getattr(self, f"_h_{name}")(**params)
                    if result is not None:
                        self._send_json(200, result)
                    return
            raise HubError(404, "Not Found")
        except HubError as error:
            self._send_error(error)
        except Exception as exc:  # a bug must not look like a dropped connection, which clients retry
            with hub._lock:
                hub.errors.append(traceback.format_exc())
            self._send_error(HubError(500, f"fakehub bug: {type(exc).__name__}: {exc}".splitlines()[0]))

    def _send_error(self, error: HubError) -> None:
        headers = dict(error.headers)
        if error.code:
            headers["X-Error-Code"] = error.code
        headers["X-Error-Message"] = error.message
        self._send_json(error.status, error.body, headers)

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()  # the blank line after the last chunk
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _apply_faults(self, method: str, path: str) -> str | None:
        """Raise the HubError a fault injects, or return its breakage (None: no fault)."""
        hub = self.hub
        with hub._lock:
            for fault in hub._faults:
                if fault.pattern.search(path) and fault.method in (None, method):
                    fault.remaining -= 1
                    if fault.remaining <= 0:
                        hub._faults.remove(fault)
                    break
            else:
                return None
        if fault.breakage is not None:
            return fault.breakage
        status = fault.status
        message = fault.message or {
            401: _REPO_NOT_FOUND if fault.code == "RepoNotFound" else _INVALID_TOKEN,
            403: "You don't have access to this resource",
            404: "Entry not found" if fault.code == "EntryNotFound" else _REPO_NOT_FOUND,
        }.get(status, _SERVER_ERROR if status >= 500 else "Error")
        raise HubError(status, message, code=fault.code)

    def _send(self, status: int, body: bytes, headers: Mapping[str, str]) -> None:
        length = headers.get("Content-Length", str(len(body)))
        if self.breakage in ("truncated", "cut"):
            body = body[: len(body) // 2]
            length = str(len(body)) if self.breakage == "truncated" else length
        self.send_response(status)
        for key, value in headers.items():
            # Header values must be latin-1; a non-ASCII file name would otherwise kill the answer.
            if key != "Content-Length":
                self.send_header(key, value.encode("latin-1", "replace").decode("latin-1"))
        self.send_header("Content-Length", length)
        self.end_headers()
        if self.command != "HEAD" and self.breakage == "trickle":
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:  # the client gave up, as it should
                self.close_connection = True
        elif self.command != "HEAD":
            self.wfile.write(body)
        if self.breakage == "cut":
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True

    def _send_json(self, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
        body = json.dumps(payload).encode()
        self._send(status, body, {"Content-Type": "application/json; charset=utf-8", **(headers or {})})

    def _json_body(self) -> Any:
        try:
            return json.loads(self.body or b"{}")
        except ValueError:
            raise HubError(400, "Invalid JSON body") from None

    @property
    def base_url(self) -> str:
        """The endpoint as the client called it, for the URLs we hand back."""
        return f"http://{self.headers.get('Host') or f'{self.hub.host}:{self.hub.port}'}"

    def _user(self, *, required: bool) -> str | None:
        """The caller's user name from `Authorization: Bearer`, None if anonymous; bad token -> 401."""
        auth = self.headers.get("Authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        if token is None:
            if required:
                raise HubError(401, _ANONYMOUS)
            return None
        if self.hub.tokens is not None and token not in self.hub.tokens:
            raise HubError(401, _INVALID_TOKEN)
        return self.hub.user

    def _repo(self, kind: str | None, ns: str, name: str, *, write: bool = False) -> _Repo:
        """The repo at `kind/ns/name`; missing or private-to-anonymous -> RepoNotFound, 401 or 404 as the Hub."""
        user = self._user(required=write)
        repo_type = _KINDS.get(kind or "models", "model")
        repo = self.hub._repos.get((repo_type, f"{ns}/{name}"))
        if repo is None or (repo.private and user is None):
            # The Hub hides existence from anonymous callers with a 401, and says 404 to users.
            raise HubError(401 if user is None else 404, _REPO_NOT_FOUND, code="RepoNotFound")
        return repo

    # ----------------------------------------------------------------- account

    def _h_whoami(self) -> dict[str, Any]:
        user = self._user(required=True)
        return {
            "type": "user",
            "id": _object_id("user", user),
            "name": user,
            "fullname": user.title(),
            "email": f"{user}@example.com",
            "emailVerified": True,
            "canPay": False,
            "isPro": False,
            "periodEnd": None,
            "avatarUrl": "/avatars/default.svg",
            "orgs": [],
            "auth": {"type": "access_token", "accessToken": {"displayName": "fakehub", "role": "write"}},
        }

    def _h_agent_harnesses(self) -> dict[str, Any]:
        # An empty registry: huggingface_hub then detects no agent and asks nothing more.
        return {"standardEnvVars": [], "harnesses": {}}

    def _h_validate_yaml(self) -> dict[str, Any]:
        content = str(self._json_body().get("content", ""))
        lines = content.splitlines()
        if lines and lines[0].strip() == "---" and "---" not in (line.strip() for line in lines[1:]):
            raise HubError(400, "Invalid metadata", body={"errors": [{"message": "Unclosed YAML front matter"}]})
        return {"errors": [], "warnings": []}

    # ------------------------------------------------------------------- repos

    def _h_create_repo(self) -> dict[str, Any]:
        user = self._user(required=True)
        payload = self._json_body()
        name = str(payload.get("name") or "")
        repo_type = payload.get("type") or "model"
        if repo_type not in _URL_PREFIX:
            raise HubError(400, f"Invalid repo type: {repo_type}")
        if not re.fullmatch(r"[A-Za-z0-9][\w.-]{0,95}", name):
            raise HubError(400, f"Invalid repo name: {name!r}")
        sdk = payload.get("sdk")
        if repo_type == "space" and sdk not in _SPACE_SDKS:
            raise HubError(400, f"Invalid sdk: {sdk!r}")
        repo_id = f"{payload.get('organization') or user}/{name}"
        url = f"{self.base_url}/{_URL_PREFIX[repo_type]}{repo_id}"
        if (repo_type, repo_id) in self.hub._repos:
            # huggingface_hub's create_repo(exist_ok=True) reads "url" from this 409 body.
            raise HubError(409, f"You already created this {repo_type} repo", body={"url": url})
        private = bool(payload.get("private")) or payload.get("visibility") == "private"
        repo = self.hub._create_repo(repo_type, repo_id, private, sdk if repo_type == "space" else None)
        return {"url": url, "name": repo_id, "id": repo.object_id}

    def _h_delete_repo(self) -> None:
        user = self._user(required=True)
        payload = self._json_body()
        key = (payload.get("type") or "model", f"{payload.get('organization') or user}/{payload.get('name')}")
        if self.hub._repos.pop(key, None) is None:
            raise HubError(404, _REPO_NOT_FOUND, code="RepoNotFound")
        self._send(200, b"", {})

    def _h_repo_info(self, kind: str, ns: str, name: str, rev: str = "main") -> dict[str, Any]:
        repo = self._repo(kind, ns, name)
        commit = repo.resolve(rev)
        card = parse_front_matter(commit.files.get("README.md", b""))
        with_blobs = self.query.get("blobs", [""])[0].lower() in ("1", "true")
        siblings = []
        for path, data in sorted(commit.files.items()):
            sibling: dict[str, Any] = {"rfilename": path}
            if with_blobs:
                sibling.update(size=len(data), blobId=git_blob_sha(data))
            siblings.append(sibling)
        card_tags = card.get("tags") if isinstance(card.get("tags"), list) else []
        info: dict[str, Any] = {
            "_id": repo.object_id,
            "id": repo.id,
            "author": ns,
            "sha": commit.oid,
            "createdAt": _iso(repo.created_at),
            "lastModified": _iso(commit.date),
            "private": repo.private,
            "gated": False,
            "disabled": False,
            "likes": 0,
            "tags": [],
            "cardData": card or None,
            "siblings": siblings,
            "usedStorage": sum(len(data) for data in commit.files.values()),
        }
        if repo.type == "space":
            subdomain = re.sub(r"[^a-z0-9]+", "-", repo.id.lower())
            has_app = any(path in commit.files for path in ("app.py", "Dockerfile", "index.html"))
            info.update(
                sdk=repo.sdk,
                tags=[repo.sdk, *card_tags, "region:us"],
                host=self.hub.space_hosts.get(repo.id, f"https://{subdomain}.hf.space"),
                subdomain=subdomain,
                runtime={
                    "stage": "RUNNING" if has_app else "NO_APP_FILE",
                    "hardware": {"current": "cpu-basic" if has_app else None, "requested": "cpu-basic"},
                    "storage": None,
                    "gcTimeout": 172800,
                    "replicas": {"current": 1, "requested": 1},
                    "devMode": False,
                    "domains": [{"domain": f"{subdomain}.hf.space", "stage": "READY"}],
                },
                models=[],
                datasets=[],
            )
        else:
            info.update(tags=[*card_tags, "region:us"], downloads=0)
            if repo.type == "model":
                info.update(modelId=repo.id, library_name=card.get("library_name"), spaces=[])
                if card.get("pipeline_tag"):
                    info["pipeline_tag"] = card["pipeline_tag"]
        return info

    def _h_space_runtime(self, ns: str, name: str) -> dict[str, Any]:
        """What gradio_client asks before it connects to a Space by name."""
        return self._h_repo_info("spaces", ns, name)["runtime"]  # type: ignore[no-any-return]

    def _h_refs(self, kind: str, ns: str, name: str) -> dict[str, Any]:
        repo = self._repo(kind, ns, name)

        def ref(ref_name: str, full: str) -> dict[str, str]:
            return {"name": ref_name, "ref": full, "targetCommit": repo.refs[ref_name]}

        branches = [ref(n, f"refs/heads/{n}") for n in repo.refs if not n.startswith("refs/")]
        result: dict[str, Any] = {"branches": branches, "converts": [], "tags": []}
        if self.query.get("include_prs"):
            result["pullRequests"] = [ref(n, n) for n in repo.refs if n.startswith("refs/pr/")]
        return result

    def _h_commits(self, kind: str, ns: str, name: str, rev: str) -> list[dict[str, Any]]:
        repo = self._repo(kind, ns, name)
        return [
            {
                "id": commit.oid,
                "title": commit.title,
                "message": commit.message,
                "authors": [{"user": self.hub.user, "avatar": "/avatars/default.svg"}],
                "date": _iso(commit.date),
            }
            for commit in repo.history(repo.resolve(rev).oid)
        ]

    # ------------------------------------------------------------------- files

    def _h_resolve(self, ns: str, name: str, rev: str, path: str, kind: str | None = None) -> None:
        repo = self._repo(kind, ns, name)
        commit = repo.resolve(rev)
        data = commit.files.get(path)
        if data is None:
            # X-Repo-Commit lets huggingface_hub cache the absence of the file for that commit.
            raise HubError(404, "Entry not found", code="EntryNotFound", headers={"X-Repo-Commit": commit.oid})
        filename = path.rsplit("/", 1)[-1]
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if content_type.startswith("text/") or filename.endswith((".md", ".py", ".txt", ".json")):
            content_type = "text/plain; charset=utf-8"
        headers = {
            "Content-Type": content_type,
            "ETag": f'"{git_blob_sha(data)}"',  # a git blob id, as for any non-LFS file on the Hub
            "X-Repo-Commit": commit.oid,
            "Accept-Ranges": "bytes",
            "Content-Disposition": f"inline; filename*=UTF-8''{quote(filename)}; filename=\"{filename}\";",
        }
        status, body = 200, data
        ranged = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", "").strip())
        if ranged and self.command == "GET":
            start = int(ranged[1])
            end = min(int(ranged[2]) if ranged[2] else len(data) - 1, len(data) - 1)
            if start >= len(data):
                raise HubError(416, "Range Not Satisfiable", headers={"Content-Range": f"bytes */{len(data)}"})
            status, body = 206, data[start : end + 1]
            headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
        headers["Content-Length"] = str(len(body))
        self._send(status, body, headers)

    def _entries(self, commit: _Commit, paths: Iterable[str], expand: bool, repo: _Repo) -> list[dict[str, Any]]:
        """Tree entries as /tree and /paths-info return them: files and directories."""
        out = []
        for path in paths:
            if path in commit.files:
                data = commit.files[path]
                entry: dict[str, Any] = {"type": "file", "oid": git_blob_sha(data), "size": len(data), "path": path}
            else:
                below = sorted(p for p in commit.files if p.startswith(path + "/"))
                listing = "".join(f"{p}\0{git_blob_sha(commit.files[p])}\n" for p in below)
                tree_id = hashlib.sha1(listing.encode()).hexdigest()
                entry = {"type": "directory", "oid": tree_id, "size": 0, "path": path}
            if expand:
                last = self._last_commit_touching(repo, commit, path)
                entry["lastCommit"] = {"id": last.oid, "title": last.title, "date": _iso(last.date)}
            out.append(entry)
        return out

    @staticmethod
    def _last_commit_touching(repo: _Repo, commit: _Commit, path: str) -> _Commit:
        def snapshot(c: _Commit) -> list[tuple[str, bytes]]:
            return sorted((p, d) for p, d in c.files.items() if p == path or p.startswith(path + "/"))

        last = commit
        for older in repo.history(commit.oid):
            if snapshot(older) != snapshot(commit):
                break
            last = older
        return last

    def _h_tree(self, kind: str, ns: str, name: str, rev: str, path: str = "") -> list[dict[str, Any]]:
        repo = self._repo(kind, ns, name)
        commit = repo.resolve(rev)
        path = path.strip("/")
        flags = {k: self.query.get(k, ["false"])[0].lower() in ("1", "true") for k in ("recursive", "expand")}
        prefix = f"{path}/" if path else ""
        below = [p for p in commit.files if p.startswith(prefix)]
        if path and not below:
            raise HubError(404, f'{path} does not exist on "{rev}"', code="EntryNotFound")
        names: set[str] = set()
        for file_path in below:
            parts = file_path[len(prefix) :].split("/")
            depth = len(parts) if flags["recursive"] else 1
            names.update(prefix + "/".join(parts[: i + 1]) for i in range(depth))
        return self._entries(commit, sorted(names), flags["expand"], repo)

    def _h_paths_info(self, kind: str, ns: str, name: str, rev: str) -> list[dict[str, Any]]:
        repo = self._repo(kind, ns, name)
        commit = repo.resolve(rev)
        form = parse_qs(self.body.decode())  # httpx sends data={"paths": [...]} form-encoded
        expand = form.get("expand", ["false"])[0].lower() in ("1", "true")
        paths = [p.strip("/") for p in form.get("paths", [])]
        known = [p for p in paths if p in commit.files or any(f.startswith(p + "/") for f in commit.files)]
        return self._entries(commit, known, expand, repo)

    # ----------------------------------------------------------------- uploads

    def _branch_head(self, repo: _Repo, rev: str) -> str:
        """Commits only go onto refs (branches or PR refs), never onto a bare sha."""
        name = rev.removeprefix("refs/heads/")
        if name not in repo.refs:
            raise HubError(404, f"Invalid rev id: {rev}", code="RevisionNotFound")
        return name

    def _h_preupload(self, kind: str, ns: str, name: str, rev: str) -> dict[str, Any]:
        repo = self._repo(kind, ns, name, write=True)
        head = repo.resolve(self._branch_head(repo, rev))
        payload = self._json_body()
        gitignore = payload.get("gitIgnore")
        if gitignore is None:
            gitignore = head.files.get(".gitignore", b"").decode(errors="replace")
        patterns = [p.strip() for p in gitignore.splitlines() if p.strip() and not p.startswith("#")]
        files = []
        for item in payload.get("files", []):
            path = item["path"]
            basename = path.rsplit("/", 1)[-1]
            entry: dict[str, Any] = {
                "path": path,
                # Always a regular git blob: never LFS, never Xet, whatever the size or content.
                "uploadMode": "regular",
                "shouldIgnore": any(fnmatch.fnmatch(path, p) or fnmatch.fnmatch(basename, p) for p in patterns),
            }
            if path in head.files:
                # With "oid", huggingface_hub skips files whose git blob id has not changed.
                entry["oid"] = git_blob_sha(head.files[path])
            files.append(entry)
        return {"files": files, "commitOid": head.oid}

    def _h_commit(self, kind: str, ns: str, name: str, rev: str) -> dict[str, Any]:
        repo = self._repo(kind, ns, name, write=True)
        ref = self._branch_head(repo, rev)
        try:
            lines = [json.loads(line) for line in self.body.splitlines() if line.strip()]
        except ValueError:
            raise HubError(400, "Invalid NDJSON body") from None
        if not lines or lines[0].get("key") != "header":
            raise HubError(400, "The first line of a commit must be its header")
        header = lines[0]["value"]
        head = repo.resolve(ref)
        parent = header.get("parentCommit")
        if parent and parent != head.oid:
            raise HubError(412, "A commit has happened since. Please refresh and try again.")
        files = dict(head.files)
        for line in lines[1:]:
            key, value = line.get("key"), line.get("value", {})
            path = str(value.get("path", "")).strip("/")
            if key == "file":
                content = value.get("content", "")
                files[path] = base64.b64decode(content) if value.get("encoding") == "base64" else content.encode()
            elif key in ("deletedFile", "deletedFolder"):
                doomed = [p for p in files if p == path or (key == "deletedFolder" and p.startswith(path + "/"))]
                if not doomed:
                    raise HubError(404, f"A file with this name doesn't exist: {path}", code="EntryNotFound")
                for p in doomed:
                    del files[p]
            elif key == "lfsFile":
                raise HubError(400, "lfsFile: this fake Hub stores regular files only (preupload never asks for LFS)")
            else:
                raise HubError(400, f"Unknown commit operation: {key!r}")
        pr_url = None
        if self.query.get("create_pr", [""])[0] in ("1", "true"):
            number, repo.next_pr = repo.next_pr, repo.next_pr + 1
            ref = f"refs/pr/{number}"
            repo.refs[ref] = head.oid
            pr_url = f"{self.base_url}/{repo.web_path}/discussions/{number}"
        oid = self.hub._commit(repo, ref, files, header.get("summary") or "Upload", header.get("description") or "")
        result: dict[str, Any] = {
            "success": True,
            "commitOid": oid,
            "commitUrl": f"{self.base_url}/{repo.web_path}/commit/{oid}",
            "hookOutput": "",
        }
        if pr_url:
            result["pullRequestUrl"] = pr_url
        return result

    # ------------------------------------------------------------- collections

    def _h_collection(self, slug: str) -> dict[str, Any]:
        user = self._user(required=False)
        collection = self.hub._collections.get(slug)
        if collection is None or (collection["private"] and user is None):
            raise HubError(404, "Collection not found")
        owner = collection["owner"]
        items = []
        for position, (item_type, item_id) in enumerate(collection["items"]):
            item: dict[str, Any] = {
                "_id": _object_id(slug, item_type, item_id),
                "id": item_id,
                "type": item_type,
                "position": position,
            }
            if item_type == "collection":
                item["slug"] = item_id  # huggingface_hub's CollectionItem takes the slug as item_id
            elif item_type in _URL_PREFIX:
                repo = self.hub._repos.get((item_type, item_id))
                item.update(
                    repoType=item_type,
                    author=item_id.split("/")[0],
                    private=bool(repo and repo.private),
                    likes=0,
                    isLikedByUser=False,
                    lastModified=_iso(repo.resolve("main").date if repo else collection["updated"]),
                )
                if item_type == "space":
                    item.update(sdk=repo.sdk if repo else "gradio", title=item_id.split("/")[-1])
                else:
                    item["downloads"] = 0
            items.append(item)
        return {
            "slug": slug,
            "title": collection["title"],
            "description": collection["description"],
            "gating": False,
            "lastUpdated": _iso(collection["updated"]),
            "owner": {
                "_id": _object_id("user", owner),
                "avatarUrl": "/avatars/default.svg",
                "fullname": owner,
                "name": owner,
                "type": "user",
                "isHf": False,
                "isHfAdmin": False,
                "isMod": False,
            },
            "items": items,
            "theme": "blue",
            "private": collection["private"],
            "upvotes": 0,
            "isUpvotedByUser": False,
            "position": 0,
            "shareUrl": f"{self.base_url}/collections/{slug}",
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the in-memory fake Hugging Face Hub.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", action="append", help="accept only these tokens (default: any)")
    args = parser.parse_args(argv)
    hub = FakeHub(host=args.host, port=args.port, tokens=args.token).start()
    print(f"fake Hub at {hub.endpoint} (HF_ENDPOINT={hub.endpoint})", flush=True)
    try:
        assert hub._thread is not None
        hub._thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()


if __name__ == "__main__":
    main()
