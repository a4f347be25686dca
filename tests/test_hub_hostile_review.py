"""Hostile hub code through the real CLI and the loopback Hub: the review flags every evasion on the line of
the written file, and a name Python reads as another is refused before anything is written."""

from __future__ import annotations

import re

from tests.conftest import Project
from tests.hostile.review_evasions import EVASIONS
from tests.servers.fakehub import FakeHub
from tests.test_hub_source import SPACE, TOOL_PY, add, tool_space
from vendorgen.sources.hub_review import UNSEEN, identifier

ROW = re.compile(r"    line (\d+) +(.+?)  (.+)")


def test_every_evasion_is_flagged_on_its_line_of_the_written_file(fakehub: FakeHub, project: Project) -> None:
    # One tool.py holding every evasion whose names read as they run, each harmful line marked `# E<n>`.
    # (Names NFKC changes are refused outright: the next test.)
    kept = [(number, case) for number, case in enumerate(EVASIONS) if identifier(case.source) == case.source]
    parts = [TOOL_PY]
    for number, case in kept:
        lines = case.source.splitlines()
        lines[case.line - 1] += f"  # E{number}"
        parts.append("\n".join(lines) + "\n")
    tool_space(fakehub, "\n\n".join(parts))
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 0, result.stderr
    written = (project.root / "tools" / "shout.py").read_text().splitlines()
    flagged = set()
    for row in result.stdout.split("  flagged:\n")[1].splitlines():
        if match := ROW.fullmatch(row):
            if marker := re.search(r"# E(\d+)$", written[int(match.group(1)) - 1]):
                flagged.add((int(marker.group(1)), match.group(2).strip()))
    missed = [case.name for number, case in kept if (number, case.category) not in flagged]
    assert not missed, result.stdout
    assert f"  not seen: {UNSEEN} (requests, smolagents, torch)\n" in result.stdout


def test_a_name_python_reads_as_another_is_refused(fakehub: FakeHub, project: Project) -> None:
    before = project.snapshot()
    tool_py = TOOL_PY + "\n\n\uff45\uff58\uff45\uff43('print(1)')\n"
    tool_space(fakehub, tool_py)
    result = add(fakehub, project, f"hub:{SPACE}", "--trust")
    assert result.exit_code == 1, result.stdout
    line = len(tool_py.splitlines())
    assert re.fullmatch(
        rf"error: tool\.py of tester/shout line {line}, column 1: the name \\uff45\\uff58\\uff45\\uff43 is read by "
        r"Python as 'exec'; .* is refused\n",
        result.stderr,
    ), result.stderr
    assert project.snapshot() == before
