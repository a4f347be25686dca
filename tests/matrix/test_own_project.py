"""The README's "In your own project" lines, run exactly as written on a fresh project.

vendorgen is installed from this checkout as a uv tool (its own venv, under tmp_path), the project
gets a new venv, and the vendored tool is called with only what `vendorgen requirements` printed.
Only the checkout's path and the app's port are replaced (the README names 7860, the test's app
listens on a free port).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

README = REPO / "README.md"


def readme_lines() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"In your own project[^\n]*:\n\n```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no 'In your own project:' sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_own_project_path_works_on_a_fresh_venv(gradio_app: str, tmp_path: Path) -> None:
    port = gradio_app.rstrip("/").rsplit(":", 1)[1]
    tools_bin = tmp_path / "bin"
    uv_bin = Path(sys.executable).parent  # uv is a test dependency of the checkout
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(UV_TOOL_DIR=str(tmp_path / "uv-tools"), UV_TOOL_BIN_DIR=str(tools_bin), UV_NO_CONFIG="1",
               UV_PYTHON_DOWNLOADS="never", HOME=str(tmp_path),
               UV_CACHE_DIR=os.environ.get("UV_CACHE_DIR", str(Path.home() / ".cache" / "uv")),
               PATH=os.pathsep.join([str(tools_bin), str(uv_bin), os.environ["PATH"]]))  # fmt: skip
    cwd = tmp_path
    output = ""
    for line in readme_lines():
        command = line.replace("/path/to/this/checkout", str(REPO)).replace("7860", port)
        if command.startswith("cd "):
            cwd = cwd / command.split()[1]
            cwd.mkdir()
            (cwd / "pyproject.toml").write_text('[project]\nname = "your-project"\nversion = "0"\n')
            continue
        result = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, f"{line}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
        output = result.stdout
    assert output.strip() == "2000.0"
    # vendorgen stayed out of the project's environment; the tool ran with what `requirements` printed.
    pip_list = subprocess.run([str(uv_bin / "uv"), "pip", "list", "--python", str(cwd / ".venv" / "bin" / "python")],
                              capture_output=True, text=True, env=env)  # fmt: skip
    assert "vendorgen" not in pip_list.stdout and "smolagents" in pip_list.stdout
