"""The lock owns `_vendored_server.py` and its transport like the runtime, and a hostile lock or link cannot move them.

`vendorgen serve` writes the server module through the project's one writer (journal, staged files
created exclusively, no link followed) and records it as a `[[runtime]]` package file: `check`
compares it by hash, `remove` of the last module deletes it. Each test runs the real CLI on a
project vendored from the example LangChain tools and checks the exit code, the one `error:` line
and that the file under attack is untouched.
"""

from __future__ import annotations

import subprocess
import tomllib

import pytest

from tests.conftest import Project, new_project
from tests.test_hostile_repo import APP, error_line, outside
from vendorgen.project.hashing import sha256_text
from vendorgen.project.workspace import LOCK_NAME

SERVER = "tools/_vendored_server.py"
TRANSPORT = "tools/_vendored_transport.py"
TOOLKIT = "langchain:examples.langchain_tools:toolkit"


def package_files(project: Project) -> dict[str, dict]:
    return {table["path"]: table for table in tomllib.loads((project.root / LOCK_NAME).read_text()).get("runtime", [])}


@pytest.fixture(scope="module")
def served_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Two modules of one output package, served once (so the lock owns the server module): made once."""
    made = new_project(tmp_path_factory.mktemp("served"))
    for name, prefix in (("lc", []), ("lc_again", ["--prefix", "again"])):  # add refuses a tool name twice
        added = made.run("add", TOOLKIT, "--name", name, *prefix)
        assert added.exit_code == 0, added.stderr
    ended = made.run("serve", "lc", stdin=subprocess.DEVNULL)  # no client: it writes the server module and ends
    assert ended.exit_code == 0, ended.stderr
    (made.root / "src").mkdir()
    (made.root / "src" / "app.py").write_text(APP)
    return made.snapshot()


@pytest.fixture
def served(project: Project, served_files: dict[str, bytes]) -> Project:
    """A copy of the served project, for a test to attack."""
    project.restore(served_files)
    return project


def test_serve_writes_the_server_module_as_a_file_the_lock_owns(served: Project) -> None:
    text = (served.root / SERVER).read_text()
    assert package_files(served)[SERVER]["sha256"] == sha256_text(text)
    assert not list((served.root / "tools").glob(".*"))  # nothing staged is left beside it
    assert served.run("check").exit_code == 0

    served.edit(LOCK_NAME, sha256_text(text), "0" * 64)
    mismatch = served.run("check")
    assert mismatch.exit_code == 1 and f"{SERVER} is not the file {LOCK_NAME} records" in mismatch.stdout
    assert served.run("serve", "lc", stdin=subprocess.DEVNULL).exit_code == 0 and served.run("check").exit_code == 0

    (served.root / SERVER).unlink()
    missing = served.run("check")
    assert missing.exit_code == 1 and f"{SERVER} is missing: `vendorgen serve` writes it" in missing.stdout


def test_remove_keeps_it_while_a_module_is_left_and_deletes_it_with_the_last(served: Project) -> None:
    assert served.run("remove", "lc_again").exit_code == 0
    assert (served.root / SERVER).exists() and SERVER in package_files(served)
    assert "from . import lc_again" not in (served.root / SERVER).read_text()  # it serves what is left
    assert served.run("check").exit_code == 0

    assert served.run("remove", "lc").exit_code == 0
    assert not (served.root / SERVER).exists() and package_files(served) == {}
    assert not (served.root / "tools" / "_vendored_runtime.py").exists()
    assert served.run("check").exit_code == 0


def test_remove_of_the_last_module_keeps_an_edited_server_module_unless_forced(served: Project) -> None:
    assert served.run("remove", "lc_again").exit_code == 0
    served.edit(SERVER, "TOOLS = [", "# my note\nTOOLS = [")
    before = served.snapshot()

    refused = served.run("remove", "lc")
    assert f"{SERVER} has local edits and no module needs it any more; --force" in error_line(refused)
    assert served.snapshot() == before

    assert served.run("remove", "lc", "--force").exit_code == 0
    assert not (served.root / SERVER).exists()


def test_a_server_module_that_is_a_link_is_neither_written_nor_deleted_through(served: Project) -> None:
    victim = outside(served)
    (served.root / SERVER).unlink()
    (served.root / SERVER).symlink_to(victim)
    before = served.snapshot()

    for command in (("serve", "lc"), ("check",), ("remove", "lc", "lc_again", "--force")):
        assert f"{SERVER} is a symbolic link" in error_line(served.run(*command, stdin=subprocess.DEVNULL)), command
        assert victim.read_text() == "outside the project\n"
        assert (served.root / SERVER).is_symlink()
        assert served.snapshot() == before


def test_a_link_where_the_server_module_goes_is_not_written_through(project: Project) -> None:
    assert project.run("add", TOOLKIT, "--name", "lc").exit_code == 0
    victim = outside(project)
    (project.root / SERVER).symlink_to(victim)

    assert f"{SERVER} is a symbolic link" in error_line(project.run("serve", stdin=subprocess.DEVNULL))
    assert victim.read_text() == "outside the project\n"
    assert SERVER not in package_files(project)


def test_a_file_of_the_users_where_the_server_module_goes_is_not_replaced(project: Project) -> None:
    assert project.run("add", TOOLKIT, "--name", "lc").exit_code == 0
    (project.root / SERVER).write_text(APP)

    refused = project.run("serve", stdin=subprocess.DEVNULL)
    assert f"{SERVER} exists and was not written by vendorgen" in error_line(refused)
    assert (project.root / SERVER).read_text() == APP


@pytest.mark.parametrize(
    "path",
    ["src/_vendored_server.py", "src/app.py", "tools/../src/_vendored_server.py", "tools/lc.py", "_vendored_server.py"],
)
def test_a_lock_entry_pointing_the_server_module_elsewhere_is_refused(served: Project, path: str) -> None:
    """A hand-edited `[[runtime]]` entry cannot make serve write, or remove delete, anything but its own file."""
    lock = (served.root / LOCK_NAME).read_text()
    (served.root / LOCK_NAME).write_text(lock.replace(f'path = "{SERVER}"', f'path = "{path}"'))
    before = served.snapshot()

    for command in (("serve",), ("remove", "lc", "lc_again", "--force"), ("check",)):
        line = error_line(served.run(*command, stdin=subprocess.DEVNULL))
        assert "nothing was changed" in line or "two owners" in line, (command, line)
        assert served.snapshot() == before


def test_add_and_update_keep_the_served_modules_in_step_with_the_lock(served: Project) -> None:
    """A module added, updated or removed after `vendorgen serve` is served (or not) without serving again."""
    assert served.run("add", TOOLKIT, "--name", "lc_third", "--prefix", "third").exit_code == 0
    text = (served.root / SERVER).read_text()
    assert "from . import lc_third" in text and "    lc_third.ThirdCountWordsTool," in text
    assert package_files(served)[SERVER]["sha256"] == sha256_text(text)
    assert served.run("check").exit_code == 0
    listed = served.run("serve", "lc_third", stdin=subprocess.DEVNULL)
    assert listed.exit_code == 0 and "wrote" not in listed.stderr  # nothing was left for serve to rewrite

    (served.root / "tools" / "lc_third.py").unlink()  # update writes it back, and the server reads it from there
    updated = served.run("update", "lc_third", "--offline")
    assert updated.exit_code == 0, updated.stderr
    assert (served.root / SERVER).read_text() == text and served.run("check").exit_code == 0


def test_check_reports_a_server_module_left_behind_by_a_remove_that_did_not_follow(served: Project) -> None:
    """What an older vendorgen left: the server still imports a removed module; check says so, serve mends it."""
    stale = (served.root / SERVER).read_text()
    assert served.run("remove", "lc_again").exit_code == 0
    lock = (served.root / LOCK_NAME).read_text()
    (served.root / LOCK_NAME).write_text(
        lock.replace(sha256_text((served.root / SERVER).read_text()), sha256_text(stale))
    )
    (served.root / SERVER).write_text(stale)

    found = served.run("check")
    assert found.exit_code == 1 and f"{SERVER} does not serve what the lock holds" in found.stdout
    assert served.run("serve", stdin=subprocess.DEVNULL).exit_code == 0 and served.run("check").exit_code == 0


# -- issue 19 finding 2: every package file is verified, whatever the layout -----------------------


def test_an_edited_server_module_fails_check_with_a_second_output_directory(served: Project) -> None:
    """`vendorgen serve` serves one directory, yet each directory's server module is a file the lock owns
    and `python -m tools._vendored_server` runs: check verifies it against the modules beside it."""
    added = served.run("add", TOOLKIT, "--name", "lc_more", "--out", "more", "--prefix", "more")
    assert added.exit_code == 0, added.stderr
    assert served.run("check").exit_code == 0
    served.edit(SERVER, "TOOLS = [", "import os  # a pull request's line\nTOOLS = [")

    result = served.run("check")
    assert result.exit_code == 1, result.stdout
    assert f"{SERVER} does not serve what the lock holds" in result.stdout


def test_a_server_module_that_cannot_be_verified_fails_check(served: Project) -> None:
    """Its module edited so that its tool class is gone (an edit --allow-edits lets pass): the server
    module beside it cannot be computed, and that is a failure, not a pass."""
    served.edit("tools/lc_again.py", 'name = "again_count_words"', 'name = "again_count_words_mine"')
    result = served.run("check", "--allow-edits")
    assert result.exit_code == 1, result.stdout
    assert f"{SERVER} cannot be verified (tools/lc_again.py has no tool class for again_count_words" in result.stdout




def test_the_transport_is_owned_with_the_server_and_follows_a_server_written_before_it(served: Project) -> None:
    """The server's transport is a package file the lock owns; a server module written before there was one
    (no transport, none in the lock) gets it with the next add, so `python -m` finds what it imports."""
    transport = (served.root / TRANSPORT).read_text()
    assert package_files(served)[TRANSPORT]["sha256"] == sha256_text(transport)
    (served.root / TRANSPORT).unlink()
    lock = (served.root / LOCK_NAME).read_text()
    table = f'[[runtime]]\npath = "{TRANSPORT}"\nsha256 = "{sha256_text(transport)}"\n'
    start = lock.index(table)
    end = lock.find("[[", start + len(table))
    (served.root / LOCK_NAME).write_text(lock[:start] + (lock[end:] if end != -1 else ""))
    assert TRANSPORT not in package_files(served)

    assert served.run("add", TOOLKIT, "--name", "lc_third", "--prefix", "third").exit_code == 0
    assert (served.root / TRANSPORT).read_text() == transport
    assert package_files(served)[TRANSPORT]["sha256"] == sha256_text(transport)
    assert served.run("check").exit_code == 0
