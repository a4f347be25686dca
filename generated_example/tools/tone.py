# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /tone (schema sha256 962cbf243c7a).
# Review it as code you run. Update: vendorgen update tone
from __future__ import annotations

from typing import Any

from smolagents import Tool
from smolagents.agent_types import AgentAudio


class ToneTool(Tool):
    """Generate a sine-wave tone as a 16 kHz mono WAV audio clip.

    Calls /tone on space:http://127.0.0.1:7860/.
    """

    name = "tone"
    description = "Generate a sine-wave tone as a 16 kHz mono WAV audio clip."
    inputs: dict[str, dict[str, Any]] = {
        "frequency": {
            "type": "number",
            "description": "Frequency (Hz)",
            "default": 440,
            "nullable": True,
        },
        "seconds": {"type": "number", "description": "Seconds", "default": 0.5, "nullable": True},
    }
    output_type = "audio"
    src = "http://127.0.0.1:7860/"
    api_name = "/tone"
    parameter_order: list[str] = ["frequency", "seconds"]

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

    def forward(self, frequency: float = 440, seconds: float = 0.5) -> AgentAudio | str:
        if self.client is None:
            self.setup()
        arguments: dict[str, Any] = {
            "frequency": frequency,
            "seconds": seconds,
        }
        result = self.client.predict(**arguments, api_name=self.api_name)
        try:
            return AgentAudio(result)
        except (
            ModuleNotFoundError
        ):  # AgentAudio needs smolagents[audio]; the file path still works
            return result

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
