# Vendored by vendorgen 0.1.0: review it as code you run.
# Provenance (as the source gave it, escaped):
# from space:http://127.0.0.1:7860/
# endpoint /tone (schema sha256 962cbf243c7a57e166a33ab04a52804c24cf001ecf8bc63a969b02bbbdffa41c).
# Update: vendorgen update tone
from typing import Any

from smolagents.agent_types import AgentAudio

from ._vendored_gradio import SpaceTool, audio_result


class ToneTool(SpaceTool):
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

    def forward(self, frequency: float = 440, seconds: float = 0.5) -> AgentAudio | str:
        return audio_result(self._predict({"frequency": frequency, "seconds": seconds}))
