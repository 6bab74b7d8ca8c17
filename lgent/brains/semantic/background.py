"""Embedding a long build in the background, leaving the cores to the queries.

A server answers queries while its semantic index catches up with a large write (embedding
every new entry: 1,800 short entries are about 15 s of a core on 2 busy cores). Run like a
query's, that work takes the cores the queries need, at their priority, on the model's thread
pool that the query embeddings use too. A ``BackgroundEmbedder`` runs it instead on a thread of
its own at a lower OS priority (``lgent.runtime.priority``), through a copy of the model made on that
thread (``BackgroundCopy.background_copy``), whose own thread pool inherits the priority: the
build takes what the queries leave, on every core when they leave them all. The query
embeddings keep the model and its threads as they were.

Only an embedder that can make such a copy is run this way (the ONNX one); another one's
threads are shared with its queries (torch's pool is one per process), so lowering the priority
of the thread that first starts them would slow its queries too: its builds run as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lgent.brains.semantic.embedders import Embedder, Vectors
from lgent.brains.semantic.pooling import Pools, PoolsPieces
from lgent.runtime.priority import background_thread


@runtime_checkable
class BackgroundCopy(Protocol):
    """An embedder that can copy itself (same name, same vectors) with a model and threads of
    its own, made by the thread that first uses the copy."""

    def background_copy(self) -> Embedder: ...


class BackgroundEmbedder:
    """``embed_batch`` on one low-priority thread through a copy of ``embedder`` loaded there;
    ``close()`` stops the thread and drops the copy."""

    def __init__(self, embedder: Embedder) -> None:
        if not isinstance(embedder, BackgroundCopy):
            raise TypeError(f"{type(embedder).__name__} cannot make a background copy")
        self.embedder = embedder.background_copy()
        self._thread = background_thread("lgent-embed-background")

    @classmethod
    def of(cls, embedder: Embedder) -> BackgroundEmbedder | None:
        """A background embedder for ``embedder``, or None when it cannot make one."""
        return cls(embedder) if isinstance(embedder, BackgroundCopy) else None

    @property
    def name(self) -> str:
        return self.embedder.name

    @property
    def dimensions(self) -> int:
        return self.embedder.dimensions

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._thread.submit(self.embedder.embed_batch, texts).result()

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        """``PoolsPieces`` through the copy (the brain asks only when its embedder pools)."""
        if not isinstance(self.embedder, PoolsPieces):
            raise TypeError(f"{type(self.embedder).__name__} does not pool word pieces")
        return self._thread.submit(self.embedder.embed_pooled, texts, pools).result()

    def close(self) -> None:
        self._thread.shutdown(wait=True)
