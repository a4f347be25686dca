# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /keyword (schema sha256 2b8c273197dc).
# Review it as code you run. Update: vendorgen update keyword
from __future__ import annotations

from typing import Any

from smolagents import Tool


class KeywordTool(Tool):
    """Plan a trip between two places, with at most a given number of stops.

    Calls /keyword on space:http://127.0.0.1:7860/.
    Renamed arguments: from_ is sent as from, max_stops is sent as max-stops.
    """

    name = "keyword"
    description = "Plan a trip between two places, with at most a given number of stops."
    inputs: dict[str, dict[str, Any]] = {
        "from_": {"type": "string", "description": "From"},
        "to": {"type": "string", "description": "To"},
        "max_stops": {
            "type": "integer",
            "description": "Max stops",
            "default": 1,
            "nullable": True,
        },
    }
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/keyword"
    parameter_order: list[str] = ["from_", "to", "max_stops"]

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

    def forward(self, from_: str, to: str, max_stops: int = 1) -> str:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "from": from_,
            "to": to,
            "max-stops": max_stops,
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
