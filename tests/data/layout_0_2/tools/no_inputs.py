# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /no_inputs (schema sha256 c289cca0a22912bf201181660251397f93daa66029e76ee2a67eb46d913e012c).
# Update: vendorgen update no_inputs
from typing import Any

from ._vendored_runtime import SpaceTool


class NoInputsTool(SpaceTool):
    """List the length units that /convert understands (an endpoint with no inputs).

    Calls /no_inputs on space:http://127.0.0.1:7860/.
    """

    name = "no_inputs"
    description = "List the length units that /convert understands (an endpoint with no inputs)."
    inputs: dict[str, dict[str, Any]] = {}
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/no_inputs"
    parameter_order: list[str] = []

    def forward(self) -> str:
        return self._predict({})
