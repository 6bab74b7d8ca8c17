"""Weak matches: say so when nothing in the catalog is close to a plain-language request.

Fused scores are relative: each brain's best hit normalizes to its full vote, so "how do I bake
sourdough bread" against a catalog of data tools still gets a first result scored 0.8. A caller,
above all an agent that acts on the first result, needs to know the answer is only the nearest
artifact. Fusion's ``WEAK_MATCHES`` rule warns on a plain-language query when a brain that judges
closeness says its best match is weak (``RankedAnswer.weak``: the semantic brain, below
``semantic.weak_match``, or when its model has a word for none of the query's words) and no
word-matching brain found an artifact that holds at least ``WORD_EVIDENCE`` of the query's
content words. The warning names the closest artifacts, and the scores are calibrated: each is
multiplied by how much of a real match the best evidence is (the weak brain's ``confidence``,
or the best word coverage over ``WORD_EVIDENCE``), so a random string of letters no longer gets
a first result scored 0.8. The order is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from lgent.fusion.coverage import coverage
from lgent.fusion.rrf import Fused

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

WORD_EVIDENCE = 0.5
"""The share of a request's content words one artifact must hold for its words to count as a
match on their own (``coverage.coverage``)."""
CLOSEST_SHOWN = 3
"""How many of the nearest artifacts a weak-match warning names."""


@runtime_checkable
class Confident(Protocol):
    """An answer that says how much of a real match its best hit is (0 to 1; the semantic
    brain's: its similarity over the weak bar, 0 when its model reads none of the words)."""

    @property
    def confidence(self) -> float: ...


def weak_match_warning(
    weak: Mapping[str, str], best_coverage: Iterable[float], closest: Sequence[str] = ()
) -> str | None:
    """The warning for a query whose brains said ``weak`` ({brain: why}, the weak ones only),
    given each word-matching brain's best coverage of the query's words and the ``closest``
    artifacts (the first fused results); None when no brain said weak or words matched well
    enough."""
    if not weak or max(best_coverage, default=0.0) >= WORD_EVIDENCE:
        return None
    why = "; ".join(f"{brain}: {reason}" for brain, reason in sorted(weak.items()))
    near = f"; the closest: {', '.join(closest[:CLOSEST_SHOWN])}" if closest else ""
    return (
        "weak match: nothing in the catalog is close to this request, so the results are only "
        f"the nearest artifacts ({why}; no artifact holds half of its words{near})"
    )


def one_brain_warning(reason: str) -> str:
    """The warning of one brain's own answer (``LGent.search``) whose best match is weak
    (``reason``: its ``RankedAnswer.weak``)."""
    return f"weak match: nothing is close in meaning ({reason})"


def calibrated(fused: Sequence[Fused], evidence: float) -> list[Fused]:
    """``fused`` with every score multiplied by ``evidence`` (0 to 1), in the same order."""
    return [Fused(f.id, f.score * evidence, f.contributions) for f in fused]


async def weak_matches(state: QueryState, context: FusionContext) -> None:
    """``WEAK_MATCHES``: on a plain-language query, a warning naming the closest artifacts when
    the brains that judge closeness found nothing close and no artifact holds the query's
    words; the scores are then scaled by the best evidence there is."""
    if not state.fused or not state.plain:
        return
    weak = {
        b: answer.weak for b, answer in state.answers.items() if b in state.rankings and answer.weak
    }
    if not weak:
        return
    snap = state.catalog
    best = [
        max(
            (
                coverage(state.words, snap.entry(i))
                for i, _ in state.rankings[spec.name]
                if i in snap
            ),
            default=0.0,
        )
        for spec in context.registry
        if spec.voting.matches_words and state.rankings.get(spec.name)
    ]
    closest = [f.id for f in state.fused[:CLOSEST_SHOWN]]
    warning = weak_match_warning(weak, best, closest)
    if warning is None:
        return
    state.warnings.append(warning)
    confidence = [
        answer.confidence
        for b, answer in state.answers.items()
        if b in weak and isinstance(answer, Confident)
    ]
    evidence = max([*confidence, *(c / WORD_EVIDENCE for c in best)], default=1.0)
    state.fused = calibrated(state.fused, min(evidence, 1.0))
