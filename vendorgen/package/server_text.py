"""The server module's text after its header: the shipped logic, then what the project serves.

Apart from vendorgen.package.serve (which reads the lock to fill it in) so that naming can read the
names the server module uses with nothing but the standard library: `langchain:` inspection imports
naming in the project's own interpreter.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from vendorgen.project.paths import SERVER_FILE
from vendorgen.sources.base import SHIPPED

_SHIPPED = SHIPPED / SERVER_FILE
_TAIL_MARK = "# -- What this project serves"


def served_text(
    imports: Sequence[str] = (),
    classes: Sequence[str] = (),
    pins: Mapping[str, Mapping[str, str]] | None = None,
    read_only: Sequence[str] = (),
    snapshots: Mapping[str, str] | None = None,
) -> str:
    """The server module after its header: the shipped logic, then the imports, classes, pins and read-only tools
    (`serve --read-only`) it serves, and the snapshot of each module with pins (root-relative paths vendorgen
    chose: no remote text)."""
    tail = [_TAIL_MARK, *imports, "", "TOOLS = ["]
    tail += [f"    {name}," for name in classes] + [
        "]",
        "# sha256 of each upstream MCP tool's definition as vendored.",
        "PINNED = {",
    ]
    for name, hashes in sorted((pins or {}).items()):
        tail += [
            f"    {json.dumps(name)}: {{",
            *(f'        "{key}": "{value}",' for key, value in hashes.items()),
            "    },",
        ]
    tail += ["}", "# The tools pinned as read only by their MCP annotations.", "READ_ONLY = ["]
    tail += [f"    {json.dumps(name)}," for name in sorted(read_only)]
    tail += [
        "]",
        "# The committed snapshot of each module above with pinned tools: their schemas as listed.",
        "SNAPSHOTS = {",
    ]
    tail += [f"    {json.dumps(module)}: {json.dumps(path)}," for module, path in sorted((snapshots or {}).items())]
    tail += [
        "}",
        "",
        'if __name__ == "__main__":',
        "    main(TOOLS, PINNED, read_only=READ_ONLY, snapshots=SNAPSHOTS)",
        "",
    ]
    return _SHIPPED.read_text(encoding="utf-8") + "\n\n" + "\n".join(tail)
