"""tests.servers.free_port: the two xdist workers never hand out the same port, nor one the kernel hands out."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO
from tests.servers import _ephemeral_low

TAKE = "import json; from tests.servers import free_port; print(json.dumps([free_port() for _ in range(200)]))"


def ports_of(worker: str) -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTEST_XDIST_WORKER": worker, "PYTEST_XDIST_WORKER_COUNT": "2"}
    return json.loads(subprocess.run([sys.executable, "-c", TAKE], env=env, capture_output=True, check=True).stdout)


def test_each_worker_has_ports_of_its_own_below_the_ephemeral_range() -> None:
    first, second = ports_of("gw0"), ports_of("gw1")
    assert len(set(first)) == len(set(second)) == 200  # a port once per process
    assert not set(first) & set(second)
    assert max(first + second) < _ephemeral_low()  # where no bind to port 0 or outgoing connection lands
