"""Which brains a query asks, with what weight: fusion's cross-brain rules, each named.

The rules, in the order they apply (the first that leaves a brain out gives the reason):

1. ``UNAVAILABLE``: a brain that could not be opened (no model, say) is reported, never
   silently dropped.
2. ``ZERO_WEIGHT``: a brain whose weight for the query class is 0 is not asked.
3. ``FILTER_ONLY``: a keyword-grammar query with no words to compare (``author:F-gent
   type:agent``) goes only to brains that honour the grammar. Otherwise every brain reads its
   words, and fusion keeps only the candidates the grammar matches (``GRAMMAR_RESTRICTS``, in
   ``fusion.py``): embeddings and type paths cannot apply ``status:active`` or ``-draft``
   themselves, the restriction does it for them.
4. ``NEEDS_READING`` (the brain's ``SkipRule``): a brain that answers questions about types
   and relations is asked only when the query names an artifact or was read as such a question.
   ``OTHER_RELATION``: a brain that declares the relations it can speak to
   (``BrainSpec.relations``: the semantic one, alternatives) is not asked about the others.
5. ``AFTER_LEADER`` (the brain's ``SkipRule``, applied once the leader answered, see
   ``leader_settles``): for query classes a brain leads, the expensive brain is asked only when
   the leader's answer leaves room for its votes: fewer answers than the page holds, or answers
   the leader scored alike, which the other votes order (``LEADER_TIES``, ``ties.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lgent.brains.base import GrammarFilter
from lgent.brains.registry import BrainRegistry, SkipRule
from lgent.fusion.classify import Classification
from lgent.models import QueryType

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

CANDIDATE_SET_CLASSES = frozenset({QueryType.RELATIONSHIP})
"""Query classes whose leader's answer is the whole candidate set: an artifact that does not
depend on X is no answer to "what depends on X", however similar it reads."""


@dataclass(slots=True)
class Plan:
    """The weight of every registered brain for one query, and why each left-out one is."""

    weights: dict[str, float]
    skipped: dict[str, str] = field(default_factory=dict)
    leader: str | None = None
    missing: dict[str, str] = field(default_factory=dict)
    """The brains that would have voted but could not (not open, not ready, failed), with why:
    the answer says so in its warnings."""

    def skip(self, brain: str, reason: str) -> None:
        """Leave ``brain`` out (the first reason given is kept)."""
        self.skipped.setdefault(brain, reason)
        self.weights[brain] = 0.0

    def lack(self, brain: str, reason: str) -> None:
        """Leave out ``brain``, which cannot answer; if it was to vote (a weight, not left out
        already), it is ``missing``."""
        if brain not in self.skipped and self.weights.get(brain, 0.0) > 0:
            self.missing[brain] = reason
        self.skip(brain, reason)

    def asks(self, brain: str) -> bool:
        return brain not in self.skipped


def plan_query(
    c: Classification,
    registry: BrainRegistry,
    weights: Mapping[str, float],
    unavailable: Mapping[str, str],
) -> Plan:
    """Rules 1-4 for classification ``c``; ``weights`` are the class's weights by brain."""
    plan = Plan({spec.name: float(weights.get(spec.name, 0.0)) for spec in registry})
    plan.leader = registry.leader(c.query_type)
    for spec in registry:
        name = spec.name
        if name in unavailable:
            plan.lack(name, f"unavailable: {unavailable[name]}")
        elif plan.weights[name] <= 0:
            plan.skip(name, "its weight for this query type is 0")
        elif (
            c.query_type == QueryType.KEYWORD_SYNTAX and not spec.can(GrammarFilter) and not c.plain
        ):
            plan.skip(name, "the keyword query only filters: it has no words to compare")
        elif (
            spec.voting.skip == SkipRule.NEEDS_READING
            and c.reading is None
            and c.named_artifact is None
            and c.query_type != QueryType.EXACT_NAME
        ):
            plan.skip(name, "no type, composition or relationship question recognised")
        elif (
            spec.voting.relations is not None
            and c.reading is not None
            and c.reading.kind == "relationship"
            and c.reading.relation not in spec.voting.relations
        ):
            plan.skip(name, f"it has nothing to say about {c.reading.description}")
    return plan


def leader_settles(
    query_type: QueryType,
    leader: str,
    answered: int,
    admitted: int | None,
    limit: int,
    *,
    ties: bool = False,
) -> str:
    """Rule 5: why a brain asked only after the leader cannot change its answer ("" if it can).

    The leader's order leads the classes it leads, and for ``CANDIDATE_SET_CLASSES`` its answer
    is also the whole candidate set; so later votes matter only past the leader's admitted
    hits, when those are fewer than ``limit``, or where the leader scored some of its first
    ``limit`` answers alike (``ties``: the later votes order those, ``LEADER_TIES`` in
    ``ties.py``). ``admitted`` (hits that pass the constraints) is None when it was not worth
    counting."""
    if ties:
        return ""
    question = _QUESTIONS.get(query_type, "this question")
    if query_type in CANDIDATE_SET_CLASSES:
        return f"the {leader}'s answer is the whole answer to {question}" if answered else ""
    if admitted is None or admitted < limit:
        return ""
    kind = "type-compatible" if query_type == QueryType.TYPE_QUERY else "matching"
    return (
        f"the {leader}'s {admitted} {kind} answers fill the {limit} results, and the "
        f"{leader}'s order leads {question}"
    )


_QUESTIONS = {
    QueryType.TYPE_QUERY: "a type question",
    QueryType.RELATIONSHIP: "a relationship question",
}


async def plan_brains(state: QueryState, context: FusionContext) -> None:
    """The step: each brain's weight for the query's class, and who is left out and why."""
    c = state.c
    weights = context.settings.weights_for(c.query_type.value, context.registry)
    state.plan = plan_query(c, context.registry, weights, context.unavailable)
