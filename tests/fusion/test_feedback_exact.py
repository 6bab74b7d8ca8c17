"""WORD_FEEDBACK as fusion runs it (the hits the words vouch for read while the brains answer,
from the entries' stored text) ranks exactly as the rule computed the straightforward way: after
every brain answered, from whole decoded entries, each answer moved on the event loop."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from benchmarks.harness import synthetic
from lgent import LGent
from lgent.brains.base import MovableAnswer
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.fusion.coverage import query_words
from lgent.fusion.feedback import word_feedback
from lgent.fusion.fusion import STEPS, QueryFusion
from lgent.fusion.state import FusionContext, QueryState, Step
from lgent.models import QueryResponse

T = TypeVar("T")


async def straightforward_feedback(state: QueryState, context: FusionContext) -> None:
    """The rule as docs/quality.md states it, computed directly."""
    s = context.settings
    if s.feedback_weight <= 0 or not state.plain:
        return
    words = state.words
    need = max(s.feedback_min_words, s.feedback_share * len(words))
    heads = [
        [i for i, _ in state.answers[spec.name].ranking[: s.feedback_depth]]
        for spec in context.registry
        if spec.voting.matches_words
        and spec.name in state.answers
        and not isinstance(state.answers[spec.name], MovableAnswer)
    ]
    snap = context.snapshot([i for head in heads for i in head])
    toward: list[str] = []
    for head in heads:
        for i in head:
            if i in snap and i not in toward:
                entry = snap.entry(i)
                held = query_words(" ".join((entry.name, entry.description, *entry.keywords)))
                if words and len(words & held) >= need:
                    toward.append(i)
    if not toward:
        return
    for name, answer in list(state.answers.items()):
        if isinstance(answer, MovableAnswer):
            state.answers[name] = answer.moved_toward(toward, s.feedback_weight)


STRAIGHTFORWARD: tuple[Step, ...] = tuple(
    straightforward_feedback if step is word_feedback else step for step in STEPS
)


async def on_a_thread(fn: Callable[[], T]) -> T:
    return await asyncio.to_thread(fn)


def requests(entries: list[dict[str, Any]], n: int) -> list[str]:
    """Sentences in part in the artifacts' own words (as the fusion benchmark's long requests)."""
    rng = random.Random(5)
    picked = rng.sample(entries, n)
    return [
        f"I need something that can {' '.join(e['description'].split()[:12])} for my team"
        for e in picked
    ]


def shown(response: QueryResponse) -> list[tuple[str, float, tuple[tuple[str, float], ...]]]:
    return [(r.id, r.score, tuple((s.brain, s.score) for s in r.sources)) for r in response.results]


@pytest.mark.parametrize("early", [True, False], ids=["read-while-answering", "read-after"])
async def test_feedback_ranks_as_the_straightforward_rule(tmp_path: Path, early: bool) -> None:
    entries, types = synthetic.generate(400, seed=3)
    data = tmp_path / "catalog.jsonl"
    synthetic.write_jsonl(data, entries, types)
    async with LGent.open(tmp_path / "home", embedder=HashingEmbedder(64)) as lg:
        await lg.load(data)
        brains = {name: await asyncio.to_thread(lg.brain, name) for name in lg.registry.names}
        semantic_thread = {"semantic": on_a_thread}

        def fusion(steps: tuple[Step, ...]) -> QueryFusion:
            return QueryFusion(
                brains,
                lg.registry,
                lg.store.snapshot,
                lg.settings.fusion,
                on_a_thread,
                runners=semantic_thread,
                steps=steps,
            )

        steps = STEPS
        if not early:  # a step list whose brains are asked without starting the reading
            steps = tuple(_without_early_reading(s) for s in STEPS)
        moved = 0
        for request in requests(entries, 40):
            fast = await fusion(steps).query(request)
            plain = await fusion(STRAIGHTFORWARD).query(request)
            assert shown(fast) == shown(plain), request
            assert fast.query_interpretation == plain.query_interpretation
            moved += "query was moved toward" in fast.query_interpretation
        assert moved >= 10  # the rule applied to many of them, so the comparison says something


def _without_early_reading(step: Step) -> Step:
    """``step``, with any reading of the vouched hits it started dropped."""

    async def run(state: QueryState, context: FusionContext) -> None:
        await step(state, context)
        if state.vouching is not None:
            state.vouching.cancel()
            state.vouching = None

    return run
