# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /thumbnail (schema sha256 72a9db2d473b6b8f0efbb7d3c14906a86d12845b7509428ca3b5d4c6608c40b9).
# Update: vendorgen update thumbnail
from typing import Any

from smolagents.agent_types import AgentImage

from ._vendored_runtime import SpaceTool


class ThumbnailTool(SpaceTool):
    """Shrink an image so that its longer side is at most `size` pixels.

    Calls /thumbnail on space:http://127.0.0.1:7860/.
    """

    name = "thumbnail"
    description = "Shrink an image so that its longer side is at most `size` pixels."
    inputs: dict[str, dict[str, Any]] = {
        "image": {
            "type": "image",
            "description": "Image. A local path, an http(s) URL or a PIL image.",
        },
        "size": {
            "type": "number",
            "description": "Size: numeric value between 16 and 256",
            "default": 64,
            "nullable": True,
        },
    }
    output_type = "image"
    src = "http://127.0.0.1:7860/"
    api_name = "/thumbnail"
    parameter_order: list[str] = ["image", "size"]
    file_paths: dict[str, list[str]] = {"image": [""]}

    def forward(self, image: Any, size: float = 64) -> AgentImage:
        return AgentImage(self._predict({"image": image, "size": size}))
