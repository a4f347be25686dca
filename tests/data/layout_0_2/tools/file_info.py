# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /file_info (schema sha256 62a9c79e6d61df17b56800ed5d9832f70b9ac6a9417f3e801295e73bb7db4100).
# Update: vendorgen update file_info
from typing import Any

from ._vendored_runtime import SpaceTool


class FileInfoTool(SpaceTool):
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

    def forward(self, path: str) -> Any:
        return self._predict({"path": path})
