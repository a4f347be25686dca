"""Generated MCP tools as the client of a conformance suite client scenario: `python -m tests.conformance_client
PROJECT URL` vendors the scenario's server at URL into PROJECT with `vendorgen add`, imports the module as a
user's code does, and calls each tool the scenario names with the handler the scenario needs.

elicitation-sep1034-client-defaults: the handler accepts with empty content; the run time applies the
schema's defaults (SEP-1034) before the server sees the answer.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

HANDLERS = {"elicitation-sep1034-client-defaults": {"elicitation": lambda params: {"action": "accept", "content": {}}}}


def main(project: Path, url: str) -> None:
    scenario = os.environ["MCP_CONFORMANCE_SCENARIO"]
    name = "conformance_" + scenario.replace("-", "_").replace("/", "_")
    added = subprocess.run([sys.executable, "-m", "vendorgen", "add", f"mcp:{url}", "--name", name],
                           cwd=project, capture_output=True, text=True)  # fmt: skip
    if added.returncode != 0:
        raise SystemExit(f"vendorgen add failed: {added.stderr}")
    sys.path.insert(0, str(project))
    module = importlib.import_module(f"tools.{name}")
    with module.tools() as tools:
        for tool in tools:
            tool.set_handlers(**HANDLERS.get(scenario, {}))
            print(tool.name, "->", tool())


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
