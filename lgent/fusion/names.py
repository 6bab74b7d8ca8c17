"""Name matches: an artifact the request names, or nearly names, is not buried.

On a plain-language query the semantic brain leads (0.8 of the vote for a short sentence), and
its order can push down the artifact whose name the request spells out: "send a message to
slack" put ``slack.com/get/im.list`` above ``chat.postMessage``, which the keyword brain ranked
first. Fusion's ``NAME_MATCHES`` rule: a word-matching brain's first hit whose name or id holds
at least one of the query's content words is lifted past the results above it whose names hold
fewer of them, never above one whose name holds as many, and never above position
``fusion.name_matches`` (3) unless its name holds ``STRONG_NAME`` (2) of the words; nothing else
moves, and the interpretation says so. Measured in docs/quality.md ("Fourth round").
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from lgent.fusion.coverage import query_words
from lgent.fusion.rrf import Fused

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState


STRONG_NAME = 2
"""A name holding this many of the query's words may be lifted to the top, past the results
whose names hold fewer."""


@lru_cache(maxsize=8192)
def name_words(artifact_id: str, name: str) -> frozenset[str]:
    """The stemmed content words of an artifact's id and name (identifiers split)."""
    return query_words(f"{artifact_id} {name}")


def lift(fused: list[Fused], artifact_id: str, position: int) -> list[Fused]:
    """``fused`` with ``artifact_id`` moved up to ``position`` (1-based) if it is lower, scored
    just above the result it passes (so the scores still fall down the list)."""
    at = next((n for n, f in enumerate(fused) if f.id == artifact_id), None)
    if at is None or at < position:
        return fused
    order = list(fused)
    moved = order.pop(at)
    above = order[position - 1]
    order.insert(position - 1, Fused(moved.id, above.score + 1e-9, moved.contributions))
    return order


async def name_matches(state: QueryState, context: FusionContext) -> None:
    """``NAME_MATCHES``: each word-matching brain's first hit whose name holds some of the
    query's words is lifted past the results above it whose names hold fewer."""
    position = context.settings.name_matches
    if position <= 0 or not state.plain or not state.words or len(state.fused) <= position:
        return
    snap = state.catalog
    for spec in context.registry:
        ranking = state.rankings.get(spec.name)
        if not spec.voting.matches_words or not ranking:
            continue
        top = ranking[0][0]
        if top not in snap:
            continue

        def held(artifact_id: str) -> int:
            return len(state.words & name_words(artifact_id, snap.text(artifact_id).name))

        mine = held(top)
        at = next((n for n, f in enumerate(state.fused) if f.id == top), None)
        if mine == 0 or at is None or at < position:
            continue
        # past the results above it whose names hold fewer of the words, never above one
        # whose name holds as many, nor above ``position``
        stronger = [
            n for n, f in enumerate(state.fused[:at]) if f.id in snap and held(f.id) >= mine
        ]
        floor = 1 if mine >= STRONG_NAME else position
        target = max(floor, (stronger[-1] + 2) if stronger else 1)
        if target <= at:
            state.fused = lift(state.fused, top, target)
            state.remarks.append(
                f"{top} was lifted to result {target}: the {spec.name} brain ranked it first "
                f"and its name holds {mine} of the query's words"
            )
