"""Hub tool Spaces: a smolagents `tool.py`, pinned to a commit, read without running it, vendored as it is.

`Tool.from_hub(..., trust_remote_code=True)` downloads tool.py and executes it.
Here the revision is resolved to a commit sha, tool.py (and requirements.txt)
are fetched at that sha, and the Tool class is read statically (toolfile.py).
The file is written into the project unchanged but for black and the
provenance header; the gate checks exactly that. It first runs when the user
imports it, after reading the review `vendorgen add` prints.

Failing fast: huggingface_hub retries connection errors and 5xx answers of
downloads with a 1+2+4+8+8 s backoff. vendorgen makes no retried call:
`space_info` (never retried) resolves the sha and lists the files, and the two
small files are fetched with one plain GET each through huggingface_hub's own
session (no cache, no retry). A Hub that is down or refuses costs one request;
each request is bounded in total (hub_client.within_deadline).
"""

from __future__ import annotations

import json
import unicodedata
from typing import TYPE_CHECKING, Any

from vendorgen import naming
from vendorgen.errors import GateError, SchemaError, SourceUnreachable, UsageError, VendorgenError
from vendorgen.model import NO_DEFAULT, SMOLAGENTS_TYPES, InputSpec, ModuleSpec, ToolSpec
from vendorgen.sources.base import TRUST_NOTE, AddOptions, Inspection, Review, Source
from vendorgen.sources.hub_client import REPO_ID, bound_hub_requests, fetch_file, hub_errors, within_deadline
from vendorgen.text import limits, schema
from vendorgen.text.formatter import format_source
from vendorgen.text.literals import escape_text, python_literal
from vendorgen.text.pysource import check_as_written

if TYPE_CHECKING:
    from vendorgen.project.lockfile import LockEntry
    from vendorgen.sources.toolfile import ToolFile

TOOL_FILE = "tool.py"
REQUIREMENTS_FILE = "requirements.txt"
# Keys of a smolagents `inputs` entry that InputSpec holds in fields of its own.
_INPUT_FIELDS = ("type", "description", "default")


def inspect(target: str, options: AddOptions) -> list[dict[str, Any]]:
    if not options.trust:
        raise UsageError(
            f"hub:{target} is code from the Hub that runs in your process when you import it; "
            "pass --trust once you accept that (the counterpart of trust_remote_code=True), then review the file"
        )
    repo_id, revision = parse_target(target)
    from huggingface_hub import HfApi  # lazy: only hub/collection sources pay for it

    timeout = bound_hub_requests()
    api = HfApi(token=options.token or None)  # None: the token of `hf auth login`, if any
    space = f"Space {repo_id}" + (f" at revision {revision}" if revision else "")
    with hub_errors(space):
        info = within_deadline(
            lambda: api.space_info(repo_id, revision=revision, timeout=timeout),
            f"the Hub at {api.endpoint} for {space}",
        )
        files = sorted(sibling.rfilename for sibling in info.siblings or ())
        if TOOL_FILE not in files:
            raise VendorgenError(
                f"{space} has no {TOOL_FILE}, so it is not a smolagents tool Space (its files: {', '.join(files) or 'none'})"
            )
        if not info.sha:
            raise SourceUnreachable(f"the Hub named no commit for {space}; try again")
        tool_py = fetch_file(api, repo_id, TOOL_FILE, info.sha)
        requirements_txt = fetch_file(api, repo_id, REQUIREMENTS_FILE, info.sha) if REQUIREMENTS_FILE in files else None
    limits.check_listing(tool_py + (requirements_txt or ""), f"{_label(repo_id)} with its {REQUIREMENTS_FILE}")
    from vendorgen.sources.toolfile import ToolFile  # lazy, as below: libcst costs 160 ms of start-up

    tool = tool_spec(ToolFile(normal_newlines(tool_py), _label(repo_id)), options.class_name)
    name = naming.python_name(options.name or tool.name)
    return [
        {
            "kind": "hub",
            "source": f"hub:{target}",
            "name": name,
            "revision": info.sha,
            "repo_id": repo_id,
            "class_name": tool.class_name,
            "tool_py": tool_py,
            "requirements_txt": requirements_txt,
            "options": {"trust": True, "class_name": tool.class_name, "name": name},
        }
    ]


def build(snapshot: dict[str, Any]) -> ModuleSpec:
    original = normal_newlines(snapshot["tool_py"])
    label = _label(snapshot["repo_id"])
    check_visible(original, label)
    from vendorgen.sources.hub_review import refuse_disguised_names  # lazy: libcst (see inspect)
    from vendorgen.sources.toolfile import ToolFile  # lazy: libcst

    tool = tool_spec(ToolFile(original, label), snapshot["class_name"])
    refuse_disguised_names(original, label)
    return ModuleSpec(
        name=naming.python_name(snapshot["name"]),  # a file name and a word of the header: never raw
        kind="hub",
        source=snapshot["source"],
        revision=snapshot["revision"],
        tools=(tool,),
        requirements=parse_requirements(snapshot["requirements_txt"]),
        carried_code=original,
    )


def bound_fields(target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """`update` fetches tool.py from the Space `hub:<target>` names: the one the snapshot was read from."""
    return {"repo_id": parse_target(target)[0]}


def parse_target(target: str) -> tuple[str, str | None]:
    """`owner/space@revision` -> (`owner/space`, `revision`); the revision may contain slashes (refs/pr/1)."""
    repo_id, sep, revision = target.partition("@")
    if not REPO_ID.fullmatch(repo_id) or (sep and not revision):
        raise UsageError(f"hub:{target} is not owner/space[@revision]")
    return repo_id, revision or None


def normal_newlines(text: str) -> str:
    """black keeps a file's line endings; the vendored file uses \\n like the header above it."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_visible(text: str, label: str) -> None:
    """Refuse a character that makes code read differently than it runs (Trojan Source: bidi controls,
    zero-width and separator characters) or that a terminal acts on. The file is vendored as it is, so
    it cannot be escaped the way remote text in generated code is. Tabs and spaces are fine."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.isprintable():
            continue
        for column, char in enumerate(line, 1):
            if not (char.isprintable() or char == "\t" or unicodedata.category(char) == "Zs"):
                shown = " ".join(filter(None, [f"U+{ord(char):04X}", unicodedata.name(char, "")]))
                raise SchemaError(
                    f"{label} line {number}, column {column}: {shown} is a control or invisible character that"
                    " can hide what the code does; a vendored file is kept as it is, so it is refused"
                )


def parse_requirements(text: str | None) -> tuple[str, ...]:
    """The requirement lines of a requirements.txt, comments and blank lines left out."""
    lines = []
    for raw in (text or "").splitlines():
        line = raw.split(" #", 1)[0].strip()  # pip reads ` #` as the start of a comment
        if line and not line.startswith("#"):
            lines.append(line)
    return tuple(lines)


def tool_spec(file: ToolFile, class_name: str | None) -> ToolSpec:
    """The ToolSpec of the Tool class `class_name` (or the only one), from its literal attributes."""
    chosen = file.choose(class_name)
    attributes = file.attributes(chosen)
    where = f"{file.label}: {chosen}"
    try:
        python_literal(attributes)  # what no JSON or UTF-8 text carries: a lone surrogate escape, a non-string key
    except (SchemaError, ValueError) as exc:
        raise SchemaError(f"{where}: {exc}") from None
    from vendorgen.sources.toolfile import REQUIRED  # lazy: libcst (see inspect)

    name, description, inputs, output_type = (attributes[key] for key in REQUIRED)
    if not isinstance(name, str) or not name.isidentifier() or naming.python_name(name) != name:
        raise SchemaError(f"{where}.name {name!r} is not a Python identifier (smolagents requires one)")
    if not isinstance(description, str):
        raise SchemaError(f"{where}.description is not a string")
    limits.check_description(description, f"{where}.description")
    if not isinstance(inputs, dict):
        raise SchemaError(f"{where}.inputs is not a dict")
    if output_type not in SMOLAGENTS_TYPES:
        raise SchemaError(f"{where}.output_type {output_type!r} is not one of {', '.join(SMOLAGENTS_TYPES)}")
    output_schema = attributes.get("output_schema")
    if output_schema is not None and not isinstance(output_schema, dict):
        raise SchemaError(f"{where}.output_schema is not a dict")
    return ToolSpec(
        name=name,
        class_name=chosen,
        description=description,
        endpoint=chosen,
        inputs=tuple(_input(where, key, entry) for key, entry in inputs.items()),
        outputs=(),
        output_type=output_type,
        output_schema=output_schema,
    )


def _input(where: str, key: Any, entry: Any) -> InputSpec:
    """An InputSpec whose `smolagents_input()` equals `entry`: every key it has no field for is kept in `schema`."""
    if not isinstance(key, str) or not naming.is_parameter(key):
        raise SchemaError(f"{where}.inputs: {key!r} is not a usable Python parameter name")
    types = entry.get("type") if isinstance(entry, dict) else None
    kinds: list[Any] = types if isinstance(types, list) else [types]
    if (
        not kinds
        or any(kind not in SMOLAGENTS_TYPES for kind in kinds)
        or not isinstance(entry.get("description"), str)
    ):
        raise SchemaError(
            f"{where}.inputs[{key!r}] needs a 'type' among {', '.join(SMOLAGENTS_TYPES)} and a 'description' string"
        )
    limits.check_description(entry["description"], f"{where}.inputs[{key!r}].description")
    enum = entry.get("enum")
    own = {*_INPUT_FIELDS, *(("enum",) if isinstance(enum, list) else ())}
    nullable = entry.get("nullable") is True
    mapped = schema.map_type({"type": types, **({"enum": enum} if isinstance(enum, list) else {})})
    annotation = mapped.annotation
    if nullable and annotation not in ("Any", "None"):
        annotation = f"{annotation} | None"
    return InputSpec(
        name=key,
        wire_name=key,
        type=tuple(kinds) if isinstance(types, list) else kinds[0],
        annotation=annotation,
        description=entry["description"],
        required=not nullable,
        default=entry.get("default", NO_DEFAULT),
        enum=tuple(enum) if isinstance(enum, list) else None,
        schema={k: v for k, v in entry.items() if k not in own and not (k == "nullable" and v is True)},
    )


def check_verbatim(code: str, module: ModuleSpec, line_length: int) -> None:
    """`code` is vendorgen's header, then the carried code exactly as black formats it (the gate's check).

    The code is the author's, so it is not held to the template shapes; what is checked is that nothing
    was added or changed, and that its Tool class still carries the attributes the spec (and so the lock)
    describes. The carried code's own `coding:` line sits below the header, where Python ignores it; one
    naming another codec still says the author's bytes meant other text than the review read.
    """
    from vendorgen.sources.toolfile import ToolFile  # libcst: paid by the gate, never by `vendorgen add --help`

    check_as_written(module.carried_code, f"{module.name}: the carried code")
    body = format_source(module.carried_code, line_length)
    header = code[: len(code) - len(body)]
    if not code.endswith(body) or not header.startswith("# Vendored by vendorgen "):
        raise GateError(f"{module.name}: the vendored code is not the original under vendorgen's header")
    if any(line.strip() and not line.startswith("#") for line in header.splitlines()):
        raise GateError(f"{module.name}: the header of a vendored file may only hold comments")
    file = ToolFile(code, module.name)
    for tool in module.tools:
        actual = file.attributes(tool.class_name)
        expected = tool.class_attributes()
        for key in sorted({*actual, *expected}):
            if json.dumps(actual.get(key), sort_keys=True) != json.dumps(expected.get(key), sort_keys=True):
                raise GateError(
                    f"{module.name}: {tool.class_name}.{key} differs from the spec"
                    " (a vendored file is kept verbatim: config overrides cannot rename or redescribe it)"
                )


def unreviewed(
    source: Source, new: ModuleSpec, locked: dict[str, Any], on_disk: str | None, entry: LockEntry, line_length: int
) -> str:
    """Code vendored as it is runs only as the user reviewed it: the file on disk, never the snapshot or the
    lock, which a pull request can change unread."""
    if on_disk is not None and on_disk.endswith(format_source(new.carried_code, line_length)):
        return ""
    if new.carried_code != source.build(locked).carried_code:
        return f"{entry.source} has new code at {new.revision[:12] or 'an unknown revision'}"
    return f"{entry.schema} holds code that is not {entry.path} as you reviewed it"


def _label(repo_id: str) -> str:
    return f"{TOOL_FILE} of {escape_text(repo_id)}"


class HubSource(Source):
    """A smolagents tool.py from a Hub Space, vendored as it is: it carries code the user reviews."""

    kind = "hub"
    target = "hub:<owner/space>[@revision]"
    help_note = TRUST_NOTE
    options = frozenset({"trust", "name", "class_name", "token"})
    help = "hub: VENDORGEN_HUB_TIMEOUT sets the time-out of each request to the Hub (30 s)."
    template = "hub.py.j2"
    # None: the module is the author's code, which the gate checks is unchanged, not against a list.

    # Each hook calls this module's function of the same name (a method's body sees the module's names).
    def inspect(self, target: str, options: AddOptions, context: Inspection) -> list[dict[str, Any]]:
        return inspect(target, options)

    def build(self, snapshot: dict[str, Any]) -> ModuleSpec:
        return build(snapshot)

    def bound_fields(self, target: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        return bound_fields(target, snapshot)

    vendored_as_written = True

    def check_written(self, code: str, module: ModuleSpec, line_length: int) -> bool:
        check_verbatim(code, module, line_length)
        return True

    def review(self, code: str) -> Review:
        from vendorgen.sources.hub_review import review  # libcst: paid by the commands that show a review

        return review(code)

    def unreviewed(self, new: ModuleSpec, locked: dict[str, Any], on_disk: str | None, entry: LockEntry,
                   line_length: int) -> str:  # fmt: skip
        return unreviewed(self, new, locked, on_disk, entry, line_length)
