"""Weak matches: say so when nothing in the catalog is close to a plain-language request.

Fused scores are relative: each brain's best hit normalizes to its full vote, so "how do I bake
sourdough bread" against a catalog of data tools still gets a first result scored 0.8. A caller,
above all an agent that acts on the first result, needs to know the answer is only the nearest
artifact. Fusion's ``WEAK_MATCHES`` rule warns on a plain-language query when a brain that judges
closeness says its best match is weak (``RankedAnswer.weak``: the semantic brain, below
``semantic.weak_match``) and no word-matching brain found an artifact that holds at least
``WORD_EVIDENCE`` of the query's content words. Ranking is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from lgent.fusion.coverage import coverage

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

WORD_EVIDENCE = 0.5
"""The share of a request's content words one artifact must hold for its words to count as a
match on their own (``coverage.coverage``)."""


def weak_match_warning(weak: Mapping[str, str], best_coverage: Iterable[float]) -> str | None:
    """The warning for a query whose brains said ``weak`` ({brain: why}, the weak ones only),
    given each word-matching brain's best coverage of the query's words; None when no brain
    said weak or words matched well enough."""
    if not weak or max(best_coverage, default=0.0) >= WORD_EVIDENCE:
        return None
    why = "; ".join(f"{brain}: {reason}" for brain, reason in sorted(weak.items()))
    return (
        "weak match: nothing in the catalog is close to this request, so the results are only "
        f"the nearest artifacts ({why}; no artifact holds half of its words)"
    )


def one_brain_warning(reason: str) -> str:
    """The warning of one brain's own answer (``LGent.search``) whose best match is weak
    (``reason``: its ``RankedAnswer.weak``)."""
    return f"weak match: nothing is close in meaning ({reason})"


async def weak_matches(state: QueryState, context: FusionContext) -> None:
    """``WEAK_MATCHES``: on a plain-language query, a warning when the brains that judge
    closeness found nothing close and no artifact holds the query's words."""
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
    warning = weak_match_warning(weak, best)
    if warning is not None:
        state.warnings.append(warning)
