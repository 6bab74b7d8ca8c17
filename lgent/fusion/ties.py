"""Leader ties: where the leading brain scores answers alike, the other brains order them.

For the query classes a brain leads (the graph: type and relationship questions) fusion keeps the
leader's order, because reordering its type-correct or relation-correct answer by word and
meaning votes cost nDCG on the labeled queries. But a leader's order among answers it scores
alike is no order at all: catalogs imported from MCP servers, OpenAPI specs and agent cards type
nearly everything as JSON primitives, so "alternatives to X" or "what can take X's output" finds
dozens of artifacts with one signature and one health, which the graph can only list by id.
Fusion's ``LEADER_TIES`` rule keeps the leader's order between different scores and orders each
run of equal scores by the other brains' votes (for a relationship question, the semantic brain
ranks by closeness in meaning to the artifact asked about), then by the leader's own order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lgent.fusion.rrf import Fused

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

TIE_TOLERANCE = 1e-9
"""Leader scores closer than this are alike."""


def leader_groups(ranking: Sequence[tuple[str, float]]) -> dict[str, int]:
    """Each id of the leader's ``ranking`` (best first) mapped to the number of its run of
    equal scores: 0 for the best run, 1 for the next, and so on."""
    groups: dict[str, int] = {}
    group, previous = -1, None
    for artifact_id, score in ranking:
        if artifact_id in groups:
            continue
        if previous is None or abs(score - previous) > TIE_TOLERANCE:
            group += 1
            previous = score
        groups[artifact_id] = group
    return groups


def has_ties(ranking: Sequence[tuple[str, float]], first: int) -> bool:
    """Whether two of the leader's first ``first`` answers share a score."""
    groups = leader_groups(ranking[:first])
    return len(groups) > len(set(groups.values()))


def order_by_leader(fused: list[Fused], leader: str, ranking: Sequence[tuple[str, float]]) -> None:
    """Sort ``fused`` in place: the leader's runs of equal scores in its order, within a run by
    the other brains' votes, then by the leader's rank; what the leader did not find follows, by
    fused score."""
    groups = leader_groups(ranking)
    ranks: Mapping[str, int] = {i: n for n, (i, _) in enumerate(ranking)}
    past = len(ranking)

    def others(f: Fused) -> float:
        return sum(c.contribution for c in f.contributions if c.brain != leader)

    fused.sort(
        key=lambda f: (
            (groups[f.id], -others(f), ranks[f.id]) if f.id in groups else (past, -f.score, 0)
        )
    )


async def leader_ties(state: QueryState, context: FusionContext) -> None:
    """``LEADER_TIES``: the leader's runs of equal scores ordered by the other brains' votes."""
    if state.leader is not None:
        order_by_leader(state.fused, state.leader, state.rankings[state.leader])
