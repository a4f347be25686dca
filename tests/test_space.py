"""`vendorgen add space:` against the real example Gradio app: vendor, import, instantiate, call."""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import subprocess
import sys
import tomllib
import typing
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import REPO, Project
from vendorgen.package import files
from vendorgen.project.config import GENERATOR


def lock_runtime(project: Project) -> list[dict[str, str]]:
    return tomllib.loads((project.root / "vendorgen.lock").read_text()).get("runtime", [])

ENDPOINTS = ["convert", "describe", "echo_json", "file_info", "keyword", "no_inputs", "nothing", "optional", "stats",
             "thumbnail", "tone"]  # fmt: skip


@pytest.fixture(scope="module")
def vendored(gradio_app: str, tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("space") / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    project = Project(root)
    result = project.run("add", f"space:{gradio_app}", "--all-endpoints")
    assert result.exit_code == 0, result.stderr
    return project


def tool(project: Project, name: str, **kwargs):
    module = project.import_module(f"tools/{name}.py")
    classes = [value for key, value in vars(module).items() if key.endswith("Tool") and getattr(value, "__module__", "") == module.__name__]
    assert len(classes) == 1
    return classes[0](**kwargs)


def test_one_module_per_endpoint_with_lock_and_snapshots(vendored: Project, gradio_app: str) -> None:
    stems = sorted(path.stem for path in (vendored.root / "tools").glob("*.py"))
    assert stems == ["_vendored_gradio", "_vendored_runtime", *ENDPOINTS]  # the core and the Gradio part, no other
    assert lock_runtime(vendored) == [
        {"path": f"tools/{name}", "sha256": files.sha256(name), "generator": GENERATOR}
        for name in ("_vendored_gradio.py", "_vendored_runtime.py")
    ]
    lock = tomllib.loads((vendored.root / "vendorgen.lock").read_text())
    assert lock["version"] == 1
    entries = {entry["name"]: entry for entry in lock["module"]}
    assert sorted(entries) == ENDPOINTS
    entry = entries["convert"]
    assert entry["source"] == f"space:{gradio_app}"
    assert entry["endpoints"] == ["/convert"] and entry["tools"] == ["convert"]
    assert entry["path"] == "tools/convert.py"
    snapshot = json.loads((vendored.root / entry["schema"]).read_text())
    assert snapshot["api_name"] == "/convert" and snapshot["endpoint"]["parameters"]
    listed = json.loads(vendored.run("list", "--json").stdout)["modules"]
    assert {row["name"]: row["status"] for row in listed} == dict.fromkeys(ENDPOINTS, "clean")


def test_lock_never_holds_a_token(gradio_app: str, project: Project) -> None:
    result = project.run("add", f"space:{gradio_app}", "--api-name", "/convert", env={"HF_TOKEN": "hf_secret_value"})
    assert result.exit_code == 0, result.stderr
    for content in project.snapshot().values():
        assert b"hf_secret_value" not in content


@pytest.mark.parametrize("name", ENDPOINTS)
def test_every_tool_passes_smolagents_validation(vendored: Project, name: str) -> None:
    instance = tool(vendored, name)  # Tool.__init__ runs validate_arguments
    hints = typing.get_type_hints(instance.forward)
    for parameter in inspect.signature(instance.forward).parameters.values():
        optional_hint = type(None) in typing.get_args(hints[parameter.name])
        has_default = parameter.default is not inspect.Parameter.empty
        assert ("nullable" in instance.inputs[parameter.name]) == (has_default or optional_hint), parameter.name
    assert instance.client is None  # constructing did not connect


def test_validate_tool_attributes_where_smolagents_allows_it(vendored: Project) -> None:
    """smolagents' push-readiness check: passes but for its known limit, asserted, not hidden.

    Return annotations need AgentImage/AgentAudio at module level, and its checker wants every name a
    method uses imported inside that method. (It would call a plain `inputs = {...}` holding an `enum`
    list "complex", smolagents PR #2527; the annotated assignment is not held to that.)
    """
    from smolagents.tool_validation import validate_tool_attributes

    for name in ["convert", "describe", "echo_json", "file_info", "keyword", "no_inputs", "nothing", "optional",
                 "stats"]:  # fmt: skip
        validate_tool_attributes(type(tool(vendored, name)))
    for name, reason in [("thumbnail", "Name 'AgentImage' is undefined"), ("tone", "Name 'AgentAudio' is undefined")]:
        with pytest.raises(ValueError, match=reason):
            validate_tool_attributes(type(tool(vendored, name)))


def test_keeps_what_from_space_loses(vendored: Project) -> None:
    convert = tool(vendored, "convert")
    assert convert.description.startswith("Convert")  # the endpoint's docstring
    units = ["mm", "cm", "m", "km", "in", "ft"]
    assert convert.inputs["from_unit"]["enum"] == units
    assert convert.inputs["from_unit"]["default"] == "m"
    assert typing.get_args(typing.get_type_hints(convert.forward)["from_unit"]) == tuple(units)
    describe = tool(vendored, "describe")
    assert describe.inputs["height"]["description"] == "Height: numeric value between 0.5 and 2.5"
    assert describe.inputs["age"] == {"type": "integer", "description": "Age", "default": 30, "nullable": True}


def test_scalar_endpoints_return_the_apps_results(vendored: Project) -> None:
    assert tool(vendored, "convert")(value=2, from_unit="km", to_unit="m") == pytest.approx(2000)
    assert tool(vendored, "convert")(value=1) == pytest.approx(3.280839895)  # defaults m -> ft
    sentence = tool(vendored, "describe")(name="Ada", age=36, member=True, color="red")
    assert "Ada" in sentence and "36" in sentence
    assert tool(vendored, "echo_json")(data={"a": [1, None, "x"]}) == {"a": [1, None, "x"]}
    assert tool(vendored, "optional")(name="Ada") == "Hello, Ada!"
    assert "Dr" in tool(vendored, "optional")(name="Ada", title="Dr")
    assert tool(vendored, "no_inputs")()


def test_a_url_in_a_text_parameter_is_sent_as_text(vendored: Project) -> None:
    """from_space uploads any http(s)-looking string; only file parameters go through handle_file here."""
    url = "http://127.0.0.1:9/not-a-file.png"
    assert url in tool(vendored, "describe")(name=url)


def test_wire_names_are_used_for_keyword_parameters(vendored: Project) -> None:
    keyword = tool(vendored, "keyword")
    assert set(keyword.inputs) == {"from_", "to", "max_stops"}
    assert keyword(from_="Paris", to="Rome", max_stops=2) == "From Paris to Rome with at most 2 stop(s)."


def test_several_outputs_come_back_as_a_documented_tuple(vendored: Project) -> None:
    stats = tool(vendored, "stats")
    assert stats(text="hello big world") == (3, 15, "HELLO BIG WORLD")
    assert "Returns a tuple of 3 values, in this order:" in type(stats).__doc__
    assert stats.output_type == "array"


def test_zero_outputs_return_none(vendored: Project) -> None:
    nothing = tool(vendored, "nothing")
    assert nothing.output_type == "null"
    assert nothing(note="x") is None


def test_image_input_accepts_pil_and_path_and_returns_agent_image(
    vendored: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from smolagents.agent_types import AgentImage

    monkeypatch.chdir(tmp_path)  # a file argument is read from the working directory (or the project)

    thumbnail = tool(vendored, "thumbnail")
    picture = Image.new("RGB", (100, 50), "red")
    result = thumbnail(image=picture, size=32)
    assert isinstance(result, AgentImage)
    assert max(result.to_raw().size) == 32
    path = tmp_path / "picture.png"
    picture.save(path)
    assert max(thumbnail(image=str(path), size=16).to_raw().size) == 16


def test_image_input_sends_a_url_as_a_file(vendored: Project) -> None:
    """An http(s) URL goes through handle_file, so the app downloads it itself. Gradio's SSRF guard
    refuses loopback hosts, and no other host is reachable here: its refusal proves the URL arrived
    as a file to fetch, not as text."""
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="Hostname 127.0.0.1 failed validation"):
        tool(vendored, "thumbnail")(image="http://127.0.0.1:9/picture.png", size=16)


def test_file_input_uploads_a_local_file(vendored: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data.bin"
    path.write_bytes(b"vendorgen")
    info = tool(vendored, "file_info")(path=str(path))
    assert info["size"] == 9 and info["name"] == "data.bin"


# AgentAudio needs smolagents[audio]. PyPI's torch is a multi-GB CUDA build, so `make test` does
# not install it; where it is installed these tests run, elsewhere they are skipped saying why.
HAS_AUDIO_EXTRA = all(importlib.util.find_spec(name) for name in ("torch", "soundfile"))


@pytest.mark.skipif(
    not HAS_AUDIO_EXTRA,
    reason="smolagents[audio] (torch, soundfile) is not installed: PyPI's torch is a multi-GB CUDA build",
)
def test_audio_output_is_agent_audio(vendored: Project) -> None:
    from smolagents.agent_types import AgentAudio

    result = tool(vendored, "tone")(frequency=440, seconds=0.1)
    assert isinstance(result, AgentAudio)
    assert result.to_string().endswith(".wav") and Path(result.to_string()).is_file()


def test_audio_output_without_the_audio_extra_is_the_file_path(vendored: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without torch AgentAudio refuses to exist; the vendored tool returns the file's path instead."""
    monkeypatch.setitem(sys.modules, "torch", None)  # what smolagents' find_spec check then sees
    result = tool(vendored, "tone")(frequency=440, seconds=0.1)
    assert isinstance(result, str) and result.endswith(".wav") and Path(result).is_file()


def test_construction_does_no_network_io(vendored: Project) -> None:
    """A tool pointed at a closed port constructs fine; only the first call fails."""
    convert = tool(vendored, "convert")
    convert.src = "http://127.0.0.1:9/"
    assert convert.client is None
    with pytest.raises(ConnectionError, match=r"^cannot reach the Gradio app http://127.0.0.1:9/: ConnectError"):
        convert(value=1)


def test_only_file_parameters_upload_files(
    vendored: Project, gradio_app: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FileData-shaped dict in a JSON parameter is sent as data: a prompt-injected model cannot upload a local file."""
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    monkeypatch.chdir(tmp_path)

    secret = tmp_path / "id_rsa"
    secret.write_text("PRIVATE KEY")
    value = {"note": [{"path": str(secret), "meta": {"_type": "gradio.FileData"}}]}
    # The app got the dict as it is, a path on the client's disk that was never uploaded, and says so.
    with pytest.raises(AppError, match="id_rsa .*because it was not uploaded by a user"):
        tool(vendored, "echo_json")(data=value)
    # What the guard prevents: gradio_client on its own uploads it and sends the server's copy.
    # (It comes back as the path of the copy gradio_client downloaded from the app.)
    [uploaded] = Client(gradio_app, verbose=False).predict(data=value, api_name="/echo_json")["note"]
    assert uploaded != str(secret) and Path(uploaded).read_text() == "PRIVATE KEY"
    # A declared file parameter still uploads.
    assert tool(vendored, "file_info")(path=str(secret))["size"] == len("PRIVATE KEY")


def test_a_hub_token_goes_only_where_the_user_sends_it(vendored: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """HF_TOKEN is for the Hub and its Spaces; an explicit token= goes wherever the user points the tool."""
    monkeypatch.setenv("HF_TOKEN", "hf_from_env")
    explicit = tool(vendored, "convert", token="hf_explicit")
    explicit.setup()
    assert explicit.client.headers.get("x-hf-authorization") == "Bearer hf_explicit"
    implicit = tool(vendored, "convert")  # the app is on 127.0.0.1: not a Hub host
    implicit.setup()
    assert "hf_from_env" not in json.dumps(dict(implicit.client.headers))
    assert implicit(value=1, from_unit="km", to_unit="m") == 1000.0
    module = vendored.import_module("tools/_vendored_gradio.py")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    hub_url = "http://127.0.0.1:9/spaces/owner/space"
    assert module._space_address(hub_url, None) == (hub_url, None)  # the Hub, as HF_ENDPOINT says
    for url in ("https://127.0.0.1:9/spaces/owner/space",  # another origin
                "https://owner-space.hf.space/",  # an app URL names no Space, as for `vendorgen add`
                "http://owner-space.hf.space/",  # the token in clear text
                "http://127.0.0.1:7860/",  # no token at all, not even a saved one
                "https://evil.example/hf.space"):  # fmt: skip
        assert module._space_address(url, None) == (url, False)
    assert module._space_address("https://evil.example/", "hf_explicit") == ("https://evil.example/", "hf_explicit")



def test_without_hf_endpoint_the_runtime_takes_huggingface_hubs_default_hub(
    vendored: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "HF_ENDPOINT"}
    printed = subprocess.run(
        [sys.executable, "-c", "from huggingface_hub import constants; print(constants.ENDPOINT)"],
        env=environment, capture_output=True, text=True, check=True,
    )  # fmt: skip
    default_hub = printed.stdout.strip()
    monkeypatch.delenv("HF_ENDPOINT")
    module = vendored.import_module("tools/_vendored_gradio.py")
    assert module._space_address(f"{default_hub}/spaces/owner/space", None)[1] is None
    assert module._space_address("http://127.0.0.1:9/spaces/owner/space", None)[1] is False

def test_a_code_agent_calls_a_vendored_tool(vendored: Project) -> None:
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, Model

    class ScriptedModel(Model):
        """Answers every step with the same code: call the tool, give its result."""

        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = 'metres = convert(value=2, from_unit="km", to_unit="m")\nfinal_answer(metres)'
            return ChatMessage(role="assistant", content=f"Thought: convert it.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=[tool(vendored, "convert")], model=ScriptedModel(), max_steps=2)
    assert agent.run("How many metres are 2 km?") == pytest.approx(2000)


def test_same_schema_gives_the_same_bytes_across_processes(gradio_app: str, tmp_path: Path) -> None:
    outputs = []
    for seed in ("1", "4242"):
        root = tmp_path / f"seed{seed}"
        root.mkdir()
        (root / "pyproject.toml").write_text('[project]\nname = "demo"\n')
        project = Project(root)
        result = project.run("add", f"space:{gradio_app}", "--all-endpoints", env={"PYTHONHASHSEED": seed})
        assert result.exit_code == 0, result.stderr
        outputs.append(project.snapshot())
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("command", [["--help"], ["add", "--help"]])
def test_help_does_not_import_heavy_libraries(command: list[str]) -> None:
    """`add --help` lists the kinds, so it imports their modules; their client libraries and libcst stay lazy."""
    script = (
        "import sys\n"
        "from vendorgen.cli import main\n"
        f"try:\n    main({command!r})\nexcept SystemExit:\n    pass\n"
        "heavy = ['gradio_client', 'mcp', 'mcpadapt', 'langchain_core', 'smolagents', 'black', 'libcst', 'jinja2']\n"
        "if sys.argv[1:] == ['--help']:\n"
        "    heavy += ['vendorgen.sources.space', 'vendorgen.sources.mcp', 'vendorgen.sources.hub']  # no kind looked up\n"
        "print('heavy=' + ','.join(name for name in heavy if name in sys.modules))\n"
    )
    completed = subprocess.run([sys.executable, "-c", script, *command], capture_output=True, text=True, cwd=REPO,
                               check=True)  # fmt: skip
    assert completed.stdout.strip().splitlines()[-1] == "heavy="


@pytest.mark.parametrize("command", [[], ["add"], ["list"]])
def test_every_command_help_has_an_example(command: list[str]) -> None:
    completed = subprocess.run([sys.executable, "-m", "vendorgen", *command, "--help"], capture_output=True, text=True,
                               cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    assert completed.returncode == 0
    assert "Example" in completed.stdout
