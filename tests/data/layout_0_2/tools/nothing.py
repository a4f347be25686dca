# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /nothing (schema sha256 53f01ff3dfa59d22d23eac035f119d2373b3709dd53cc637fc2e0be4c838f480).
# Update: vendorgen update nothing
from typing import Any

from ._vendored_runtime import SpaceTool


class NothingTool(SpaceTool):
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

    def forward(self, note: str) -> None:
        self._predict({"note": note})
        return None
