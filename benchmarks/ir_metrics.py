"""Ranking metrics over binary judgments (a set of relevant ids per query), as percentages.

nDCG and recall are those of ``benchmarks.quality`` (gain 2^1 - 1 = 1 per relevant id);
C@k ("completeness", COLT) is 1 when every relevant id is in the top k.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from benchmarks.quality import ndcg, recall

METRICS = ("ndcg@10", "recall@5", "recall@10", "c@10")
EXTRA = ("mrr@10", "recall@100")


def complete(ranked: Sequence[str], relevant: Set[str], k: int = 10) -> float:
    """1.0 when every relevant id is among the first ``k`` (0.0 with nothing relevant)."""
    return 1.0 if relevant and relevant <= set(ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: Set[str], k: int = 10) -> float:
    return next((1.0 / (i + 1) for i, d in enumerate(ranked[:k]) if d in relevant), 0.0)


def scores(ranked: Sequence[str], relevant: Set[str]) -> dict[str, float]:
    """Every metric of ``METRICS`` and ``EXTRA`` for one query, from 0 to 1."""
    graded = dict.fromkeys(relevant, 1)
    return {
        "ndcg@10": ndcg(ranked, graded, 10),
        "recall@5": recall(ranked, graded, 5),
        "recall@10": recall(ranked, graded, 10),
        "c@10": complete(ranked, relevant, 10),
        "mrr@10": reciprocal_rank(ranked, relevant, 10),
        "recall@100": recall(ranked, graded, 100),
    }


def mean_scores(rankings: Sequence[Sequence[str]], judged: Sequence[Set[str]]) -> dict[str, float]:
    """Each metric averaged over the queries, in percent."""
    if len(rankings) != len(judged):
        raise ValueError(f"{len(rankings)} rankings for {len(judged)} judged queries")
    totals = dict.fromkeys((*METRICS, *EXTRA), 0.0)
    for ranked, relevant in zip(rankings, judged, strict=True):
        for name, value in scores(ranked, relevant).items():
            totals[name] += value
    n = max(len(rankings), 1)
    return {name: 100.0 * value / n for name, value in totals.items()}
