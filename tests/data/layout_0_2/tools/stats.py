# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /stats (schema sha256 77232fb70dbf33c3c2195124adca688acfe55dcc1c9e5b9eb31cbdcfbb0058a3).
# Update: vendorgen update stats
from typing import Any

from ._vendored_runtime import SpaceTool


class StatsTool(SpaceTool):
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

    def forward(self, text: str) -> tuple[int, int, str]:
        return tuple(self._predict({"text": text}))
