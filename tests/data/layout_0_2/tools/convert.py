# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /convert (schema sha256 c469d9ce17d09f2e02a4c18aac7373de5bdb8ed5bd15594e805d9d1b18ce1790).
# Update: vendorgen update convert
from typing import Any, Literal

from ._vendored_runtime import SpaceTool


class ConvertTool(SpaceTool):
    """Convert a length from one unit to another (mm, cm, m, km, in, ft).

    Calls /convert on space:http://127.0.0.1:7860/.
    """

    name = "convert"
    description = "Convert a length from one unit to another (mm, cm, m, km, in, ft)."
    inputs: dict[str, dict[str, Any]] = {
        "value": {"type": "number", "description": "Value", "default": 1, "nullable": True},
        "from_unit": {
            "type": "string",
            "description": "From unit",
            "enum": ["mm", "cm", "m", "km", "in", "ft"],
            "default": "m",
            "nullable": True,
        },
        "to_unit": {
            "type": "string",
            "description": "To unit",
            "enum": ["mm", "cm", "m", "km", "in", "ft"],
            "default": "ft",
            "nullable": True,
        },
    }
    output_type = "number"
    src = "http://127.0.0.1:7860/"
    api_name = "/convert"
    parameter_order: list[str] = ["value", "from_unit", "to_unit"]

    def forward(
        self,
        value: float = 1,
        from_unit: Literal["mm", "cm", "m", "km", "in", "ft"] = "m",
        to_unit: Literal["mm", "cm", "m", "km", "in", "ft"] = "ft",
    ) -> float:
        return self._predict({"value": value, "from_unit": from_unit, "to_unit": to_unit})
