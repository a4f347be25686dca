"""Credentials never go into what vendorgen writes or prints.

A URL's `user:password@` would land in the generated module, the lock, the
snapshot, error messages and a pushed Space, so a source URL that carries one
is refused (a token belongs in the environment: HF_TOKEN, or `--env` for a
stdio MCP server). Error text that may quote a token or such a URL back (a
client library's exception) goes through `redacted` before it is shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from vendorgen.errors import UsageError

# `scheme://user[:password]@` inside any text.
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s]*@")


def refuse_url_credentials(url: str) -> str:
    """`url` unchanged, or a usage error if it carries a user name or password (never echoed)."""
    try:
        parts = urlsplit(url)
        carries = bool(parts.username or parts.password)
    except ValueError:  # a malformed port or netloc: the userinfo test below still applies
        carries = False
    if carries or _USERINFO.match(url):
        raise UsageError(
            "the URL carries credentials (user:password@); they would be written into the vendored code,"
            " the lock and any pushed Space. Remove them: vendorgen sends no URL credentials"
        )
    return url


def redacted(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every URL's user:password@ and every given secret replaced by `***`."""
    text = _USERINFO.sub(r"\g<scheme>***@", text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
