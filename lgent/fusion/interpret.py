"""The ``query_interpretation`` sentence: how the query was read, what filtered it, who answered."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lgent.fusion.classify import Classification
from lgent.fusion.constraints import Constraint
from lgent.models import BrainRun, QueryContext, QueryResponse

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

_TYPE_WORDS = {
    "exact_name": "an exact name lookup",
    "keyword_syntax": "a keyword query",
    "type_query": "a type query",
    "relationship": "a relationship query",
    "semantic_intent": "a semantic intent",
}


def interpretation(
    query: str,
    c: Classification,
    constraints: Sequence[Constraint],
    runs: Sequence[BrainRun],
    total: int,
    context: QueryContext | None,
    *,
    in_text: int = 0,
    change_number: int | None = None,
    notes: Sequence[str] = (),
) -> str:
    """A few sentences a person can read; every part is derived from what actually happened."""
    parts = [f"Understood {query.strip()!r} as {_TYPE_WORDS[c.query_type.value]}: it {c.reason}."]
    if c.syntax_tree is not None:
        words = f"its words ({c.plain!r})" if c.plain else "no words (it only filters)"
        parts.append(f"The grammar restricts the results; the other brains read {words}.")
    if c.notes:
        parts.append("Read as plain words: " + "; ".join(c.notes) + ".")
    if constraints:
        found = f" ({in_text} read from the query text)" if in_text else ""
        parts.append(
            f"Constraints applied as hard filters{found}: "
            + "; ".join(k.description for k in constraints)
            + "."
        )
    else:
        parts.append("No constraints applied.")
    ran = [r for r in runs if r.ran]
    if ran:
        parts.append(
            "Brains that ran: "
            + ", ".join(
                f"{r.brain} (weight {r.weight:g}, {r.hits} hit{'s' * (r.hits != 1)})" for r in ran
            )
            + "."
        )
    not_ran = [r for r in runs if not r.ran]
    if not_ran:
        parts.append("Did not run: " + "; ".join(f"{r.brain} ({r.reason})" for r in not_ran) + ".")
    behind = [
        r
        for r in ran
        if change_number is not None
        and r.change_number is not None
        and r.change_number < change_number
    ]
    if behind:
        parts.append(
            f"Answered from the last consistent state while catching up with change "
            f"{change_number}: "
            + "; ".join(
                f"{r.brain} at change {r.change_number}"
                + (f" ({r.catching_up})" if r.catching_up else "")
                for r in behind
            )
            + "."
        )
    for note in notes:
        parts.append(note[:1].upper() + note[1:] + ".")
    if context is not None and (context.current_pipeline or context.user_history):
        bits = []
        if context.current_pipeline:
            bits.append("pipeline " + " -> ".join(context.current_pipeline))
        if context.user_history:
            bits.append(f"{len(context.user_history)} history item(s)")
        parts.append("Context used for suggestions: " + ", ".join(bits) + ".")
    parts.append(f"{total} artifact{'s' * (total != 1)} matched after filtering.")
    return " ".join(parts)


def shortfall_warnings(
    runs: Sequence[BrainRun], missing: Mapping[str, str], change_number: int
) -> list[str]:
    """What the answer lacks, said where a caller that reads only warnings sees it: each brain
    that was to vote but could not (``missing``: brain -> why), and each that answered from a
    state older than the catalog's ``change_number``."""
    ran = [r.brain for r in runs if r.ran]
    rest = f"results come from {', '.join(ran)} alone" if ran else "no brain answered"
    said = [f"the {brain} brain did not answer ({why}); {rest}" for brain, why in missing.items()]
    for r in runs:
        if r.ran and r.change_number is not None and r.change_number < change_number:
            doing = f": {r.catching_up}" if r.catching_up else ""
            said.append(
                f"the {r.brain} brain answered from change {r.change_number} of "
                f"{change_number} (catching up{doing})"
            )
    return said


async def respond(state: QueryState, context: FusionContext) -> None:
    """The step: the response, with each brain's run, the warnings a caller that reads only
    warnings needs, and the interpretation."""
    plan, c, snap, access = state.the_plan, state.c, state.catalog, context.access
    ran = state.rankings
    runs = tuple(
        BrainRun(
            brain=b,
            ran=b in ran,
            weight=plan.weights.get(b, 0.0),
            hits=len(ran.get(b, [])),
            reason=plan.skipped.get(b, ""),
            change_number=access.reflects(b) if b in ran else None,
            catching_up=access.progress(b) if b in ran else "",
        )
        for b in context.registry.names
    )
    warnings = state.warnings
    warnings.extend(access.notes())
    warnings.extend(shortfall_warnings(runs, plan.missing, snap.change_number))
    made = [str(n) for answer in state.answers.values() for n in answer.notes]
    made.extend(state.remarks)
    total = len(state.fused)
    query = state.arguments.query
    state.response = QueryResponse(
        query=query,
        results=tuple(state.results),
        serendipity=tuple(state.suggestions),
        query_type=c.query_type,
        classification_reason=c.reason,
        query_interpretation=interpretation(
            query,
            c,
            state.constraints,
            runs,
            total,
            state.arguments.context,
            in_text=state.in_text,
            change_number=snap.change_number,
            notes=made,
        ),
        total_matches=total,
        search_time_ms=round((time.perf_counter() - state.started) * 1000, 3),
        brains=runs,
        constraints=tuple(k.description for k in state.constraints),
        warnings=tuple(warnings),
        change_number=snap.change_number,
        matched=tuple(f.id for f in state.fused),
    )
