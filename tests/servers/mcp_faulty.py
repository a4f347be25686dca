"""An MCP server (low-level API) that fails in the middle of listing its tools, for fault tests.

    python -m tests.servers.mcp_faulty stdio --fault die     # also: http --port N, sse --port N

It lists three tools one per page. Asked for the second page, with `--fault`:
`die` kills itself with SIGKILL (a server killed in the middle of the listing), `hang` never
answers. `banner` prints a line that is not JSON-RPC on stdout before serving, as chatty stdio
servers do, then works: the client skips the line.
"""

from __future__ import annotations

import os
import signal
import sys

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server

from tests.servers.mcp_lowlevel import make_parser, serve

TOOLS = [
    types.Tool(name=f"step_{index}", description=f"Step {index}.", inputSchema={"type": "object", "properties": {}})
    for index in range(3)
]


def build_server(fault: str) -> Server:
    server: Server = Server("vendorgen-faulty")

    @server.list_tools()
    async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
        cursor = request.params.cursor if request is not None and request.params else None
        if cursor is None:
            return types.ListToolsResult(tools=TOOLS[:1], nextCursor="1")
        if fault == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        if fault == "hang":
            await anyio.sleep_forever()
        index = int(cursor)
        return types.ListToolsResult(tools=TOOLS[index : index + 1], nextCursor=str(index + 1) if index < 2 else None)

    return server


def main(argv: list[str] | None = None) -> None:
    parser = make_parser(__doc__.splitlines()[0])
    parser.add_argument("--fault", choices=["die", "hang", "banner"], required=True)
    args = parser.parse_args(argv)
    if args.fault == "banner":
        print("faulty server 1.0 starting, have fun!", flush=True)
        print("{'not': json-rpc}", file=sys.stdout, flush=True)
    serve(build_server(args.fault), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
