"""The example MCP server over stdio, counting its starts.

Run with ``python -m tests.servers.mcp_counted DIR``: each copy leaves a file named after its process
id in DIR, says so on stderr, then serves.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from examples.mcp_server import mcp


def main() -> None:
    (Path(sys.argv[1]) / str(os.getpid())).touch()
    print(f"counted server {os.getpid()} started", file=sys.stderr, flush=True)
    mcp.run("stdio")


if __name__ == "__main__":
    main()
