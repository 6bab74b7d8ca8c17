"""Lineage traversals on small hand-made graphs: depth limits, forks, cycles, paths."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lgent.errors import ValidationError
from lgent.graph.lineage import (
    RELATION_TYPES,
    SELF,
    LineageGraph,
    LineageHit,
    bfs,
)
from lgent.models import RelationType


def hits(found: list[LineageHit]) -> list[tuple[str, str, int, tuple[str, ...]]]:
    return [(h.id, h.relation, h.depth, h.path) for h in found]


@pytest.fixture
def graph() -> LineageGraph:
    g = LineageGraph()
    # generations: scraper-v1 <- v2 <- v3, and a fork v2 <- v3b
    g.add_relation("scraper-v2", "successor_to", "scraper-v1")
    g.add_relation("scraper-v3", "successor_to", "scraper-v2")
    g.add_relation("scraper-v3b", "successor_to", "scraper-v2")
    g.add_relation("news-scraper", "implements", "scraper-v1")
    g.add_relation("news-scraper-2", "successor_to", "news-scraper")
    # dependencies: app -> ticker -> http -> sockets
    g.add_relation("app", "depends_on", "ticker")
    g.add_relation("ticker", "depends_on", "http")
    g.add_relation("http", "depends_on", "sockets")
    g.add_relation("dashboard", "depends_on", "ticker")
    g.add_relation("scraper-v3", "forged_by", "forge")
    g.add_relation("ticker", "forged_by", "forge")
    g.add_relation("a", "similar_to", "b")
    g.add_relation("c", "similar_to", "a")
    return g


def test_relation_types_match_the_catalog_model() -> None:
    assert {r.value for r in RelationType} == RELATION_TYPES


def test_dependencies_respect_depth(graph: LineageGraph) -> None:
    assert hits(graph.dependencies("app")) == [("ticker", "depends_on", 1, ("app", "ticker"))]
    assert hits(graph.dependencies("app", depth=2)) == [
        ("ticker", "depends_on", 1, ("app", "ticker")),
        ("http", "depends_on", 2, ("app", "ticker", "http")),
    ]
    assert [h.id for h in graph.dependencies("app", depth=None)] == ["ticker", "http", "sockets"]


def test_dependents(graph: LineageGraph) -> None:
    assert [h.id for h in graph.dependents("ticker")] == ["app", "dashboard"]
    assert hits(graph.dependents("sockets", depth=3)) == [
        ("http", "depends_on", 1, ("sockets", "http")),
        ("ticker", "depends_on", 2, ("sockets", "http", "ticker")),
        ("app", "depends_on", 3, ("sockets", "http", "ticker", "app")),
        ("dashboard", "depends_on", 3, ("sockets", "http", "ticker", "dashboard")),
    ]


def test_ancestors_nearest_first(graph: LineageGraph) -> None:
    assert hits(graph.ancestors("scraper-v3")) == [
        ("scraper-v2", "successor_to", 1, ("scraper-v3", "scraper-v2")),
        ("scraper-v1", "successor_to", 2, ("scraper-v3", "scraper-v2", "scraper-v1")),
    ]
    assert [h.id for h in graph.ancestors("scraper-v3", depth=1)] == ["scraper-v2"]
    assert graph.ancestors("scraper-v1") == []


def test_descendants_with_and_without_implementers(graph: LineageGraph) -> None:
    assert hits(graph.descendants("scraper-v1")) == [
        ("news-scraper", "implements", 1, ("scraper-v1", "news-scraper")),
        ("scraper-v2", "successor_to", 1, ("scraper-v1", "scraper-v2")),
        ("news-scraper-2", "successor_to", 2, ("scraper-v1", "news-scraper", "news-scraper-2")),
        ("scraper-v3", "successor_to", 2, ("scraper-v1", "scraper-v2", "scraper-v3")),
        ("scraper-v3b", "successor_to", 2, ("scraper-v1", "scraper-v2", "scraper-v3b")),
    ]
    assert [h.id for h in graph.descendants("scraper-v1", include_implementers=False)] == [
        "scraper-v2",
        "scraper-v3",
        "scraper-v3b",
    ]
    assert [h.id for h in graph.descendants("scraper-v1", depth=1)] == [
        "news-scraper",
        "scraper-v2",
    ]


def test_latest_follows_successors_and_breaks_forks_deterministically(
    graph: LineageGraph,
) -> None:
    # fork v2 -> {v3, v3b}, both at depth 2: without a key the smallest id wins
    assert hits([graph.latest("scraper-v1")]) == [
        ("scraper-v3", "successor_to", 2, ("scraper-v1", "scraper-v2", "scraper-v3")),
    ]
    versions = {"scraper-v3": 3, "scraper-v3b": 4}
    assert graph.latest("scraper-v1", key=lambda i: versions.get(i, 0)).id == "scraper-v3b"
    assert graph.latest("scraper-v1", key=lambda i: 0).id == "scraper-v3"  # tie: smallest id
    assert hits([graph.latest("scraper-v3")]) == [("scraper-v3", SELF, 0, ("scraper-v3",))]
    assert graph.latest("unknown").id == "unknown"


def test_latest_prefers_the_longest_chain_without_a_key() -> None:
    g = LineageGraph()
    g.add_relation("b", "successor_to", "a")
    g.add_relation("c", "successor_to", "b")
    g.add_relation("z", "successor_to", "a")
    assert g.latest("a").id == "c"


def test_forged_implementers_similar(graph: LineageGraph) -> None:
    assert [h.id for h in graph.forged("forge")] == ["scraper-v3", "ticker"]
    assert [h.id for h in graph.forger("ticker")] == ["forge"]
    assert hits(graph.implementers("scraper-v1")) == [
        ("news-scraper", "implements", 1, ("scraper-v1", "news-scraper")),
    ]
    assert [h.id for h in graph.similar("a")] == ["b", "c"]
    assert [h.id for h in graph.similar("b")] == ["a"]


def test_cycles_are_tolerated() -> None:
    g = LineageGraph()
    g.add_relation("a", "successor_to", "b")
    g.add_relation("b", "successor_to", "c")
    g.add_relation("c", "successor_to", "a")
    g.add_relation("a", "depends_on", "a")
    assert [h.id for h in g.ancestors("a")] == ["b", "c"]
    assert [h.id for h in g.descendants("a")] == ["c", "b"]
    assert g.latest("a").id == "b"  # a <- c <- b, and b's successor a is on its own path
    assert g.dependencies("a", depth=None) == []


def test_unknown_ids_have_no_relations(graph: LineageGraph) -> None:
    assert graph.dependencies("nope") == []
    assert graph.descendants("nope") == []
    assert "nope" not in graph


def test_remove_relations_of_and_remove_node(graph: LineageGraph) -> None:
    graph.remove_relations_of("ticker")
    assert graph.dependencies("ticker") == []
    assert [h.id for h in graph.dependents("ticker")] == ["app", "dashboard"]
    assert "http" in graph  # http still depends on sockets
    graph.remove_node("http")
    assert "http" not in graph
    assert "sockets" not in graph  # left with no relation at all
    graph.remove_node("nope")
    graph.remove_relations_of("nope")


def test_set_relations_replaces_and_checks_first(graph: LineageGraph) -> None:
    graph.set_relations("app", [("depends_on", "http"), ("similar_to", "dashboard")])
    assert [h.id for h in graph.dependencies("app")] == ["http"]
    before = graph.relations()
    with pytest.raises(ValidationError):
        graph.set_relations("app", [("depends_on", "x"), ("evolves", "y")])
    assert graph.relations() == before


def test_relations_are_sorted_and_idempotent() -> None:
    g = LineageGraph()
    g.add_relation("b", "depends_on", "a")
    g.add_relation("a", "similar_to", "b")
    g.add_relation("b", "depends_on", "a")
    assert g.relations() == [("a", "similar_to", "b"), ("b", "depends_on", "a")]
    assert len(g) == 2


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("a", "evolved_from", "b"), "relation"),
        (("", "depends_on", "b"), "source_id"),
        (("a", "depends_on", 3), "target_id"),
    ],
)
def test_bad_relations_are_validation_errors(args: tuple[str, str, str], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        LineageGraph().add_relation(*args)
    assert info.value.fields == [field]


@pytest.mark.parametrize("depth", [0, -1, 1.5, True])
def test_bad_depth(graph: LineageGraph, depth: object) -> None:
    with pytest.raises(ValidationError, match="depth"):
        graph.dependencies("app", depth=depth)  # type: ignore[arg-type]


def test_bfs_is_a_generator_over_any_neighbors_function() -> None:
    edges = {"s": [("r", "b"), ("r", "a")], "a": [("q", "c")], "b": [("q", "c")]}

    def neighbors(node: str) -> Iterator[tuple[str, str]]:
        yield from edges.get(node, [])

    walk = bfs("s", neighbors)
    assert next(walk) == LineageHit("a", "r", 1, ("s", "a"))
    assert [h.id for h in walk] == ["b", "c"]
    assert [h.path for h in bfs("s", neighbors)][-1] == ("s", "a", "c")


def test_pairs_of_a_relation_follow_every_change() -> None:
    """``pairs_of`` is read once per state of the graph: each change is seen at once."""
    graph = LineageGraph.of([("a", "feeds", "b"), ("a", "depends_on", "c")])
    assert graph.pairs_of("feeds") == (("a", "b"),)
    graph.add_relation("c", "feeds", "d")
    assert graph.pairs_of("feeds") == (("a", "b"), ("c", "d"))
    graph.set_relations("a", [("depends_on", "c")])
    assert graph.pairs_of("feeds") == (("c", "d"),)
    graph.remove_node("d")
    assert graph.pairs_of("feeds") == ()
    assert graph.pairs_of("depends_on") == (("a", "c"),)
    graph.remove_relations_of("a")
    assert graph.pairs_of("depends_on") == ()
