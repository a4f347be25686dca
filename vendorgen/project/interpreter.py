"""The project's Python: where vendored code will run, as opposed to where vendorgen runs.

vendorgen is installed as a tool in its own environment (`pipx` / `uv tool`), so two things
happen in the project's interpreter instead, in a subprocess: `langchain:` inspection (it
must import the user's code with the user's langchain and pydantic) and the check of what
the vendored code needs at run time. The interpreter is found as users expect:

1. `--python PATH` (or the environment variable VENDORGEN_PYTHON);
2. the active virtualenv, `$VIRTUAL_ENV`;
3. the project's `.venv/` (beside its pyproject.toml);
4. else vendorgen's own interpreter, and `add` says so.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vendorgen import errors
from vendorgen.errors import UsageError, VendorgenError

ENV_VAR = "VENDORGEN_PYTHON"


@dataclass(frozen=True)
class Interpreter:
    executable: str
    found_by: str  # how it was chosen, for messages

    @property
    def is_vendorgens_own(self) -> bool:
        return os.path.abspath(self.executable) == os.path.abspath(sys.executable)


def find(project_root: Path) -> Interpreter:
    """The project's interpreter, by the order in the module docstring."""
    given = os.environ.get(ENV_VAR)
    if given:
        return Interpreter(_checked(given, f"--python / {ENV_VAR}"), f"--python {given}")
    active = os.environ.get("VIRTUAL_ENV")
    if active:
        return Interpreter(_checked(_venv_python(Path(active)), "$VIRTUAL_ENV"), f"the active virtualenv {active}")
    local = project_root / ".venv"
    if (local / "pyvenv.cfg").is_file():
        return Interpreter(_checked(_venv_python(local), ".venv"), f"the project's {local}")
    return Interpreter(sys.executable, "vendorgen's own interpreter (no --python, no active virtualenv, no .venv)")


def own() -> Interpreter:
    """vendorgen's own interpreter."""
    return Interpreter(sys.executable, "vendorgen's own interpreter")


def _venv_python(venv: Path) -> str:
    return str(venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python"))


def _checked(path: str, what: str) -> str:
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise UsageError(f"{what}: {path} is not a Python interpreter")
    return path


def installed_versions(interpreter: Interpreter, distributions: list[str]) -> dict[str, str | None]:
    """The version of each distribution installed for `interpreter` (None: not installed)."""
    code = (
        "import importlib.metadata as m, json, sys\n"
        "def v(name):\n"
        "    try:\n        return m.version(name)\n"
        "    except m.PackageNotFoundError:\n        return None\n"
        "print(json.dumps({name: v(name) for name in sys.argv[1:]}))\n"
    )
    return _asked(interpreter, code, distributions)


def import_distributions(interpreter: Interpreter, names: list[str]) -> dict[str, dict[str, Any]]:
    """For each top-level import name, as `interpreter` sees it: {"versions": {distribution: version or None}}
    (the distributions that provide it, else the name itself) and {"importable": bool} (found at all, such as
    the project's own code, which no distribution provides)."""
    code = (
        "import importlib.metadata as m, importlib.util as u, json, sys\n"
        "by_import = m.packages_distributions()\n"
        "def v(name):\n"
        "    try:\n        return m.version(name)\n"
        "    except m.PackageNotFoundError:\n        return None\n"
        "def importable(name):\n"
        "    try:\n        return u.find_spec(name) is not None\n"
        "    except (ImportError, ValueError):\n        return False\n"
        "print(json.dumps({name: {'versions': {d: v(d) for d in by_import.get(name) or [name]},"
        " 'importable': importable(name)} for name in sys.argv[1:]}))\n"
    )
    return _asked(interpreter, code, names)


def _asked(interpreter: Interpreter, code: str, names: list[str]) -> Any:
    """What `code` prints as JSON, run by `interpreter` with `names` as its arguments."""
    result = subprocess.run([interpreter.executable, "-c", code, *names], capture_output=True, text=True)
    if result.returncode != 0:
        raise VendorgenError(f"{interpreter.executable} failed to list its packages: {_last_line(result.stderr)}")
    return json.loads(result.stdout)


def install_command(interpreter: Interpreter, has_pip: bool, requirements_file: str) -> str:
    """The command that installs `requirements_file` for `interpreter`: a bare `pip` may be another
    interpreter's, and a `uv venv` has no pip (uv then installs into it from outside)."""
    python = shlex.quote(interpreter.executable)
    if has_pip:
        return f"{python} -m pip install -r {requirements_file}"
    uv = "uv" if shutil.which("uv") else "pip install uv; uv"  # uv is a package on PyPI too
    return f"{uv} pip install --python {python} -r {requirements_file}"


def call(interpreter: Interpreter, module: str, function: str, *args: Any, cwd: str | None = None) -> Any:
    """`vendorgen.<module>.<function>(*args)` run by `interpreter`; its JSON result, or its error raised here.

    Only the vendorgen package itself is put on the child's path (through a link in a temporary
    directory), never vendorgen's dependencies: the child imports the project's own libraries.
    """
    package = Path(__file__).resolve().parent.parent
    code = (
        "import json, sys\n"
        f"from vendorgen.{module} import {function} as run\n"
        "from vendorgen.errors import VendorgenError\n"
        "try:\n"
        "    out = {'value': run(*json.loads(sys.argv[1]))}\n"
        "except VendorgenError as exc:\n"
        "    out = {'error': type(exc).__name__, 'message': str(exc)}\n"
        "sys.stdout.flush()\n"
        "print('\\nVENDORGEN-RESULT ' + json.dumps(out))\n"
    )
    with tempfile.TemporaryDirectory(prefix="vendorgen-") as path_dir:
        os.symlink(package, Path(path_dir) / "vendorgen")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [path_dir, os.environ.get("PYTHONPATH")]))}
        result = subprocess.run([interpreter.executable, "-c", code, json.dumps(args)], capture_output=True,
                                text=True, cwd=cwd, env=env)  # fmt: skip
    marker = result.stdout.rfind("VENDORGEN-RESULT ")
    if result.returncode != 0 or marker < 0:
        raise VendorgenError(
            f"running vendorgen.{module} with {interpreter.executable} failed: {_last_line(result.stderr)}"
        )
    out = json.loads(result.stdout[marker + len("VENDORGEN-RESULT ") :])
    if "error" in out:
        error_class = getattr(errors, out["error"], VendorgenError)
        raise error_class(out["message"])
    return out["value"]


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"
