"""English stemming: the Snowball stemmer, from tantivy's own analyzer (loaded on first use)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tantivy


@lru_cache(maxsize=1)
def _stemmer() -> tantivy.TextAnalyzer:
    import tantivy

    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The English (Snowball) stem of a lowercase word: ``cleaning`` -> ``clean``."""
    out = _stemmer().analyze(word)
    return out[0] if out else word
