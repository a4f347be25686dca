"""`make demo`: start the example Gradio app on loopback, vendor it into a temporary
project, show the generated file and call the vendored tool."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.servers import OFFLINE_ENV, free_port, server_process  # noqa: E402

os.environ.update(OFFLINE_ENV)


def step(title: str) -> None:
    print(f"\n=== {title}", flush=True)


def main() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory(prefix="vendorgen-demo-") as directory:
        project = Path(directory)
        (project / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
        step(f"starting the example Gradio app on {url}")
        with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", str(port)], f"{url}config"):
            command = ["vendorgen", "add", f"space:{url}", "--all-endpoints"]
            step("$ " + " ".join(command))
            subprocess.run([sys.executable, "-m", "vendorgen", *command[1:]], cwd=project, check=True)
            step("$ vendorgen list")
            subprocess.run([sys.executable, "-m", "vendorgen", "list"], cwd=project, check=True)
            step("tools/convert.py")
            print((project / "tools" / "convert.py").read_text(), end="")
            step("calling the vendored tool")
            sys.path.insert(0, str(project))
            from tools.convert import ConvertTool  # the file just written

            tool = ConvertTool()
            result = tool(value=2.5, from_unit="km", to_unit="mm")
            print(f"ConvertTool()(value=2.5, from_unit='km', to_unit='mm') -> {result!r}")
            from tools.stats import StatsTool

            print(f"StatsTool()(text='vendor your tools') -> {StatsTool()(text='vendor your tools')!r}")


if __name__ == "__main__":
    main()
