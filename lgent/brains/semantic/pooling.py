"""Content pooling: a text's vector is the mean of its content words' word pieces.

A sentence embedder such as all-MiniLM-L6-v2 averages the vectors its encoder gives each word
piece. In "I'm looking for a tool that can help me check the weather" half of the pieces are
function words ("I", "for", "a", "that", "can", "me", "the"), and their vectors pull every
request of that shape toward the same place, away from what it asks for. ``CONTENT_POOLING``
averages only the pieces of content words (a word that is not a stop word,
``lgent.analysis.stopwords``; an identifier counts whole), the same encoder pass otherwise: the
sentence is still read in context, only its average leaves the function words out. Entries and
requests are pooled alike. A text with no content word keeps the plain mean.

The same pass also gives a long request of several clauses (``lgent.analysis.clauses``) one
vector per clause, pooled from that clause's pieces, at no extra encoder cost (``clause_pools``):
what the request's own search found is rescored so that an artifact close to one of the things
it asks for is not lost in the average of all of them (``ranking.clause_lifted``).

An embedder offers this by ``embed_pooled`` (``PoolsPieces``): each text's pieces with their
character spans go to a ``Pools`` function, which weighs them, one row per vector wanted.
Measured in docs/quality.md ("Content pooling").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from lgent.analysis.clauses import clause_spans
from lgent.analysis.tokens import WORD_RE, is_stop_word, word_parts
from lgent.brains.semantic.settings import SemanticSettings

Vectors = npt.NDArray[np.float32]
Spans = Sequence[tuple[int, int]]
"""The character span of each word piece in its text; a special piece ([CLS], [SEP]) has an
empty span."""
Weights = npt.NDArray[np.float32]
Pools = Callable[[str, Spans], Weights]
"""Given a text and its pieces' spans, a ``(vectors, pieces)`` array of weights: one row per
vector wanted, each the weighted mean of the pieces' vectors (then scaled to unit length)."""

POOLING_TAG = "content-pooled"
"""Added to the embedder's name where content pooling is on: its vectors are not the plain
mean's, so caches and indexes keyed by the name never mix the two."""


@runtime_checkable
class PoolsPieces(Protocol):
    """An embedder that pools its encoder's word pieces as asked (``Pools``)."""

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        """For each text, a ``(rows, dimensions)`` array of unit vectors: one per row of
        ``pools(text, spans)``."""
        ...


def content_weights(text: str, spans: Spans) -> Weights:
    """1 for each piece of a content word and each special piece, 0 for a stop word's pieces;
    all 1 when no piece belongs to a content word."""
    stop = np.zeros(len(text) + 1, dtype=bool)
    for m in WORD_RE.finditer(text):
        if is_stop_word(word_parts(m.group())):
            stop[m.start() : m.end()] = True
    starts, ends = _bounds(spans)
    real = ends > starts
    weights = np.where(real & stop[np.minimum(starts, len(text))], 0.0, 1.0).astype(np.float32)
    if not (real & (weights > 0)).any():
        weights[:] = 1.0
    return weights


def _bounds(spans: Spans) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The pieces' start and end offsets as two arrays."""
    bounds = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    return bounds[:, 0], bounds[:, 1]


def content_pools(text: str, spans: Spans) -> Weights:
    """``Pools`` for one vector of ``text``: its content pieces (``content_weights``)."""
    return content_weights(text, spans)[None, :]


def clause_pools(text: str, spans: Spans) -> Weights:
    """``Pools`` for a request: its plain mean (every piece, as the model was trained), then
    one vector per clause of it (``clause_spans``), each from the content pieces inside that
    clause (all its pieces when it has no content word); a request of one clause gets the
    plain mean alone."""
    rows = [np.ones(len(spans), dtype=np.float32)]
    found = clause_spans(text)
    if not found:
        return np.stack(rows)
    whole = content_weights(text, spans)
    starts, ends = _bounds(spans)
    for start, end in found:
        inside = (ends > starts) & (starts >= start) & (ends <= end)
        if not inside.any():
            continue
        row = np.where(inside, whole, 0.0).astype(np.float32)
        if not row[inside].any():
            row = inside.astype(np.float32)
        rows.append(row)
    return np.stack(rows)


def clause_share(words: int, settings: SemanticSettings) -> float:
    """The share of what a clause vector adds that a request of ``words`` content words gets:
    none up to ``settings.clause_short_words``, ``settings.clause_share`` from
    ``clause_long_words``, linearly in between. A short request's clauses are rarely separate
    needs ("I fetched some web pages and only want the words a human sees": the first clause
    is context); a long one's often are."""
    short, long = settings.clause_short_words, settings.clause_long_words
    if settings.clause_share <= 0 or words <= short:
        return 0.0
    return settings.clause_share * min(1.0, (words - short) / (long - short))


def pool(states: npt.NDArray[np.floating], weights: Weights) -> Vectors:
    """Each row of ``weights`` applied to the pieces' ``states`` ``(pieces, dimensions)``: the
    weighted means, scaled to unit length (float32)."""
    states = np.asarray(states, dtype=np.float32)
    sums = weights @ states
    totals = np.maximum(weights.sum(axis=1, keepdims=True), 1e-9)
    means = sums / totals
    norms = np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)
    return np.ascontiguousarray(means / norms, dtype=np.float32)
