"""The example MCP server over stdio, answering only once another copy of it has started beside it.

Run with ``python -m tests.servers.mcp_side_by_side DIR``: each copy leaves a file named after its
process id in DIR, then waits for a second file. `vendorgen add` lists a server twice (once as vendored
tools connect, once declaring client capabilities); run one after the other, the first copy would
wait for the second forever and the listing would time out.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from examples.mcp_server import mcp


def main() -> None:
    directory = Path(sys.argv[1])
    (directory / str(os.getpid())).touch()
    while len(list(directory.iterdir())) < 2:
        time.sleep(0.05)
    mcp.run("stdio")


if __name__ == "__main__":
    main()
