"""Talking to the Hugging Face Hub: repo ids, bounded requests, where a token may go, errors.

hub, collection, space and push use this module, so the time-out, the deadline
and the token rule live in one place.

- Every request has a time-out (no byte for `VENDORGEN_HUB_TIMEOUT` seconds) and
  a total deadline of the same length (`within_deadline`): a server that trickles
  one byte at a time cannot keep vendorgen waiting. The deadline also bounds a
  Gradio app's API (a Space is a Hub thing, and Gradio apps are read with it).
- A Hub token goes only where `token_allowed` says (see there). huggingface_hub
  and gradio_client send the machine's token (HF_TOKEN, `hf auth login`) with
  every request unless told `token=False`, so callers pass `app_token(...)`
  or False, never None, to anything that talks to a non-Hub host.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

from vendorgen.errors import SchemaError, SourceUnreachable, UsageError, VendorgenError
from vendorgen.sources.base import seconds_from_env
from vendorgen.sources.credentials import redacted
from vendorgen.text.limits import LISTING_BYTES

REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")
# Every request to the Hub or a Gradio app fails after this many seconds; VENDORGEN_HUB_TIMEOUT overrides it.
DEFAULT_TIMEOUT = 30.0
TIMEOUT_ENV = "VENDORGEN_HUB_TIMEOUT"
# Where Spaces are served: https://<owner>-<name>.hf.space (static Spaces: <owner>-<name>.static.hf.space).
SPACES_DOMAIN = "hf.space"

T = TypeVar("T")


def request_timeout() -> float:
    return seconds_from_env(TIMEOUT_ENV, DEFAULT_TIMEOUT)


def bound_hub_requests() -> float:
    """The time-out of a request to the Hub, made the default of huggingface_hub's shared HTTP session.

    Calls that pass no `timeout` at all (get_collection) then fail when the Hub does not answer,
    instead of waiting forever; an explicit `timeout=None` still waits forever.
    """
    from huggingface_hub.utils import get_session

    timeout = request_timeout()
    get_session().timeout = timeout
    return timeout


def within_deadline(call: Callable[[], T], what: str) -> T:
    """`call()`, or SourceUnreachable if it has not finished within the request time-out.

    HTTP clients time out a read that gets no byte, not a response that never ends;
    this bounds the whole exchange. The call runs in a daemon thread that is left
    behind on time-out (nothing it does is used): the command ends with the error.
    """
    seconds = request_timeout()
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread below
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name=f"vendorgen request: {what}", daemon=True)
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise SourceUnreachable(f"no answer from {what} within {seconds:g} s (set {TIMEOUT_ENV} to wait longer)")
    finished, value = outcome[0]
    if finished:
        return value  # type: ignore[no-any-return]
    raise value


def hub_endpoint() -> str:
    from huggingface_hub import constants

    return constants.ENDPOINT


def space_hosts(space_id: str) -> tuple[str, ...]:
    """The hosts the Hub serves the Space `owner/name` on."""
    subdomain = re.sub(r"[^a-z0-9]+", "-", space_id.lower()).strip("-")
    return (f"{subdomain}.{SPACES_DOMAIN}", f"{subdomain}.static.{SPACES_DOMAIN}")


def token_allowed(url: str, space_id: str | None, hub_endpoint: str) -> bool:
    """Whether a request to `url` may carry the user's Hub token (HF_TOKEN, `hf auth login`).

    Yes for the Hub itself (same scheme, host and port as `hub_endpoint`, i.e. HF_ENDPOINT),
    and, when the source names a Space (`space_id` = owner/name), for that Space's own
    https://<owner>-<name>.hf.space host. No for anything else: any other Gradio app,
    another Space, plain http to hf.space. A token the user gives explicitly with
    `--token` together with an app URL is their consent for that host (see `app_token`).
    Pure, so the run-time code can mirror it exactly.
    """
    try:
        target, hub = urlsplit(url), urlsplit(hub_endpoint)
        target_port, hub_port = target.port, hub.port
    except ValueError:
        return False
    host = (target.hostname or "").lower()
    if not host:
        return False
    if (target.scheme, host, target_port) == (hub.scheme, (hub.hostname or "").lower(), hub_port):
        return True
    return (
        space_id is not None
        and target.scheme == "https"
        and target_port in (None, 443)
        and host in space_hosts(space_id)
    )


def app_token(url: str, space_id: str | None, explicit: str | None) -> str | bool:
    """What to pass as `token=` for requests to the app at `url`: a token, or False (send none).

    `explicit` is a token given on the command line (`--token`): with an app URL the
    user named, it goes to that URL. Otherwise the token (explicit or the machine's)
    goes only where `token_allowed` says.
    """
    if space_id is None and explicit:
        return explicit
    if token_allowed(url, space_id, hub_endpoint()):
        if explicit:
            return explicit
        from huggingface_hub import get_token

        return get_token() or False
    return False


def fetch_file(api: Any, repo_id: str, filename: str, sha: str) -> str:
    """One file of the Space `repo_id` at commit `sha`: a single GET, never retried, never cached."""
    from huggingface_hub import hf_hub_url
    from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

    url = hf_hub_url(repo_id, filename, repo_type="space", revision=sha, endpoint=api.endpoint)

    def get() -> tuple[str | None, bytes]:
        """(the commit the Hub served, the body), read no further than the listing limit."""
        headers = build_hf_headers(token=api.token)
        with get_session().stream("GET", url, headers=headers, timeout=request_timeout()) as response:
            if response.status_code >= 400:
                response.read()  # the error's message is in the body
                hf_raise_for_status(response)
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                LISTING_BYTES.check(len(body), f"{filename} of {repo_id}")
            return response.headers.get("X-Repo-Commit"), bytes(body)

    served, body = within_deadline(get, f"the Hub at {api.endpoint} for {filename} of {repo_id}")
    if served and served != sha:
        raise SourceUnreachable(f"the Hub served {filename} of {repo_id} from commit {served}, not {sha}")
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SchemaError(f"{filename} of {repo_id} is not UTF-8 text") from None


@contextmanager
def hub_errors(what: str) -> Iterator[None]:
    """What huggingface_hub raises, as one vendorgen error that says what to do.

    Exit 2 (SourceUnreachable, UsageError) when the Hub cannot be reached, fails
    (5xx) or refuses (401/403); exit 1 when what was asked for does not exist.
    """
    from huggingface_hub import get_token
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        HFValidationError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    endpoint = hub_endpoint()
    try:
        yield
    except VendorgenError:
        raise
    except HFValidationError as exc:
        raise UsageError(f"{what}: {first_line(exc)}") from None
    except GatedRepoError:
        raise SourceUnreachable(
            f"{what} is gated on {endpoint}: accept its conditions there and use a token with access"
        ) from None
    except RepositoryNotFoundError as exc:
        if _status(exc) == 401:
            raise SourceUnreachable(
                f"{what} was not found on {endpoint}, or it is private: pass a token with access (--token or HF_TOKEN)"
            ) from None
        raise VendorgenError(f"{what} was not found on {endpoint}") from None
    except RevisionNotFoundError:
        raise VendorgenError(f"{what}: no such revision on {endpoint}") from None
    except EntryNotFoundError as exc:
        raise VendorgenError(f"{what}: {first_line(exc)}") from None
    except HfHubHTTPError as exc:
        status = _status(exc)
        message = redacted(exc.server_message, [get_token()]) if exc.server_message else first_line(exc)
        if status in (401, 403):
            raise SourceUnreachable(
                f"the Hub at {endpoint} refused access to {what} (HTTP {status}: {message}); "
                "check the token (--token, HF_TOKEN or `hf auth login`)"
            ) from None
        if status is not None and status >= 500:
            raise SourceUnreachable(
                f"the Hub at {endpoint} failed on {what} (HTTP {status}); try again later"
            ) from None
        if status == 404:
            raise VendorgenError(f"{what} was not found on {endpoint}") from None
        raise VendorgenError(f"the Hub at {endpoint} answered HTTP {status} for {what}: {message}") from None
    except OfflineModeIsEnabled:
        raise SourceUnreachable(f"HF_HUB_OFFLINE is set, so {what} cannot be read from the Hub") from None
    except json.JSONDecodeError as exc:
        raise SourceUnreachable(f"the Hub at {endpoint} sent {what} as malformed JSON: {first_line(exc)}") from None
    except Exception as exc:
        # The HTTP client's connection errors: httpx2 under huggingface_hub 2.x, httpx under 1.x.
        clients = [module for name in ("httpx2", "httpx") if (module := sys.modules.get(name))]
        if isinstance(exc, tuple(client.TimeoutException for client in clients)):
            raise SourceUnreachable(
                f"no answer from the Hub at {endpoint} for {what} within"
                f" {request_timeout():g} s (set {TIMEOUT_ENV} to wait longer)"
            ) from None
        if not isinstance(exc, tuple(client.TransportError for client in clients)):
            raise
        raise SourceUnreachable(f"cannot reach the Hub at {endpoint} for {what}: {first_line(exc)}") from None


def _status(exc: Any) -> int | None:
    response = getattr(exc, "response", None)
    return getattr(response, "status_code", None)


def first_line(exc: BaseException, *secrets: str | None) -> str:
    """The first line of an exception's text (its type when it has none), with URL credentials,
    the machine's Hub token and `secrets` hidden: client libraries may quote them back."""
    from huggingface_hub import get_token

    text = redacted(str(exc).strip(), [get_token(), *secrets])
    return text.splitlines()[0] if text else type(exc).__name__
