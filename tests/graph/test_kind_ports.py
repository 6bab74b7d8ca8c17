"""Composition over inferred value kinds: tools of different sources that say nothing but JSON
primitives connect through the kinds their schemas show, each through every port it has, ranked
by confidence and specificity; declared types still win; what can run with what one has; type
names read from plain words; and the resolver ranks unmeasured candidates by fit, never by
their version string."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from lgent.errors import TypeLatticeError
from lgent.graph.model import CatalogGraph
from lgent.graph.signatures import PathSearch
from lgent.kinds import default_vocabulary, infer_tool_kinds
from lgent.models import CatalogEntry, TypeDecl, TypeRequirement
from lgent.resolver.resolver import DependencyResolver
from tests.conftest import entry_lookup

VOCABULARY = default_vocabulary()
JSON = [TypeDecl(type=t, primitive=True) for t in ("json.string", "json.number", "json.object")]


def tool(
    artifact_id: str,
    description: str,
    properties: dict[str, Any],
    required: list[str],
    output: str = "",
    **fields: Any,
) -> CatalogEntry:
    """An imported tool: JSON primitives declared, its kinds inferred from its schema."""
    kinds = infer_tool_kinds(
        VOCABULARY,
        name=artifact_id.rsplit("/", 1)[-1],
        description=f"{description} {output}".strip(),
        input_schema={"type": "object", "properties": properties, "required": required},
        output_schema=None,
    )
    return CatalogEntry(
        id=artifact_id,
        name=artifact_id.rsplit("/", 1)[-1],
        description=description,
        input_type="json.string",
        output_type="json.string",
        kinds=kinds.to_dict(),
        **fields,
    )


GEOCODE = tool(
    "osm/geocode_address",
    "Convert an address or place name to geographic coordinates.",
    {"address": {"type": "string", "description": "The postal address to look up"}},
    ["address"],
)
WEATHER = tool(
    "weather/get_weather",
    "Get the weather forecast for a location.",
    {"latitude": {"type": "number"}, "longitude": {"type": "number"}},
    ["latitude", "longitude"],
)
TRANSCRIPT = tool(
    "yt/get_transcript",
    "Extract the transcript of a YouTube video.",
    {"url": {"type": "string", "description": "YouTube video URL"}},
    ["url"],
    output="Returns the transcript text of the video.",
)
WRITE = tool(
    "fs/write_file",
    "Create a new file or overwrite an existing file with new content.",
    {
        "path": {"type": "string", "description": "Path of the file to write"},
        "content": {"type": "string", "description": "The text content to write"},
    },
    ["path", "content"],
)


def graph_of(*entries: CatalogEntry, types: list[TypeDecl] | None = None) -> CatalogGraph:
    graph = CatalogGraph()
    graph.build(entries, [*JSON, *VOCABULARY.declarations(), *(types or [])], 1)
    return graph


def test_the_inferred_kinds_are_what_the_fixtures_expect() -> None:
    """The fixtures say what the tests below rely on (so a change in inference shows here)."""
    assert [k.type_expr for k in GEOCODE.tool_kinds().needs] == ["PostalAddress"]
    assert "GeoPoint" in [k.type_expr for k in GEOCODE.tool_kinds().outputs]
    assert [k.type_expr for k in WEATHER.tool_kinds().needs] == ["GeoPoint"]
    assert sorted(k.type_expr for k in WRITE.tool_kinds().needs) == ["FilePath", "Text"]


def test_tools_of_two_sources_compose_through_inferred_kinds() -> None:
    graph = graph_of(GEOCODE, WEATHER, TRANSCRIPT, WRITE)
    paths = graph.find_paths(PathSearch("PostalAddress", "WeatherReport", 3, 5))
    assert [p.ids for p in paths][:1] == [("osm/geocode_address", "weather/get_weather")]
    downstream = [s.id for s in graph.find_compatible("osm/geocode_address")]
    assert downstream == ["weather/get_weather"]
    upstream = [s.id for s in graph.find_compatible("weather/get_weather", "upstream")]
    assert upstream == ["osm/geocode_address"]


def test_a_tool_with_two_inputs_follows_through_either() -> None:
    """The writer needs a path and a text: a transcript (a kind of text) feeds it, and it is
    registered once per port, yet answered once."""
    graph = graph_of(TRANSCRIPT, WRITE)
    downstream = [s.id for s in graph.find_compatible("yt/get_transcript")]
    assert downstream == ["fs/write_file"]
    assert graph.artifact("fs/write_file").needs == ("FilePath", "Text")  # type: ignore[union-attr]
    assert [s.id for s in graph.signatures()] == ["fs/write_file", "yt/get_transcript"]


def test_declared_types_win_over_inferred_kinds() -> None:
    declared = GEOCODE.model_copy(update={"input_type": "Address", "output_type": "Coordinates"})
    graph = graph_of(declared, types=[TypeDecl(type="Address"), TypeDecl(type="Coordinates")])
    info = graph.artifact("osm/geocode_address")
    assert info is not None and (info.input_type, info.output_type) == ("Address", "Coordinates")
    assert info.needs == ("Address",)


def test_what_can_run_with_what_one_has() -> None:
    graph = graph_of(GEOCODE, WEATHER, TRANSCRIPT, WRITE)
    ran = [i.id for i in graph.runnable_with(["GeoPoint"])]
    assert ran == ["weather/get_weather"]
    assert [i.id for i in graph.runnable_with(["FilePath", "Transcript"])] == ["fs/write_file"]
    assert graph.runnable_with(["FilePath"]) == []  # the writer needs a text too
    with pytest.raises(TypeLatticeError, match="unknown type"):
        graph.runnable_with(["NoSuchKind"])


def test_type_names_are_read_from_plain_words() -> None:
    graph = graph_of(GEOCODE)
    assert graph.type_name("a web page URL") == "WebPageURL"
    assert graph.type_name("postal address") == "PostalAddress"
    assert graph.type_name("weatherreport") == "WeatherReport"
    assert graph.type_name("the pdf file path") == "PdfFilePath"
    assert graph.type_name("a thing nobody declared") is None


def test_the_resolver_ranks_unmeasured_candidates_by_fit_not_by_version() -> None:
    """Two unmeasured tools fit URL -> Markdown: the one whose kinds are sure and specific wins
    whatever their versions say; reversing the versions changes nothing."""
    sure = tool(
        "a/fetch_markdown",
        "Fetch a URL and return the page as Markdown.",
        {"url": {"type": "string", "format": "uri"}},
        ["url"],
        output="Returns the page converted to markdown.",
    )
    vague = tool(
        "b/grab",
        "Grab something from a link; returns markdown text.",
        {"link": {"type": "string"}},
        ["link"],
    )
    now = datetime(2026, 11, 27, tzinfo=UTC)
    winners = []
    for old, new in (("0.1.0", "9.0.0"), ("9.0.0", "0.1.0")):
        pair = [
            sure.model_copy(update={"version": old}),
            vague.model_copy(update={"version": new}),
        ]
        graph = graph_of(*pair)
        fits = {c.id: c.fit for c in graph.type_candidates("URL", "Markdown")}
        assert fits["a/fetch_markdown"] > fits["b/grab"]
        resolved = DependencyResolver(graph, entry_lookup(pair), clock=lambda: now).resolve(
            TypeRequirement(input_type="URL", output_type="Markdown")
        )
        winners.append(resolved.best.id)
        assert resolved.score.weights["version"] == 0.0 and resolved.score.weights["fit"] == 0.2
    assert winners == ["a/fetch_markdown", "a/fetch_markdown"]
