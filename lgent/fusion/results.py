"""The results: the first ``limit`` of the fused order, of which only the page shown is made
(entries decoded, each brain's hit explained), with its sources and explanation tree: the
fusion node with the formula, one child per brain with that brain's own explanation, and the
lineage notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lgent.brains.base import RankedAnswer
from lgent.fusion.rrf import Fused
from lgent.fusion.state import FusionContext, QueryState
from lgent.models import BrainHit, CatalogEntry, EntryText, QueryResult, SourceHit

SUGGESTED_FROM = 3
"""Suggestions start from this many of the best results (``serendipity.suggest``)."""


async def make_results(state: QueryState, context: FusionContext) -> None:
    """The step: the page of results, explained (and the entries suggestions start from)."""
    snap, shown = state.catalog, state.shown
    top = state.fused[: state.arguments.limit]  # every fused id passed the snapshot
    page = top if shown is None else top[shown.start : shown.stop]
    state.top = top
    state.entries = {f.id: snap.entry(f.id) for f in (*page, *top[:SUGGESTED_FROM])}
    by_brain = {b: explained(answer, page, state.entries) for b, answer in state.answers.items()}
    state.results = [
        result(f, state.entries[f.id], by_brain, state.notes.get(f.id, ()), state.method, context)
        for f in page
    ]
    if state.companions:  # COMPANIONS (fusion/companions.py) said which results serve another
        state.results = [
            r.model_copy(update={"companion": state.companions.get(r.id)}) for r in state.results
        ]


def result(
    f: Fused,
    entry: CatalogEntry,
    by_brain: Mapping[str, Mapping[str, BrainHit]],
    notes: tuple[str, ...],
    method: str,
    context: FusionContext,
) -> QueryResult:
    sources = tuple(
        SourceHit(
            brain=c.brain,
            rank=c.rank,
            score=round(c.score, 6),
            contribution=round(c.contribution, 6),
        )
        for c in f.contributions
    )
    highlights: dict[str, str] = {}
    children = []
    for c in f.contributions:
        hit = by_brain.get(c.brain, {}).get(f.id)
        if hit is None:
            continue
        highlights = highlights or dict(hit.highlights)
        children.append({**hit.explanation, "contribution": round(c.contribution, 6)})
    k = context.settings.rrf_k
    explanation: dict[str, Any] = {
        "fusion": "weighted reciprocal rank fusion"
        if method == "rrf"
        else "weighted min-max score fusion",
        "score": round(f.score, 6),
        "formula": f"sum(weight / ({k} + rank))"
        if method == "rrf"
        else "sum(weight * normalized score)",
        "children": children,
    }
    superseded = next(
        (n.removeprefix("superseded by ") for n in notes if n.startswith("superseded by ")),
        None,
    )
    if notes:
        explanation["lineage"] = list(notes)
    return QueryResult(
        id=f.id,
        score=round(f.score, 6),
        sources=sources,
        entry=entry,
        highlights=highlights,
        explanation=explanation,
        superseded_by=superseded,
        notes=notes,
    )


def explained(
    answer: RankedAnswer, top: Sequence[Fused], entries: Mapping[str, EntryText]
) -> dict[str, BrainHit]:
    """The brain's explained hits for the results shown."""
    return {hit.id: hit for hit in explain_hits(answer, [f.id for f in top], entries)}


def explain_hits(
    answer: RankedAnswer, ids: Sequence[str], entries: Mapping[str, EntryText]
) -> list[BrainHit]:
    """The brain's explained hits of ``ids`` held in ``entries`` (the entries, or their text),
    in order: how fusion explains a brain's part in the results it shows, and how a direct
    one-brain search explains its hits (``lgent.fusion.direct``)."""
    made = (answer.explain(i, entries[i]) for i in ids if i in entries)
    return [hit for hit in made if hit is not None]
