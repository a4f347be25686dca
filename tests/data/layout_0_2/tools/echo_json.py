# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /echo_json (schema sha256 d066ea9476588f6e6a4f45d57d3e885dfcce04b99a1bf5af520065ad7fb00e47).
# Update: vendorgen update echo_json
from typing import Any

from ._vendored_runtime import SpaceTool


class EchoJsonTool(SpaceTool):
    """Return the JSON value it is given, unchanged.

    Calls /echo_json on space:http://127.0.0.1:7860/.
    """

    name = "echo_json"
    description = "Return the JSON value it is given, unchanged."
    inputs: dict[str, dict[str, Any]] = {"data": {"type": "any", "description": "Data"}}
    output_type = "any"
    src = "http://127.0.0.1:7860/"
    api_name = "/echo_json"
    parameter_order: list[str] = ["data"]

    def forward(self, data: Any) -> Any:
        return self._predict({"data": data})
