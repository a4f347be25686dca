"""vendorgen/review.py: the static review printed for vendored Hub code (imports, flagged constructs, lines)."""

from __future__ import annotations

import textwrap

import pytest

from vendorgen.review import UNSEEN, Finding, review

RISKY = textwrap.dedent("""\
    import os, subprocess as sp
    from os import system as run, environ
    from pathlib import Path
    import pickle
    import requests
    from . import sibling


    def work(path, mode):
        run("ls")
        sp.run(["ls"])
        os.environ.get("A")
        environ["B"] = "1"
        os.getenv("C")
        eval("1")
        exec("2")
        __import__("x")
        open(path, "w")
        open(path, mode)
        Path(path).write_text("a")
        Path(path).open("ab")
        pickle.loads(b"")
        requests.get("https://example.invalid")
        os.execvp("ls", ["ls"])
    """)


def flagged(source: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.category, f.construct) for f in review(source).findings]


def test_every_category_with_its_line() -> None:
    assert flagged(RISKY) == [
        (1, "process", "import subprocess"),
        (2, "environment", "from os import environ"),
        (2, "process", "from os import system"),
        (4, "deserialization", "import pickle"),
        (5, "network", "import requests"),
        (10, "process", "os.system"),
        (11, "process", "subprocess.run"),
        (12, "environment", "os.environ.get"),
        (13, "environment", "os.environ"),
        (14, "environment", "os.getenv"),
        (15, "dynamic code", "eval"),
        (16, "dynamic code", "exec"),
        (17, "dynamic code", "__import__"),
        (18, "file write", 'open(..., "w")'),
        (19, "file write", "open(...) with a mode computed at run time"),
        (20, "file write", "Path(path).write_text"),
        (21, "file write", 'Path(path).open(..., "ab")'),
        (22, "deserialization", "pickle.loads"),
        (23, "network", "requests.get"),
        (24, "process", "os.execvp"),
    ]


def test_imports_are_listed_with_lines_and_packages() -> None:
    result = review(RISKY)
    assert [(item.line, item.statement) for item in result.imports] == [
        (1, "import os, subprocess as sp"),
        (2, "from os import system as run, environ"),
        (3, "from pathlib import Path"),
        (4, "import pickle"),
        (5, "import requests"),
        (6, "from . import sibling"),
    ]
    assert result.packages == ("os", "subprocess", "pathlib", "pickle", "requests")


def test_names_that_only_look_risky_are_not_flagged() -> None:
    source = textwrap.dedent("""\
        import re
        from smolagents import Tool


        def compile(pattern, eval=False):  # a definition and a parameter, not uses
            open("data.txt")
            open("data.txt", mode="rb")
            self.eval(exec=1)
            return re.compile(pattern)
        """)
    assert review(source).findings == ()


def test_an_alias_does_not_hide_a_call() -> None:
    source = (
        "import marshal as m\nimport shutil\nfrom importlib import import_module as load\n"
        "m.loads(b'')\nshutil.rmtree('/')\nload('x')\n"
    )
    assert flagged(source) == [
        (1, "deserialization", "import marshal"),
        (3, "dynamic code", "from importlib import import_module"),
        (4, "deserialization", "marshal.loads"),
        (5, "file write", "shutil.rmtree"),
        (6, "dynamic code", "importlib.import_module"),
    ]


def test_summary_and_json() -> None:
    result = review("import socket\nsocket.socket()\n")
    assert result.lines() == [
        "  imports:",
        "    line 1     import socket",
        "  flagged:",
        "    line 1     network  import socket",
        "    line 2     network  socket.socket",
        f"  not seen: {UNSEEN}",
    ]
    assert result.to_json() == {
        "imports": [{"line": 1, "statement": "import socket"}],
        "flagged": [
            {"line": 1, "category": "network", "construct": "import socket"},
            {"line": 2, "category": "network", "construct": "socket.socket"},
        ],
        "not_seen": UNSEEN,
    }
    assert review("x = 1\n").lines() == ["  imports: none", "  flagged: nothing", f"  not seen: {UNSEEN}"]
    # The packages whose own code nobody read are named.
    assert review("import requests, numpy, json\n").unseen() == f"{UNSEEN} (requests, numpy)"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import yaml\nyaml.load(s)\n", Finding(2, "deserialization", "yaml.load")),
        ("import torch\ntorch.load(p)\n", Finding(2, "deserialization", "torch.load")),
        ("import ctypes\n", Finding(1, "dynamic code", "import ctypes")),
        (
            "from urllib.request import urlopen\nurlopen(u)\n",
            Finding(1, "network", "from urllib.request import urlopen"),
        ),
        ("import os\nos.remove(p)\n", Finding(2, "file write", "os.remove")),
    ],
)
def test_more_constructs(source: str, expected: Finding) -> None:
    assert expected in review(source).findings
