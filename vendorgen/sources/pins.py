"""Packages a stdio MCP server is started from, pinned: `npx PKG` and `uvx PKG` (issue 12).

At `add`, the command line is rewritten to name the exact version that runs here, and the snapshot
records it (`server.package`), so a vendored server cannot change under the user. `check --remote`
asks the package's registry for its latest version (`npm view`; for PyPI, uvx itself with
`PKG@latest`, so the project's own index options apply) and `update` moves the pin to it: only to a
strictly greater stable version, or a prerelease when the user asks for them (`--pre`).

Finding the version runs no code of the package. npx's is the one installed in the nearest
`node_modules` (npx runs that one), else the registry's for what the command line names (`npm view`):
never npm's own cache, which holds a package only once npx has run it, so a first `add` and a second
one would pin differently. uvx's is read from the environment uvx runs the package in, by running
the environment's `python` with `importlib.metadata` instead of the package's command.

npm's versions are semver, compared as npm compares them (`vendorgen.sources.semver`); PyPI's are PEP 440.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vendorgen.errors import SourceUnreachable
from vendorgen.sources import semver
from vendorgen.sources.mcp_server import resolved_argv

if TYPE_CHECKING:
    from packaging.version import Version

# How long asking uvx or npm for a version may take (uvx may download the package first).
REGISTRY_TIMEOUT = 120.0


@dataclass(frozen=True)
class Spec:
    """Where a command line names its package, and how it writes a version there."""

    position: int  # the index of the word in argv
    name: str
    extras: str  # uvx: "[a,b]" as written
    version: str  # as written: exact, a range, a tag, or ""
    separator: str  # "@" or "=="
    exact: bool  # `version` names one version (npm: not `1.2`, a range; uvx: not `@latest`)
    launcher: tuple[str, ...] = ()  # uvx: the command and its own options, without --from

    def word(self, version: str) -> str:
        return f"{self.name}{self.extras}{self.separator}{version}"


def pin(argv: list[str]) -> tuple[list[str], dict[str, str]]:
    """`argv` with its npx or uvx package pinned to the version that runs here, and {"name", "version"};
    anything else unchanged, and {}."""
    spec = package_spec(argv)
    if spec is None:
        return argv, {}
    if spec.exact:
        version = spec.version
    elif spec.launcher:
        version = _uvx_version(spec, argv[spec.position])
    else:
        version = _npm_version(argv, spec)
    if not version:
        return argv, {}
    return repinned(argv, spec, version), {"name": spec.name, "version": version}


def repinned(argv: list[str], spec: Spec, version: str) -> list[str]:
    pinned = list(argv)
    pinned[spec.position] = spec.word(version)
    return pinned


# What a version uvx printed may look like.
_VERSION = re.compile(r"\d+(?:\.\d+)*[0-9A-Za-z.+!-]*\Z")


def package_spec(argv: list[str]) -> Spec | None:
    name = os.path.basename(argv[0]) if argv else ""
    if name in ("npx", "npx.cmd"):
        return _npx_spec(argv)
    if name in ("uvx", "uvx.exe"):
        return _uvx_spec(argv, 1)
    if name in ("uv", "uv.exe") and argv[1:3] == ["tool", "run"]:
        return _uvx_spec(argv, 3)
    return None


# -- npx -----------------------------------------------------------------------------------------


# npm's settings that take a value as the next word; `-p`/`-c` name what runs, so they leave the
# command line unpinned. Any other option is a flag.
_NPX_VALUED = frozenset({"--registry", "--cache", "--userconfig", "--prefix", "--loglevel", "-w", "--workspace"})


def _npx_spec(argv: list[str]) -> Spec | None:
    index = 1
    while index < len(argv) and argv[index].startswith("-"):
        if argv[index] in ("-p", "--package", "-c", "--call"):
            return None
        index += 2 if argv[index] in _NPX_VALUED else 1
    if index >= len(argv):
        return None
    word = argv[index]
    at = word.rfind("@")
    name, version = (word[:at], word[at + 1 :]) if at > 0 else (word, "")
    return Spec(index, name, "", version, "@", semver.is_semver(version))


def _npm_settings(argv: list[str], spec: Spec) -> list[str]:
    """The settings on npx's command line that `npm view` needs too (`--registry URL`, `--cache=DIR`)."""
    settings, index = [], 1
    while index < spec.position:
        option = argv[index]
        valued = option in _NPX_VALUED
        if valued or option.startswith("--") and "=" in option:
            settings += argv[index : index + 1 + valued]
        index += 1 + valued
    return settings


def _npm_version(argv: list[str], spec: Spec) -> str:
    """The version `argv` runs: the package installed in the nearest `node_modules` when the command line
    names no version (npx runs it), else the registry's for what it names (`npm view PKG@RANGE version`)."""
    if not spec.version and (installed := _installed_npm_version(spec.name)):
        return installed
    word = spec.word(spec.version) if spec.version else spec.name
    what = f"npm view {word} version"
    printed = _output(["npm", "view", *_npm_settings(argv, spec), "--json", word, "version"], what)
    try:
        found = json.loads(printed) if printed else []  # a range several versions match: a list of them
    except ValueError:
        found = None
    versions = found if isinstance(found, list) else [found]
    if not versions or not all(isinstance(version, str) and semver.is_semver(version) for version in versions):
        raise SourceUnreachable(f"{what} printed no semver version: {printed[:80]!r}")
    return str(max(versions, key=lambda version: semver.parse(version).key()))


def _installed_npm_version(name: str) -> str:
    """The version of `name` in the nearest `node_modules` above the current directory, where npx finds it."""
    for place in (directory / "node_modules" for directory in (Path.cwd(), *Path.cwd().parents)):
        try:
            version = json.loads((place / name / "package.json").read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(version, str) and semver.is_semver(version):
            return version
    return ""


# -- uvx -----------------------------------------------------------------------------------------

# uvx's options that take a value as the next word (`--opt=value` needs no list). An option not
# known here leaves the command line unpinned rather than guessed at.
_UVX_VALUED = frozenset(
    "--from -w --with --with-editable --with-requirements --with-executables-from -p --python -c --constraints "
    "--overrides --build-constraints -b --index --default-index -i --index-url --extra-index-url -f --find-links "
    "--index-strategy --keyring-provider --resolution --prerelease --exclude-newer --exclude-newer-package "
    "--link-mode -P --upgrade-package --reinstall-package --refresh-package -C --config-setting "
    "--no-build-package --no-binary-package --python-preference --cache-dir --directory --project "
    "--config-file --color --allow-insecure-host --python-platform --torch-backend --env-file".split()
)
_UVX_FLAGS = frozenset(
    "--isolated --offline --no-cache -n -q --quiet -v --verbose --refresh -U --upgrade --reinstall --no-index "
    "--no-build --no-binary --no-sources --native-tls --no-config --no-progress --no-python-downloads "
    "--managed-python --no-managed-python --no-env-file --show-resolution --compile-bytecode --lfs".split()
)
_REQUIREMENT = re.compile(
    r"(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?P<extras>\[[^\]]*\])?"
    r"(?:@(?P<tag>[^\s@]+)|==(?P<exact>[^,;<>=!~\s]+)|(?P<range>[<>=!~][^;]*))?\Z"
)


def _uvx_spec(argv: list[str], start: int) -> Spec | None:
    index, given_from = start, None
    while index < len(argv) and argv[index].startswith("-"):
        option = argv[index]
        if option == "--from" and index + 1 < len(argv):
            given_from = index + 1
        elif option.startswith("--from=") or option not in _UVX_VALUED | _UVX_FLAGS and "=" not in option:
            return None  # `--from=...`, or an option that may take the package's place
        index += 2 if option in _UVX_VALUED else 1
    position = given_from if given_from is not None else index
    if index >= len(argv):
        return None  # no command
    match = _REQUIREMENT.match(argv[position])
    if match is None:  # a path, a URL, `git+...`: not a registry's package
        return None
    version = match["tag"] or match["exact"] or match["range"] or ""
    separator = "@" if match["tag"] or (given_from is None and not match["exact"]) else "=="
    exact = bool(match["exact"]) or bool(match["tag"]) and match["tag"] != "latest"  # uvx's `@1.2` is `==1.2`
    launcher = [
        word for at, word in enumerate(argv[:index]) if given_from is None or at not in (position - 1, position)
    ]
    return Spec(position, match["name"], match["extras"] or "", version, separator, exact, tuple(launcher))


_PROBE = "import importlib.metadata, sys; print(importlib.metadata.version(sys.argv[1]))"


def _uvx_version(spec: Spec, requirement: str) -> str:
    """The version of `spec`'s package in the environment uvx makes for `requirement` with the same options.

    That environment's `python` reads it: no code of the package runs.
    """
    probe = [*spec.launcher, "--from", requirement, "python", "-c", _PROBE, spec.name]
    return _run(probe, f"uvx for the version of {requirement}")


def _run(argv: list[str], what: str) -> str:
    """What `argv` prints: one version."""
    version = _output(argv, what).strip('"')
    if not _VERSION.match(version):
        raise SourceUnreachable(f"{what} printed no version: {version[:80]!r}")
    return version


def _output(argv: list[str], what: str) -> str:
    """What `argv` prints, run with the environment a stdio server gets; refused unless it succeeds."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=REGISTRY_TIMEOUT, env=_environment(),
                              stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceUnreachable(f"cannot run {what}: {exc}") from None
    if done.returncode != 0:
        raise SourceUnreachable(f"{what} failed: {_reason(done)}")
    return done.stdout.strip()


def _reason(done: subprocess.CompletedProcess[str]) -> str:
    """npm's error summary (`--json` puts it on stdout), uv's `error:` and `cause:` lines, else the last line."""
    try:
        summary = json.loads(done.stdout)["error"]["summary"]
    except (ValueError, KeyError, TypeError):
        summary = None
    if isinstance(summary, str) and summary:
        return summary
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    said = [line for line in lines if line.startswith(("error:", "cause:"))]
    return " ".join(said) or (lines or [f"exit status {done.returncode}"])[-1]


def _environment() -> dict[str, str]:
    """The variables the mcp SDK passes a stdio server: the version found is the one the server gets
    (registry and index settings belong on the command line, or in npm's and uv's config files)."""
    from mcp.client.stdio import get_default_environment

    return get_default_environment()


# -- the registry's latest version (check --remote, update) --------------------------------------


def latest(server: Mapping[str, Any], root: Path, prereleases: bool = False) -> tuple[Spec, str] | None:
    """For a pinned npx/uvx server: where its package is, and the registry's latest version when it is
    one to move to (`later`); else None. `prereleases`: a prerelease may be that version. `root`: the
    project's, against which the command line's paths are resolved."""
    package = server.get("package")
    if not isinstance(package, Mapping):
        return None
    argv = [str(word) for word in resolved_argv(server, root)]  # the project's paths, as the server gets them
    spec = package_spec(argv)
    if spec is None or spec.name != package.get("name"):
        return None
    pinned = str(package.get("version"))
    npm = not spec.launcher
    offered = _registry_versions(argv, spec, prereleases)
    if npm and (garbage := [version for version in offered if not semver.is_semver(version)]):
        raise SourceUnreachable(f"npm's registry names {spec.name} versions that are not semver: {garbage[0][:80]!r}")
    found = [version for version in offered if later(version, pinned, prereleases, npm)]
    return (spec, max(found, key=lambda version: _order(version, npm))) if found else None


def _registry_versions(argv: list[str], spec: Spec, prereleases: bool) -> list[str]:
    """What the registry offers as the latest: uvx's resolution of `PKG@latest` (allowing prereleases
    when asked); npm's `latest` tag, and with `prereleases` every other tag too (`next`, `beta`)."""
    if spec.launcher:
        launcher = _allowing_prereleases(spec.launcher) if prereleases else spec.launcher
        return [_uvx_version(dataclasses.replace(spec, launcher=launcher), f"{spec.name}{spec.extras}@latest")]
    what = f"npm view {spec.name} dist-tags"
    tags = _output(["npm", "view", *_npm_settings(argv, spec), "--json", spec.name, "dist-tags"], what)
    try:
        named = json.loads(tags)
    except ValueError:
        named = None
    if not isinstance(named, dict) or not all(isinstance(version, str) for version in named.values()):
        raise SourceUnreachable(f"{what} printed no tags: {tags[:80]!r}")
    return list(named.values()) if prereleases else [named["latest"]] if "latest" in named else []


def _allowing_prereleases(launcher: tuple[str, ...]) -> tuple[str, ...]:
    """uvx's command and options with `--prerelease allow` in place of any `--prerelease` (uv takes it once)."""
    kept: list[str] = []
    for word in launcher:
        if kept and kept[-1] == "--prerelease":
            kept.pop()  # and its value
        elif not word.startswith("--prerelease="):
            kept.append(word)
    return (*kept, "--prerelease", "allow")


def later(version: str, than: str, prereleases: bool = False, npm: bool = False) -> bool:
    """`version` is one to move to from `than`: strictly greater, and not a prerelease unless `prereleases`.
    `npm`: both are semver, compared as npm does; else PEP 440 (PyPI). A version the scheme cannot read
    (a registry's garbage) is never later: a pin moves only to a version known to be newer."""
    from packaging.version import InvalidVersion

    try:
        new, pinned = _order(version, npm), _order(than, npm)
    except (InvalidVersion, ValueError):
        return False
    return new > pinned and (prereleases or not _is_prerelease(version, npm))


def _order(version: str, npm: bool) -> Any:
    """What orders `version`: its semver precedence (npm) or its PEP 440 `Version`."""
    return semver.parse(version).key() if npm else _parsed(version)


def _is_prerelease(version: str, npm: bool) -> bool:
    return semver.parse(version).is_prerelease if npm else _parsed(version).is_prerelease


def _parsed(version: str) -> Version:
    from packaging.version import Version

    return Version(version)


def newer(snapshot: Mapping[str, Any], root: Path, prereleases: bool = False) -> tuple[str, ...]:
    """`check --remote`'s line about a pinned package its registry has a later version of."""
    server = snapshot.get("server") or {}
    found = latest(server, root, prereleases)
    if found is None:
        return ()
    spec, version = found
    pinned = server["package"]["version"]
    update = "vendorgen update --pre" if _is_prerelease(version, not spec.launcher) else "vendorgen update"
    return (f"- pinned {spec.name}@{pinned}, the registry has {version}; `{update}` moves to it",)


def moved(source: str, snapshot: Mapping[str, Any], root: Path, prereleases: bool = False) -> str:
    """`source` (mcp:stdio:...) with its pinned package at the registry's later version (`update`)."""
    server = snapshot.get("server") or {}
    found = latest(server, root, prereleases)
    if found is None:
        return source
    spec, version = found
    return "mcp:stdio:" + shlex.join(repinned([server["command"], *server["args"]], spec, version))
