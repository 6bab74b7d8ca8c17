"""Asking the brains: every brain the plan asks, at once, each on its own runner.

A brain whose ``SkipRule`` is ``AFTER_LEADER`` (the expensive one) waits for the leader of the
query's class, if there is one and it is asked, and is asked only when the leader's answer
leaves room for its votes in the results (``plan.leader_settles``). A brain that cannot be had
or fails is left out and said to be missing; the user's own syntax error is the answer.
"""

from __future__ import annotations

import asyncio

from lgent.brains.base import BrainQuery, RankedAnswer
from lgent.brains.registry import SkipRule
from lgent.config import FusionSettings
from lgent.errors import IndexNotReadyError, LGentError, QuerySyntaxError
from lgent.fusion.access import Unavailable
from lgent.fusion.classify import Classification
from lgent.fusion.constraints import Constraint
from lgent.fusion.feedback import start_vouching
from lgent.fusion.plan import CANDIDATE_SET_CLASSES, leader_settles
from lgent.fusion.state import FusionContext, QueryState
from lgent.fusion.ties import has_ties
from lgent.models import EntityType, Execution, QueryType, SearchFilters, Status


def answer_depth(limit: int, settings: FusionSettings) -> int:
    """How many hits each brain is asked for: ``fusion.min_brain_hits`` whatever the page size
    (``limit * overfetch`` when more), so the fused answer, its total and its scores do not
    move with ``limit``."""
    return max(limit * settings.overfetch, settings.min_brain_hits)


def brain_query(
    text: str,
    c: Classification,
    limit: int,
    filters: SearchFilters | None,
    settings: FusionSettings,
) -> BrainQuery:
    """The query every brain is asked for ``text`` read as ``c`` (benchmarks ask single brains
    exactly this way)."""
    return BrainQuery(
        text=text,
        limit=limit,
        query_type=c.query_type,
        filters=filters,
        strict=c.query_type == QueryType.KEYWORD_SYNTAX,
        min_should_match=settings.free_text_min_match,
        reading=c.reading,
        named_artifact=c.named_artifact,
        plain_text=c.plain,
    )


async def ask_brains(state: QueryState, context: FusionContext) -> None:
    """Each asked brain's answer and its warnings (all at once); then the note of a query shaped
    like a graph question that could not be read as one."""
    settings = context.settings
    fetch = answer_depth(state.arguments.limit, settings)
    filters = filters_of(state.constraints)
    if context.within is not None:
        filters = filters.model_copy(update={"ids": context.within})
    asked = brain_query(state.text, state.c, fetch, filters, settings)
    state.asked = asked
    plan = state.the_plan
    tasks: dict[str, asyncio.Future[RankedAnswer]] = {}
    deferred: list[str] = []
    for spec in context.registry:
        if not plan.asks(spec.name):
            continue
        if spec.voting.skip == SkipRule.AFTER_LEADER and plan.leader and plan.asks(plan.leader):
            deferred.append(spec.name)
        else:
            tasks[spec.name] = _start(context, spec.name, asked)
    for name in deferred:
        leading = tasks.get(plan.leader or "")
        if leading is not None:
            await asyncio.wait([leading])
            reason = await _leader_settles(state, context, leading)
            if reason:
                plan.skip(name, reason)
                continue
        tasks[name] = _start(context, name, asked)
    start_vouching(state, context, tasks)  # WORD_FEEDBACK reads its hits meanwhile
    outcomes = await asyncio.gather(*tasks.values(), return_exceptions=True)
    for name, outcome in zip(list(tasks), outcomes, strict=True):
        if isinstance(outcome, BaseException):
            if isinstance(outcome, QuerySyntaxError) and asked.strict:
                raise outcome  # the user's syntax error is the answer
            if isinstance(outcome, Unavailable):
                plan.lack(name, outcome.reason)
                continue
            if not isinstance(outcome, LGentError):
                raise outcome
            plan.lack(name, f"failed: {outcome}")
            continue
        state.warnings.extend(outcome.warnings)
        state.answers[name] = outcome
    if state.c.unread:
        state.warnings.insert(0, f"not read as a graph question: {state.c.unread}")


def _start(context: FusionContext, name: str, asked: BrainQuery) -> asyncio.Future[RankedAnswer]:
    runner = context.runner(name)
    access = context.access

    async def ask() -> RankedAnswer:
        try:
            brain = await access.acquire(name)
        except Unavailable:
            raise
        except IndexNotReadyError as err:
            raise Unavailable(name, f"not ready: {err}") from err
        except LGentError as err:
            raise Unavailable(name, f"unavailable: {err}") from err
        try:
            answer: RankedAnswer = await runner(lambda: brain.answer(asked))
            return answer
        except LGentError as err:
            access.failed(name, err)
            raise

    return asyncio.ensure_future(ask())


async def _leader_settles(
    state: QueryState, context: FusionContext, leading: asyncio.Future[RankedAnswer]
) -> str:
    """Why the deferred brains cannot change the leader's answer, or "" if they can."""
    plan, c = state.the_plan, state.c
    limit = answer_depth(state.arguments.limit, context.settings)
    if leading.exception() is not None or plan.leader is None:
        return ""
    ranking = leading.result().ranking
    ids = [i for i, _ in ranking]
    # LEADER_TIES: the other votes still order the leader's equal scores anywhere in the
    # answer (whatever page is shown, the same brains vote: the scores do not move with it)
    ties = has_ties(ranking, len(ranking))
    admitted: int | None = None
    if not ties and c.query_type not in CANDIDATE_SET_CLASSES and len(ids) >= limit:
        snap = await context.run(lambda: context.snapshot(ids))
        admitted = sum(
            1 for i in ids if i in snap and all(x.admits(snap.entry(i)) for x in state.constraints)
        )
    return leader_settles(c.query_type, plan.leader, len(ids), admitted, limit, ties=ties)


def filters_of(constraints: list[Constraint]) -> SearchFilters:
    """The part of the constraints every brain can apply itself (all are post-checked too).

    Two constraints on one attribute must both hold, so their allowed sets intersect."""
    allowed: dict[str, set[str]] = {}
    for c in constraints:
        if c.allowed:
            allowed[c.attribute] = allowed.get(c.attribute, set(c.allowed)) & set(c.allowed)
    return SearchFilters(
        status=tuple(Status(v) for v in sorted(allowed.get("status", ()))),
        entity_type=tuple(EntityType(v) for v in sorted(allowed.get("entity_type", ()))),
        execution=tuple(Execution(v) for v in sorted(allowed.get("execution", ()))),
    )
