"""Runnable with what the request gives (``RUNNABLE``): a tool the request's own values can run
is not buried.

A request that writes values ("from 2019-01-01 to 2019-12-31 around latitude 41.5 and longitude
-72.7", "the email address a@b.org") asks for tools that take them. ``lgent.kinds.supplied``
reads which value kinds the text gives; a candidate whose every inferred need is one of them (or
a subkind of one: a ``Date`` given, a ``Date`` needed) can run on the request alone. On a
plain-language query, the best such candidates (at most ``MAX_LIFTED``, in fused order, from the
first ``DEPTH`` results) that are below position ``fusion.runnable`` are lifted to it, one after
another; nothing else moves. Needs of a kind most candidates need (a bare text, an identifier)
count for nothing: only a tool needing a specific supplied kind is lifted. The rule names no tool,
no kind and no query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lgent.fusion.names import lift
from lgent.fusion.supplied import request_kinds, shipped_vocabulary

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

DEPTH = 100
"""Candidates of the fused order read."""
MAX_LIFTED = 3
"""Candidates lifted at most."""
GENERAL = 0.2
"""A supplied kind that more than this share of the candidates read need says nothing."""


def runnable_ids(
    ranked: list[tuple[str, frozenset[str]]],
    supplied: frozenset[str],
    is_subkind: Callable[[str, str], bool],
) -> list[str]:
    """Of ``ranked`` (id, inferred needs), best first, those whose every need a ``supplied``
    kind satisfies, one of them a kind few of the candidates need."""
    common = {
        kind
        for kind in supplied
        if sum(1 for _, needs in ranked if kind in needs) > GENERAL * max(len(ranked), 1)
    }
    found = []
    for artifact_id, needs in ranked:
        if not needs:
            continue
        met = [n for n in needs if any(is_subkind(s, n) for s in supplied)]
        if len(met) == len(needs) and any(n not in common for n in met):
            found.append(artifact_id)
    return found


async def runnable(state: QueryState, context: FusionContext) -> None:
    """``RUNNABLE``: the candidates the request's values can run are lifted to the position
    ``fusion.runnable`` (0: off)."""
    position = context.settings.runnable
    if position <= 0 or not state.plain or len(state.fused) <= position:
        return
    vocabulary = shipped_vocabulary()
    supplied = request_kinds(state)
    if not supplied:
        return
    snap = state.catalog
    ranked: list[tuple[str, frozenset[str]]] = []
    for fused in state.fused[:DEPTH]:
        entry = snap.entry(fused.id) if fused.id in snap else None
        needs = (
            frozenset(k.type_expr for k in entry.tool_kinds().needs)
            if entry is not None and entry.kinds
            else frozenset()
        )
        ranked.append((fused.id, needs))

    def is_subkind(given: str, need: str) -> bool:
        return given in vocabulary and need in vocabulary and vocabulary.is_subkind(given, need)

    lifted = runnable_ids(ranked, supplied, is_subkind)[:MAX_LIFTED]
    for offset, artifact_id in enumerate(lifted):
        state.fused = lift(state.fused, artifact_id, position + offset)


__all__ = ["DEPTH", "GENERAL", "MAX_LIFTED", "runnable", "runnable_ids"]
