"""A vendorgen user as the MCP conformance suite's client: `python -m tests.conformance_client URL`.

What a user does, in a new project: `vendorgen add mcp:URL` (with the pre-registered OAuth client the
suite hands over in MCP_CONFORMANCE_CONTEXT, the way a user passes theirs), then load the generated tools
with smolagents and call each one. The suite's authorization servers approve as soon as the authorization
URL is requested, so VENDORGEN_MCP_AUTHORIZE=fetch stands in for the person at the browser. Exits 1 when
`add` or a call fails; prints what it did.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
from pathlib import Path

from vendorgen.cli import main as vendorgen

# The Client ID Metadata Document URL the suite's CIMD scenario expects a client to publish and use.
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"


def main() -> int:
    url = sys.argv[-1]
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    with tempfile.TemporaryDirectory(prefix="conformance-user-") as directory:
        root = Path(directory)
        (root / "pyproject.toml").write_text('[project]\nname = "agent"\nversion = "0"\n')
        os.environ.update(VENDORGEN_MCP_AUTHORIZE="fetch", VENDORGEN_MCP_TOKENS=str(root / "tokens"))
        command = ["add", f"mcp:{url}", "--name", "server", "--client-metadata-url", CLIENT_METADATA_URL]
        if context.get("client_id"):
            os.environ["CONFORMANCE_CLIENT_SECRET"] = context.get("client_secret", "")
            command += ["--client-id", context["client_id"], "--client-secret-env", "CONFORMANCE_CLIENT_SECRET"]
        os.chdir(root)
        try:  # in this process, as `vendorgen add ...` would run: one interpreter start less per scenario
            vendorgen(command)
        except SystemExit as exited:
            if exited.code:
                return 1
        sys.path.insert(0, str(root))
        module = importlib.import_module("tools.server")
        failed = 0
        with module.tools() as tools:
            for tool in tools:
                arguments = {name: _value(spec) for name, spec in tool.inputs.items() if not spec.get("nullable")}
                try:
                    print(f"{tool.name}: {tool(**arguments)!r}", flush=True)
                except Exception as exc:  # noqa: BLE001 - report every failed call, then exit 1
                    print(f"{tool.name} failed: {exc}", flush=True)
                    failed += 1
        return 1 if failed else 0


def _value(spec: dict) -> object:
    """An argument for an input of this type (the suite's tools take numbers and strings)."""
    return {"integer": 1, "number": 1.0, "boolean": True, "array": [], "object": {}}.get(spec.get("type"), "x")


if __name__ == "__main__":
    sys.exit(main())
