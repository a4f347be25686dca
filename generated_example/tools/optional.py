# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /optional (schema sha256 9c9e724a576e).
# Review it as code you run. Update: vendorgen update optional
from __future__ import annotations

from typing import Any

from smolagents import Tool


class OptionalTool(Tool):
    """Greet someone, with an optional title such as "Dr".

    Calls /optional on space:http://127.0.0.1:7860/.
    """

    name = "optional"
    description = 'Greet someone, with an optional title such as "Dr".'
    inputs: dict[str, dict[str, Any]] = {
        "name": {"type": "string", "description": "Name"},
        "title": {"type": "string", "description": "Title", "default": None, "nullable": True},
    }
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/optional"
    parameter_order: list[str] = ["name", "title"]

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

    def forward(self, name: str, title: str | None = None) -> str:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "name": name,
        }
        if title is not None:
            arguments["title"] = title
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
