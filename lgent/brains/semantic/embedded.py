"""What an embedder gave back, checked, and whether it has its model in memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from lgent.brains.semantic.embedders import Embedder, Vectors
from lgent.errors import ModelUnavailableError


def first_rows(pooled: Sequence[Vectors], dimensions: int) -> Vectors:
    """The first vector of each text's pooled vectors, as one ``(texts, dimensions)`` array."""
    if not pooled:
        return np.zeros((0, dimensions), dtype=np.float32)
    return np.stack([np.asarray(rows)[0] for rows in pooled])


def check_vectors(vectors: Any, dimensions: int, model: str, rows: int | None = None) -> None:
    """Raise ``ModelUnavailableError`` unless ``vectors`` is a finite ``(n, dimensions)`` array
    with ``n == rows`` (one vector per text), or at least one row when ``rows`` is None."""
    shape = getattr(vectors, "shape", None)
    if not isinstance(vectors, np.ndarray) or shape is None or len(shape) != 2:
        expected = f"({rows}, {dimensions})" if rows is not None else f"rows of {dimensions}"
        raise ModelUnavailableError(
            f"embedder {model!r} returned {shape or type(vectors).__name__}, expected {expected}"
        )
    if shape[1] != dimensions or (shape[0] != rows if rows is not None else shape[0] < 1):
        expected = (
            f"({rows}, {dimensions}) for {rows} texts"
            if rows is not None
            else f"at least 1 row of {dimensions}"
        )
        raise ModelUnavailableError(f"embedder {model!r} returned {shape}, expected {expected}")
    if not np.all(np.isfinite(vectors)):
        raise ModelUnavailableError(f"embedder {model!r} returned non-finite values")


def model_loaded(embedder: Embedder) -> bool:
    """Whether the embedder has its model in memory (one that loads nothing counts as loaded)."""
    loaded = getattr(embedder, "loaded", True)
    return loaded if isinstance(loaded, bool) else True
