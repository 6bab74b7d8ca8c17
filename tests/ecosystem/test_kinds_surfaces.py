"""Every surface shows the inferred kinds with their evidence and confidence (``show``, HTTP,
MCP ``get_artifact``, the artifact page), and lists the catalog's types (``lgent types``,
``GET /types``, the MCP ``lgent://types`` resources): on a small MCP server written here, then on
the 70 shared MCP servers."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from lgent import LGent
from lgent.http.app import build_http_app
from lgent.mcp.server import build_mcp_server
from tests.cli.test_cli import lgent
from tests.ecosystem.test_reader_kinds import MCP_SERVER

FORECAST = "places/get_forecast"


def _source(tmp_path: Path) -> Path:
    path = tmp_path / "places.json"
    path.write_text(json.dumps(MCP_SERVER), encoding="utf-8")
    return path


def test_show_gives_each_kind_with_its_evidence(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert lgent(home, "load", str(_source(tmp_path))).returncode == 0
    shown = lgent(home, "show", FORECAST)
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "takes (inferred) latitude+longitude: GeoPoint 0.85" in text
    assert 'fields "latitude, longitude" at inputSchema/properties (0.85)' in text
    assert "'inputs':" not in text  # the raw record is not printed
    record = json.loads(lgent(home, "show", FORECAST, "--json").stdout)
    (need,) = [k for k in record["inferred_kinds"] if k["slot"] == "input"]
    assert need["kind"] == "GeoPoint" and need["parameters"] == ["latitude", "longitude"]
    assert need["evidence"][0]["rule"] == "fields"
    assert record["kinds"]["groups"][0]["kind"] == "GeoPoint"  # the stored record, whole


async def test_http_mcp_and_the_web_page_say_the_same(tmp_path: Path) -> None:
    async with LGent.open(None) as lg:
        await lg.load(_source(tmp_path))
        app = build_http_app(lg)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            answer = (await http.get(f"/artifacts/{FORECAST}")).json()
            kinds = {k["kind"]: k for k in answer["kinds"]}
            assert kinds["GeoPoint"]["confidence"] == 0.85
            assert kinds["GeoPoint"]["evidence"][0]["where"] == "inputSchema/properties"
            page = (await http.get(f"/artifact/{FORECAST}")).text
            assert 'id="kinds"' in page and "GeoPoint 0.85" in page
            assert "fields &quot;latitude, longitude&quot;" in page
            listed = (await http.get("/types", params={"q": "geo", "kinds_only": True})).json()
            names = [t["name"] for t in listed["types"]]
            assert names[0] == "GeoPoint" and listed["total"] == len(names)
            geo = listed["types"][0]
            assert geo["consumers"] == 1 and geo["kind"] and geo["source"] == "vocabulary"
            assert geo["rules"]["fields"] == ["latitude: Latitude", "longitude: Longitude"]
            bad = await http.get("/types", params={"limit": 0})
            assert bad.status_code == 422
        server = build_mcp_server(lg)
        said = await server.call_tool("get_artifact", {"id": FORECAST})
        body = said.content[0].text  # type: ignore[union-attr]
        assert "inferred kinds: takes latitude+longitude: GeoPoint 0.85 [fields]" in body
        read = next(iter(await server.read_resource("lgent://types/geo"))).content
        said_geo = "GeoPoint: 0 produce, 1 consume; kind found by names, phrases, fields"
        assert f"{said_geo}; from vocabulary" in str(read)


def test_types_lists_the_shared_servers_kinds_with_counts(mcp_tools: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert lgent(home, "load", str(mcp_tools)).returncode == 0
    listed = json.loads(lgent(home, "types", "--kinds-only", "--limit", "200", "--json").stdout)
    rows = {t["name"]: t for t in listed["types"]}
    assert all(t["kind"] for t in listed["types"]) and listed["total"] == len(rows)
    assert rows["FilePath"]["consumers"] >= 20 and rows["FilePath"]["parents"] == ["Path"]
    assert rows["GeoPoint"]["consumers"] >= 3  # the weather and map servers' coordinates
    used = [t["producers"] + t["consumers"] for t in listed["types"]]
    assert used == sorted(used, reverse=True)  # most used first
    everything = json.loads(lgent(home, "types", "--limit", "1000", "--json").stdout)
    sources = {t["source"] for t in everything["types"]}
    assert {"vocabulary", "shared"} <= sources
    assert any(s.startswith("schema of ") for s in sources)  # a server's own output schema
    table = lgent(home, "types", "file", "path")
    assert table.returncode == 0 and "FilePath" in table.stdout and "vocabulary" in table.stdout


async def test_a_query_on_the_shared_servers_offers_a_geocoder_beside_the_weather(
    mcp_tools: Path,
) -> None:
    """End to end on the 70 shared MCP servers: the weather tool needs a point the request does
    not give; the geocoder, which gives one, is placed right after it and labelled."""
    from lgent.brains.semantic.embedders import HashingEmbedder

    question = "get the current weather and forecast for a specific location"
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await lg.load(mcp_tools)
        results = (await lg.query(question, limit=10)).results
        ids = [r.id for r in results]
        at = ids.index("weather/get_weather")
        assert at < 3 and ids[at + 1] == "osm-mcp-server/geocode_address"
        companion = results[at + 1].companion
        assert companion is not None and companion.of == "weather/get_weather"
        assert companion.kind == "GeoPoint"
        given = await lg.query(f"{question} at latitude 48.85 longitude 2.35", limit=10)
        assert all(r.companion is None or r.companion.kind != "GeoPoint" for r in given.results)
