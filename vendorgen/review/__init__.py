"""Review aids: what a model reads of the vendored tools, flagged offline.

What an agent's model reads is not the generated code but the text inside it: a tool's description,
its parameters' descriptions, enum values and defaults, titles, an MCP server's `instructions`, prompt
texts. `texts` gathers that text from a module (each source kind gives (field path, text) pairs, new
snapshot fields plug in there), `scan` flags it with the rules in `rules.json` (and the project's own,
`settings`), `changes` says what a new version changes for a reviewer, `markdown` writes the summary
CI posts on a pull request. Nothing here reads the network: every flag comes from a snapshot.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Flag:
    """One finding: where (module, tool, field path), what (rule, kind, severity), and an excerpt."""

    module: str
    tool: str  # "" for what belongs to the server (its instructions, prompts)
    field: str  # e.g. "description", "inputs.path.description", "server.instructions"
    rule: str
    kind: str
    severity: str
    message: str
    excerpt: str  # escaped: invisible characters shown as <U+E0041>, one line
    silenced: str | None = None  # the reason the project gave for silencing it

    @property
    def where(self) -> str:
        return f"{self.module}.{self.tool}" if self.tool else self.module

    @property
    def active(self) -> bool:
        return self.silenced is None

    def line(self) -> str:
        state = f"silenced ({self.silenced})" if self.silenced is not None else self.severity
        return f"{state}: {self.where} {self.field}: {self.rule}: {self.message}: {self.excerpt}"

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What identifies a flag across versions of a module (its excerpt may move)."""
        return (self.module, self.tool, self.field, self.rule)


def severity_rank(severity: str) -> int:
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)
