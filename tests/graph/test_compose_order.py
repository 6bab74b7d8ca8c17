"""The order and reach of composition over inferred kinds: a list of a kind gives (and a tool
taking a list takes) one of them; ``compatible`` puts consumers that need nothing else first
and lets sources take turns; a hole before an artifact is filled through any type it needs."""

from __future__ import annotations

from lgent.graph.facts import ArtifactFacts
from lgent.graph.sides import ELEMENT, sides_of
from lgent.graph.signatures import Signature
from lgent.graph.spread import taking_turns, unmet
from lgent.models import Relation, TypeDecl
from lgent.resolver.holes import fill_holes
from lgent.resolver.resolver import DependencyResolver
from tests.conftest import entry_lookup
from tests.graph.test_kind_ports import GEOCODE, TRANSCRIPT, WEATHER, WRITE, graph_of, tool


def facts(
    needs: tuple[tuple[str, float], ...], outputs: tuple[tuple[str, float], ...]
) -> ArtifactFacts:
    return ArtifactFacts(
        "a/t",
        "t",
        "active",
        "tool",
        None,
        None,
        None,
        0,
        None,
        "1",
        (),
        None,
        None,
        needs,
        outputs,
        (),
    )


def test_a_list_of_a_kind_is_also_one_of_it() -> None:
    sides = sides_of(
        facts((("List[SvgFilePath]", 0.8),), (("List[GeoPoint]", 0.6),)), lambda _: False
    )
    assert [(p.type, p.confidence) for p in sides.outputs] == [
        ("List[GeoPoint]", 0.6),
        ("GeoPoint", 0.6 * ELEMENT),
    ]
    assert [p.type for p in sides.inputs] == ["List[SvgFilePath]", "SvgFilePath"]
    assert sides.needs == ("List[SvgFilePath]",)  # what it must be given is unchanged


def test_unmet_needs_and_turns() -> None:
    def fits(a: str, b: str) -> bool:
        return a == b

    assert unmet(("GeoPoint",), ("GeoPoint",), fits) == 0
    assert unmet(("GeoPoint", "Date", "Distance"), ("GeoPoint",), fits) == 2
    found = [Signature(i, None, None) for i in ("s/a", "s/b", "s/c", "t/a", "u/a", "t/b")]
    turned = taking_turns(found, lambda i: i.split("/")[0])
    assert [s.id for s in turned] == ["s/a", "t/a", "u/a", "s/b", "t/b", "s/c"]


def test_consumers_needing_nothing_else_come_first_and_sources_take_turns() -> None:
    radius = tool(
        "a/places_within",
        "Find places within a radius around a point.",
        {
            "latitude": {"type": "number"},
            "longitude": {"type": "number"},
            "radius": {"type": "number", "description": "Search radius in meters"},
        },
        ["latitude", "longitude", "radius"],
    )
    same = [
        WEATHER.model_copy(update={"id": f"osm/tool_{n}", "name": f"tool_{n}"}) for n in range(3)
    ]
    graph = graph_of(GEOCODE, WEATHER, radius, *same)
    graph_needs = graph.artifact("a/places_within").needs  # type: ignore[union-attr]
    assert "GeoPoint" in graph_needs and len(graph_needs) == 2
    order = [s.id for s in graph.find_compatible(GEOCODE.id)]
    assert order.index("weather/get_weather") < order.index("a/places_within")
    # the three tools without a whole are sources of their own; give them one: a server
    parts = [
        s.model_copy(update={"relations": (Relation(type="part_of", target="osm"),)}) for s in same
    ]
    graph = graph_of(GEOCODE, WEATHER, radius, *parts)
    order = [s.id for s in graph.find_compatible(GEOCODE.id)]
    assert order[:2] == ["osm/tool_0", "weather/get_weather"]


def test_a_hole_before_a_writer_is_filled_through_the_text_it_needs() -> None:
    """The writer's first port is its path; the transcript tool gives text, which its other
    need takes: the hole is filled all the same."""
    entries = [TRANSCRIPT, WRITE]
    graph = graph_of(*entries, types=[TypeDecl(type="VideoURL")])
    resolver = DependencyResolver(graph, entry_lookup(entries))
    filled = fill_holes(resolver, ["VideoURL", "???", WRITE.id])
    assert filled.steps[1].filled_with == (TRANSCRIPT.id,)
