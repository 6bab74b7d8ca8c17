"""``COMPANIONS`` (toolset completion): a best result that needs a value kind the request does
not supply gets the best producer of that kind right after it, labelled; on a real graph of a
few imported tools, then end to end through a query on a small MCP catalog."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.fusion.companions import BROAD, MAX_COMPANIONS, find_companions, placed
from lgent.http.app import build_http_app
from lgent.kinds import default_vocabulary
from lgent.kinds.supplied import supplied_kinds
from lgent.mcp.server import build_mcp_server
from lgent.models import CatalogEntry, Companion, TypeDecl
from tests.cli.test_cli import lgent
from tests.graph.test_kind_ports import GEOCODE, TRANSCRIPT, WEATHER, WRITE, graph_of, tool

VOCABULARY = default_vocabulary()
KINDS = VOCABULARY.kinds
SEARCH = tool(
    "web/search",
    "Search the web for pages about a topic.",
    {"query": {"type": "string", "description": "The search terms"}},
    ["query"],
)


def test_the_fixtures_need_and_give_what_the_rule_reads() -> None:
    graph = graph_of(GEOCODE, WEATHER)
    assert graph.artifact(WEATHER.id).needs == ("GeoPoint",)  # type: ignore[union-attr]
    assert graph.artifact(GEOCODE.id).output_type == "GeoPoint"  # type: ignore[union-attr]


def test_a_needed_kind_brings_its_best_producer() -> None:
    graph = graph_of(GEOCODE, WEATHER, TRANSCRIPT, WRITE, SEARCH)
    ranked = [WEATHER.id, SEARCH.id, TRANSCRIPT.id, WRITE.id, GEOCODE.id]
    found = find_companions(graph, ranked, KINDS)
    assert found == {GEOCODE.id: Companion(of=WEATHER.id, kind="GeoPoint")}
    assert placed(ranked, found) == [WEATHER.id, GEOCODE.id, SEARCH.id, TRANSCRIPT.id, WRITE.id]
    assert found[GEOCODE.id].reason == f"companion of {WEATHER.id}: gives the GeoPoint it needs"


def test_no_companion_when_the_request_or_a_result_above_gives_it() -> None:
    graph = graph_of(GEOCODE, WEATHER, SEARCH)
    ranked = [WEATHER.id, SEARCH.id, GEOCODE.id]
    said = supplied_kinds(VOCABULARY, "the weather at latitude 48.85 longitude 2.35")
    assert "GeoPoint" in said
    assert find_companions(graph, ranked, KINDS, said) == {}
    assert find_companions(graph, [GEOCODE.id, WEATHER.id, SEARCH.id], KINDS) == {}


def test_only_value_kinds_are_filled_and_never_from_outside_the_reach() -> None:
    graph = graph_of(GEOCODE, WEATHER, SEARCH)
    ranked = [WEATHER.id, SEARCH.id, GEOCODE.id]
    assert find_companions(graph, ranked, set(KINDS) - {"GeoPoint"}) == {}
    assert find_companions(graph, ranked[:2], KINDS) == {}  # the geocoder was not found


def test_a_kind_many_candidates_give_is_no_need() -> None:
    """When more than ``BROAD`` of the candidates produce the kind, it is everywhere: the rule
    offers none of them."""
    geocoders = [
        GEOCODE.model_copy(update={"id": f"geo{n}/geocode_address", "name": "geocode_address"})
        for n in range(3)
    ]
    graph = graph_of(WEATHER, SEARCH, *geocoders)
    ranked = [WEATHER.id, SEARCH.id, *(g.id for g in geocoders)]
    assert BROAD * len(ranked) < 3
    assert find_companions(graph, ranked, KINDS) == {}


def test_at_most_a_few_companions_and_each_after_its_result() -> None:
    needers = [
        WEATHER.model_copy(update={"id": f"w{n}/get_weather", "name": "get_weather"})
        for n in range(MAX_COMPANIONS + 1)
    ]
    finder = tool(
        "v/find_video",
        "Find a video about a topic.",
        {"topic": {"type": "string"}},
        ["topic"],
        output="Returns the YouTube video URL.",
    )
    filler = [SEARCH.model_copy(update={"id": f"s{n}/search"}) for n in range(12)]
    graph = graph_of(*needers, TRANSCRIPT, finder, GEOCODE, *filler)
    ranked = [TRANSCRIPT.id, *(n.id for n in needers), *(f.id for f in filler)]
    ranked += [finder.id, GEOCODE.id]
    found = find_companions(graph, ranked, KINDS)
    assert found[finder.id] == Companion(of=TRANSCRIPT.id, kind="VideoURL")
    assert found[GEOCODE.id].of == needers[0].id and len(found) == MAX_COMPANIONS
    order = placed(ranked, found)
    assert order[:4] == [TRANSCRIPT.id, finder.id, needers[0].id, GEOCODE.id]
    assert sorted(order) == sorted(ranked)


def test_a_catalog_type_is_no_value_kind_to_fill() -> None:
    typed = WEATHER.model_copy(update={"input_type": "Spot", "output_type": "Forecast"})
    spots = CatalogEntry(id="a/spot", name="spot", description="A spot.", output_type="Spot")
    graph = graph_of(typed, spots, types=[TypeDecl(type="Spot"), TypeDecl(type="Forecast")])
    assert graph.artifact(typed.id).needs == ("Spot",)  # type: ignore[union-attr]
    assert find_companions(graph, [typed.id, spots.id], KINDS) == {}


def test_a_url_in_the_request_is_a_url_not_a_file_path() -> None:
    said = supplied_kinds(VOCABULARY, "save https://example.org/notes.md on 2024-01-02")
    assert {"URL", "Date"} <= said and "FilePath" not in said
    assert "PdfFilePath" in supplied_kinds(VOCABULARY, "read ./docs/report.pdf")


FORECAST_SERVER = {
    "serverInfo": {"name": "outdoors", "version": "1.0"},
    "tools": [
        {
            "name": "get_forecast",
            "description": "Get the weather forecast for a location.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "latitude": {"type": "number", "description": "Latitude of the location"},
                    "longitude": {"type": "number", "description": "Longitude of the location"},
                },
                "required": ["latitude", "longitude"],
            },
        },
        {
            "name": "geocode",
            "description": "Convert an address or place name to geographic coordinates.",
            "inputSchema": {
                "type": "object",
                "properties": {"address": {"type": "string", "description": "Street address"}},
                "required": ["address"],
            },
        },
        *(
            {
                "name": name,
                "description": text,
                "inputSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string", "description": "A name"}},
                    "required": ["name"],
                },
            }
            for name, text in (
                ("trail_weather", "The weather forecast on a hiking trail."),
                ("park_forecast", "Get the weather forecast for a national park."),
                ("street_closures", "Street closures at an address today."),
                ("forecast_alerts", "Weather forecast alerts issued for a named region."),
                ("marine_forecast", "Get the marine weather forecast at a harbour."),
            )
        ),
    ],
}
QUESTION = "get the weather forecast at a street address"
PLACE_QUESTION = "weather forecast for the location of an address"


async def _loaded(lg: LGent, tmp_path: Path) -> None:
    source = tmp_path / "outdoors.json"
    source.write_text(json.dumps(FORECAST_SERVER), encoding="utf-8")
    await lg.load(source)


async def test_a_query_offers_the_geocoder_beside_the_forecast(tmp_path: Path) -> None:
    async with LGent.open(tmp_path / "home", embedder=HashingEmbedder(64)) as lg:
        await _loaded(lg, tmp_path)
        results = (await lg.query(QUESTION, limit=5)).results
        ids = [r.id for r in results]
        at = ids.index("outdoors/get_forecast")
        assert ids[at + 1] == "outdoors/geocode"
        assert results[at + 1].companion == Companion(of="outdoors/get_forecast", kind="GeoPoint")
        assert all(r.companion is None for r in results if r.id != "outdoors/geocode")
        with_point = await lg.query("the weather forecast at latitude 48.85 longitude 2.35")
        assert all(r.companion is None for r in with_point.results)
    async with LGent.open(
        tmp_path / "home", embedder=HashingEmbedder(64), settings={"fusion": {"companions": False}}
    ) as lg:
        plain = [r.id for r in (await lg.query(QUESTION, limit=5)).results]
        assert all(r.companion is None for r in (await lg.query(QUESTION, limit=5)).results)
    assert plain != ids  # the rule moved the geocoder


async def test_http_and_mcp_say_which_result_is_a_companion(tmp_path: Path) -> None:
    reason = "companion of outdoors/get_forecast: gives the GeoPoint it needs"
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await _loaded(lg, tmp_path)
        transport = httpx.ASGITransport(app=build_http_app(lg))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            answer = (await http.post("/query", json={"query": QUESTION, "limit": 5})).json()
            cards = (await http.get("/search", params={"q": QUESTION, "limit": 5})).json()
        shown = {r["id"]: r for r in answer["results"]}
        assert shown["outdoors/geocode"]["companion"] == {
            "of": "outdoors/get_forecast",
            "kind": "GeoPoint",
        }
        assert shown["outdoors/get_forecast"]["companion"] is None
        card = next(c for c in cards["results"] if c["id"] == "outdoors/geocode")
        assert card["why"].startswith(reason)
        said = await build_mcp_server(lg).call_tool("search", {"query": QUESTION, "limit": 5})
        text = said.content[0].text  # type: ignore[union-attr]
        assert f"why: {reason}" in text
        assert text.index("outdoors/get_forecast") < text.index("outdoors/geocode")


def test_the_cli_labels_the_companion(tmp_path: Path) -> None:
    source = tmp_path / "outdoors.json"
    source.write_text(json.dumps(FORECAST_SERVER), encoding="utf-8")
    home = tmp_path / "home"
    assert lgent(home, "load", str(source)).returncode == 0
    shown = lgent(home, "query", PLACE_QUESTION, "--limit", "5")
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "why: companion of outdoors/get_forecast: gives the GeoPoint it needs" in text
    said = json.loads(lgent(home, "query", PLACE_QUESTION, "--limit", "5", "--json").stdout)
    (companion,) = [r for r in said["results"] if r.get("companion")]
    assert companion["id"] == "outdoors/geocode"
    assert companion["companion"] == {"of": "outdoors/get_forecast", "kind": "GeoPoint"}
