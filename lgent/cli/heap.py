"""A one-shot read's heap: one malloc arena, trimmed early (glibc only).

glibc gives each thread that allocates its own arena and returns freed memory to the system only
from the top of an arena, past a threshold that grows with use. A cold query opens the graph,
the keyword and the semantic indexes on several threads and then the model, so the memory the
indexes freed while loading sat in other arenas, out of the model's reach: on the 17k ecosystem
home a sentence's ``lgent query`` peaked at 420 MiB; with one arena and a 128 KiB trim
threshold (``mallopt``, before any thread starts), 387 to 390 MiB, in the same time. A command
that builds or serves keeps glibc's defaults: its threads embed and index side by side.
"""

from __future__ import annotations

import ctypes
import ctypes.util

M_TRIM_THRESHOLD = -1
M_ARENA_MAX = -8
TRIM_THRESHOLD = 128 * 1024
"""Bytes free at the top of the heap past which glibc returns them to the system."""


def compact_heap() -> bool:
    """Set one malloc arena and a low trim threshold for this process (call it before any
    thread starts); False where the C library is not glibc (nothing is changed there)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - glibc only: other C libraries lack it
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, 1)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
