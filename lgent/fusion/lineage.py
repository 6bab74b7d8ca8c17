"""Lineage-aware ordering: a deprecated or retired result whose successor is usable gets the
note "superseded by X"; when X matched the query too but ranks lower, the old artifact moves to
just below X (X keeps the rank it earned). The order stays the query's when the query names the
old artifact (you asked for it) or spells out keyword syntax (you said exactly what you want).
"""

from __future__ import annotations

from lgent.fusion.rrf import Fused
from lgent.fusion.state import FusionContext, QueryState
from lgent.models import QueryType, Status

LOOKED_AT = 100
"""Only this many of the best fused results are checked for a successor."""


async def lineage_order(state: QueryState, context: FusionContext) -> None:
    """The step: notes on superseded results, and each moved below its matching successor."""
    snap, fused = state.catalog, state.fused
    old = [
        f.id
        for f in fused[:LOOKED_AT]
        if f.id in snap and snap.status(f.id) in (Status.DEPRECATED, Status.RETIRED)
    ]
    if not old:
        return
    graph = await context.graph()
    if graph is None:
        return
    successors = await context.run(
        lambda: {i: graph.successor_of(i) if graph.knows(i) else None for i in old}
    )
    c = state.c
    order = list(fused)
    notes: dict[str, tuple[str, ...]] = {}
    for old_id, new_id in successors.items():
        if new_id is None:
            continue
        notes[old_id] = (f"superseded by {new_id}",)
        position = {f.id: n for n, f in enumerate(order)}
        if new_id not in position:
            continue  # not a match for this query: only the note points at it
        notes[new_id] = (*notes.get(new_id, ()), f"successor of {old_id}")
        named_old = c.query_type == QueryType.EXACT_NAME and c.named_artifact == old_id
        if (
            c.query_type == QueryType.KEYWORD_SYNTAX
            or named_old
            or position[new_id] < position[old_id]
        ):
            continue
        demoted = order.pop(position[old_id])
        new_at = position[new_id] - 1  # after the pop
        order.insert(new_at + 1, Fused(old_id, order[new_at].score - 1e-9, demoted.contributions))
    state.fused, state.notes = order, notes
