"""Run bandit (PyCQA) and vendorgen's hub review over the same hostile cases; print what each flags.

    pip install bandit  # not a dependency of vendorgen: only this comparison uses it
    PYTHONPATH=. python scripts/review_vs_bandit.py

A case counts as seen when the tool reports its harmful line (bandit: any test, any severity and
confidence, `-lll` not passed; vendorgen: the case's category). The figures are in docs/hub.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from tests.hostile.review_evasions import EVASIONS
from vendorgen.sources.hub_review import review


def bandit_findings(folder: Path) -> dict[str, set[tuple[int, str]]]:
    """(line, test id) per file name, from `bandit -r folder` at every severity and confidence."""
    command = [sys.executable, "-m", "bandit", "-q", "-r", "-f", "json", str(folder)]
    report = json.loads(subprocess.run(command, capture_output=True, text=True).stdout)
    found: dict[str, set[tuple[int, str]]] = defaultdict(set)
    for result in report["results"]:
        found[Path(result["filename"]).name].add((result["line_number"], result["test_id"]))
    return found


# Insecure ways of doing what a tool may do: bandit's ground (what is reached is the review's).
INSECURE = (
    "import requests\nrequests.get(url, verify=False)\n",
    "import subprocess\nsubprocess.run(command, shell=True)\n",
    "import hashlib\nhashlib.md5(data)\n",
    "import random\ntoken = random.random()\n",
    "password = 'hunter2'\n",
    "assert user.is_admin\n",
    "import xml.etree.ElementTree as ET\nET.fromstring(text)\n",
    "query = 'SELECT * FROM t WHERE id = %s' % user_id\n",
    "import requests\nrequests.get(url)\n",
    "import jinja2\njinja2.Environment(autoescape=False)\n",
)


def main() -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for number, case in enumerate(EVASIONS):
            (folder / f"case{number}.py").write_text(case.source)
        by_bandit = bandit_findings(folder)
    seen = {"bandit": 0, "vendorgen": 0}
    print("| case | bandit | vendorgen |\n|---|---|---|")
    for number, case in enumerate(EVASIONS):
        tests = sorted(test for line, test in by_bandit[f"case{number}.py"] if line == case.line)
        ours = sorted(
            {f.construct for f in review(case.source).findings if (f.line, f.category) == (case.line, case.category)}
        )
        seen["bandit"] += bool(tests)
        seen["vendorgen"] += bool(ours)
        print(f"| {case.name} | {', '.join(tests) or '-'} | {case.category}: {'; '.join(ours) or '-'} |")
    anywhere = sum(bool(by_bandit[f"case{number}.py"]) for number in range(len(EVASIONS)))
    print(f"\nof {len(EVASIONS)} cases: bandit sees {seen['bandit']} ({anywhere} with a finding anywhere in the"
          f" file), vendorgen's review {seen['vendorgen']}")  # fmt: skip
    first = EVASIONS[:16]
    print(f"of the {len(first)} reported in issue 10: bandit sees",
          sum(any(line == case.line for line, _ in by_bandit[f"case{n}.py"]) for n, case in enumerate(first)))  # fmt: skip
    with tempfile.TemporaryDirectory() as temp:
        for number, source in enumerate(INSECURE):
            (Path(temp) / f"insecure{number}.py").write_text(source)
        by_bandit = bandit_findings(Path(temp))
    print("\n| insecure use | bandit | vendorgen |\n|---|---|---|")
    for number, source in enumerate(INSECURE):
        line = source.splitlines()[-1]
        tests = sorted(test for _, test in by_bandit[f"insecure{number}.py"])
        ours = sorted({f"{f.category}: {f.construct}" for f in review(source).findings})
        print(f"| `{line}` | {', '.join(tests) or '-'} | {'; '.join(ours) or '-'} |")


if __name__ == "__main__":
    main()
