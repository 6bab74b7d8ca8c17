"""The candidates: every artifact a brain ranked, read from the catalog in one snapshot, and
admitted only where the catalog holds it, it passes every constraint, and it can answer the
question.

The leader's order leads the classes it leads, and for a relationship question its answer is
the candidate set (``plan.CANDIDATE_SET_CLASSES``); the question's own subject is never an
answer, nor is what the subject is part of (an MCP server, an API: it names its parts in its
description), unless the leader itself answers with it. Measured on the labeled queries:
letting the other votes reorder the graph's answer lost nDCG@10 (relationship 0.987 against
0.995, type_compat 0.977 against 0.994, composition 0.876 against 0.888).
"""

from __future__ import annotations

from lgent.fusion.plan import CANDIDATE_SET_CLASSES
from lgent.fusion.state import FusionContext, QueryState
from lgent.models import QueryType, RelationType


async def rank_candidates(state: QueryState, context: FusionContext) -> None:
    """Each brain's ranking, and every id any of them ranked, in first-seen order."""
    state.rankings = {b: list(answer.ranking) for b, answer in state.answers.items()}
    state.ids = list(dict.fromkeys(i for r in state.rankings.values() for i, _ in r))


async def admit_candidates(state: QueryState, context: FusionContext) -> None:
    """Read the candidates (and a relationship question's subject) in one catalog snapshot and
    keep, in every ranking, only those admitted (entries are decoded only where needed: for
    constraints here, and later for the results shown)."""
    c, ids = state.c, state.ids
    subject = c.named_artifact if c.query_type == QueryType.RELATIONSHIP else None
    read = ids if subject is None or subject in ids else [*ids, subject]
    snap = await context.run(lambda: context.snapshot(read))
    state.snap = snap
    constraints = state.constraints
    admitted = {i: i in snap and all(k.admits(snap.entry(i)) for k in constraints) for i in ids}
    plan = state.the_plan
    leader = plan.leader if plan.leader in state.rankings else None
    state.leader = leader
    if subject is not None and leader is not None and not state.rankings[leader]:
        state.remarks.append(
            f"the {leader} has no answer to this question, so the results are only artifacts "
            f"whose text mentions {subject}"
        )
    candidates = (
        {i for i, _ in state.rankings[leader]}
        if leader is not None and c.query_type in CANDIDATE_SET_CLASSES
        else set()
    )
    wholes = (
        set(snap.entry(subject).relation_targets(RelationType.PART_OF))
        if subject is not None and subject in snap
        else set()
    )
    state.rankings = {
        b: [
            (i, s)
            for i, s in r
            if admitted.get(i)
            and i != subject
            and (i in candidates or (not candidates and i not in wholes))
        ]
        for b, r in state.rankings.items()
    }
