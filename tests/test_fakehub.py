"""Fidelity tests for tests/servers/fakehub.py, through the real huggingface_hub and smolagents clients.

huggingface_hub reads HF_ENDPOINT once, at import, into `constants.ENDPOINT`; the module-level helpers
(`get_collection`, `create_repo`, ...) are bound to an `HfApi()` made at that moment. So in this process
we pass `endpoint=` explicitly, and smolagents (which only uses the module-level helpers) runs in a
subprocess with HF_ENDPOINT set.

Client quirks these tests pin down (huggingface_hub 2.4):
- Error classes come from the X-Error-Code header (RepoNotFound, RevisionNotFound, EntryNotFound,
  GatedRepo). A bare 401 only becomes RepositoryNotFoundError on https:// URLs (REPO_API_REGEX), so on
  http://127.0.0.1 the header is what counts. A 401 whose X-Error-Message is "Invalid credentials in
  Authorization header" (a bad token) stays a plain HfHubHTTPError.
- Retries: API calls (space_info, get_collection, create_repo, create_commit's POST /commit) are not
  retried. `http_backoff` (preupload, tree listing, upload_folder's commit) retries 408/429/5xx up to 5
  times, sleeping 1+2+4+8+8 s. hf_hub_download's HEAD is tried once without retry; on a 5xx it falls
  back to the cache, and only if nothing is cached tries again *with* backoff. So a 5xx fault on
  /resolve/ with times=1 costs no sleep, while a persistent one costs 23 s: the fast tests below inject
  5xx only where no retry or no sleep happens.
- create_repo(exist_ok=True) reads "url" from the 409 body.
"""

from __future__ import annotations

import os

from tests.servers import OFFLINE_ENV, free_port, server_process

# Before huggingface_hub is imported: no telemetry, no agent-harness look-up at the real Hub.
os.environ.update(OFFLINE_ENV)

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import urllib.request  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from huggingface_hub import (  # noqa: E402
    CommitOperationAdd,
    CommitOperationDelete,
    HfApi,
    constants,
    hf_hub_download,
    snapshot_download,
)
from huggingface_hub.errors import (  # noqa: E402
    GatedRepoError,
    HfHubHTTPError,
    RemoteEntryNotFoundError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)

from tests.servers.fakehub import FakeHub, git_blob_sha  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "hf_test"
SPACE = "tester/echo"


@pytest.fixture(autouse=True)
def _online_without_telemetry(monkeypatch: pytest.MonkeyPatch) -> None:
    # huggingface_hub may have been imported (by gradio_client) before OFFLINE_ENV was set, and another
    # module may ask for HF_HUB_OFFLINE=1: both are read at import, so set the module constants too.
    monkeypatch.setattr(constants, "HF_HUB_DISABLE_TELEMETRY", True)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


@pytest.fixture
def hub() -> Iterator[FakeHub]:
    with FakeHub() as hub:
        yield hub
    assert hub.errors == []


@pytest.fixture
def api(hub: FakeHub) -> HfApi:
    return HfApi(endpoint=hub.endpoint, token=TOKEN)


def download(hub: FakeHub, cache: Path, filename: str = "tool.py", repo_id: str = SPACE, **kwargs) -> Path:
    kwargs = {"repo_type": "space", "token": TOKEN, **kwargs}
    return Path(hf_hub_download(repo_id, filename, endpoint=hub.endpoint, cache_dir=cache, **kwargs))


# --------------------------------------------------------------------------- downloads


def test_download_follows_main_and_pins_a_sha(hub: FakeHub, tmp_path: Path) -> None:
    first = hub.add_space(SPACE, {"tool.py": b"v1"})
    assert download(hub, tmp_path).read_bytes() == b"v1"
    assert hub.requests[-2:] == [
        ("HEAD", f"/spaces/{SPACE}/resolve/main/tool.py"),
        ("GET", f"/spaces/{SPACE}/resolve/main/tool.py"),
    ]

    second = hub.add_space(SPACE, {"tool.py": b"v2"})
    assert second != first and hub.commit_sha(SPACE) == second
    latest = download(hub, tmp_path)
    assert latest.read_bytes() == b"v2"
    # The cache layout proves the headers: snapshots/<X-Repo-Commit>/..., blobs/<ETag>.
    assert latest.parent.name == second
    assert latest.resolve().name == git_blob_sha(b"v2")

    pinned = download(hub, tmp_path, revision=first)
    assert pinned.read_bytes() == b"v1" and pinned.parent.name == first
    # A cached file at a full sha is served without asking the Hub again.
    before = len(hub.requests)
    assert download(hub, tmp_path, revision=first).read_bytes() == b"v1"
    assert len(hub.requests) == before


def test_models_datasets_branches_and_snapshots(hub: FakeHub, tmp_path: Path) -> None:
    sha = hub.add_repo("tester/tiny", {"config.json": b"{}"})
    path = hf_hub_download("tester/tiny", "config.json", endpoint=hub.endpoint, cache_dir=tmp_path, token=False)
    assert path.endswith(f"{sha}/config.json")
    hub.add_repo("tester/rows", {"data/ü.csv": b"a,b\n"}, repo_type="dataset")
    path = hf_hub_download("tester/rows", "data/ü.csv", repo_type="dataset", endpoint=hub.endpoint, cache_dir=tmp_path)
    assert Path(path).read_bytes() == b"a,b\n"

    main = hub.add_space(SPACE, {"tool.py": b"main", "lib/util.py": b"u"})
    dev = hub.add_space(SPACE, {"tool.py": b"dev"}, branch="dev")
    assert hub.commit_sha(SPACE) == main and hub.commit_sha(SPACE, "dev") == dev
    assert download(hub, tmp_path, revision="dev").read_bytes() == b"dev"
    snapshot = snapshot_download(SPACE, repo_type="space", endpoint=hub.endpoint, cache_dir=tmp_path, token=TOKEN)
    assert Path(snapshot).name == main
    assert (Path(snapshot) / "lib" / "util.py").read_bytes() == b"u"


def test_resolve_headers_carry_no_xet_or_lfs_hints(hub: FakeHub) -> None:
    hub.add_repo("tester/tiny", {"config.json": b"{}"})
    request = urllib.request.Request(f"{hub.endpoint}/tester/tiny/resolve/main/config.json", method="HEAD")
    with urllib.request.urlopen(request) as response:
        headers = {key.lower() for key in response.headers}
    assert {"etag", "x-repo-commit", "content-length"} <= headers
    assert not any(key.startswith(("x-xet", "x-linked")) for key in headers)


@pytest.mark.parametrize("token", [TOKEN, False], ids=["authenticated", "anonymous"])
def test_missing_repo_revision_and_file(hub: FakeHub, tmp_path: Path, token: str | bool) -> None:
    hub.add_space(SPACE, {"tool.py": b"x"})
    with pytest.raises(RemoteEntryNotFoundError):
        download(hub, tmp_path, "nope.py", token=token)
    with pytest.raises(RevisionNotFoundError):
        download(hub, tmp_path, revision="no-such-branch", token=token)
    with pytest.raises(RevisionNotFoundError):
        download(hub, tmp_path, revision="0" * 40, token=token)
    with pytest.raises(RepositoryNotFoundError) as missing:
        download(hub, tmp_path, repo_id="tester/nope", token=token)
    # Like the Hub: 401 to anonymous callers (existence stays hidden), 404 to users.
    assert missing.value.response.status_code == (404 if token else 401)

    api = HfApi(endpoint=hub.endpoint, token=token)
    with pytest.raises(RepositoryNotFoundError):
        api.space_info("tester/nope")
    with pytest.raises(RevisionNotFoundError):
        api.space_info(SPACE, revision="no-such-branch")
    with pytest.raises(RepositoryNotFoundError):
        api.model_info(SPACE)  # a Space is not a model


def test_private_space_is_hidden_from_anonymous_callers(hub: FakeHub, tmp_path: Path) -> None:
    hub.add_space("tester/secret", {"tool.py": b"x"}, private=True)
    assert download(hub, tmp_path, repo_id="tester/secret").read_bytes() == b"x"
    with pytest.raises(RepositoryNotFoundError):
        download(hub, tmp_path / "anon", repo_id="tester/secret", token=False)
    assert HfApi(endpoint=hub.endpoint, token=TOKEN).space_info("tester/secret").private is True


# ------------------------------------------------------------------------- repo info


def test_space_info(hub: FakeHub, api: HfApi) -> None:
    first = hub.add_space(SPACE, {"tool.py": b"v1", "app.py": b"print()"})
    second = hub.add_space(SPACE, {"tool.py": b"v2"})
    info = api.space_info(SPACE)
    assert (info.id, info.sha, info.sdk, info.private) == (SPACE, second, "gradio", False)
    assert sorted(s.rfilename for s in info.siblings) == [".gitattributes", "README.md", "app.py", "tool.py"]
    assert info.card_data.sdk == "gradio"
    assert "gradio" in info.tags and info.runtime.stage == "RUNNING"
    assert info.last_modified is not None

    assert api.space_info(SPACE, revision=first).sha == first
    blobs = {s.rfilename: s.blob_id for s in api.space_info(SPACE, files_metadata=True).siblings}
    assert blobs["tool.py"] == git_blob_sha(b"v2")
    assert api.repo_exists(SPACE, repo_type="space") and not api.repo_exists("tester/nope")
    assert api.file_exists(SPACE, "app.py", repo_type="space")

    hub.add_repo("tester/tiny", {"README.md": b"---\nlibrary_name: transformers\ntags:\n- tiny\n---\n"})
    model = api.model_info("tester/tiny")
    assert (model.id, model.sha, model.library_name) == ("tester/tiny", hub.commit_sha("tester/tiny"), "transformers")
    assert "tiny" in model.tags


def test_tree_refs_and_history(hub: FakeHub, api: HfApi) -> None:
    first = hub.add_space(SPACE, {"tool.py": b"v1", "lib/a.py": b"a", "lib/deep/b.py": b"b"})
    second = hub.add_space(SPACE, {"tool.py": b"v2"})
    assert sorted(api.list_repo_files(SPACE, repo_type="space")) == [
        ".gitattributes",
        "README.md",
        "lib/a.py",
        "lib/deep/b.py",
        "tool.py",
    ]
    top = {entry.path: type(entry).__name__ for entry in api.list_repo_tree(SPACE, repo_type="space")}
    assert top["lib"] == "RepoFolder" and top["tool.py"] == "RepoFile" and "lib/a.py" not in top
    (entry,) = api.get_paths_info(SPACE, ["tool.py", "missing.py"], repo_type="space", expand=True)
    assert entry.blob_id == git_blob_sha(b"v2") and entry.last_commit.oid == second
    (lib,) = api.get_paths_info(SPACE, ["lib"], repo_type="space", expand=True)
    assert lib.last_commit.oid == first

    refs = api.list_repo_refs(SPACE, repo_type="space")
    assert [(b.name, b.target_commit) for b in refs.branches] == [("main", second)]
    commits = api.list_repo_commits(SPACE, repo_type="space")
    assert [c.commit_id for c in commits][:2] == [second, first]
    assert commits[-1].title == "initial commit"


# ----------------------------------------------------------------------- collections


def test_get_collection(hub: FakeHub, api: HfApi) -> None:
    hub.add_space(SPACE, {"tool.py": b"x"})
    slug = hub.add_collection(
        "tester/tools-0123456789abcdef01234567",
        [("space", SPACE), ("model", "tester/tiny"), ("paper", "2307.09288")],
        title="Tools",
    )
    collection = api.get_collection(slug)
    assert (collection.slug, collection.title, collection.private) == (slug, "Tools", False)
    assert [(i.item_type, i.item_id, i.position) for i in collection.items] == [
        ("space", SPACE, 0),
        ("model", "tester/tiny", 1),
        ("paper", "2307.09288", 2),
    ]
    assert len({i.item_object_id for i in collection.items}) == 3
    # The Hub sends the owner as an object, whatever the dataclass annotation says.
    assert collection.owner["name"] == "tester"
    assert collection.url == f"{hub.endpoint}/collections/{slug}"

    with pytest.raises(HfHubHTTPError) as missing:
        api.get_collection("tester/nope-0123456789abcdef01234567")
    assert missing.value.response.status_code == 404


# --------------------------------------------------------------------------- uploads


def test_create_repo_twice_with_exist_ok(hub: FakeHub, api: HfApi) -> None:
    urls = [api.create_repo("tester/new", repo_type="space", space_sdk="gradio", exist_ok=True) for _ in range(2)]
    assert urls[0] == urls[1] == f"{hub.endpoint}/spaces/tester/new"
    assert (urls[1].repo_id, urls[1].repo_type) == ("tester/new", "space")
    assert b"sdk: gradio" in hub.files("tester/new")["README.md"]
    assert len(api.list_repo_commits("tester/new", repo_type="space")) == 1  # no second "initial commit"

    with pytest.raises(HfHubHTTPError) as conflict:
        api.create_repo("tester/new", repo_type="space", space_sdk="gradio")
    assert conflict.value.response.status_code == 409

    model_url = api.create_repo("plain", private=True)  # no namespace: the token's user
    assert model_url.repo_id == "tester/plain" and api.model_info("tester/plain").private
    with pytest.raises(HfHubHTTPError) as anonymous:
        HfApi(endpoint=hub.endpoint, token=False).create_repo("tester/other")
    assert anonymous.value.response.status_code == 401

    api.delete_repo("tester/plain")
    assert not api.repo_exists("tester/plain")


def test_upload_folder_then_create_commit(hub: FakeHub, api: HfApi, tmp_path: Path) -> None:
    api.create_repo(SPACE, repo_type="space", space_sdk="gradio")
    folder = tmp_path / "space"
    (folder / "sub").mkdir(parents=True)
    (folder / "tool.py").write_text("v1")
    (folder / "sub" / "data.txt").write_text("data")

    info = api.upload_folder(repo_id=SPACE, folder_path=folder, repo_type="space")
    assert info.oid == hub.commit_sha(SPACE)
    assert info.commit_url == f"{hub.endpoint}/spaces/{SPACE}/commit/{info.oid}"
    assert hub.files(SPACE)["sub/data.txt"] == b"data"

    # Unchanged files: preupload returns their git blob ids, so the client commits nothing.
    commits_posted = sum(1 for m, p in hub.requests if m == "POST" and "/commit/" in p)
    again = api.upload_folder(repo_id=SPACE, folder_path=folder, repo_type="space")
    assert again.oid == info.oid
    assert sum(1 for m, p in hub.requests if m == "POST" and "/commit/" in p) == commits_posted

    commit = api.create_commit(
        SPACE,
        [CommitOperationAdd("tool.py", b"v2"), CommitOperationDelete("sub/data.txt")],
        commit_message="Edit",
        repo_type="space",
    )
    files = hub.files(SPACE)
    assert files["tool.py"] == b"v2" and "sub/data.txt" not in files
    assert hub.files(SPACE, revision=info.oid)["tool.py"] == b"v1"  # history is kept
    assert api.list_repo_commits(SPACE, repo_type="space")[0].title == "Edit"

    pr = api.create_commit(
        SPACE, [CommitOperationAdd("tool.py", b"v3")], commit_message="PR", repo_type="space", create_pr=True
    )
    assert pr.pr_revision == "refs/pr/1" and pr.pr_num == 1
    assert hub.commit_sha(SPACE) == commit.oid  # main did not move
    assert download(hub, tmp_path / "cache", revision="refs/pr/1").read_bytes() == b"v3"

    with pytest.raises(HfHubHTTPError) as stale:
        api.create_commit(
            SPACE, [CommitOperationAdd("x.py", b"")], commit_message="x", repo_type="space", parent_commit=info.oid
        )
    assert stale.value.response.status_code == 412
    with pytest.raises(RemoteEntryNotFoundError):
        api.create_commit(SPACE, [CommitOperationDelete("ghost.py")], commit_message="x", repo_type="space")

    # Regular blobs only: no LFS batch, no Xet token request ever went out.
    assert not [p for _, p in hub.requests if "xet" in p or "lfs" in p or ".git/" in p]


# ------------------------------------------------------------------------ smolagents

SMOLAGENTS_SCRIPT = """
import json
import sys

from smolagents import Tool, ToolCollection


class ShoutTool(Tool):
    name = "shout"
    description = "Upper-cases a text and adds an exclamation mark."
    inputs = {"text": {"type": "string", "description": "The text to shout."}}
    output_type = "string"

    def forward(self, text: str) -> str:
        return text.upper() + "!"


repo_id, slug = sys.argv[1:3]
first = ShoutTool().push_to_hub(repo_id)
second = ShoutTool().push_to_hub(repo_id)  # existing Space, nothing changed
tool = Tool.from_hub(repo_id, trust_remote_code=True)
collection = ToolCollection.from_hub(slug, trust_remote_code=True)
print(json.dumps({
    "pushes": [first.oid, second.oid],
    "loaded": [type(tool).__name__, tool.name, tool(text="hi")],
    "collection": [[t.name, t(text="ok")] for t in collection.tools],
}))
"""


def test_smolagents_push_to_hub_from_hub_and_tool_collection(hub: FakeHub, tmp_path: Path) -> None:
    repo_id, slug = "tester/shout-tool", "tester/shouting-0123456789abcdef01234567"
    # The model item is ignored by ToolCollection.from_hub, which only loads Spaces.
    hub.add_collection(slug, [("space", repo_id), ("model", "tester/tiny")], title="Shouting")
    script = tmp_path / "push_tool.py"
    script.write_text(SMOLAGENTS_SCRIPT)
    env = {
        **os.environ,
        **OFFLINE_ENV,
        "HF_ENDPOINT": hub.endpoint,
        "HF_HOME": str(tmp_path / "hf_home"),
        "HF_TOKEN": TOKEN,
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    }
    env.pop("HF_HUB_OFFLINE", None)
    run = subprocess.run(
        [sys.executable, str(script), repo_id, slug],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])

    sha = hub.commit_sha(repo_id, repo_type="space")
    assert result["pushes"] == [sha, sha]
    assert result["loaded"] == ["ShoutTool", "shout", "HI!"]
    assert result["collection"] == [["shout", "OK!"]]

    files = hub.files(repo_id)
    assert {"tool.py", "app.py", "requirements.txt", "README.md"} <= set(files)
    assert b"class ShoutTool(Tool)" in files["tool.py"]
    assert b"- smolagents" in files["README.md"]  # metadata_update wrote the tags
    info = HfApi(endpoint=hub.endpoint, token=TOKEN).space_info(repo_id)
    assert {"smolagents", "tool"} <= set(info.card_data.tags)

    calls = {(method, path) for method, path in hub.requests}
    assert {
        ("POST", "/api/repos/create"),
        ("POST", "/api/validate-yaml"),
        ("POST", f"/api/spaces/{repo_id}/preupload/main"),
        ("POST", f"/api/spaces/{repo_id}/commit/main"),
        ("GET", f"/api/collections/{slug}"),
        ("GET", f"/spaces/{repo_id}/resolve/main/tool.py"),
    } <= calls
    assert ("GET", "/api/agent-harnesses") not in calls  # telemetry is off


# ---------------------------------------------------------------------------- faults


def test_injected_401_and_404_become_hub_errors(hub: FakeHub, api: HfApi, tmp_path: Path) -> None:
    hub.add_space(SPACE, {"tool.py": b"x"})
    hub.fail_next(r"^/api/spaces/", 401)
    with pytest.raises(RepositoryNotFoundError) as denied:
        api.space_info(SPACE)
    assert denied.value.response.status_code == 401
    assert denied.value.response.headers["X-Error-Code"] == "RepoNotFound"
    assert api.space_info(SPACE).id == SPACE  # times=1: the next call goes through

    hub.fail_next(r"/resolve/", 401)
    with pytest.raises(RepositoryNotFoundError):
        download(hub, tmp_path)
    hub.fail_next(r"/resolve/", 404)
    with pytest.raises(RemoteEntryNotFoundError):
        download(hub, tmp_path)
    hub.fail_next(r"/resolve/", 404, error_code="RevisionNotFound")
    with pytest.raises(RevisionNotFoundError):
        download(hub, tmp_path)


def test_injected_403(hub: FakeHub, api: HfApi, tmp_path: Path) -> None:
    hub.add_space(SPACE, {"tool.py": b"x"})
    slug = hub.add_collection("tester/c-0123456789abcdef01234567", [("space", SPACE)])
    hub.fail_next(r"^/api/collections/", 403)
    with pytest.raises(HfHubHTTPError) as forbidden:
        api.get_collection(slug)
    assert forbidden.value.response.status_code == 403
    assert not isinstance(forbidden.value, RepositoryNotFoundError)

    hub.fail_next(r"/resolve/", 403, error_code="GatedRepo", message="Access to this repo is restricted")
    with pytest.raises(GatedRepoError):
        download(hub, tmp_path)


def test_injected_500(hub: FakeHub, api: HfApi, tmp_path: Path) -> None:
    hub.add_space(SPACE, {"tool.py": b"x"})

    # API calls are not retried: the 500 surfaces at once.
    before = len(hub.requests)
    hub.fail_next(r"^/api/spaces/", 500, times=10)
    with pytest.raises(HfHubHTTPError) as broken:
        api.space_info(SPACE)
    assert broken.value.response.status_code == 500 and len(hub.requests) == before + 1
    hub.clear_faults()

    hub.fail_next(r"/commit/main$", 500)
    with pytest.raises(HfHubHTTPError) as failed_commit:
        api.create_commit(SPACE, [CommitOperationAdd("a.py", b"a")], commit_message="a", repo_type="space")
    assert failed_commit.value.response.status_code == 500
    assert "a.py" not in hub.files(SPACE)

    # hf_hub_download: one failed HEAD and nothing cached -> an immediate retried HEAD succeeds.
    hub.fail_next(r"/resolve/", 500, method="HEAD")
    assert download(hub, tmp_path).read_bytes() == b"x"
    assert [m for m, p in hub.requests if "/resolve/" in p][-3:] == ["HEAD", "HEAD", "GET"]

    # With the file cached, a Hub outage falls back to the cache without retrying.
    before = len(hub.requests)
    hub.fail_next(r"/resolve/", 503)
    assert download(hub, tmp_path).read_bytes() == b"x"
    assert len(hub.requests) == before + 1


def test_bad_token_is_rejected_everywhere(tmp_path: Path) -> None:
    with FakeHub(tokens={TOKEN}) as hub:
        hub.add_space(SPACE, {"tool.py": b"x"})
        assert HfApi(endpoint=hub.endpoint).whoami(token=TOKEN)["name"] == "tester"

        bad = HfApi(endpoint=hub.endpoint, token="hf_wrong")
        with pytest.raises(HfHubHTTPError, match="Invalid user token"):
            bad.whoami()
        with pytest.raises(HfHubHTTPError) as denied:
            bad.space_info(SPACE)
        # Not a RepositoryNotFoundError: the Hub's message marks it as a token problem.
        assert denied.value.response.status_code == 401
        assert not isinstance(denied.value, RepositoryNotFoundError)
        with pytest.raises(HfHubHTTPError) as download_denied:
            download(hub, tmp_path, token="hf_wrong")
        assert download_denied.value.response.status_code == 401

        # Anonymous reads of public repos still work.
        assert download(hub, tmp_path, token=False).read_bytes() == b"x"
    assert hub.errors == []


# ------------------------------------------------------------------------ standalone


def test_standalone_entry_point() -> None:
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    env = {"PYTHONPATH": str(ROOT)}
    with server_process(["-m", "tests.servers.fakehub", "--port", str(port)], f"{endpoint}/api/agent-harnesses", env):
        request = urllib.request.Request(f"{endpoint}/api/whoami-v2", headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request) as response:
            assert json.load(response)["name"] == "tester"
