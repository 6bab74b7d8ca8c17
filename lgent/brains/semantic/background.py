"""Embedding a long build in the background, leaving the cores to the queries.

A server answers queries while its semantic index catches up with a large write (embedding
every new entry: 1,800 short entries are about 15 s of a core on 2 busy cores). Run like a
query's, that work takes the cores the queries need: its batches run on every core (the model's
own thread pool) at the priority of the queries. A ``BackgroundEmbedder`` runs them instead on
one thread of its own, at a lower OS priority (``lgent.priority``), through a copy of the model
that computes on that thread alone (``OneThread.one_thread``), so the build takes what the
queries leave. The query embeddings keep the model and its threads as they were.

Only an embedder that can make such a copy is run this way (the ONNX one); another one's
threads are shared with its queries (torch's pool is one per process), so lowering the priority
of the thread that first starts them would slow its queries too: its builds run as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lgent.brains.semantic.embedders import Embedder, Vectors
from lgent.priority import background_thread


@runtime_checkable
class OneThread(Protocol):
    """An embedder that can make a copy of itself computing on the calling thread alone (same
    name, same vectors)."""

    def one_thread(self) -> Embedder: ...


class BackgroundEmbedder:
    """``embed_batch`` on one low-priority thread through a one-thread copy of ``embedder``;
    ``close()`` stops the thread and drops the copy (its model is loaded on first use)."""

    def __init__(self, embedder: Embedder) -> None:
        if not isinstance(embedder, OneThread):
            raise TypeError(f"{type(embedder).__name__} cannot make a one-thread copy")
        self.embedder = embedder.one_thread()
        self._thread = background_thread("lgent-embed-background")

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
