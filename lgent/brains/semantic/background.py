"""Embedding a long build in the background, leaving the cores to the queries.

A server answers queries while its semantic index catches up with a large write (embedding
every new entry: 1,800 short entries are about 15 s of a core on 2 busy cores). Run like a query, that work takes the
cores the queries need: its batches run on every core (the model's own thread pool) at the
priority of the queries. A ``BackgroundEmbedder`` runs them instead on one thread of its own,
at a lower OS priority (``BACKGROUND_NICE``), through a copy of the model that computes on that
thread alone (``OneThread.one_thread``), so the build takes what the queries leave and never
holds a core a query wants. The query embeddings keep the model and its threads as they were.

Only an embedder that can make such a copy is run this way (the ONNX one); another one's
threads are shared with its queries (torch's pool is one per process), so lowering the priority
of the thread that first starts them would slow its queries too: its builds run as before.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, runtime_checkable

from lgent.brains.semantic.embedders import Embedder, Vectors

BACKGROUND_NICE = 10
"""How much lower a background build's thread is scheduled (``nice``): on Linux a thread at
nice 10 gets about a tenth of a core another thread of the process at nice 0 also wants, and all
of a core nobody else wants."""


@runtime_checkable
class OneThread(Protocol):
    """An embedder that can make a copy of itself computing on the calling thread alone (same
    name, same vectors)."""

    def one_thread(self) -> Embedder: ...


def lower_priority(nice: int) -> None:
    """Lower the calling thread's OS priority by ``nice`` (Linux schedules each thread on its
    own; elsewhere the call would reach the whole process, so nothing is done)."""
    if sys.platform != "linux":
        return
    tid = threading.get_native_id()
    # a sandbox may refuse it: the build then runs at the queries' priority, as it used to
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)


class BackgroundEmbedder:
    """``embed_batch`` on one low-priority thread through a one-thread copy of ``embedder``;
    ``close()`` stops the thread and drops the copy (its model is loaded on first use)."""

    def __init__(self, embedder: Embedder, nice: int = BACKGROUND_NICE) -> None:
        if not isinstance(embedder, OneThread):
            raise TypeError(f"{type(embedder).__name__} cannot make a one-thread copy")
        self.embedder = embedder.one_thread()
        self._thread = ThreadPoolExecutor(
            1,
            thread_name_prefix="lgent-embed-background",
            initializer=lower_priority,
            initargs=(nice,),
        )

    @classmethod
    def of(cls, embedder: Embedder) -> BackgroundEmbedder | None:
        """A background embedder for ``embedder``, or None when it cannot make one."""
        return cls(embedder) if isinstance(embedder, OneThread) else None

    @property
    def name(self) -> str:
        return self.embedder.name

    @property
    def dimensions(self) -> int:
        return self.embedder.dimensions

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._thread.submit(self.embedder.embed_batch, texts).result()

    def close(self) -> None:
        self._thread.shutdown(wait=True)
