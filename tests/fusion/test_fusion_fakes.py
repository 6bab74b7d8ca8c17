"""QueryFusion with fake brains: planning, weighted fusion, leaders, failures and explanations,
computed by hand (fast: no index, no model)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from lgent.brains.registry import BrainRegistry, SkipRule
from lgent.config import FusionSettings
from lgent.fusion.fusion import QueryFusion
from lgent.models import QueryResponse, QueryType
from tests.conftest import make_entry
from tests.fusion.fakes import FakeBrain, FakeGrammar, FakeReader, Ranking, run, snapshot_of, spec

Q = QueryType
ENTRIES = [
    make_entry("a", entity_type="agent"),
    make_entry("b"),
    make_entry("c"),
    make_entry("d", status="deprecated"),
    make_entry("e"),
    make_entry("x"),
]


def fixed(*ids: str) -> Callable[[str], Ranking]:
    return lambda text: [(i, 1.0 / n) for n, i in enumerate(ids, start=1)]


RRF = FusionSettings(method="rrf")
"""The scores below are worked out by hand for rank fusion (score fusion: test_word_coverage)."""


def fusion(*specs: Any, settings: FusionSettings | None = None) -> QueryFusion:
    registry = BrainRegistry(specs)
    brains = {s.name: s.factory(None) for s in specs}
    return QueryFusion(brains, registry, snapshot_of(ENTRIES), settings or RRF, run)


def ran(response: QueryResponse) -> dict[str, str]:
    """Brain -> "" if it ran, else the reason it did not."""
    return {b.brain: "" if b.ran else b.reason for b in response.brains}


async def test_weighted_rrf_by_hand_with_each_brain_explained() -> None:
    one, two = FakeBrain("one", fixed("a", "b", "c")), FakeBrain("two", fixed("c", "a"))
    f = fusion(spec(one, {Q.SEMANTIC_INTENT: 0.2}), spec(two, {Q.SEMANTIC_INTENT: 0.6}))
    response = await f.query("clean up messy text", limit=3)
    k = 60
    expected = {
        "a": 0.2 / (k + 1) + 0.6 / (k + 2),
        "b": 0.2 / (k + 2),
        "c": 0.2 / (k + 3) + 0.6 / (k + 1),
    }
    assert [r.id for r in response.results] == sorted(expected, key=lambda i: -expected[i])
    for result in response.results:
        assert result.score == pytest.approx(expected[result.id], abs=1e-6)
        children = {c["brain"]: c for c in result.explanation["children"]}
        assert set(children) == {s.brain for s in result.sources}
        assert all(c["reason"].endswith("says so") for c in children.values())
    assert response.query_type == Q.SEMANTIC_INTENT and ran(response) == {"one": "", "two": ""}
    assert one.asked[0].query_type == Q.SEMANTIC_INTENT
    assert one.asked[0].limit == FusionSettings().min_brain_hits  # more than limit * overfetch


async def test_a_zero_weight_brain_is_not_asked_and_a_failing_one_is_reported() -> None:
    quiet = FakeBrain("quiet", fixed("x"))
    broken = FakeBrain("broken", fixed("x"), fail="index missing")
    fine = FakeBrain("fine", fixed("b", "a"))
    f = fusion(
        spec(quiet, {Q.SEMANTIC_INTENT: 0.0}),
        spec(broken, {Q.SEMANTIC_INTENT: 0.5}),
        spec(fine, {Q.SEMANTIC_INTENT: 0.5}),
    )
    response = await f.query("clean up messy text")
    assert not quiet.asked
    reasons = ran(response)
    assert reasons["quiet"] == "its weight for this query type is 0"
    assert reasons["broken"] == "failed: index missing" and reasons["fine"] == ""
    assert [r.id for r in response.results] == ["b", "a"]
    assert "Did not run: quiet" in response.query_interpretation
    # a caller that reads only the warnings (an agent, the MCP answer) hears of it too; a brain
    # left out by the rules (weight 0) is no shortfall
    lacking = [w for w in response.warnings if "did not answer" in w]
    assert lacking == [
        "the broken brain did not answer (failed: index missing); results come from fine alone"
    ]


async def test_settings_override_the_declared_weights() -> None:
    one, two = FakeBrain("one", fixed("a")), FakeBrain("two", fixed("b"))
    override = FusionSettings(weights={"semantic_intent": {"one": 0.1, "two": 0.9}})
    f = fusion(
        spec(one, {Q.SEMANTIC_INTENT: 0.9}), spec(two, {Q.SEMANTIC_INTENT: 0.1}), settings=override
    )
    response = await f.query("clean up messy text")
    assert [r.id for r in response.results] == ["b", "a"]
    assert {b.brain: b.weight for b in response.brains} == {"one": 0.1, "two": 0.9}


async def test_a_reading_brain_leads_type_questions_and_the_expensive_one_waits() -> None:
    graph = FakeReader("graph", fixed("c", "b", "a"))
    words = FakeBrain("words", fixed("a", "e"))
    costly = FakeBrain("costly", fixed("e", "a"))
    specs = (
        spec(words, {Q.TYPE_QUERY: 0.2, Q.SEMANTIC_INTENT: 0.2}),
        spec(costly, {Q.TYPE_QUERY: 0.2, Q.SEMANTIC_INTENT: 0.6}, skip=SkipRule.AFTER_LEADER),
        spec(
            graph,
            {Q.TYPE_QUERY: 0.6, Q.SEMANTIC_INTENT: 0.2},
            skip=SkipRule.NEEDS_READING,
            leads=[Q.TYPE_QUERY],
        ),
    )
    # the leader's answer fills the depth every query is answered to (whatever the page size)
    f = fusion(*specs, settings=dataclasses.replace(RRF, min_brain_hits=3))
    filled = await f.query("PDF -> Summary", limit=2)
    assert filled.query_type == Q.TYPE_QUERY
    assert [r.id for r in filled.results] == ["c", "b"]  # the leader's order
    assert "fill the 3 results" in ran(filled)["costly"] and not costly.asked
    assert words.asked[-1].reading is not None and words.asked[-1].reading.output_type == "Summary"
    roomy = await fusion(*specs, settings=dataclasses.replace(RRF, min_brain_hits=5)).query(
        "PDF -> Summary", limit=5
    )
    assert ran(roomy)["costly"] == "" and [r.id for r in roomy.results][:3] == ["c", "b", "a"]
    assert [r.id for r in roomy.results][3:] == ["e"]  # what only the others found follows
    plain = await f.query("clean up messy text")
    assert ran(plain)["graph"] == "no type, composition or relationship question recognised"


async def test_a_relationship_answer_is_the_candidate_set_without_its_subject() -> None:
    graph = FakeReader("graph", fixed("x", "b", "c"), known=("x",))
    other = FakeBrain("other", fixed("a", "b", "x"))
    f = fusion(
        spec(other, {Q.RELATIONSHIP: 0.5}),
        spec(graph, {Q.RELATIONSHIP: 0.5}, skip=SkipRule.NEEDS_READING, leads=[Q.RELATIONSHIP]),
    )
    response = await f.query("after x")
    assert response.query_type == Q.RELATIONSHIP
    assert [r.id for r in response.results] == ["b", "c"]  # "a" is no answer; "x" is the subject


async def test_constraints_and_status_filters_apply_to_every_brain() -> None:
    one = FakeBrain("one", fixed("d", "a", "b"))
    f = fusion(spec(one, {Q.SEMANTIC_INTENT: 1.0}))
    agents = await f.query("clean up messy text", constraints=["agents only"])
    assert [r.id for r in agents.results] == ["a"]
    assert one.asked[-1].filters is not None and one.asked[-1].filters.entity_type
    everything = await f.query("clean up messy text")
    assert [r.id for r in everything.results] == ["d", "a", "b"]


async def test_a_grammar_query_restricts_every_brain_to_what_it_matches() -> None:
    grammar = FakeGrammar("grammar", fixed("b", "c"), matches={"b", "c", "e"})
    vectors = FakeBrain("vectors", fixed("a", "e", "c"))
    f = fusion(
        spec(grammar, {Q.KEYWORD_SYNTAX: 1.0}, honours_grammar=True),
        spec(vectors, {Q.KEYWORD_SYNTAX: 0.5}),
    )
    worded = await f.query('author:someone "exact phrase"')
    assert worded.query_type == Q.KEYWORD_SYNTAX and grammar.asked[-1].strict
    assert vectors.asked[-1].plain_text == "exact phrase"  # the words, not the filter
    assert {r.id for r in worded.results} == {"b", "c", "e"}  # "a" does not match the grammar
    assert "The grammar restricts the results" in worded.query_interpretation
    filters_only = await f.query("author:someone type:agent")
    assert "no words to compare" in ran(filters_only)["vectors"]
    assert [r.id for r in filters_only.results] == ["b", "c"]
