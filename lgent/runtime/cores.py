"""How many cores this process may use."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else every
    core the system has; at least 1)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # no affinity outside Linux
        return os.cpu_count() or 1
