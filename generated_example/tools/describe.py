# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /describe (schema sha256 93fa2e1d3dde).
# Review it as code you run. Update: vendorgen update describe
from __future__ import annotations

from typing import Any, Literal

from smolagents import Tool


class DescribeTool(Tool):
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
        name: str,
        age: int = 30,
        height: float = 1.7,
        member: bool = False,
        color: Literal["red", "green", "blue"] = "blue",
    ) -> str:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "name": name,
            "age": age,
            "height": height,
            "member": member,
            "color": color,
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
