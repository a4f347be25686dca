"""vendorgen/sources/hub_review.py: the static review printed for vendored Hub code (imports, flagged constructs, lines)."""

from __future__ import annotations

import ast
import io
import keyword
import textwrap
import tokenize

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.hostile.review_evasions import EVASIONS, Evasion
from tests.hostile.strategies import hostile_settings
from vendorgen.errors import SchemaError
from vendorgen.sources.hub_review import UNSEEN, Finding, refuse_disguised_names, review
from vendorgen.text.pysource import imported_packages

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


@pytest.mark.parametrize(
    "source",
    [RISKY, "def f():\n    import b.c\n\nimport a\nfrom .x import y\nimport c; import a.b\n", *(e.source for e in EVASIONS)],
)
def test_push_reads_the_packages_the_review_lists(source: str) -> None:
    # `push` pins what tool.py imports with the standard library's parser (no libcst): the same packages, in order.
    assert imported_packages(source) == review(source).packages


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


@pytest.mark.parametrize("evasion", EVASIONS, ids=[evasion.name for evasion in EVASIONS])
def test_an_evasion_is_flagged_on_its_line(evasion: Evasion) -> None:
    compile(evasion.source, evasion.name, "exec")  # each case is Python that would run
    found = review(evasion.source).findings
    assert (evasion.line, evasion.category) in {(f.line, f.category) for f in found}, found


def test_common_harmless_code_is_not_flagged() -> None:
    source = textwrap.dedent("""\
        from __future__ import annotations

        import io
        import json
        import os
        import sys
        import tarfile
        from pathlib import Path
        from urllib.parse import quote

        from smolagents import Tool


        class Lookup(Tool):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)

            def forward(self, text: str, path: str) -> str:
                here = os.path.join(os.path.dirname(__file__), "data.json")
                data = json.loads(Path(here).read_text())
                with open(path) as handle, Path(path).open("rb") as raw:
                    first = handle.read() + raw.read().decode()
                with tarfile.open(path, "r:gz") as archive:
                    member = archive.open("file.txt")
                buffer = io.BytesIO(b"x")
                name = self.__class__.__name__
                return quote(text.replace("a", "b")) + first + str(data) + name + sys.argv[0] + os.sep
        """)
    assert review(source).findings == ()


def test_names_are_read_as_python_reads_them() -> None:
    # NFKC: what the reader sees is not what runs; the review reports what runs, and says so.
    assert flagged("\uff45\uff56\uff41\uff4c('1')\n") == [
        (1, "dynamic code", "eval"),
        (1, "non-ASCII name", "\uff45\uff56\uff41\uff4c (Python reads it as eval)"),
    ]
    # A name NFKC leaves alone (PEP 3131) runs as it reads, but may be a look-alike: flagged, not refused.
    # Each spelling once, where it first appears.
    assert flagged("gr\u00f6\u00dfe = 1\n\u0435val = print\n\u0435val(gr\u00f6\u00dfe)\n") == [
        (1, "non-ASCII name", "gr\u00f6\u00dfe"),
        (2, "non-ASCII name", "\u0435val"),
    ]


@pytest.mark.parametrize("name", ["\uff45\uff58\uff45\uff43", "\ufb01le", "\U0001d41e\U0001d42f\U0001d41a\U0001d425"])
def test_a_name_nfkc_turns_into_another_is_refused(name: str) -> None:
    with pytest.raises(SchemaError, match=r"tool\.py line 2, column 5: the name .* is read by Python as"):
        refuse_disguised_names(f"x = 1\nx = {name}\n", "tool.py")
    refuse_disguised_names("gr\u00f6\u00dfe = 1\n", "tool.py")  # NFKC-stable: left to the review


def disguise(source: str, picks: list[bool]) -> str:
    """`source` with the letters of its names turned fullwidth where `picks` says so (NFKC turns them back)."""
    out: list[tokenize.TokenInfo] = []
    pick = iter(picks * len(source))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = token.string
        if token.type == tokenize.NAME and not keyword.iskeyword(text):
            text = "".join(chr(ord(ch) + 0xFEE0) if ch.isascii() and ch.isalpha() and next(pick) else ch for ch in text)
        out.append(token._replace(string=text))  # one character for one: the positions still hold
    return tokenize.untokenize(out)


@hostile_settings
@given(evasion=st.sampled_from(EVASIONS), picks=st.lists(st.booleans(), min_size=1, max_size=12))
def test_a_disguised_evasion_is_still_flagged_and_refused(evasion: Evasion, picks: list[bool]) -> None:
    source = disguise(evasion.source, picks)
    assert ast.dump(ast.parse(source)) == ast.dump(ast.parse(evasion.source))  # the same program for Python
    lines = {f.line for f in review(evasion.source).findings if f.category == evasion.category}
    disguised = {f.line for f in review(source).findings if f.category == evasion.category}
    assert lines <= disguised
    if not source.isascii():  # the evasions spell nothing but names with non-ASCII letters
        with pytest.raises(SchemaError, match="is read by Python as"):
            refuse_disguised_names(source, "tool.py")
