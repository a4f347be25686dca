# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /stats (schema sha256 77232fb70dbf).
# Review it as code you run. Update: vendorgen update stats
from __future__ import annotations

from typing import Any

from smolagents import Tool


class StatsTool(Tool):
    """Count the words and characters of a text and return it in upper case.

    Returns a tuple of 3 values, in this order: words (Number), characters (Number), uppercase (Textbox).

    Calls /stats on space:http://127.0.0.1:7860/.
    """

    name = "stats"
    description = "Count the words and characters of a text and return it in upper case.\n\nReturns a tuple of 3 values, in this order: words (Number), characters (Number), uppercase (Textbox)."
    inputs: dict[str, dict[str, Any]] = {"text": {"type": "string", "description": "Text"}}
    output_type = "array"
    src = "http://127.0.0.1:7860/"
    api_name = "/stats"
    parameter_order: list[str] = ["text"]

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

    def forward(self, text: str) -> tuple[int, int, str]:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "text": text,
        }
        result = self.client.predict(**arguments, api_name=self.api_name)
        return tuple(result)

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
