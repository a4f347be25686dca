# Vendored by vendorgen 0.1.0 from space:http://127.0.0.1:7860/
# endpoint /file_info (schema sha256 62a9c79e6d61).
# Review it as code you run. Update: vendorgen update file_info
from __future__ import annotations

from typing import Any

from smolagents import Tool


class FileInfoTool(Tool):
    """Report the name, size in bytes and SHA-256 digest of an uploaded file.

    Calls /file_info on space:http://127.0.0.1:7860/.
    """

    name = "file_info"
    description = "Report the name, size in bytes and SHA-256 digest of an uploaded file."
    inputs: dict[str, dict[str, Any]] = {
        "path": {"type": "string", "description": "File. A local path or an http(s) URL."}
    }
    output_type = "any"
    src = "http://127.0.0.1:7860/"
    api_name = "/file_info"
    parameter_order: list[str] = ["path"]
    file_paths: dict[str, list[str]] = {"path": [""]}

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

    def forward(self, path: str) -> Any:
        if self.client is None:
            self.setup()
        uploads: list[str] = []
        arguments: dict[str, Any] = {
            "path": self._file(path, uploads),
        }
        import os

        try:
            result = self.client.predict(**arguments, api_name=self.api_name)
        finally:
            for path in uploads:
                os.remove(path)
        return result

    @staticmethod
    def _file(value: Any, uploads: list[str]) -> Any:
        """A local path, an http(s) URL or a PIL image, as gradio_client sends files."""
        import tempfile

        from gradio_client import handle_file

        if hasattr(value, "save") and not isinstance(value, str):  # a PIL image
            with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
                value.save(file, format="PNG")
            uploads.append(file.name)
            value = file.name
        return handle_file(str(value))

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
