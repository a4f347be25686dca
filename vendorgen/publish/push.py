"""`vendorgen push`: a vendored tool as a Hub tool Space that `Tool.from_hub(..., trust_remote_code=True)` loads.

The Space folder is built from the lock, not from the files on disk: the module
is regenerated from its committed snapshot, so what is published is what the
lock describes.

- `tool.py`: the vendored module reduced to the one pushed tool, rendered by
  its own kind's template and passed through the gate, with what it uses of
  the run-time files inlined (`vendorgen.package.inline`). smolagents' `from_code`
  runs the file and instantiates the first `Tool` subclass in alphabetical
  order with no arguments, so the file holds exactly one. A module of a kind
  that vendors its author's code as written (`Source.vendored_as_written`) is
  that file, as vendored.
- `app.py`: a Gradio demo for every input and output type (JSON text for
  array, object and any), from `templates/push/app.py.j2`.
- `requirements.txt`: what tool.py imports (and what its source declares),
  as distribution names pinned to the versions installed for the project's interpreter.
- `README.md`: the Space card (sdk, app_file, tags smolagents and tool) and the
  provenance.

The upload is one `create_repo(..., exist_ok=True)` and one `create_commit`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from vendorgen import __version__
from vendorgen.errors import UsageError
from vendorgen.generate import pipeline
from vendorgen.generate.render import render_file
from vendorgen.model import NO_DEFAULT, InputSpec, ModuleSpec, ToolSpec
from vendorgen.package.inline import inline
from vendorgen.project import interpreter as project_python
from vendorgen.project.hashing import sha256_text
from vendorgen.project.interpreter import Interpreter
from vendorgen.project.lockfile import LockEntry
from vendorgen.project.workspace import Workspace
from vendorgen.sources.hub_client import REPO_ID, bound_hub_requests, hub_errors, within_deadline
from vendorgen.sources.toolfile import ToolFile
from vendorgen.text.formatter import format_source
from vendorgen.text.pysource import imported_packages, python_text

# The Space SDK installs gradio itself, at the README's `sdk_version` (the version installed here).
_SDK_PROVIDED = "gradio"
# The demo function forwards its arguments through this module-level helper (see app.py.j2).
_DEMO_HELPER = "_call"
# What app.py shows for each smolagents type; any other type (any, a union) is JSON text.
_INPUT_WIDGETS = {"string": "text", "integer": "integer", "number": "number", "boolean": "checkbox", "image": "image",
                  "audio": "audio", "array": "array", "object": "object"}  # fmt: skip
_OUTPUT_WIDGETS = {"string": "text", "integer": "number", "number": "number", "boolean": "checkbox", "image": "image",
                   "audio": "audio", "null": "none"}  # fmt: skip
# Widgets that take JSON text: "json" is for `any` and unions, where text that is not JSON is a string.
_JSON_WIDGETS = ("array", "object", "json")


@dataclass(frozen=True)
class DemoInput:
    """How app.py shows one input of the tool and turns the widget's value into the argument."""

    spec: InputSpec
    widget: str  # text, choice, integer, number, checkbox, image, audio, or array/object/json (JSON text)
    value: Any  # the widget's initial value (JSON text for the JSON widgets)

    @property
    def label(self) -> str:
        notes = {"array": ["JSON array"], "object": ["JSON object"], "json": ["JSON"]}.get(self.widget, [])
        if not self.spec.nullable:
            notes.append("required")
        return f"{self.spec.name} ({', '.join(notes)})" if notes else self.spec.name

    @property
    def annotation(self) -> str:
        """What the Gradio component passes to the demo function."""
        return {"integer": "float | None", "number": "float | None", "checkbox": "bool", "image": "Any"}.get(
            self.widget, "str | None"
        )


@dataclass(frozen=True)
class SpaceFolder:
    module: ModuleSpec  # the one-tool module tool.py holds
    files: dict[str, str]  # file name -> text, in name order
    notes: tuple[str, ...]  # things the user should know (printed on stderr)
    edited: bool = False  # the module's file has local edits the Space would not get

    @property
    def tool(self) -> ToolSpec:
        return self.module.tools[0]


def build_folder(workspace: Workspace, reference: str, repo_id: str, tool_name: str | None = None) -> SpaceFolder:
    """The Space folder for the vendored module `reference` (name or path), offline."""
    if not REPO_ID.fullmatch(repo_id):
        raise UsageError(f"{repo_id!r} is not owner/space")
    entry = find_entry(workspace, reference)
    generated = pipeline.generate(workspace.read_snapshot(entry), workspace)
    module = replace(generated.module, tools=(_chosen_tool(generated.module, tool_name),))
    # A module carrying its author's code is that file, as vendored; any other is re-rendered with the
    # one tool, and what it uses of the runtime module is inlined: from_hub loads tool.py alone.
    tool_py = (
        generated.code
        if generated.source.vendored_as_written
        else format_source(
            inline(pipeline.module_code(generated.source, module, generated.schema_sha256, workspace)),
            workspace.config.line_length,
        )
    )
    _check_from_code_picks(tool_py, module)
    templates = workspace.templates_dir()
    interpreter = project_python.find(workspace.root)
    sdk = project_python.import_distributions(interpreter, [_SDK_PROVIDED])[_SDK_PROVIDED]["versions"]
    readme = render_file(
        "push/README.md.j2",
        templates,
        module=module,
        repo_id=repo_id,
        schema_sha256=generated.schema_sha256,
        gradio_version=sdk.get(_SDK_PROVIDED),
        vendorgen_version=__version__,
        secrets=generated.source.secrets(generated.snapshot),
    )
    app_py = render_file("push/app.py.j2", templates, **_app_context(module.tools[0]))
    pins = render_file("push/requirements.txt.j2", templates, requirements=requirements(tool_py, module.requirements, interpreter))
    files = {
        "README.md": readme,
        "app.py": format_source(app_py, workspace.config.line_length),
        "requirements.txt": pins,
        "tool.py": tool_py,
    }
    edits = local_edits(workspace, entry, repo_id)
    return SpaceFolder(module, files, (edits,) if edits else (), bool(edits))


def write_folder(folder: SpaceFolder, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in folder.files.items():
        path = out / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


def upload(folder: SpaceFolder, repo_id: str, *, token: str | None, private: bool, sdk: str) -> tuple[str, str]:
    """Create the Space if needed and commit the folder in one commit; returns (Space URL, commit sha)."""
    from huggingface_hub import CommitOperationAdd, HfApi, get_token

    token = token or None  # an empty HF_TOKEN is no token
    if token is None and get_token() is None:
        raise UsageError(
            "push needs a Hugging Face token with write access: pass --token, set HF_TOKEN or run `hf auth login`"
        )
    api = HfApi(token=token)
    operations = [CommitOperationAdd(name, text.encode("utf-8")) for name, text in folder.files.items()]
    bound_hub_requests()
    where = f"the Hub at {api.endpoint} for Space {repo_id}"
    with hub_errors(f"Space {repo_id}"):
        url = within_deadline(
            lambda: api.create_repo(repo_id, repo_type="space", space_sdk=sdk, private=private, exist_ok=True), where
        )
        commit = within_deadline(
            lambda: api.create_commit(
                repo_id,
                operations,
                commit_message=f"Tool {folder.tool.name} from {folder.module.source} (vendorgen {__version__})",
                repo_type="space",
            ),
            where,
        )
    return str(url), commit.oid


def find_entry(workspace: Workspace, reference: str) -> LockEntry:
    """The lock entry named `reference`, or whose file `reference` is (a path from here or from the root)."""
    entries = workspace.read_lock()
    for entry in entries:
        if reference == entry.name:
            return entry
    wanted = {(Path.cwd() / reference).resolve(), (workspace.root / reference).resolve()}
    for entry in entries:
        if (workspace.root / entry.path).resolve() in wanted:
            return entry
    available = ", ".join(entry.name for entry in entries) or "nothing is vendored here"
    raise UsageError(f"no vendored module {reference!r} (vendored: {available})")


def requirements(tool_py: str, declared: Iterable[str], interpreter: Interpreter | None = None) -> list[str]:
    """Pinned distributions for what `tool_py` imports and what its source `declared`, sorted.

    Import names become distribution names (PIL -> pillow) through the metadata of the packages
    installed for the project's `interpreter` (default: this one), where the tool runs: vendorgen may be
    a tool in an environment of its own. A name installed nowhere there cannot be pinned: that is an
    error naming it, not a guess.
    """
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    pinned: dict[str, str] = {}
    missing: list[str] = []
    names = [name for name in imported_packages(tool_py) if name not in sys.stdlib_module_names]
    for line in declared:
        try:
            names.append(Requirement(line).name)
        except InvalidRequirement:
            pinned[line] = line  # a URL or an option line: already exact, kept as it is
    names = [name for name in dict.fromkeys(names) if name != _SDK_PROVIDED]
    found = project_python.import_distributions(interpreter or project_python.own(), names)
    for name in names:
        for distribution, version in found[name]["versions"].items():
            if version is None:
                missing.append(name)
            else:
                pinned[canonicalize_name(distribution)] = f"{canonicalize_name(distribution)}=={version}"
    if missing:
        raise UsageError(_unpinnable(sorted(set(missing)), found, interpreter or project_python.own()))
    return [pinned[key] for key in sorted(pinned)]


def _unpinnable(names: list[str], found: dict[str, dict[str, Any]], interpreter: Interpreter) -> str:
    """Why `names` cannot go into requirements.txt: local code (no distribution), or not installed at all."""
    local = [name for name in names if found[name]["importable"]]
    if local:
        return (
            f"tool.py imports {', '.join(local)}, which is code of this project rather than an installed distribution;"
            " the Space gets tool.py alone, so it could not import it (make it an installable package first)"
        )
    return (
        f"cannot pin {', '.join(names)}: not installed for {interpreter.executable} ({interpreter.found_by}), so its"
        " version is unknown; install it there (or name the project's interpreter with --python), then push again"
    )


def _chosen_tool(module: ModuleSpec, tool_name: str | None) -> ToolSpec:
    names = [tool.name for tool in module.tools]
    if tool_name is None:
        if len(module.tools) > 1:
            raise UsageError(
                f"{module.name} has {len(names)} tools ({', '.join(names)}); a tool Space holds one: pick it with --tool"
            )
        return module.tools[0]
    for tool in module.tools:
        if tool_name in (tool.name, tool.class_name):
            return tool
    raise UsageError(f"{module.name} has no tool {tool_name!r} (its tools: {', '.join(names)})")


def _check_from_code_picks(tool_py: str, module: ModuleSpec) -> None:
    """from_code instantiates the first Tool subclass in name order: it must be the pushed one.

    A hub tool.py may define several (the user chose one with --class).
    """
    chosen = module.tools[0].class_name
    first = min(ToolFile(tool_py, module.name).namespace_tool_classes)
    if first != chosen:
        raise UsageError(
            f"{module.name} is {chosen} from a tool.py that also defines {first}; Tool.from_hub would load"
            f" {first}, so this file cannot be pushed as the {chosen} tool"
        )


def _app_context(tool: ToolSpec) -> dict[str, Any]:
    if any(spec.name == _DEMO_HELPER for spec in tool.inputs):
        raise UsageError(f"{tool.name} has an input named {_DEMO_HELPER}, which app.py needs for itself")
    return {
        "tool": tool,
        "inputs": [_demo_input(spec) for spec in tool.inputs],
        "output": _OUTPUT_WIDGETS.get(tool.output_type, "json"),
        "helper": _DEMO_HELPER,
        "vendorgen_version": __version__,
    }


def _demo_input(spec: InputSpec) -> DemoInput:
    kind = spec.type if isinstance(spec.type, str) else "any"  # a union of types is typed as JSON
    default = None if spec.default is NO_DEFAULT else spec.default
    if spec.enum and all(isinstance(value, (str, int, float)) for value in spec.enum):
        return DemoInput(spec, "choice", default)
    widget = _INPUT_WIDGETS.get(kind, "json")
    if widget in _JSON_WIDGETS:  # a blank field, not "null", when there is no default
        return DemoInput(spec, widget, None if default is None else json.dumps(default))
    if widget == "checkbox":
        return DemoInput(spec, widget, bool(default))
    return DemoInput(spec, widget, default)


def local_edits(workspace: Workspace, entry: LockEntry, repo_id: str) -> str:
    """What to say when the module's file is not what vendorgen wrote: tool.py is regenerated from the lock, so
    the Space would not get the edits the user reviewed; how to publish them instead. "" for an unedited file."""
    path = workspace.root / entry.path
    if not path.is_file() or sha256_text(python_text(path.read_bytes(), entry.path)) == entry.sha256:
        return ""
    return (
        f"{entry.path} has local edits, which the Space would not get: its tool.py is regenerated from the lock"
        f" (`vendorgen diff --offline {entry.name}` shows them). To publish them, write the folder"
        f" (`vendorgen push {entry.name} {repo_id} --dry-run --out DIR`), make the same edits in DIR/tool.py and"
        f" upload it (`hf upload {repo_id} DIR . --repo-type space`)"
    )
