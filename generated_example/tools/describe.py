# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /describe (schema sha256 93fa2e1d3dde00fa6face5f0750bd6cc8d6856c2e2d586fdee8cecf89f4e7502).
# Update: vendorgen update describe
from typing import Any, Literal

from ._vendored_gradio import SpaceTool


class DescribeTool(SpaceTool):
    """Describe a person in one sentence from a few scalar fields.

    Calls /describe on space:http://127.0.0.1:7860/.
    """

    name = "describe"
    description = "Describe a person in one sentence from a few scalar fields."
    inputs: dict[str, dict[str, Any]] = {
        "name": {"type": "string", "description": "Name"},
        "age": {"type": "integer", "description": "Age", "default": 30, "nullable": True},
        "height": {
            "type": "number",
            "description": "Height: numeric value between 0.5 and 2.5",
            "default": 1.7,
            "nullable": True,
        },
        "member": {"type": "boolean", "description": "Member", "default": False, "nullable": True},
        "color": {
            "type": "string",
            "description": "Colour",
            "enum": ["red", "green", "blue"],
            "default": "blue",
            "nullable": True,
        },
    }
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/describe"
    parameter_order: list[str] = ["name", "age", "height", "member", "color"]

    def forward(
        self,
        name: str,
        age: int = 30,
        height: float = 1.7,
        member: bool = False,
        color: Literal["red", "green", "blue"] = "blue",
    ) -> str:
        return self._predict(
            {"name": name, "age": age, "height": height, "member": member, "color": color}
        )
