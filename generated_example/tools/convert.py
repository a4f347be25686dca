# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /convert (schema sha256 c469d9ce17d0).
# Review it as code you run. Update: vendorgen update convert
from __future__ import annotations

from typing import Any, Literal

from smolagents import Tool


class ConvertTool(Tool):
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

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.client: Any = None  # a gradio_client.Client once set up

    def setup(self) -> None:
        """Connect on first use: constructing the tool does no network I/O."""
        import os

        from gradio_client import Client

        token = self.token or os.environ.get("HF_TOKEN")
        self.client = Client(self.src, token=token, verbose=False, analytics_enabled=False)
        self.is_initialized = True

    def forward(
        self,
        value: float = 1,
        from_unit: Literal["mm", "cm", "m", "km", "in", "ft"] = "m",
        to_unit: Literal["mm", "cm", "m", "km", "in", "ft"] = "ft",
    ) -> float:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "value": value,
            "from_unit": from_unit,
            "to_unit": to_unit,
        }
        return self.client.predict(**arguments, api_name=self.api_name)

    def to_langchain(self) -> Any:
        """This tool as a LangChain StructuredTool with the same argument schema."""
        from langchain_core.tools import StructuredTool

        properties = {}
        for key, spec in self.inputs.items():
            properties[key] = {k: v for k, v in spec.items() if k != "nullable"}
            if properties[key]["type"] in ("image", "audio", "any"):
                del properties[key]["type"]
        required = [key for key, spec in self.inputs.items() if not spec.get("nullable")]
        return StructuredTool.from_function(
            func=lambda **arguments: self(**arguments),
            name=self.name,
            description=self.description,
            args_schema={"type": "object", "properties": properties, "required": required},
        )
