"""How the semantic brain answers: a ranking of ids by cosine similarity
(``SemanticRanking``), its hits explained only when asked for, and the rules those explanations
and the weak-match verdict follow."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lgent.analysis.stemming import stem
from lgent.analysis.tokens import content_words
from lgent.brains.semantic.embedders import Embedder, KnowsWords, Vectors
from lgent.brains.semantic.records import EntryInfo
from lgent.errors import IndexCorruptError
from lgent.models import BrainHit, EntryText, SearchFilters

BRAIN = "semantic"
REASON_WORDS = 12  # words of the description quoted in a "closest in meaning" reason
UNREAD_SHOWN = 3  # words named in the weak reason of a query the model cannot read
COSINE_SLACK = 1e-3
"""How far outside [-1, 1] a similarity may stray by rounding before it counts as corruption."""


@dataclass(frozen=True, slots=True)
class RankQuery:
    """What a ranking searched with besides its vectors: the query's content words (for the
    explanations), its filters, limit and similarity cutoff."""

    words: list[str]
    filters: SearchFilters | None
    limit: int
    cutoff: float
    clause_share: float | None = None
    """With several vectors (the request's, then its clauses'): how much of what a clause adds
    an artifact found by the request's own search gets (``clause_lifted``); None: each vector
    is searched and each artifact keeps its best similarity (``best_of``)."""


@dataclass(slots=True)
class SemanticRanking:
    """Ids and cosine similarities, best first. A hit's explanation (the words it shares with
    the query, or what it is closest to) is worked out when the hit is asked for, so a caller
    that only ranks (fusion) explains only what it shows."""

    ranking: list[tuple[str, float]]
    explain_hit: Callable[[str, float, int], BrainHit | None]
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """What the caller may want to know about how the answer was made (the model loaded)."""
    weak: str = ""
    """Why nothing ranked is close in meaning to the request ("": something is)."""
    confidence: float = 1.0
    """How much of a real match the best hit is, from 0 to 1: 1 unless ``weak`` (then its
    similarity over the weak bar, or 0 when the model knows none of the query's words)."""
    reads: float = 1.0
    """The share of the query's letters in scripts the model reads (``ReadsScripts``)."""
    move: Callable[[Sequence[str], float], SemanticRanking] | None = None

    @property
    def total(self) -> int:
        return len(self.ranking)

    def moved_toward(self, artifact_ids: Sequence[str], weight: float) -> SemanticRanking:
        """The same query searched again with its vectors moved toward the mean vector of
        ``artifact_ids`` by ``weight`` (``MovableAnswer``); this ranking itself when none is
        in the index, the weight is 0 or it cannot be searched again."""
        return self if self.move is None else self.move(artifact_ids, weight)

    @property
    def hits(self) -> list[BrainHit]:
        made = (
            self.explain_hit(artifact_id, score, rank)
            for rank, (artifact_id, score) in enumerate(self.ranking, start=1)
        )
        return [hit for hit in made if hit is not None]

    def explain(self, artifact_id: str, entry: EntryText | None = None) -> BrainHit | None:
        """The hit for ``artifact_id`` with its reason; None when the ranking does not hold it
        (or the artifact left the index since)."""
        for rank, (ranked_id, score) in enumerate(self.ranking, start=1):
            if ranked_id == artifact_id:
                return self.explain_hit(artifact_id, score, rank)
        return None


def weak_reason(
    pairs: Sequence[tuple[str, float]], words: Sequence[str], bar: float, embedder: Embedder
) -> tuple[str, float]:
    """Why the best of ``pairs`` (all of them, before the threshold) is weak ("" if it is
    not), and how much of a real match it is: its similarity is below
    ``bar`` (``semantic.weak_match``) (its share of that bar), or the model has a word for none of the
    query's content ``words`` (0: a string of letters it cannot read is near everything by
    chance, at similarities real requests also reach; ``KnowsWords``)."""
    best = max((score for _, score in pairs), default=None)
    if best is None:
        return "", 1.0
    if best < bar:
        return f"best similarity {best:.2f}, weak below {bar:.2f}", max(best, 0.0) / bar
    if words and isinstance(embedder, KnowsWords):
        unknown = embedder.unknown_words(words)
        if len(unknown) == len(words):
            shown = ", ".join(unknown[:UNREAD_SHOWN]) + ("…" * (len(unknown) > UNREAD_SHOWN))
            return (
                f"the model knows none of its words ({shown}), so its similarities are chance",
                0.0,
            )
    return "", 1.0


def explained_hit(
    entries: Mapping[str, EntryInfo],
    model: str,
    artifact_id: str,
    score: float,
    rank: int,
    words: list[str],
    similar_to: str | None,
    toward: Sequence[str] = (),
) -> BrainHit:
    """The hit for ``artifact_id`` with its reason: the query's ``words`` it shares (with the
    artifact it is ``similar_to``), else what it is closest in meaning to."""
    info = entries[artifact_id]
    matched_fields, shared = _shared_words(info, words)
    if shared and similar_to is not None:
        reason = f"shares {', '.join(shared)} with {entries[similar_to].name}"
    elif shared:
        reason = f"mentions {', '.join(shared)} from the query"
    else:
        head = " ".join(info.description.split()[:REASON_WORDS]) or info.name
        more = "…" if len(info.description.split()) > REASON_WORDS else ""
        reason = f"closest in meaning to: {head}{more}"
    explanation: dict[str, Any] = {
        "brain": BRAIN,
        "similarity": round(score, 4),
        "rank": rank,
        "reason": reason,
        "why": "similar meaning",
        "model": model,
    }
    if similar_to is not None:
        explanation["similar_to"] = similar_to
    if toward:
        explanation["query_moved_toward"] = list(toward)
    return BrainHit(
        id=artifact_id,
        score=score,
        brain=BRAIN,
        rank=rank,
        matched_fields=matched_fields,
        explanation=explanation,
    )


def moved_vector(vector: Vectors, centre: Vectors, weight: float) -> Vectors:
    """``vector + weight * centre``, unit length again."""
    moved = vector + weight * centre
    norm = float(np.linalg.norm(moved))
    return (moved / norm if norm > 0 else vector).astype(np.float32)


def check_cosines(pairs: Sequence[tuple[str, float]]) -> None:
    """A cosine similarity of unit vectors lies in [-1, 1]; anything else is a damaged index."""
    for artifact_id, score in pairs:
        if not -1 - COSINE_SLACK <= score <= 1 + COSINE_SLACK:  # also false for NaN
            raise IndexCorruptError(
                f"the semantic index gave {artifact_id!r} a cosine similarity of {score:.4g}, "
                "outside [-1, 1]: its vectors are damaged"
            )


def _shared_words(info: EntryInfo, words: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """The fields of ``info`` that contain some of ``words`` (by stem), and those words in order."""
    wanted = {stem(w): w for w in words}
    fields: list[str] = []
    found: set[str] = set()
    for field, text in (
        ("name", info.name),
        ("description", info.description),
        ("keywords", " ".join(info.keywords)),
    ):
        hits = wanted.keys() & _content_stems(text)
        if hits:
            fields.append(field)
            found |= hits
    return tuple(fields), [w for s, w in wanted.items() if s in found][:5]


@functools.lru_cache(maxsize=4096)
def _content_stems(text: str) -> frozenset[str]:
    """The stems of ``text``'s content words (memoized: the same results are explained to
    query after query)."""
    return frozenset(stem(w) for w in content_words(text))


def clause_lifted(
    vectors: Sequence[Vectors],
    found: Sequence[tuple[str, float]],
    stored: Callable[[Sequence[str]], Vectors],
    share: float,
) -> list[tuple[str, float]]:
    """The artifacts a request's own search ``found`` (``vectors[0]`` is the request's, the
    rest its clauses'), rescored: the similarity to the request plus ``share`` of what the best
    clause adds, ``whole + share * max(0, best clause - whole)``, from their ``stored``
    vectors; best first. The clauses reorder what the request found and add nothing to it, so
    they cost no search of their own."""
    ids = [i for i, _ in found]
    if not ids or len(vectors) < 2:
        return list(found)
    matrix = stored(ids)
    whole = matrix @ vectors[0]
    best = (matrix @ np.stack(vectors[1:]).T).max(axis=1)
    scores = whole + share * np.maximum(best - whole, 0.0)
    order = sorted(range(len(ids)), key=lambda n: (-float(scores[n]), ids[n]))
    return [(ids[n], float(scores[n])) for n in order]


def best_of(rankings: Sequence[Sequence[tuple[str, float]]], limit: int) -> list[tuple[str, float]]:
    """Several searches as one: each artifact at its best similarity to any of them."""
    best: dict[str, float] = {}
    for ranking in rankings:
        for artifact_id, score in ranking:
            if score > best.get(artifact_id, -2.0):
                best[artifact_id] = score
    return sorted(best.items(), key=lambda p: (-p[1], p[0]))[:limit]
