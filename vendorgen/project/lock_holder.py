"""Which process holds the lock on a descriptor, where the system records it (Linux: /proc/locks).

The project lock is a lock on the project directory itself, so no file records who took it;
Linux lists every lock with the process that took it. Elsewhere the holder is unknown.
"""

from __future__ import annotations

import os

_PROC_LOCKS = "/proc/locks"


def lock_holder(descriptor: int) -> int | None:
    """The pid of the process holding a lock on the file open at `descriptor`, or None if unknown."""
    status = os.fstat(descriptor)
    # /proc/locks names a file as MAJOR:MINOR:INODE, major and minor in hex: "1: FLOCK ADVISORY WRITE 42 fe:00:1234 0 EOF".
    file_id = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    try:
        with open(_PROC_LOCKS, encoding="ascii", errors="replace") as locks:
            lines = locks.readlines()
    except OSError:
        return None
    for fields in map(str.split, lines):
        if len(fields) > 5 and fields[5] == file_id and fields[1] != "->" and fields[4].isdigit():
            holder = int(fields[4])
            if holder != os.getpid():
                return holder
    return None
