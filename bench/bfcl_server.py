"""An MCP server (stdio) listing the functions of BFCL's `multiple` and `live_multiple` sets as tools.

    python bench/bfcl_server.py DATA_DIR [--log FILE]

The bench vendors it like any MCP server, so the catalogue of ~900 tools goes through the real
pipeline. One definition per function name (the first the sets give); a name becomes an
identifier (`ChaDri.change_drink` -> `ChaDri_change_drink`, see `pool`); BFCL's Python-flavoured types become
JSON Schema's (dict -> object, float -> number, tuple -> array, any -> no type). A call answers
its name and arguments as JSON and, with --log, appends them to FILE (one JSON line per call).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

import mcp.types as types

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers.mcp_lowlevel import build_server, echo_text, serve  # noqa: E402

SETS = ("multiple", "live_multiple")
_TYPES = {"dict": "object", "float": "number", "tuple": "array"}


def pool(data: Path) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Tool name -> the first BFCL definition of that name over both sets, and BFCL name -> tool name.

    A name becomes an identifier; one that vendorgen would give the same class name as another
    (`get_current_time`, `getCurrentTime`) gets a suffix, `_2`.
    """
    pooled: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    classes: set[str] = set()
    for name in SETS:
        for line in (data / f"BFCL_v4_{name}.json").read_text().splitlines():
            for function in json.loads(line)["function"]:
                if function["name"] in names:
                    continue
                base = re.sub(r"\W", "_", function["name"])
                tool, number = base, 1
                while _class_key(tool) in classes:
                    number += 1
                    tool = f"{base}_{number}"
                classes.add(_class_key(tool))
                names[function["name"]] = tool
                pooled[tool] = function
    return pooled, names


def _class_key(tool: str) -> str:
    """What vendorgen's class name for `tool` (PascalCase + Tool) depends on."""
    return re.sub(r"[^a-z0-9]", "", tool.lower()).removesuffix("tool")


class Question(NamedTuple):
    text: str  # the question's last user message
    tool: str  # the tool name of its ground-truth function
    functions: dict[str, dict[str, Any]]  # tool name -> the function as the question's own list defines it


def questions(data: Path, name: str, names: dict[str, str]) -> list[Question]:
    """The questions of one BFCL set, in order."""
    asked = [json.loads(line) for line in (data / f"BFCL_v4_{name}.json").read_text().splitlines()]
    answers = [json.loads(line) for line in (data / "possible_answer" / f"BFCL_v4_{name}.json").read_text().splitlines()]
    truth = {answer["id"]: next(iter(answer["ground_truth"][0])) for answer in answers}
    return [
        Question(item["question"][0][-1]["content"], names[truth[item["id"]]],
                 {names[function["name"]]: function for function in item["function"]})  # fmt: skip
        for item in asked
    ]


def json_schema(value: Any) -> Any:
    if isinstance(value, list):
        return [json_schema(item) for item in value]
    if not isinstance(value, dict):
        return value
    converted = {key: json_schema(item) for key, item in value.items()}
    kind = value.get("type")
    if kind == "any":
        del converted["type"]
    elif isinstance(kind, str):
        converted["type"] = _TYPES.get(kind, kind)
    return converted


def main() -> None:
    data = Path(sys.argv[1])
    log = Path(sys.argv[sys.argv.index("--log") + 1]) if "--log" in sys.argv else None
    tools = [
        types.Tool(name=name, description=function.get("description", ""),
                   inputSchema=json_schema(function["parameters"]))  # fmt: skip
        for name, function in pool(data)[0].items()
    ]

    async def call(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        if log is not None:
            with log.open("a", encoding="utf-8") as file:
                file.write(json.dumps({"name": name, "arguments": arguments}, sort_keys=True) + "\n")
        return [types.TextContent(type="text", text=echo_text(name, arguments))]

    serve(build_server("bfcl", tools, 0, call), "stdio")


if __name__ == "__main__":
    main()
