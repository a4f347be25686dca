"""Regenerate the captured API description of examples/gradio_app.py.

    .venv/bin/python tests/data/capture_gradio_view_api.py

starts the example app on a free 127.0.0.1 port and writes, next to this script:

* ``gradio_view_api.json``: ``Client(url).view_api(return_format="dict", print_info=False)``.
  ``view_api(all_endpoints=True, ...)`` returns exactly the same dict in gradio_client 2.7
  (the flag only changes the printed text), so it is not stored separately.
* ``gradio_info_all.json``: the server's raw ``GET /gradio_api/info?serialize=False&all_endpoints=True``.
  Unlike the client's dict it also lists the ``api_visibility="undocumented"`` endpoint
  (``/reverse``) and keeps each endpoint's ``api_visibility`` key (the client pops it). Any
  ``code_snippets`` (older gradio) are dropped, as the client does, since they embed the URL.

Both are pretty-printed with ``sort_keys=True``: note that this sorts the endpoints
alphabetically, while the live app lists them in definition order (``/convert`` first).
The app is deterministic, so a re-run changes nothing unless gradio does.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
ROOT = DATA_DIR.parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import OFFLINE_ENV, free_port, server_process  # noqa: E402

os.environ.update(OFFLINE_ENV)  # before gradio_client is imported

from gradio_client import Client  # noqa: E402

APP = ROOT / "examples" / "gradio_app.py"


def capture() -> dict[str, dict]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(APP), "--port", str(port)], url + "config"):
        client = Client(url, verbose=False, analytics_enabled=False, download_files=False)
        view_api = client.view_api(return_format="dict", print_info=False)
        info_url = url + "gradio_api/info?serialize=False&all_endpoints=True"
        with urllib.request.urlopen(info_url, timeout=10) as response:
            info_all = json.load(response)
    for endpoint in info_all["named_endpoints"].values():
        endpoint.pop("code_snippets", None)
    return {"gradio_view_api.json": view_api, "gradio_info_all.json": info_all}


def main() -> None:
    for name, info in capture().items():
        path = DATA_DIR / name
        path.write_text(json.dumps(info, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"wrote {path.relative_to(ROOT)} ({len(info['named_endpoints'])} named endpoints)")


if __name__ == "__main__":
    main()
