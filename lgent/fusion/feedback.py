"""Word feedback: the words of a sentence point the meaning of it at the right artifacts.

One embedding of a long request averages its clauses, names and values into a vector near
none of them, while a word-matching brain finds the artifacts that hold several of its words. On
a plain-language query, fusion's ``WORD_FEEDBACK`` rule takes the word-matching brains' best
hits (the first ``depth`` of each) that hold at least ``share`` of the query's content words
and at least ``min_words`` of them, and has each answer that can be moved (``MovableAnswer``)
searched again with its query moved toward those artifacts (the semantic brain adds the mean of
their stored vectors, times the weight, to the query's embedding). A hit sharing one or two
incidental words is no evidence and moves nothing. This is pseudo-relevance feedback with a
guard: only what the request's own words vouch for feeds back.

Which hits vouch is read while the other brains still answer (``start_vouching``, called by
``ask_brains``): as soon as the word-matching brains have answered, their best hits' text is
read from the catalog (``Snapshot.text``: no whole entry is decoded) and checked, usually while
the semantic brain is still embedding the query, so the rule itself adds only the moved search.

Measured in docs/quality.md ("Third round (2026-11-26): word feedback"): nDCG@10 +0.6 on
ToolLens, +0.3 on MetaTool's single- and multi-tool requests, the labeled queries unchanged;
without the guard the labeled semantic-intent class lost up to 0.09.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeGuard

from lgent.brains.base import MovableAnswer, RankedAnswer
from lgent.catalog.records import Snapshot
from lgent.config import FusionSettings
from lgent.errors import LGentError
from lgent.fusion.coverage import artifact_words
from lgent.models import EntryText

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

Heads = list[list[str]]
"""The first ``feedback_depth`` ids of each word-matching brain's answer, in registry order."""


def feedback_ids(
    words: frozenset[str],
    rankings: Sequence[Sequence[str]],
    entries: Mapping[str, EntryText],
    *,
    depth: int,
    share: float,
    min_words: int,
) -> tuple[str, ...]:
    """The ids among the first ``depth`` of each ranking whose artifact holds at least
    ``max(min_words, share * len(words))`` of the query's ``words``, in ranking order, once."""
    if not words:
        return ()
    need = max(min_words, share * len(words))
    found: dict[str, None] = {}
    for ranking in rankings:
        for artifact_id in ranking[:depth]:
            entry = entries.get(artifact_id)
            if entry is not None and len(words & artifact_words(entry)) >= need:
                found.setdefault(artifact_id)
    return tuple(found)


def vouched_ids(
    snapshot: Snapshot, words: frozenset[str], heads: Heads, settings: FusionSettings
) -> tuple[str, ...]:
    """``feedback_ids`` of ``heads`` over the text of the entries in ``snapshot``."""
    read = dict.fromkeys(i for head in heads for i in head)
    return feedback_ids(
        words,
        heads,
        {i: snapshot.text(i) for i in read if i in snapshot},
        depth=settings.feedback_depth,
        share=settings.feedback_share,
        min_words=settings.feedback_min_words,
    )


def movable(answer: RankedAnswer) -> TypeGuard[MovableAnswer]:
    """``isinstance(answer, MovableAnswer)``, without the protocol check's cost (tens of
    microseconds a call): the answer has a ``moved_toward``."""
    return getattr(answer, "moved_toward", None) is not None


def _heads(answers: Mapping[str, RankedAnswer], context: FusionContext) -> Heads:
    """The heads of the word-matching brains' answers (an answer that can be moved is not one
    the words vouch with), in registry order."""
    depth = context.settings.feedback_depth
    return [
        [i for i, _ in answers[spec.name].ranking[:depth]]
        for spec in context.registry
        if spec.voting.matches_words and spec.name in answers and not movable(answers[spec.name])
    ]


async def _vouch(state: QueryState, heads: Heads, context: FusionContext) -> tuple[str, ...]:
    """The ids the words vouch for among ``heads`` (one catalog read, off the event loop)."""
    if not any(heads):
        return ()
    read = list(dict.fromkeys(i for head in heads for i in head))
    settings = context.settings
    found: tuple[str, ...] = await context.run(
        lambda: vouched_ids(context.snapshot(read), state.words, heads, settings)
    )
    return found


def start_vouching(
    state: QueryState, context: FusionContext, asked: Mapping[str, asyncio.Future[RankedAnswer]]
) -> None:
    """Start reading which hits the words vouch for as soon as the word-matching brains among
    ``asked`` (the answers being made) have answered, so that it overlaps the others' work
    (``ask_brains`` calls this; ``word_feedback`` takes the result from ``state.vouching``).
    Nothing starts where the rule cannot apply: it is off, the query is not plain language,
    or no brain besides the word-matching ones was asked."""
    if context.settings.feedback_weight <= 0 or not state.plain or not state.words:
        return
    matching = {s.name for s in context.registry if s.voting.matches_words and s.name in asked}
    if not matching or matching == set(asked):
        return

    async def vouch() -> tuple[str, ...]:
        await asyncio.wait([asked[n] for n in matching])
        answers = {
            n: asked[n].result()
            for n in matching
            if not asked[n].cancelled() and asked[n].exception() is None
        }
        return await _vouch(state, _heads(answers, context), context)

    task = asyncio.ensure_future(vouch())
    task.add_done_callback(_retrieved)
    state.vouching = task


def _retrieved(task: asyncio.Future[tuple[str, ...]]) -> None:
    """Mark a failure as seen (``word_feedback`` raises it when it awaits the task; a step list
    without it leaves no "exception was never retrieved" behind)."""
    if not task.cancelled():
        task.exception()


async def word_feedback(state: QueryState, context: FusionContext) -> None:
    """``WORD_FEEDBACK``: on a plain-language query, each answer that can be moved
    (``MovableAnswer``) is searched again, on its brain's runner, with the query moved toward
    the word-matching brains' hits that hold most of the query's words; the moved answer
    replaces it (one that fails leaves it)."""
    s, answers, pending = context.settings, state.answers, state.vouching
    state.vouching = None
    moving = {b: a for b, a in answers.items() if movable(a)}
    if s.feedback_weight <= 0 or not state.plain or not moving:
        if pending is not None:
            pending.cancel()
        return
    if pending is not None:
        toward = await pending
    else:  # the step list has no ask_brains that started it
        toward = await _vouch(state, _heads(answers, context), context)
    if not toward:
        return
    for name, answer in moving.items():
        move = functools.partial(answer.moved_toward, toward, s.feedback_weight)
        try:
            answers[name] = await context.runner(name)(move)
        except LGentError as err:
            context.access.failed(name, err)  # the first answer stands
