"""Rewrite generated_example/ from the bundled example sources, then each golden record from it: `make regen-example`.

The example Gradio app and MCP server are served on the fixed addresses the committed
files name (http://127.0.0.1:7860/ and http://127.0.0.1:7861/mcp), so both ports must be free.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.golden import regenerate, variants  # noqa: E402
from tests.servers import server_process  # noqa: E402

EXAMPLE = REPO / "generated_example"
GRADIO_URL = "http://127.0.0.1:7860/"
MCP_URL = "http://127.0.0.1:7861/mcp"


def vendor(*args: str) -> None:
    # PYTHONPATH: `langchain:examples...` imports the example module from this checkout.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "vendorgen", "add", *args], cwd=EXAMPLE, check=True, env=env)


def main() -> None:
    for owned in ("tools", ".vendorgen", "vendorgen.lock"):
        path = EXAMPLE / owned
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", "7860"], f"{GRADIO_URL}config"):
        vendor(f"space:{GRADIO_URL}", "--all-endpoints")
    with server_process([str(REPO / "examples" / "mcp_server.py"), "http", "--port", "7861"], MCP_URL):
        vendor(f"mcp:{MCP_URL}")
    vendor("langchain:examples.langchain_tools:toolkit", "--name", "langchain_tools")
    for variant in variants():  # tests/golden.py: offline, from the snapshots just written
        regenerate(variant, variant)


if __name__ == "__main__":
    main()
