"""vendorgen installed beside mcp 2.x: the install keeps mcp 2.x and MCP inspection works on it.

The venv holds vendorgen (editable, from this checkout) and mcp==2.3.0 resolved together, as
`pip install vendorgen` into a project on mcp 2 would; the example server runs in the test venv
(mcp 1.30: the wire protocol is the same across the SDK's majors).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.matrix import venvs
from tests.matrix.rows import Row
from tests.servers import free_port, server_process

ROW = Row("vendorgen-on-mcp2", "3.11", ("--editable", str(REPO), "mcp==2.3.0"), "vendorgen in a project on mcp 2")


@pytest.fixture(scope="module")
def python() -> Path:
    return venvs.build(ROW)


def vendorgen(python: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(python), "-m", "vendorgen", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_installing_vendorgen_keeps_mcp_2(python: Path) -> None:
    version = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('mcp'))"],
                             capture_output=True, text=True, check=True)  # fmt: skip
    assert version.stdout.strip() == "2.3.0"


@pytest.mark.parametrize("transport", ["streamable-http", "stdio"])
def test_mcp_inspection_works_on_mcp_2(python: Path, transport: str, tmp_path: Path) -> None:
    server = REPO / "examples" / "mcp_server.py"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    if transport == "stdio":
        import sys

        result = vendorgen(python, tmp_path, "add", f"mcp:stdio:{sys.executable} {server} stdio", "--trust", "--json")
    else:
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        with server_process([str(server), "http", "--port", str(port)], url):
            result = vendorgen(python, tmp_path, "add", f"mcp:{url}", "--json")
    assert result.returncode == 0, result.stderr
    [module] = json.loads(result.stdout)["modules"]
    assert module["name"] == "text_tools"
    assert [tool["name"] for tool in module["tools"]] == ["convert_temperature", "word_stats", "slugify_title"]
    snapshot = json.loads((tmp_path / ".vendorgen" / "schemas" / "text_tools.json").read_text())
    committed = json.loads((REPO / "generated_example" / ".vendorgen" / "schemas" / "text_tools.json").read_text())
    assert snapshot["tools"] == committed["tools"]


def test_an_unreachable_server_is_one_line_on_mcp_2(python: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    result = vendorgen(python, tmp_path, "add", f"mcp:http://127.0.0.1:{free_port()}/mcp")
    assert result.returncode == 2
    assert result.stderr.startswith("error: cannot connect to http://127.0.0.1:") and result.stderr.count("\n") == 1
