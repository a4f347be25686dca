"""black, in-process: the generated file is formatted once, as a person's would be."""

from __future__ import annotations

from vendorgen.errors import GateError

DEFAULT_LINE_LENGTH = 99


def format_source(source: str, line_length: int = DEFAULT_LINE_LENGTH) -> str:
    import black  # ~0.1 s to import: only commands that write code pay for it

    mode = black.Mode(line_length=line_length, target_versions={black.TargetVersion.PY311})
    try:
        return black.format_str(source, mode=mode)
    except black.InvalidInput as exc:
        raise GateError(f"rendered module is not valid Python: {exc}") from None
