"""How long idle OpenMP threads spin, for the two native libraries the semantic brain loads.

torch and faiss each bring their own OpenMP runtime (GNU libgomp) with a thread per core. After
every parallel region an idle thread spins for a while before it sleeps (300,000 rounds by
default); on a small machine that spinning takes the core that a query's other brains, and
torch's own dispatch between layers, need next. A short spin keeps threads warm between the
layers of one embedding and frees the core soon after. Measured at 100k entries on 2 cores
(docs/architecture.md): fused query p99 35 ms by default, 25-27 ms with ``OMP_WAIT_POLICY=PASSIVE``
(no spin: every layer pays a wake-up, the median grew), 21 ms with ``GOMP_SPINCOUNT=20000``, with
no loss of batch embedding throughput.

A runtime reads its environment once, when it is loaded, so this must run before torch or faiss
is first imported. A wait policy or a spin count already in the environment is always kept.
"""

from __future__ import annotations

import os

SPIN_COUNT = "GOMP_SPINCOUNT"
WAIT_POLICY = "OMP_WAIT_POLICY"
DEFAULT_SPIN_COUNT = "20000"


def prefer_short_spin() -> None:
    """Set ``GOMP_SPINCOUNT`` unless the environment already chose a wait policy or spin count."""
    if WAIT_POLICY not in os.environ and SPIN_COUNT not in os.environ:
        os.environ[SPIN_COUNT] = DEFAULT_SPIN_COUNT
