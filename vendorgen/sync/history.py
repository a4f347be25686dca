"""The text of a file exactly as vendorgen last wrote it, from git: the merge base of an edited file."""

from __future__ import annotations

import subprocess
from typing import Protocol

from vendorgen.project.hashing import sha256_text
from vendorgen.project.workspace import Workspace

# How far back `written_text` looks in a file's history.
GIT_HISTORY_DEPTH = 50


class Written(Protocol):
    """What the lock records of a file vendorgen wrote (a module's LockEntry, a package file's RuntimeEntry)."""

    @property
    def path(self) -> str: ...

    @property
    def sha256(self) -> str: ...


def written_text(workspace: Workspace, entry: Written) -> str | None:
    """The file exactly as vendorgen last wrote it (the lock's sha256), from git: the index, then its recent commits.

    None when the project is not in a git repository, git is missing, or no version matches
    (the file was edited before it was ever committed).
    """

    def git(*args: str) -> str | None:
        try:
            result = subprocess.run(["git", "-C", str(workspace.root), *args], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        try:
            return result.stdout.decode("utf-8") if result.returncode == 0 else None
        except UnicodeDecodeError:
            return None

    history = git("log", f"-{GIT_HISTORY_DEPTH}", "--format=%H", "--", entry.path) or ""
    for revision in ["", *history.split()]:  # "" is the index: `git show :./path`
        text = git("show", f"{revision}:./{entry.path}")
        if text is not None and sha256_text(text) == entry.sha256:
            return text
    return None
