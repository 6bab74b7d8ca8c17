"""LEADER_TIES (lgent/fusion/ties.py): the leader's runs of equal scores are ordered by the
other brains' votes; its order between different scores stays (fake brains, no model)."""

from __future__ import annotations

from lgent.brains.registry import BrainRegistry, SkipRule
from lgent.fusion.fusion import QueryFusion
from lgent.fusion.rrf import Contribution, Fused
from lgent.fusion.ties import has_ties, leader_groups, order_by_leader
from lgent.models import QueryType
from tests.fusion.fakes import FakeBrain, FakeReader, Ranking, snapshot_of, spec
from tests.fusion.test_fusion_fakes import ENTRIES, RRF, ran, run

Q = QueryType


def test_runs_of_equal_scores_are_groups_in_the_leaders_order() -> None:
    ranking = [("a", 0.9), ("b", 0.5), ("c", 0.5), ("d", 0.5 + 1e-12), ("e", 0.1)]
    assert leader_groups(ranking) == {"a": 0, "b": 1, "c": 1, "d": 1, "e": 2}
    assert has_ties(ranking, 3) and not has_ties(ranking, 2)
    assert not has_ties([("a", 0.9), ("b", 0.5)], 10)


def vote(brain: str, contribution: float) -> Contribution:
    return Contribution(brain, 1, 1.0, contribution)


def test_the_others_order_a_run_and_never_cross_the_leaders_order() -> None:
    leader = [("a", 0.9), ("b", 0.5), ("c", 0.5), ("d", 0.1)]
    fused = [
        Fused("a", 0.1, (vote("graph", 0.1),)),
        Fused("b", 0.1, (vote("graph", 0.1),)),
        Fused("c", 0.4, (vote("graph", 0.09), vote("semantic", 0.31))),
        Fused("d", 0.9, (vote("graph", 0.08), vote("semantic", 0.82))),
        Fused("z", 0.5, (vote("semantic", 0.5),)),
    ]
    order_by_leader(fused, "graph", leader)
    # c before b (the semantic vote orders the tie); d stays below them whatever its votes;
    # z, which the leader did not find, follows
    assert [f.id for f in fused] == ["a", "c", "b", "d", "z"]


def alike(*ids: str) -> Ranking:
    return [(i, 0.5) for i in ids]


def relationship_fusion(
    graph_answer: Ranking, meaning: Ranking, relations: tuple[str, ...] | None = None
) -> tuple[QueryFusion, FakeBrain]:
    graph = FakeReader("graph", lambda text: graph_answer, known=("x",))
    semantic = FakeBrain("semantic", lambda text: meaning)
    specs = (
        spec(semantic, {Q.RELATIONSHIP: 0.1}, skip=SkipRule.AFTER_LEADER, relations=relations),
        spec(graph, {Q.RELATIONSHIP: 0.7}, skip=SkipRule.NEEDS_READING, leads=[Q.RELATIONSHIP]),
    )
    registry = BrainRegistry(specs)
    brains = {s.name: s.factory(None) for s in specs}
    return QueryFusion(brains, registry, snapshot_of(ENTRIES), RRF, run), semantic


async def test_a_relationship_answer_scored_alike_is_ordered_by_meaning() -> None:
    f, semantic = relationship_fusion(alike("b", "c", "e"), [("e", 0.9), ("a", 0.8), ("c", 0.7)])
    response = await f.query("after x", limit=3)
    assert ran(response)["semantic"] == "" and semantic.asked
    # the graph's candidates only ("a" is no answer), in the semantic brain's order; "b",
    # which it did not rank, last of the run
    assert [r.id for r in response.results] == ["e", "c", "b"]


async def test_a_relationship_answer_without_ties_keeps_the_graphs_order() -> None:
    ordered = [("b", 0.9), ("c", 0.8), ("e", 0.7)]
    f, semantic = relationship_fusion(ordered, [("e", 0.9), ("c", 0.7)])
    response = await f.query("after x", limit=3)
    assert [r.id for r in response.results] == ["b", "c", "e"]
    assert "whole answer" in ran(response)["semantic"] and not semantic.asked


async def test_a_brain_is_asked_only_about_the_relations_it_declares() -> None:
    f, semantic = relationship_fusion(alike("b", "c", "e"), [("e", 0.9)], relations=("similar",))
    after = await f.query("after x", limit=3)
    assert "nothing to say about after x" in ran(after)["semantic"] and not semantic.asked
    assert [r.id for r in after.results] == ["b", "c", "e"]  # the graph's order, by id
    alike_x = await f.query("like x", limit=3)
    assert ran(alike_x)["semantic"] == "" and alike_x.results[0].id == "e"


async def test_what_the_subject_is_part_of_is_no_answer_unless_the_leader_says_so() -> None:
    """An MCP server names its tools in its description, so words find it for every question
    about one of them; it answers a question about its part only if the graph says so."""
    from tests.conftest import make_entry

    entries = [
        make_entry("srv", entity_type="other"),
        make_entry("x", relations=[{"type": "part_of", "target": "srv"}]),
        make_entry("b"),
    ]

    def fused(graph_answer: Ranking) -> QueryFusion:
        graph = FakeReader("graph", lambda text: graph_answer, known=("x",))
        words = FakeBrain("words", lambda text: [("srv", 2.0), ("b", 1.0)])
        specs = (
            spec(words, {Q.RELATIONSHIP: 0.1}),
            spec(graph, {Q.RELATIONSHIP: 0.7}, skip=SkipRule.NEEDS_READING, leads=[Q.RELATIONSHIP]),
        )
        brains = {s.name: s.factory(None) for s in specs}
        return QueryFusion(brains, BrainRegistry(specs), snapshot_of(entries), RRF, run)

    alone = await fused([]).query("after x")
    assert [r.id for r in alone.results] == ["b"]
    said = await fused([("srv", 0.9)]).query("after x")
    assert [r.id for r in said.results] == ["srv"]
