"""Hub code that hides what it does from a reader: each case reaches a process, the network, files, the
environment or arbitrary code, and the review must flag the line that does it, in that category.

The first sixteen are the evasions issue 10 reported (the review printed "flagged: nothing" for each);
the rest are their siblings. `scripts/review_vs_bandit.py` runs bandit over the same cases.
"""

from __future__ import annotations

from typing import NamedTuple


class Evasion(NamedTuple):
    name: str
    source: str  # a small module; the harmful line is `line`
    line: int
    category: str  # the category the review must report on `line`


EVASIONS = (
    # -- reported in issue 10 ----------------------------------------------------------------------------
    Evasion("star import, then a bare call", "from os import *\n\nsystem('id')\n", 3, "process"),
    Evasion("import posix", "import posix\n\nposix.system('id')\n", 3, "process"),
    Evasion("getattr with a computed name", "import os\n\ngetattr(os, 'sys' + 'tem')('id')\n", 3, "dynamic access"),
    Evasion("sys.modules", "import sys\n\nsys.modules['os'].system('id')\n", 3, "dynamic access"),
    Evasion("fullwidth exec (NFKC)", "\uff45\uff58\uff45\uff43('print(1)')\n", 1, "dynamic code"),
    Evasion("fullwidth os.system (NFKC)", "import \uff4f\uff53\n\n\uff4f\uff53.system('id')\n", 3, "process"),
    Evasion("mathematical bold eval (NFKC)", "\U0001d41e\U0001d42f\U0001d41a\U0001d425('1')\n", 1, "dynamic code"),
    Evasion("__builtins__ subscription", "__builtins__['exec']('print(1)')\n", 1, "dynamic access"),
    Evasion("timeit runs a string", "import timeit\n\ntimeit.timeit('print(1)', number=1)\n", 3, "dynamic code"),
    Evasion("pydoc.pipepager runs a shell command", "import pydoc\n\npydoc.pipepager('x', 'id')\n", 3, "process"),
    Evasion("pickle._loads", "import pickle\n\npickle._loads(b'.')\n", 3, "deserialization"),
    Evasion("_socket", "import _socket\n\n_socket.socket().connect(('10.0.0.1', 80))\n", 3, "network"),
    Evasion("posix.environ", "import posix\n\nposix.environ[b'HF_TOKEN']\n", 3, "environment"),
    Evasion("pathlib.Path.touch", "import pathlib\n\npathlib.Path('notes.txt').touch()\n", 3, "file write"),
    Evasion("io.FileIO", "import io\n\nio.FileIO('notes.txt', 'w').write(b'x')\n", 3, "file write"),
    Evasion("an alias of open", "o = open\n\no('notes.txt', 'w').write('x')\n", 3, "file write"),
    # -- siblings --------------------------------------------------------------------------------------
    Evasion("star import of subprocess", "from subprocess import *\n\nrun(['id'])\n", 3, "process"),
    Evasion("star import of os, environ", "from os import *\n\nenviron['HF_TOKEN']\n", 3, "environment"),
    Evasion("a module assigned to a name", "import os\n\nq = os\nq.system('id')\n", 4, "process"),
    Evasion("vars() of a module", "import os\n\nvars(os)['system']('id')\n", 3, "dynamic access"),
    Evasion("globals()", "globals()['__builtins__'].exec('1')\n", 1, "dynamic access"),
    Evasion("module __dict__", "import os\n\nos.__dict__['system']('id')\n", 3, "dynamic access"),
    Evasion("the class graph", "().__class__.__base__.__subclasses__()\n", 1, "dynamic access"),
    Evasion("a function's globals", "g = (lambda: 0).__globals__\n", 1, "dynamic access"),
    Evasion("a frame's globals", "import sys\n\nsys._getframe().f_globals\n", 3, "dynamic access"),
    Evasion("operator.methodcaller", "import operator, os\n\noperator.methodcaller('system', 'id')(os)\n", 3,
            "dynamic access"),
    Evasion("pkgutil.resolve_name", "import pkgutil\n\npkgutil.resolve_name('os:system')('id')\n", 3, "dynamic code"),
    Evasion("pydoc.locate", "from pydoc import locate\n\nlocate('os.system')('id')\n", 3, "dynamic code"),
    Evasion("cProfile.run", "import cProfile\n\ncProfile.run('print(1)')\n", 3, "dynamic code"),
    Evasion("code.InteractiveInterpreter", "import code\n\ncode.InteractiveInterpreter().runsource('1')\n", 3,
            "dynamic code"),
    Evasion("breakpoint", "breakpoint()\n", 1, "dynamic code"),
    Evasion("types.FunctionType", "import types\n\ntypes.FunctionType(c, {})()\n", 3, "dynamic code"),
    Evasion("webbrowser", "import webbrowser\n\nwebbrowser.open('https://example.invalid')\n", 3, "process"),
    Evasion("pty", "import pty\n\npty.spawn('sh')\n", 3, "process"),
    Evasion("os.posix_spawnp", "import os\n\nos.posix_spawnp('id', ['id'], {})\n", 3, "process"),
    Evasion("os._exit and other private names", "import os\n\nos._exit(0)\n", 3, "process"),
    Evasion("a private helper of another module", "import uuid\n\nuuid._get_command_stdout('id')\n", 3,
            "internals"),
    Evasion("http.client", "import http.client\n\nhttp.client.HTTPConnection('example.invalid')\n", 3, "network"),
    Evasion("select", "import select\n\nselect.select([], [], [])\n", 3, "network"),
    Evasion("os.path.expandvars", "import os\n\nos.path.expandvars('$HF_TOKEN')\n", 3, "environment"),
    Evasion("getpass", "import getpass\n\ngetpass.getuser()\n", 3, "environment"),
    Evasion("shelve", "import shelve\n\nshelve.open('db')\n", 3, "deserialization"),
    Evasion("copyreg", "import copyreg\n\ncopyreg.pickle(int, int)\n", 3, "deserialization"),
    Evasion("tempfile", "import tempfile\n\ntempfile.mkstemp()\n", 3, "file write"),
    Evasion("gzip.open for writing", "import gzip\n\ngzip.open('x.gz', 'wb')\n", 3, "file write"),
    Evasion("open with unpacked arguments", "args = ('notes.txt', 'w')\nopen(*args)\n", 2, "file write"),
    Evasion("open with unpacked keywords", "open('notes.txt', **{'mode': 'w'})\n", 1, "file write"),
    Evasion("open passed as a value", "import functools\n\nfunctools.partial(open, mode='w')('x')\n", 3,
            "file write"),
    Evasion("builtins.open rebound", "import builtins\n\nbuiltins.open = print\n", 3, "file write"),
    Evasion("builtins module as a value", "import builtins\n\nb = builtins\n", 3, "dynamic access"),
    Evasion("an archive extracted", "import zipfile\n\nzipfile.ZipFile('a.zip').extractall('/')\n", 3, "file write"),
    Evasion("a path's chmod", "from pathlib import Path\n\nPath('x').chmod(0o777)\n", 3, "file write"),
    Evasion("asyncio subprocess", "import asyncio\n\nasyncio.create_subprocess_shell('id')\n", 3, "process"),
    Evasion("walrus alias", "if (s := __import__):\n    s('os')\n", 1, "dynamic code"),
    Evasion("tuple alias", "import os\n\na, b = os.system, 1\na('id')\n", 3, "process"),
    Evasion("sys.path", "import sys\n\nsys.path.insert(0, '/tmp/evil')\n", 3, "dynamic code"),
    Evasion("help runs $PAGER", "help(len)\n", 1, "process"),
    Evasion("os reached through another module", "import platform\n\nplatform.os.system('id')\n", 3, "process"),
    Evasion("a private alias of os", "import tempfile\n\ntempfile._os.environ\n", 3, "environment"),
    Evasion("torch.multiprocessing", "import torch\n\ntorch.multiprocessing.spawn(f)\n", 3, "process"),
    Evasion("the environment read as a file", "with open('/proc/self/environ') as f:\n    f.read()\n", 1,
            "file read"),
    Evasion("a key read from home", "import os\n\nos.path.expanduser('~user')\n", 3, "file read"),
    Evasion("a token file", "from pathlib import Path\n\n(Path.home() / '.cache/huggingface/token').read_text()\n", 3,
            "file read"),
    Evasion("another module's opener", "import wave\n\nwave.open('x.wav', 'wb')\n", 3, "file write"),
    Evasion("a log file", "import logging\n\nlogging.FileHandler('notes.log')\n", 3, "file write"),
    Evasion("logs sent over the network", "import logging.handlers\n\nlogging.handlers.HTTPHandler('h', '/')\n", 3,
            "network"),
    Evasion("logging configuration runs code", "import logging.config\n\nlogging.config.listen(9999)\n", 3,
            "dynamic code"),
    Evasion("a name imported twice", "import os as q\n\nq.system('id')\nimport json as q\n", 3, "process"),
    Evasion("an alias rebound later", "o = open\no('x', 'w')\no = len\n", 2, "file write"),
    Evasion("an f-string hides a call", "import os\n\nf\"{os.system('id')}\"\n", 3, "process"),
)  # fmt: skip
