# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /keyword (schema sha256 2b8c273197dcb415dd0d5ca97d7d50d9a458f7153816116d18c8c8614696adf0).
# Update: vendorgen update keyword
from typing import Any

from ._vendored_gradio import SpaceTool


class KeywordTool(SpaceTool):
    """Plan a trip between two places, with at most a given number of stops.

    Calls /keyword on space:http://127.0.0.1:7860/.
    Renamed arguments: from_ is sent as from, max_stops is sent as max-stops.
    """

    name = "keyword"
    description = "Plan a trip between two places, with at most a given number of stops."
    inputs: dict[str, dict[str, Any]] = {
        "from_": {"type": "string", "description": "From"},
        "to": {"type": "string", "description": "To"},
        "max_stops": {
            "type": "integer",
            "description": "Max stops",
            "default": 1,
            "nullable": True,
        },
    }
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/keyword"
    parameter_order: list[str] = ["from", "to", "max-stops"]

    def forward(self, from_: str, to: str, max_stops: int = 1) -> str:
        return self._predict({"from": from_, "to": to, "max-stops": max_stops})
