"""Faults of the writer (vendorgen/project/workspace.py): permission denied, disk full, SIGKILL, concurrent runs.

Each leaves the project as it was or, once the journal is committed, fully updated by the next
vendorgen command, whichever it is: no partial file, a lock that parses and matches the files, the
user's files untouched, one `error:` line and a non-zero exit when the command itself failed.
Projects are compared as trees (every file's bytes and every directory), so a leftover staged file,
temporary file or directory counts as a difference.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO, Project, Result
from tests.servers import free_port, server_process
from vendorgen.project.hashing import sha256_text
from vendorgen.project.workspace import JOURNAL_NAME, LOCK_NAME, SCHEMAS_DIR, STAGED_SUFFIX, Workspace

MANY = 100  # endpoints of the app below: `add --all-endpoints` writes 100 modules and 100 snapshots
USER_FILES = {"README.md": "# my agent\n", "tools/mine.py": "# my own tool, not vendored\n"}

Tree = dict[str, bytes | None]  # path -> bytes, or None for a directory


def tree(root: Path) -> Tree:
    return {
        path.relative_to(root).as_posix(): None if path.is_dir() else path.read_bytes()
        for path in sorted(root.rglob("*"))
        if "__pycache__" not in path.parts
    }


def new_project(root: Path, files: dict[str, str] | None = None) -> Project:
    """A project with files of its own (USER_FILES) and `files`."""
    files = {"pyproject.toml": '[project]\nname = "demo"\nversion = "0"\n', **USER_FILES, **(files or {})}
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return Project(root)


def copy_project(source: Path, destination: Path) -> Project:
    shutil.copytree(source, destination, symlinks=True)
    return Project(destination)


def error_line(result: Result) -> str:
    """The one `error:` line of a failed command."""
    assert result.exit_code != 0, result
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def assert_lock_matches_files(root: Path) -> dict[str, dict]:
    """The lock parses and every module it lists is on disk with the hash it records."""
    modules = tomllib.loads((root / LOCK_NAME).read_text(encoding="utf-8"))["module"]
    for module in modules:
        assert sha256_text((root / module["path"]).read_text(encoding="utf-8")) == module["sha256"], module["name"]
        assert (root / module["schema"]).is_file(), module["name"]
    return {module["name"]: module for module in modules}


# ---------------------------------------------------------------------------
# Projects
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def many_app() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    script = str(REPO / "tests" / "servers" / "gradio_many.py")
    with server_process([script, "--port", str(port), "--count", str(MANY)], f"{url}config"):
        yield url


@pytest.fixture(scope="module")
def base(many_app: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with files of its own and one vendored module, `first`."""
    project = new_project(tmp_path_factory.mktemp("base") / "project")
    result = project.run("add", f"space:{many_app}", "--api-name", "/tool_000", "--name", "first")
    assert result.exit_code == 0, result.stderr
    return project.root


@pytest.fixture(scope="module")
def add_all(many_app: str) -> tuple[str, ...]:
    return ("add", f"space:{many_app}", "--all-endpoints")


@pytest.fixture(scope="module")
def updated(base: Path, add_all: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`base` after `add --all-endpoints` ran to the end."""
    project = copy_project(base, tmp_path_factory.mktemp("updated") / "project")
    result = project.run(*add_all)
    assert result.exit_code == 0, result.stderr
    assert len(assert_lock_matches_files(project.root)) == MANY + 1
    return project.root


# ---------------------------------------------------------------------------
# SIGKILL in the middle of vendoring 100 modules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What a running `add` has written so far, as another process sees it."""

    seconds: float  # since it started
    staged: int  # .*.vendorgen-new files
    journal: str | None  # the journal's state, None without one

    @classmethod
    def look(cls, root: Path, started: float) -> Seen:
        staged = sum(
            entry.name.endswith(STAGED_SUFFIX)
            for directory in (root / "tools", root / SCHEMAS_DIR)
            if directory.is_dir()
            for entry in os.scandir(directory)
        )
        try:
            journal = json.loads((root / JOURNAL_NAME).read_text(encoding="utf-8"))["state"]
        except FileNotFoundError:
            journal = None
        return cls(time.monotonic() - started, staged, journal)


FILES = 2 * MANY  # staged by the add: a module and a snapshot per endpoint

# When to kill, by what the writer has visibly done: a spread over every step of the transaction.
TRIGGERS: dict[str, Callable[[Seen], bool]] = {
    "while generating": lambda seen: seen.seconds > 1.0,
    "first file staged": lambda seen: seen.staged >= 1,
    "a third staged": lambda seen: seen.staged >= FILES // 3,
    "two thirds staged": lambda seen: seen.staged >= 2 * FILES // 3,
    "all but one staged": lambda seen: seen.staged >= FILES - 1,
    "journal committed": lambda seen: seen.journal == "committed",
    "first rename": lambda seen: seen.journal == "committed" and seen.staged < FILES,
    "half renamed": lambda seen: seen.journal == "committed" and seen.staged <= FILES // 2,
}


def kill_when(project: Project, args: tuple[str, ...], trigger: Callable[[Seen], bool]) -> str:
    """Run `vendorgen *args`, SIGKILL it as soon as `trigger` holds; what it had done: its phase."""
    before_lock = (project.root / LOCK_NAME).read_bytes()
    started = time.monotonic()
    process = project.start(*args)
    try:
        while process.poll() is None and not trigger(Seen.look(project.root, started)):
            assert time.monotonic() - started < 120, "the add neither finished nor reached the trigger"
            time.sleep(0.001)  # leave the CPU to the writer
        process.send_signal(signal.SIGKILL)
    finally:
        process.communicate()
    if (journal := Seen.look(project.root, started).journal) is not None:
        return journal  # staging or committed: interrupted
    return "done" if (project.root / LOCK_NAME).read_bytes() != before_lock else "nothing written"


def assert_every_file_whole(interrupted: Tree, before: Tree, after: Tree) -> None:
    """Right after the kill: each of the user's and the lock's files is its old or its new version."""
    for path, content in interrupted.items():
        if content is None or path.endswith((STAGED_SUFFIX, ".tmp")) or path == JOURNAL_NAME:
            continue  # directories, and the writer's own in-flight files: staged, temporary, the journal
        assert content in (before.get(path), after.get(path)), f"{path} is neither its old nor its new version"
    tomllib.loads(interrupted[LOCK_NAME].decode())


@pytest.mark.parametrize("trigger", list(TRIGGERS))
def test_sigkill_while_vendoring_100_modules(
    base: Path, updated: Path, add_all: tuple[str, ...], tmp_path: Path, trigger: str
) -> None:
    project = copy_project(base, tmp_path / "project")
    before, after = tree(base), tree(updated)
    phase = kill_when(project, add_all, TRIGGERS[trigger])
    assert_every_file_whole(tree(project.root), before, after)
    # The next command, here a reader, settles the journal first.
    result = project.run("list")
    assert result.exit_code == 0, result.stderr
    expected = after if phase in ("committed", "done") else before
    assert tree(project.root) == expected, f"killed at {trigger!r}, in phase {phase!r}"


# Every command that reads the lock settles an interrupted run first (remove, a writer, under its mutex).
READERS = {
    "list": ("list",),
    "check": ("check",),
    "diff": ("diff", "first", "--offline"),
    "update": ("update", "--offline", "--dry-run"),
    "push": ("push", "first", "me/first", "--dry-run", "--out", "{outside}"),
    "remove": ("remove", "first"),
}


@pytest.fixture(scope="module")
def interrupted(base: Path, add_all: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Projects left by an `add` killed while staging and after its journal was committed, kept to copy."""
    found: dict[str, Path] = {}
    wanted = {"staging": TRIGGERS["first file staged"], "committed": TRIGGERS["journal committed"]}
    for phase, trigger in wanted.items():
        for attempt in range(5):  # a kill that lands after the end proves nothing: kill again
            project = copy_project(base, tmp_path_factory.mktemp(f"{phase}-{attempt}") / "project")
            if kill_when(project, add_all, trigger) == phase:
                found[phase] = project.root
                break
        else:
            pytest.fail(f"no kill landed in the {phase} phase in 5 attempts")
    return found


def reference(source: Path, command: tuple[str, ...], destination: Path) -> Tree:
    """The tree of `source` after an uninterrupted `vendorgen command` (only `remove` changes it)."""
    if command[0] != "remove":
        return tree(source)
    project = copy_project(source, destination)
    assert project.run(*command).exit_code == 0
    return tree(project.root)


@pytest.mark.parametrize("phase", ["staging", "committed"])
@pytest.mark.parametrize("reader", list(READERS))
def test_every_command_settles_an_interrupted_run_first(
    interrupted: dict[str, Path], base: Path, updated: Path, tmp_path: Path, phase: str, reader: str
) -> None:
    command = tuple(arg.format(outside=tmp_path / "space") for arg in READERS[reader])
    settled = base if phase == "staging" else updated
    expected = reference(settled, command, tmp_path / "reference")
    project = copy_project(interrupted[phase], tmp_path / "project")
    result = project.run(*command)
    assert result.exit_code == 0, result.stderr
    assert tree(project.root) == expected
    if reader == "list":  # and it reports the settled state
        assert ("tool_099" in result.stdout) == (phase == "committed")


# ---------------------------------------------------------------------------
# Two runs at once
# ---------------------------------------------------------------------------


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def released_together(project: Project, commands: list[tuple[str, ...]]) -> list[Result]:
    """Start `commands` while holding the project's lock, let go once they all wait for it, collect them.

    A process that has stopped using CPU while the lock is held is polling for it, so they all meet
    at the lock at once: the race the lock exists for.
    """
    with Workspace(project.root).mutex():
        processes = [project.start(*command) for command in commands]
        ticks: list[int] = []
        deadline = time.monotonic() + 25  # under vendorgen's own 30 s wait for the lock
        while time.monotonic() < deadline and all(process.poll() is None for process in processes):
            time.sleep(0.5)
            now = [cpu_ticks(process.pid) for process in processes]
            if now == ticks:
                break
            ticks = now
    results = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=120)
        results.append(Result(process.returncode, stdout, stderr))
    return results


def test_concurrent_adds_of_different_modules_all_land(base: Path, many_app: str, tmp_path: Path) -> None:
    project = copy_project(base, tmp_path / "project")
    endpoints = ["/tool_011", "/tool_012", "/tool_013", "/tool_014"]
    results = released_together(project, [("add", f"space:{many_app}", "--api-name", api) for api in endpoints])
    assert [result.exit_code for result in results] == [0] * len(endpoints), [r.stderr for r in results]
    assert sorted(assert_lock_matches_files(project.root)) == ["first", "tool_011", "tool_012", "tool_013", "tool_014"]
    assert all((project.root / path).read_text() == text for path, text in USER_FILES.items())


def test_concurrent_adds_of_the_same_module_are_one_add(base: Path, many_app: str, tmp_path: Path) -> None:
    once = copy_project(base, tmp_path / "once")
    command = ("add", f"space:{many_app}", "--api-name", "/tool_020")
    assert once.run(*command).exit_code == 0
    project = copy_project(base, tmp_path / "project")
    results = released_together(project, [command] * 3)
    # One writes it; the others find it vendored (add refuses a module twice: `vendorgen update` is for that).
    assert sorted(result.exit_code for result in results) == [0, 2, 2], [result.stderr for result in results]
    assert all("already vendored" in error_line(result) for result in results if result.exit_code)
    assert tree(project.root) == tree(once.root)


def test_concurrent_adds_of_one_name_from_two_sources_one_wins(base: Path, many_app: str, tmp_path: Path) -> None:
    project = copy_project(base, tmp_path / "project")
    sources = {"space": f"space:{many_app}", "langchain": "langchain:tests.servers.langchain_tools:search_docs"}
    commands = [("add", sources["space"], "--api-name", "/tool_030", "--name", "clash"),
                ("add", sources["langchain"], "--name", "clash")]  # fmt: skip
    results = released_together(project, commands)
    assert sorted(result.exit_code for result in results) == [0, 2], [result.stderr for result in results]
    loser = next(result for result in results if result.exit_code)
    assert "'clash' is already vendored from " in error_line(loser)
    modules = assert_lock_matches_files(project.root)
    assert sorted(modules) == ["clash", "first"]
    winner = next(kind for kind, result in zip(sources, results) if result.exit_code == 0)
    assert modules["clash"]["source"] == sources[winner]
    assert not [path for path in tree(project.root) if path.endswith(STAGED_SUFFIX) or "journal" in path]


# ---------------------------------------------------------------------------
# Disk full and permission denied, through a LangChain tool of the user's (fast, no network)
# ---------------------------------------------------------------------------

# A docstring long enough that the snapshot and the module (~190 kB each) are far bigger than the journal
# and the lock (~1 kB): a file-size limit between their sizes fails the staging part-way.
BIG_TEXT = "All work and no play makes a long description. " * 2000
AGENT_TOOLS = f'''
from langchain_core.tools import tool


@tool
def big(text: str) -> str:
    """{BIG_TEXT}"""
    return text
'''
ADD_BIG = ("add", "langchain:agent_tools:big")


@pytest.fixture
def langchain_project(tmp_path: Path) -> Project:
    return new_project(tmp_path / "project", {"agent_tools.py": AGENT_TOOLS})


@pytest.fixture
def langchain_updated(langchain_project: Project, tmp_path: Path) -> Tree:
    done = copy_project(langchain_project.root, tmp_path / "done")
    assert done.run(*ADD_BIG).exit_code == 0
    return tree(done.root)


NO_BYTECODE = {"PYTHONDONTWRITEBYTECODE": "1"}


def file_size_limit(limit: int) -> Callable[[], None]:
    """For preexec_fn: no file may grow past `limit` bytes (a full disk, per file); writes past it fail."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal; survives exec
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("fails_at", [".vendorgen/journal.json", "first staged file", "second staged file", None])
def test_disk_full(langchain_project: Project, langchain_updated: Tree, fails_at: str | None) -> None:
    before = tree(langchain_project.root)
    written = {path: len(data) for path, data in langchain_updated.items() if data and before.get(path) != data}
    staged = sorted(path for path in written if path != LOCK_NAME)  # staged in this order, after the journal
    # A later staged file larger than the first: a size limit between the two fails there, half-way through.
    later = next(path for path in staged[1:] if written[path] > written[staged[0]])
    limit, file = {
        ".vendorgen/journal.json": (1, ".vendorgen/journal.json"),
        "first staged file": (4096, staged[0]),  # the journal and the lock are far smaller
        "second staged file": ((written[staged[0]] + written[later]) // 2, later),
        None: (max(written.values()), None),
    }[fails_at]
    result = langchain_project.run(*ADD_BIG, env=NO_BYTECODE, preexec_fn=file_size_limit(limit))
    if file is None:
        assert result.exit_code == 0, result.stderr
        assert tree(langchain_project.root) == langchain_updated
        return
    assert result.exit_code == 1
    assert error_line(result) == f"error: cannot write {file}: File too large"
    assert tree(langchain_project.root) == before


# Tests run as root, and the interpreter lives under /root (0700), so an unprivileged user could not
# even start it. Instead the command runs as root without the capabilities that bypass permission
# bits (dropped from its bounding set before exec): the kernel checks the mode bits as for anyone.
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 1, 2, 3


def without_permission_bypass() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.fixture
def unprivileged() -> Callable[..., Result]:
    """Runs vendorgen so that permission bits apply to it (a normal user's run is left as it is)."""
    preexec = without_permission_bypass if os.geteuid() == 0 else None
    try:
        subprocess.run(["true"], preexec_fn=preexec, check=True)
    except (subprocess.SubprocessError, OSError):
        pytest.skip("root here cannot drop the capabilities that bypass permission bits")

    def run(project: Project, *args: str) -> Result:
        return project.run(*args, env=NO_BYTECODE, preexec_fn=preexec)

    return run


def read_only(directory: Path) -> None:
    directory.chmod(0o555)


def test_permission_denied_on_the_project(langchain_project: Project, unprivileged: Callable[..., Result]) -> None:
    read_only(langchain_project.root)
    before = tree(langchain_project.root)
    result = unprivileged(langchain_project, *ADD_BIG)
    assert error_line(result) == "error: cannot create .vendorgen/: Permission denied"
    assert tree(langchain_project.root) == before


def test_permission_denied_half_way_through_staging(
    langchain_project: Project, unprivileged: Callable[..., Result]
) -> None:
    # The snapshot can be staged in .vendorgen/schemas/ (created for it), nothing in tools/ (the
    # run-time files, staged first there, _vendored_langchain.py first of them).
    read_only(langchain_project.root / "tools")
    before = tree(langchain_project.root)
    result = unprivileged(langchain_project, *ADD_BIG)
    assert error_line(result) == "error: cannot write tools/_vendored_langchain.py: Permission denied"
    assert tree(langchain_project.root) == before  # the staged snapshot, the journal and the new directories are gone


def test_permission_denied_for_the_lock_is_finished_by_the_next_command(
    langchain_project: Project, langchain_updated: Tree, unprivileged: Callable[..., Result]
) -> None:
    # Everything can be staged and renamed, but the lock (replaced in the root) cannot be written.
    root = langchain_project.root
    for directory in (root / SCHEMAS_DIR, root / "tools"):
        directory.mkdir(parents=True, exist_ok=True)
    read_only(root)
    result = unprivileged(langchain_project, *ADD_BIG)
    line = error_line(result)
    assert line.startswith(f"error: cannot write {LOCK_NAME}: Permission denied") and "next vendorgen command" in line
    # A reader that cannot write cannot settle it either, and says so.
    result = unprivileged(langchain_project, "list")
    assert "an interrupted vendorgen left .vendorgen/journal.json; cannot settle it" in error_line(result)
    # The next command that can write finishes the update.
    root.chmod(0o755)
    assert langchain_project.run("list").exit_code == 0
    assert tree(root) == langchain_updated


# ---------------------------------------------------------------------------
# A journal vendorgen did not write (planted, or damaged) is refused, not obeyed
# ---------------------------------------------------------------------------

FOREIGN_JOURNALS = {
    "deletes a file the lock does not list": ({"removed": ["README.md"]}, "it would delete README.md"),
    "renames a file that is not staged": ({"renames": [["README.md", "tools/big.py"]]}, "is not the staged name"),
    "reaches outside the project": ({"removed": ["../outside.txt"]}, "'../outside.txt' is not a path inside the project"),
    "is not JSON": (None, "cannot read .vendorgen/journal.json"),
}


@pytest.mark.parametrize("case", list(FOREIGN_JOURNALS))
def test_a_foreign_journal_is_refused(langchain_project: Project, case: str) -> None:
    assert langchain_project.run(*ADD_BIG).exit_code == 0
    (langchain_project.root.parent / "outside.txt").write_text("not the project's\n")
    fields, message = FOREIGN_JOURNALS[case]
    journal = {"state": "committed", "renames": [], "removed": [], "created": [], "lock": "version = 1\n"}
    text = "{'state': " if fields is None else json.dumps({**journal, **fields})
    (langchain_project.root / JOURNAL_NAME).write_text(text)
    before = tree(langchain_project.root)
    result = langchain_project.run("list")
    assert result.exit_code == 1 and message in error_line(result)
    assert tree(langchain_project.root) == before
    assert (langchain_project.root.parent / "outside.txt").exists()
