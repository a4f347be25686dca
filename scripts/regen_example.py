"""Rewrite generated_example/ from the bundled example sources: `make regen-example`.

The example Gradio app is served on the fixed address the committed files name
(http://127.0.0.1:7860/), so the port must be free.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.servers import server_process  # noqa: E402

EXAMPLE = REPO / "generated_example"
GRADIO_URL = "http://127.0.0.1:7860/"


def vendor(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "vendorgen", "add", *args], cwd=EXAMPLE, check=True)


def main() -> None:
    for owned in ("tools", ".vendorgen", "vendorgen.lock"):
        path = EXAMPLE / owned
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    with server_process([str(REPO / "examples" / "gradio_app.py"), "--port", "7860"], f"{GRADIO_URL}config"):
        vendor(f"space:{GRADIO_URL}", "--all-endpoints")


if __name__ == "__main__":
    main()
