# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /nothing (schema sha256 53f01ff3dfa5).
# Review it as code you run. Update: vendorgen update nothing
from __future__ import annotations

from typing import Any

from smolagents import Tool


class NothingTool(Tool):
    """Accept a note and return nothing (an endpoint with no outputs).

    Calls /nothing on space:http://127.0.0.1:7860/.

    Returns nothing.
    """

    name = "nothing"
    description = "Accept a note and return nothing (an endpoint with no outputs)."
    inputs: dict[str, dict[str, Any]] = {"note": {"type": "string", "description": "Note"}}
    output_type = "null"
    src = "http://127.0.0.1:7860/"
    api_name = "/nothing"
    parameter_order: list[str] = ["note"]

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

    def forward(self, note: str) -> None:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "note": note,
        }
        result = self.client.predict(**arguments, api_name=self.api_name)
        return None

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
