"""A source kind defined only in the tests, to show that one registration plugs a kind in.

`echo:<file>` reads a JSON file (relative to the working directory) such as
`{"prefix": "echo: ", "tools": {"shout": "Shouts the text back."}}` and vendors one module
with a tool per entry, each returning its text after the prefix. It is registered through the
entry-point group `vendorgen.sources` (tests/test_source_plugin.py installs the entry point)
and changes no other file: its template and its run-time file `_vendored_echo.py` (which the
generated code imports, and vendorgen copies beside it) sit beside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vendorgen import naming
from vendorgen.errors import SourceUnreachable
from vendorgen.model import InputSpec, ModuleSpec, OutputSpec, ToolSpec
from vendorgen.sources import AddOptions, Inspection, Source, replay_options


class EchoSource(Source):
    kind = "echo"
    target = "echo:<file.json>"
    options = frozenset({"name"})
    template = "echo.py.j2"
    template_dir = Path(__file__).resolve().parent
    allowed_imports = frozenset({"__future__.annotations", "typing.Any", "smolagents.Tool", "._vendored_echo.echoed"})
    runtime_files = ("_vendored_echo.py",)
    runtime_dir = Path(__file__).resolve().parent
    requirements = ("smolagents",)

    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        try:
            listing = json.loads(Path(target).read_text(encoding="utf-8"))
        except OSError as exc:
            raise SourceUnreachable(f"echo:{target}: {exc.strerror}") from None
        name = naming.python_name(options.name or Path(target).stem)
        return [
            {
                "kind": self.kind,
                "source": f"echo:{target}",
                "name": name,
                "revision": "",
                "prefix": listing["prefix"],
                "tools": listing["tools"],
                "options": replay_options(name),
            }
        ]

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        text = InputSpec(
            name="text", wire_name="text", type="string", annotation="str", description="What to echo.", required=True
        )
        tools = tuple(
            ToolSpec(
                name=naming.python_name(name),
                class_name=naming.class_name(naming.python_name(name)),
                description=description,
                endpoint=name,
                inputs=(text,),
                outputs=(OutputSpec("result", "string", "str"),),
                output_type="string",
                constants=(("prefix", snapshot["prefix"]),),
            )
            for name, description in snapshot["tools"].items()
        )
        return ModuleSpec(
            name=naming.python_name(snapshot["name"]),
            kind=self.kind,
            source=snapshot["source"],
            revision=snapshot["revision"],
            tools=tools,
            requirements=self.requirements,
        )
