"""OpenMP's wait policy for the two native libraries the semantic brain loads.

torch and faiss each bring their own OpenMP runtime with a thread per core. By default an idle
OpenMP thread spins for a while after every parallel region; on a small machine that spinning
takes the core a query's other brains (and torch's own dispatch) need next. With the policy
``PASSIVE`` idle threads sleep at once: at 100k entries on 2 cores the fused query p99 went from
35-45 ms to 25-27 ms, for 3-5% of batch embedding throughput (docs/architecture.md).

A runtime reads the variable once, when it is loaded, so this must run before torch or faiss is
first imported; a value already in the environment is always kept.
"""

from __future__ import annotations

import os

WAIT_POLICY = "OMP_WAIT_POLICY"
DEFAULT_WAIT_POLICY = "PASSIVE"


def prefer_passive_wait() -> None:
    """Set ``OMP_WAIT_POLICY=PASSIVE`` unless the environment already chose a policy."""
    os.environ.setdefault(WAIT_POLICY, DEFAULT_WAIT_POLICY)
