"""Pinned stdio packages (issue 12): `uvx PKG` is pinned to the version that ran, like `npx PKG`;
`check --remote` reports a newer version in the package's registry and `update` moves to it.

uvx installs `tiny-mcp` (tests/servers/stdio_package.py, built here as a wheel) from a local
directory with `--no-index`; npm asks a loopback registry that answers the packument. No test
reaches an index on the internet.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import os
import shlex
import shutil
import sys
import tarfile
import threading
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.conftest import REPO, Project
from tests.servers import SERVERS_DIR
from tests.test_mcp_source import by_name, close, new_project, vendor
from vendorgen.errors import SourceUnreachable
from vendorgen.sources import pins


def lock_entry(project: Project, name: str) -> dict[str, Any]:
    lock = tomllib.loads((project.root / "vendorgen.lock").read_text())
    return next(entry for entry in lock["module"] if entry["name"] == name)


# ---------------------------------------------------------------------------
# where a command line names its package
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "word", "pinned"),
    [
        ("uvx pkg", "pkg", "pkg@2.0"),
        ("uvx pkg@1.2 --flag", "pkg@1.2", "pkg@1.2"),  # exact already: kept
        ("uvx pkg==1.2 arg", "pkg==1.2", "pkg==1.2"),
        ("uvx pkg@latest", "pkg@latest", "pkg@2.0"),
        ("uvx --python 3.12 --with x pkg arg", "pkg", "pkg@2.0"),
        ("uvx --from 'pkg[extra]>=1' serve --port 1", "pkg[extra]>=1", "pkg[extra]==2.0"),
        ("uv tool run --isolated pkg", "pkg", "pkg@2.0"),
        ("npx -y @scope/server@1.2.3 stdio", "@scope/server@1.2.3", "@scope/server@1.2.3"),
        ("npx @scope/server@1.2", "@scope/server@1.2", "@scope/server@2.0"),  # npm's 1.2 is a range
        ("npx --registry http://127.0.0.1:1/ -y server", "server", "server@2.0"),
    ],
)
def test_the_package_word_and_how_it_is_pinned(line: str, word: str, pinned: str) -> None:
    argv = shlex.split(line)
    spec = pins.package_spec(argv)
    assert spec is not None and argv[spec.position] == word
    assert spec.word(spec.version if spec.exact else "2.0") == pinned


@pytest.mark.parametrize("line", ["uvx ./server", "uvx --from git+https://example.org/x.git cmd",
                                  "uvx --unknown-option pkg", "python -m pkg", "npx -p pkg cmd"])  # fmt: skip
def test_what_is_not_a_registrys_package_is_left_alone(line: str) -> None:
    argv = shlex.split(line)
    assert pins.package_spec(argv) is None
    assert pins.pin(argv) == (argv, {})


# ---------------------------------------------------------------------------
# uvx: pinned at add, a newer version reported, update moves to it
# ---------------------------------------------------------------------------


@pytest.fixture
def uvx(monkeypatch: pytest.MonkeyPatch) -> str:
    """uvx on PATH (the venv's, where `pip install uv` put it), for vendorgen and the vendored module."""
    found = shutil.which("uvx") or shutil.which("uvx", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("uv is not installed (`pip install uv`, a dev dependency in pyproject.toml)")
    monkeypatch.setenv("PATH", f"{Path(found).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return found


def build_wheel(directory: Path, version: str) -> None:
    """tiny-mcp VERSION as a wheel: stdio_package.py with its version, and a `tiny-mcp` command."""
    source = (SERVERS_DIR / "stdio_package.py").read_text().replace('VERSION = "0"', f'VERSION = "{version}"')
    info = f"tiny_mcp-{version}.dist-info"
    files = {
        "tinymcp/__init__.py": source,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: tiny-mcp\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": "[console_scripts]\ntiny-mcp = tinymcp:main\n",
        f"{info}/RECORD": "",
    }
    with zipfile.ZipFile(directory / f"tiny_mcp-{version}-py3-none-any.whl", "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)


def test_uvx_is_pinned_and_update_moves_to_the_registrys_latest(tmp_path_factory: pytest.TempPathFactory,
                                                                uvx: str) -> None:  # fmt: skip
    project = new_project(tmp_path_factory, "uvx-pins")
    wheels, cache = project.root / "wheels", tmp_path_factory.mktemp("uv-cache")  # the index: a project directory
    wheels.mkdir()
    build_wheel(wheels, "1.0.0")
    options = f"--cache-dir {cache} --no-index --find-links {{}} --python {sys.executable}"
    module = vendor(project, f"mcp:stdio:uvx {options.format(wheels)} tiny-mcp", "--trust", "--name", "tiny")
    line = f"uvx {options.format('wheels')} tiny-mcp"  # the project's path is stored relative to its root
    try:
        assert module.SERVER["args"][-1] == "tiny-mcp@1.0.0"
        assert module.SERVER["package"] == {"name": "tiny-mcp", "version": "1.0.0"}
        entry = lock_entry(project, "tiny")
        assert entry["source"] == f"mcp:stdio:{line}@1.0.0"
        assert entry["revision"] == "tiny-mcp 1.0.0"  # serverInfo says 9.9.9
        assert by_name(module)["version"]() == "1.0.0"
    finally:
        close(module)
    assert project.run("check", "--remote").exit_code == 0

    build_wheel(wheels, "1.1.0")  # published
    result = project.run("check", "--remote")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "- pinned tiny-mcp@1.0.0, the registry has 1.1.0; `vendorgen update` moves to it" in result.stdout
    assert "1.1.0" not in (project.root / "tools/tiny.py").read_text()  # check writes nothing

    result = project.run("update")
    assert result.exit_code == 0, result.stdout + result.stderr
    entry = lock_entry(project, "tiny")
    assert entry["source"] == f"mcp:stdio:{line}@1.1.0"
    assert entry["revision"] == "tiny-mcp 1.1.0"
    module = project.import_module("tools/tiny.py")
    try:
        assert module.SERVER["package"] == {"name": "tiny-mcp", "version": "1.1.0"}
        assert by_name(module)["version"](note="new in 1.1") == "1.1.0"
    finally:
        close(module)
    assert project.run("check", "--remote").exit_code == 0


def test_uvx_moves_to_a_prerelease_only_with_pre(tmp_path_factory: pytest.TempPathFactory, uvx: str) -> None:
    """The command line lets uvx take prereleases; the pin still moves to one only when the user asks."""
    project = new_project(tmp_path_factory, "uvx-pre")
    wheels, cache = project.root / "wheels", tmp_path_factory.mktemp("uv-cache")
    wheels.mkdir()
    build_wheel(wheels, "1.0.0")
    options = f"--cache-dir {cache} --no-index --find-links wheels --prerelease allow --python {sys.executable}"
    result = project.run("add", f"mcp:stdio:uvx {options} tiny-mcp", "--trust", "--name", "tiny")
    assert result.exit_code == 0, result.stderr
    assert lock_entry(project, "tiny")["source"].endswith(" tiny-mcp@1.0.0")

    build_wheel(wheels, "1.1.0rc1")  # published: what uvx resolves `tiny-mcp@latest` to with these options
    result = project.run("check", "--remote")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert project.run("update").exit_code == 0
    assert lock_entry(project, "tiny")["source"].endswith(" tiny-mcp@1.0.0")

    result = project.run("check", "--remote", "--pre")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "- pinned tiny-mcp@1.0.0, the registry has 1.1.0rc1; `vendorgen update --pre` moves to it" in result.stdout
    result = project.run("update", "--pre")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert lock_entry(project, "tiny")["source"].endswith(" tiny-mcp@1.1.0rc1")


# ---------------------------------------------------------------------------
# npm: the registry's latest version
# ---------------------------------------------------------------------------


@dataclass
class NpmRegistry:
    """A loopback npm registry whose only package is @scope/server (tests/servers/npm_tiny_server.js), with
    the dist-tags a test sets; every version it names can be installed."""

    url: str
    dist_tags: dict[str, str]
    asked: list[str]  # the paths requested


@functools.cache  # one archive per version: npm checks it against the packument's integrity
def tarball(version: str) -> bytes:
    """@scope/server VERSION as npm packs it: package/package.json and its one script."""
    script = (SERVERS_DIR / "npm_tiny_server.js").read_text().replace('const VERSION = "0"', f'const VERSION = "{version}"')
    manifest = {"name": "@scope/server", "version": version, "bin": {"tiny-npm-server": "server.js"}}
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as archive:
        for name, text in (("package/package.json", json.dumps(manifest)), ("package/server.js", script)):
            data = text.encode()
            member = tarfile.TarInfo(name)
            member.size, member.mode = len(data), 0o755
            archive.addfile(member, io.BytesIO(data))
    return packed.getvalue()


@pytest.fixture
def npm_registry() -> Iterator[NpmRegistry]:
    registry = NpmRegistry("", {"latest": "1.1.0"}, [])

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = unquote(self.path).lstrip("/")
            registry.asked.append(path)
            if path.startswith("tarballs/"):
                self.reply(200, tarball(path.removeprefix("tarballs/").removesuffix(".tgz")), "application/octet-stream")
                return
            found = path == "@scope/server"
            versions = {version: self.manifest(version) for version in ("1.0.0", "1.1.0", *registry.dist_tags.values())}
            packument = {"name": "@scope/server", "dist-tags": registry.dist_tags, "versions": versions}
            self.reply(200 if found else 404, json.dumps(packument if found else {"error": "not found"}).encode())

        def manifest(self, version: str) -> dict[str, Any]:
            packed = tarball(version)
            integrity = "sha512-" + base64.b64encode(hashlib.sha512(packed).digest()).decode()
            dist = {"tarball": f"{registry.url}tarballs/{version}.tgz", "integrity": integrity,
                    "shasum": hashlib.sha1(packed).hexdigest()}  # fmt: skip
            return {"name": "@scope/server", "version": version, "bin": {"tiny-npm-server": "server.js"}, "dist": dist}

        def reply(self, status: int, body: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    registry.url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield registry
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def npx_snapshot(npm_registry: NpmRegistry, tmp_path: Path) -> Callable[..., dict[str, Any]]:
    """The snapshot of an npx server pinned to `version` of @scope/server, asking `registry`."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed (needs node)")

    def snapshot(version: str, registry: str = npm_registry.url) -> dict[str, Any]:
        args = ["--registry", registry, f"--cache={tmp_path}", "--fetch-retries=0", "--offline", "-y",
                f"@scope/server@{version}", "stdio"]  # fmt: skip
        package = {"name": "@scope/server", "version": version}
        return {"server": {"transport": "stdio", "command": "npx", "args": args, "env": [], "package": package}}

    return snapshot


def test_a_newer_npm_version_is_reported(npx_snapshot: Callable[..., dict[str, Any]]) -> None:
    line = "- pinned @scope/server@1.0.0, the registry has 1.1.0; `vendorgen update` moves to it"
    assert pins.newer(npx_snapshot("1.0.0"), REPO) == (line,)
    assert pins.newer(npx_snapshot("1.1.0"), REPO) == ()
    assert pins.moved("mcp:stdio:npx ...", npx_snapshot("1.0.0"), REPO).endswith(" -y @scope/server@1.1.0 stdio")
    with pytest.raises(SourceUnreachable, match=r"^npm view @scope/server dist-tags failed: .*ECONNREFUSED"):
        pins.newer(npx_snapshot("1.0.0", registry="http://127.0.0.1:9/"), REPO)  # nothing listens: check --remote exits 2


# Pinned at 1.0.0, the registry's dist-tags: the version `update` moves to, without --pre and with it.
@pytest.mark.parametrize(
    ("dist_tags", "stable", "with_pre"),
    [
        ({"latest": "1.0.0", "old": "0.9.0"}, None, None),  # equal, lower
        ({"latest": "1.0.0-beta.1"}, None, None),  # a prerelease below the pin
        ({"latest": "1.1.0-next.1"}, None, "1.1.0-next.1"),  # semver's prerelease (PEP 440 cannot read it)
        ({"latest": "1.0.0-rc.2", "next": "1.0.0-rc.10"}, None, None),  # prereleases of the pin: below it
        ({"latest": "1.1.0-rc.1"}, None, "1.1.0-rc.1"),  # a prerelease above the pin: only when asked for
        ({"latest": "1.1.0", "next": "2.0.0-rc.1", "old": "1.0.5"}, "1.1.0", "2.0.0-rc.1"),
    ],
)
def test_a_pin_moves_only_to_a_strictly_greater_stable_version_unless_prereleases_are_asked_for(
    npm_registry: NpmRegistry, npx_snapshot: Callable[..., dict[str, Any]], dist_tags: dict[str, str],
    stable: str | None, with_pre: str | None,
) -> None:  # fmt: skip
    npm_registry.dist_tags = dist_tags
    for prereleases, expected in ((False, stable), (True, with_pre)):
        found = pins.latest(npx_snapshot("1.0.0")["server"], REPO, prereleases)
        assert (found[1] if found else None) == expected, prereleases


@pytest.mark.parametrize("version", ["1.1.0.x!y", "", "latest", "2.0.0-next.1"])
def test_a_version_pep_440_cannot_read_is_never_later(version: str) -> None:
    """What a registry or uvx prints may match a version's shape (uvx's output is checked only for
    that) and still be none: it is not a version to move to, with prereleases or without."""
    assert not pins.later(version, "1.0.0") and not pins.later(version, "1.0.0", prereleases=True)


# ---------------------------------------------------------------------------
# npm: the pin does not depend on npm's cache (issue 29 items 2 and 13)
# ---------------------------------------------------------------------------


@pytest.fixture
def npx_project(npm_registry: NpmRegistry, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, str, dict[str, str]]:
    """A project with no node_modules, an npm cache as empty as a new user's, and the npx command line of
    @scope/server (unpinned) asking the loopback registry."""
    if shutil.which("npx") is None:
        pytest.skip("npx is not installed (needs node)")
    project = new_project(tmp_path_factory, "npx-pins")
    cache = tmp_path_factory.mktemp("npm-cache")
    line = f"npx --registry {npm_registry.url} --cache={cache} --fetch-retries=0 -y @scope/server"
    # npm_config_cache: where vendorgen used to look for what npx had run (the server gets --cache).
    return project, line, {"npm_config_cache": str(cache)}


def test_a_first_npx_add_is_pinned_and_checks_clean_right_after(
    npx_project: tuple[Project, str, dict[str, str]], npm_registry: NpmRegistry
) -> None:
    """Before, a first add (npm's cache empty) wrote the command unpinned and `check --remote` then found it
    pinned (npx had cached it meanwhile): "changed upstream" on a fresh project."""
    project, line, env = npx_project
    added = project.run("add", f"mcp:stdio:{line}", "--trust", "--name", "tiny", env=env)
    assert added.exit_code == 0, added.stderr
    entry = lock_entry(project, "tiny")
    assert entry["source"] == f"mcp:stdio:{line}@1.1.0"
    assert entry["revision"] == "@scope/server 1.1.0"
    assert any(path == "tarballs/1.1.0.tgz" for path in npm_registry.asked)  # npx ran the version pinned
    checked = project.run("check", "--remote", env=env)
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_npm_versions_are_read_as_semver_not_pep_440(
    npx_project: tuple[Project, str, dict[str, str]], npm_registry: NpmRegistry
) -> None:
    """`1.1.0-1` is semver's prerelease of 1.1.0, below it; PEP 440 read it as the post-release 1.1.0.post1,
    above it, so `check --remote` reported it as newer and `update` moved the pin back to a prerelease."""
    project, line, env = npx_project
    assert project.run("add", f"mcp:stdio:{line}", "--trust", "--name", "tiny", env=env).exit_code == 0
    npm_registry.dist_tags = {"latest": "1.1.0-1"}
    checked = project.run("check", "--remote", env=env)
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert project.run("update", env=env).exit_code == 0
    assert lock_entry(project, "tiny")["source"].endswith("@scope/server@1.1.0")


@pytest.mark.parametrize(
    ("version", "than", "later"),
    [("1.10.0", "1.9.0", True), ("2026.10.1", "2026.8.31", True), ("1.0.0", "1.0.0-rc.1", True),
     ("1.0.0-rc.10", "1.0.0-rc.9", True), ("1.0.0-beta", "1.0.0-alpha.1", True), ("1.0.0+build.2", "1.0.0", False),
     ("1.0.0-1", "1.0.0", False), ("1!0.0", "1.0.0", False), ("v2.0.0", "1.0.0", False), ("01.0.0", "1.0.0", False)],
)  # fmt: skip
def test_npm_versions_compare_as_npm_compares_them(version: str, than: str, later: bool) -> None:
    """Semver's order; anything that is not semver (`1!0.0`, PEP 440's epoch 1) is never later."""
    assert pins.later(version, than, prereleases=True, npm=True) is later
