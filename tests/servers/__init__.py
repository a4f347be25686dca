"""Real servers the tests talk to, each started on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

SERVERS_DIR = Path(__file__).resolve().parent

# No test may reach the internet: these switch off every phone-home we know of.
OFFLINE_ENV = {
    "GRADIO_ANALYTICS_ENABLED": "False",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Poll `url` until it answers (any HTTP status) or the process dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before {url} answered")
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


@contextmanager
def server_process(
    args: Sequence[str], ready_url: str, env: dict[str, str] | None = None, timeout: float = 60.0
) -> Iterator[subprocess.Popen[bytes]]:
    """Run `python args...` until `ready_url` answers; kill it on exit."""
    full_env = {**os.environ, **OFFLINE_ENV, **(env or {})}
    # A file, not a pipe: a chatty server must never block on a full pipe.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, *args], env=full_env, stdout=subprocess.DEVNULL, stderr=log
        )
        try:
            try:
                wait_for_http(ready_url, process, timeout)
            except Exception as exc:
                process.kill()
                process.wait()
                log.seek(0)
                tail = log.read().decode(errors="replace")[-4000:]
                raise RuntimeError(f"{list(args)} failed to start ({exc}):\n{tail}") from None
            yield process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
