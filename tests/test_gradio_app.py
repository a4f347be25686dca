"""Smoke tests for examples/gradio_app.py and the two helper servers, through gradio_client.

The example app runs once per module on a free 127.0.0.1 port. Besides calling every endpoint,
these tests check that tests/data/gradio_view_api.json and gradio_info_all.json still match the
live app (regenerate them with tests/data/capture_gradio_view_api.py).
"""

from __future__ import annotations

import os

from tests.servers import OFFLINE_ENV, SERVERS_DIR, free_port, server_process

# Before gradio_client is imported: no telemetry thread, no look-ups at the real Hub.
os.environ.update(OFFLINE_ENV)

import hashlib  # noqa: E402
import json  # noqa: E402
import urllib.request  # noqa: E402
import wave  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from gradio_client import Client, handle_file  # noqa: E402
from gradio_client.exceptions import AppError  # noqa: E402
from PIL import Image  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "examples" / "gradio_app.py"
DATA = ROOT / "tests" / "data"

PUBLIC_ENDPOINTS = [
    "/convert",
    "/describe",
    "/thumbnail",
    "/tone",
    "/file_info",
    "/echo_json",
    "/stats",
    "/optional",
    "/keyword",
    "/nothing",
    "/no_inputs",
]


@contextmanager
def _start(script: Path, temp_dir: Path) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    # The server keeps uploads and outputs in GRADIO_TEMP_DIR (default /tmp/gradio).
    env = {"GRADIO_TEMP_DIR": str(temp_dir)}
    # gradio 6 answers /config once the app is up (about 2.5 s, mostly `import gradio`).
    with server_process([str(script), "--port", str(port)], url + "config", env=env):
        yield url


def _client(url: str, download_dir: Path | None = None) -> Client:
    return Client(
        url,
        verbose=False,
        analytics_enabled=False,  # gradio_client ignores GRADIO_ANALYTICS_ENABLED=False
        download_files=download_dir if download_dir is not None else False,
    )


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with _start(APP, tmp_path_factory.mktemp("gradio_server")) as url:
        yield url


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gradio_downloads")


@pytest.fixture(scope="module")
def client(app_url: str, downloads: Path) -> Client:
    return _client(app_url, downloads)


# --- the API description ---------------------------------------------------------------------


def test_view_api_lists_the_public_endpoints_in_definition_order(client: Client) -> None:
    info = client.view_api(return_format="dict", print_info=False)
    assert list(info["named_endpoints"]) == PUBLIC_ENDPOINTS
    assert info["unnamed_endpoints"] == {}
    # The flag changes only the printed text, never the dict.
    assert client.view_api(return_format="dict", print_info=False, all_endpoints=True) == info


def test_captured_view_api_matches_the_live_app(client: Client) -> None:
    captured = json.loads((DATA / "gradio_view_api.json").read_text())
    live = json.loads(json.dumps(client.view_api(return_format="dict", print_info=False)))
    assert live == captured, "re-run tests/data/capture_gradio_view_api.py"


def test_captured_info_all_matches_the_live_app(app_url: str) -> None:
    captured = json.loads((DATA / "gradio_info_all.json").read_text())
    url = app_url + "gradio_api/info?serialize=False&all_endpoints=True"
    with urllib.request.urlopen(url, timeout=10) as response:
        live = json.load(response)
    for endpoint in live["named_endpoints"].values():
        endpoint.pop("code_snippets", None)
    assert live == captured, "re-run tests/data/capture_gradio_view_api.py"
    assert list(live["named_endpoints"]) == [*PUBLIC_ENDPOINTS, "/reverse"]
    assert live["named_endpoints"]["/reverse"]["api_visibility"] == "undocumented"


def test_parameter_names_defaults_and_descriptions(client: Client) -> None:
    endpoints = client.view_api(return_format="dict", print_info=False)["named_endpoints"]

    def params(api_name: str) -> list[tuple[str, str, bool, object]]:
        return [
            (
                p["parameter_name"],
                p["component"],
                p["parameter_has_default"],
                p["parameter_default"],
            )
            for p in endpoints[api_name]["parameters"]
        ]

    assert params("/convert") == [
        ("value", "Number", True, 1),
        ("from_unit", "Dropdown", True, "m"),
        ("to_unit", "Dropdown", True, "ft"),
    ]
    assert params("/describe") == [
        ("name", "Textbox", False, None),
        ("age", "Number", True, 30),
        ("height", "Slider", True, 1.7),
        ("member", "Checkbox", True, False),
        ("color", "Radio", True, "blue"),
    ]
    assert endpoints["/describe"]["parameters"][1]["type"] == {"type": "integer"}
    # A None default of the *function* argument makes the parameter optional.
    assert params("/optional") == [
        ("name", "Textbox", False, None),
        ("title", "Textbox", True, None),
    ]
    # A Python keyword and a non-identifier, via inputs_kwargs.
    assert params("/keyword") == [
        ("from", "Textbox", False, None),
        ("to", "Textbox", False, None),
        ("max-stops", "Number", True, 1),
    ]
    assert endpoints["/nothing"]["returns"] == []
    assert endpoints["/no_inputs"]["parameters"] == []
    assert [r["component"] for r in endpoints["/stats"]["returns"]] == [
        "Number",
        "Number",
        "Textbox",
    ]
    for api_name, endpoint in endpoints.items():
        description = endpoint["description"]
        assert description and "\n" not in description and "Args:" not in description, api_name


# --- every endpoint --------------------------------------------------------------------------


def test_convert(client: Client) -> None:
    assert client.predict(api_name="/convert") == pytest.approx(3.280839895)  # 1 m in ft
    assert client.predict(100, "cm", "m", api_name="/convert") == 1.0
    assert client.predict(1, "in", "cm", api_name="/convert") == 2.54
    assert client.predict(value=3, from_unit="km", api_name="/convert") == pytest.approx(
        9842.519685039
    )
    with pytest.raises(AppError, match="not in the list of choices"):
        client.predict(1, "m", "yd", api_name="/convert")


def test_describe(client: Client) -> None:
    assert (
        client.predict("Ada", 36, 1.65, True, "red", api_name="/describe")
        == "Ada is 36 years old, 1.65 m tall, a member, and likes red."
    )
    assert (
        client.predict(name="Bob", api_name="/describe")
        == "Bob is 30 years old, 1.70 m tall, not a member, and likes blue."
    )
    # precision=0: the server rounds a float to an int before calling the function.
    assert client.predict("Cy", 36.6, api_name="/describe").startswith("Cy is 37 years old")
    with pytest.raises(TypeError, match="No value provided for required argument: name"):
        client.predict(api_name="/describe")


@pytest.fixture(scope="module")
def picture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inputs") / "gradient.png"
    image = Image.new("RGB", (200, 100))
    image.putdata([(x, y, (x + y) % 256) for y in range(100) for x in range(200)])
    image.save(path)
    return path


def test_thumbnail(client: Client, picture: Path, downloads: Path) -> None:
    result = client.predict(handle_file(str(picture)), 64, api_name="/thumbnail")
    assert isinstance(result, str)
    path = Path(result)
    assert path.is_file() and path.suffix == ".webp" and downloads in path.parents
    with Image.open(path) as thumb:
        assert thumb.format == "WEBP"
        assert thumb.size == (64, 32)
    # Default size 64, and the same bytes again: the output is deterministic.
    again = Path(client.predict(handle_file(str(picture)), api_name="/thumbnail"))
    assert again.read_bytes() == path.read_bytes()


def test_thumbnail_needs_handle_file(client: Client, picture: Path) -> None:
    # gradio_client 2 sends a bare path string as a string; the server rejects it.
    with pytest.raises(AppError, match="ImageData"):
        client.predict(str(picture), 64, api_name="/thumbnail")


def test_tone(client: Client, downloads: Path) -> None:
    result = client.predict(440, 0.25, api_name="/tone")
    assert isinstance(result, str)
    path = Path(result)
    assert path.is_file() and path.suffix == ".wav" and downloads in path.parents
    with wave.open(str(path)) as audio:
        assert audio.getframerate() == 16000
        assert audio.getnchannels() == 1
        assert audio.getsampwidth() == 2
        assert audio.getnframes() == 4000
    assert Path(client.predict(440, 0.25, api_name="/tone")).read_bytes() == path.read_bytes()
    with pytest.raises(AppError, match=r"seconds must be in"):
        client.predict(440, 60, api_name="/tone")


def test_file_info(client: Client, tmp_path: Path) -> None:
    content = b"hello world\n" * 100
    path = tmp_path / "sample.txt"
    path.write_bytes(content)
    assert client.predict(handle_file(str(path)), api_name="/file_info") == {
        "name": "sample.txt",
        "size": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
    }


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True], "b": {"c": "é"}},
        [1, "two", {"three": 3}],
        "a bare string",
        '{"not": "parsed"}',
        42,
        False,
        None,
    ],
    ids=["object", "array", "string", "json-text", "number", "bool", "null"],
)
def test_echo_json(client: Client, value: object) -> None:
    assert client.predict(value, api_name="/echo_json") == value


def test_stats_returns_a_tuple(client: Client) -> None:
    assert client.predict("hello big  world", api_name="/stats") == (3, 16, "HELLO BIG  WORLD")
    assert client.predict("", api_name="/stats") == (0, 0, "")


def test_optional(client: Client) -> None:
    assert client.predict("Ada", api_name="/optional") == "Hello, Ada!"
    assert client.predict("Ada", "Dr", api_name="/optional") == "Hello, Dr Ada!"
    assert client.predict(name="Ada", title=None, api_name="/optional") == "Hello, Ada!"


def test_keyword(client: Client) -> None:
    kwargs = {"from": "Paris", "to": "Rome"}
    assert (
        client.predict(**kwargs, api_name="/keyword")
        == "From Paris to Rome with at most 1 stop(s)."
    )
    assert (
        client.predict("Paris", "Rome", **{"max-stops": 3}, api_name="/keyword")
        == "From Paris to Rome with at most 3 stop(s)."
    )


def test_nothing_returns_an_empty_tuple(client: Client) -> None:
    assert client.predict("a note", api_name="/nothing") == ()


def test_no_inputs(client: Client) -> None:
    assert client.predict(api_name="/no_inputs") == "mm, cm, m, km, in, ft"


def test_undocumented_endpoint_is_callable(client: Client) -> None:
    assert client.predict("abc", api_name="/reverse") == "cba"


# --- the helper servers for error paths ------------------------------------------------------


def test_unnamed_app_has_no_endpoints(tmp_path: Path) -> None:
    with _start(SERVERS_DIR / "gradio_unnamed.py", tmp_path) as url:
        client = _client(url)
        empty = {"named_endpoints": {}, "unnamed_endpoints": {}}
        assert client.view_api(return_format="dict", print_info=False) == empty
        assert client.view_api(return_format="dict", print_info=False, all_endpoints=True) == empty
        with pytest.raises(ValueError, match="Invalid function index"):
            client.predict("hi", fn_index=0)


def test_not_gradio_server_answers_html() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with server_process([str(SERVERS_DIR / "not_gradio.py"), "--port", str(port)], url):
        for path in ("", "config", "gradio_api/info", "info"):
            with urllib.request.urlopen(url + path, timeout=5) as response:
                assert response.status == 200
                assert response.headers.get_content_type() == "text/html"
                assert response.read().startswith(b"<!DOCTYPE html>")
        # json.JSONDecodeError is a ValueError.
        with pytest.raises(ValueError):
            _client(url)
