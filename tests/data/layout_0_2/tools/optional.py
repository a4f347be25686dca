# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /optional (schema sha256 9c9e724a576e1a9435d0007fec7708c66eb1eb05adfd66a41e92dfcd60c763ac).
# Update: vendorgen update optional
from typing import Any

from ._vendored_runtime import NOT_GIVEN, SpaceTool


class OptionalTool(SpaceTool):
    """Greet someone, with an optional title such as "Dr".

    Calls /optional on space:http://127.0.0.1:7860/.
    """

    name = "optional"
    description = 'Greet someone, with an optional title such as "Dr".'
    inputs: dict[str, dict[str, Any]] = {
        "name": {"type": "string", "description": "Name"},
        "title": {"type": "string", "description": "Title", "default": None, "nullable": True},
    }
    output_type = "string"
    src = "http://127.0.0.1:7860/"
    api_name = "/optional"
    parameter_order: list[str] = ["name", "title"]
    parameter_defaults: dict[str, Any] = {"title": None}

    def forward(self, name: str, title: str | None = NOT_GIVEN) -> str:
        return self._predict({"name": name, "title": title})
