"""Threads at a lower OS priority, for the work a server does in the background (rebuilding an
index, embedding a large write) while it answers queries: the cores go to the queries first,
and the background work takes what they leave.

Linux schedules each thread on its own, so lowering one thread's priority (its ``nice`` value)
leaves the others alone: a thread at nice 10 gets about a tenth of a core that a thread of the
same process at nice 0 also wants, and all of a core nobody else wants. A thread's priority is
only ever lowered (raising it back needs privileges), so such work runs on threads of its own.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

BACKGROUND_NICE = 10
"""How much lower than the process's own priority background threads run."""


def lower_priority(nice: int = BACKGROUND_NICE) -> None:
    """Run the calling thread ``nice`` below the process's priority (once: a thread already
    that low is left alone). Nothing is done off Linux, where the call would reach the whole
    process."""
    if sys.platform != "linux":
        return
    thread = threading.get_native_id()
    # a sandbox may refuse it: the work then runs at the queries' priority, as it used to
    with contextlib.suppress(OSError):
        wanted = os.getpriority(os.PRIO_PROCESS, os.getpid()) + nice
        if os.getpriority(os.PRIO_PROCESS, thread) < wanted:
            os.setpriority(os.PRIO_PROCESS, thread, wanted)


def background_thread(name: str) -> ThreadPoolExecutor:
    """One worker thread, named ``name``, that runs at ``BACKGROUND_NICE`` below the process."""
    return ThreadPoolExecutor(1, thread_name_prefix=name, initializer=lower_priority)
