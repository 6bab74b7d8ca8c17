"""Rank fusion as pure functions: weighted reciprocal rank fusion and score-normalized fusion.

``weighted_rrf`` scores a document ``sum_b w_b / (k + rank_b)`` over the brains ``b`` that
ranked it (ranks start at 1; Cormack, Clarke & Buettcher, SIGIR 2009, with k = 60).
``weighted_score_fusion`` min-max normalizes each brain's scores to [0, 1] over its first
``NORMALIZED_OVER`` hits (a hit past them votes 0) and sums them weighted (CombSUM). Ties break on the best single rank, then on the id, so output is stable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

DEFAULT_K = 60
NORMALIZED_OVER = 50
"""Score fusion's min-max range is each brain's first this many hits, however many it was asked
for (every query is answered to ``fusion.min_brain_hits``, 50), so a larger limit changes no
score: the lowest of them normalizes to 0, and a hit past them votes 0. 100 instead: MetaTool
single -0.02, multi +0.31, ToolLens +0.18 nDCG@10, but the labeled plain-language requests
-0.014 (one request's best answer fell from first to third): within noise on the development
sets, outside the labeled figures' 0.01, so 50 stays."""


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one brain added to a document's fused score."""

    brain: str
    rank: int
    score: float
    contribution: float


@dataclass(frozen=True, slots=True)
class Fused:
    """A fused document: its score and each brain's contribution, best first."""

    id: str
    score: float
    contributions: tuple[Contribution, ...] = field(default=())

    @property
    def best_rank(self) -> int:
        return min((c.rank for c in self.contributions), default=1 << 30)


def weighted_rrf(
    rankings: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = DEFAULT_K,
    scales: Mapping[str, Mapping[str, float]] | None = None,
) -> list[Fused]:
    """Fuse ranked lists ``{brain: [(id, brain_score), ...]}`` (best first) by weighted RRF.
    ``scales[brain][id]`` multiplies that brain's vote for that id (1 when absent)."""
    if k <= 0:
        raise ValueError(f"RRF k must be positive, got {k}")
    parts: dict[str, list[Contribution]] = {}
    for brain, ranked in rankings.items():
        weight = weights.get(brain, 0.0)
        scale = (scales or {}).get(brain, {})
        seen: set[str] = set()
        for rank, (doc_id, score) in enumerate(ranked, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            vote = weight * scale.get(doc_id, 1.0) / (k + rank)
            parts.setdefault(doc_id, []).append(Contribution(brain, rank, score, vote))
    return _sorted(parts)


def weighted_score_fusion(
    rankings: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    scales: Mapping[str, Mapping[str, float]] | None = None,
) -> list[Fused]:
    """Fuse by weighted sum of per-brain min-max normalized scores, over each brain's first
    ``NORMALIZED_OVER`` hits (a lone hit normalizes to 1; a hit past them to 0); ``scales`` as
    in ``weighted_rrf``."""
    parts: dict[str, list[Contribution]] = {}
    for brain, ranked in rankings.items():
        if not ranked:
            continue
        weight = weights.get(brain, 0.0)
        scale = (scales or {}).get(brain, {})
        scores = [s for _, s in ranked[:NORMALIZED_OVER]]
        low, high = min(scores), max(scores)
        seen: set[str] = set()
        for rank, (doc_id, score) in enumerate(ranked, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            norm = 1.0 if high == low else min(max((score - low) / (high - low), 0.0), 1.0)
            vote = weight * scale.get(doc_id, 1.0) * norm
            parts.setdefault(doc_id, []).append(Contribution(brain, rank, score, vote))
    return _sorted(parts)


def _sorted(parts: Mapping[str, list[Contribution]]) -> list[Fused]:
    fused = [
        Fused(
            doc_id,
            sum(c.contribution for c in contribs),
            tuple(sorted(contribs, key=lambda c: c.rank)),
        )
        for doc_id, contribs in parts.items()
    ]
    fused.sort(key=lambda f: (-f.score, f.best_rank, f.id))
    return fused


async def fuse_rankings(state: QueryState, context: FusionContext) -> None:
    """The step: the admitted rankings fused, by score or by rank as the query's class says."""
    settings = context.settings
    state.method = settings.method_for(state.c.query_type.value)
    weights = state.the_plan.weights
    if state.method == "score":
        state.fused = weighted_score_fusion(state.rankings, weights, state.scales)
    else:
        state.fused = weighted_rrf(state.rankings, weights, k=settings.rrf_k, scales=state.scales)
