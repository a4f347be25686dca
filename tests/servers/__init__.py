"""Real servers the tests talk to, each started on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
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


def _ephemeral_low() -> int:
    """The first port the kernel hands out for a bind to port 0 or an outgoing connection (Linux: 32768)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default; other systems' ranges start higher


def _candidate_ports() -> Iterator[int]:
    """This process's ports to try: a slice of its own per pytest-xdist worker, below the ephemeral range,
    from a random place in it (another test run on this machine starts elsewhere)."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    size = (_ephemeral_low() - _LOWEST_PORT) // max(workers, 1)
    first, offset = _LOWEST_PORT + worker * size, random.randrange(size)
    return (first + (offset + step) % size for step in range(size))


_LOWEST_PORT = 10_000
_CANDIDATES = _candidate_ports()
_CANDIDATES_LOCK = threading.Lock()


def free_port() -> int:
    """A port on 127.0.0.1 free now, for a server about to start, that no other call of this test run returns.

    Not a bind to port 0, closed and handed on: until the server binds it, the kernel could give that port
    to the other xdist worker's next bind to 0, or to any outgoing connection. Ports here come from below
    the kernel's ephemeral range, from a slice per worker, each at most once per process.
    """
    with _CANDIDATES_LOCK:
        for port in _CANDIDATES:
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:  # taken by a server of another run or of this machine
                    continue
                return port
    raise RuntimeError(f"no free port left below {_ephemeral_low()} for this test process")


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
