"""The official MCP registry's server.json records imported (packages, remotes, transports,
environment variables by name), and the registry's v0.1 read API served from the catalog.

The records in tests/ecosystem/registry were written for these tests from the registry's
published documentation (the server.json format and the v0.1 API)."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from lgent import LGent
from lgent.catalog.loaders import read_path
from lgent.http.app import build_http_app
from lgent.models import CatalogEntry, Status

RECORDS = Path(__file__).resolve().parent / "registry"


def entries(path: Path) -> dict[str, CatalogEntry]:
    batch = read_path(path)
    assert batch.rejected == [] and batch.warnings == []
    return {r.record.id: r.record for r in batch.records if isinstance(r.record, CatalogEntry)}


def test_a_server_json_record_says_how_to_start_or_reach_the_server() -> None:
    weather = entries(RECORDS / "weather.server.json")["io.github.example-lab/weather"]
    assert (weather.name, weather.version, weather.entity_type.value) == (
        "Weather Forecasts",
        "1.4.0",
        "other",
    )
    assert weather.description == "Forecasts and current weather conditions for any city."
    assert {"mcp", "mcp-server", "npm", "oci", "stdio", "streamable-http"} <= set(weather.keywords)
    call = weather.callable_definition()
    assert call is not None and call["kind"] == "mcp_server"
    npm, oci, remote = call["launch"]
    assert npm == {
        "transport": "stdio",
        "command": "npx",
        "args": ["-y", "@example-lab/weather-mcp@1.4.0", "--units=metric", "<cache_dir>"],
        "env": ["WEATHER_API_KEY", "WEATHER_REGION"],
        "package": {
            "registry_type": "npm",
            "identifier": "@example-lab/weather-mcp",
            "version": "1.4.0",
        },
    }
    assert oci["command"] == "docker"
    assert oci["args"] == [
        "run",
        "-i",
        "--rm",
        "-e",
        "WEATHER_API_KEY",
        "ghcr.io/example-lab/weather-mcp:1.4.0",
    ]
    assert remote == {
        "transport": "streamable-http",
        "url": "https://weather.example-lab.dev/mcp",
        "headers": ["Authorization"],
    }
    record = json.loads((RECORDS / "weather.server.json").read_text(encoding="utf-8"))
    assert call["server_json"] == record  # kept as written, for the registry API


def test_a_page_of_the_registry_api_imports_each_server_with_its_status() -> None:
    found = entries(RECORDS / "servers-page.json")
    notes = found["io.github.example-lab/notes"]
    call = notes.callable_definition()
    assert call is not None
    assert call["launch"][0]["command"] == "uvx"
    assert call["launch"][0]["args"] == ["--python=3.12", "example-notes-mcp==0.9.1"]
    old = found["com.example/old-translator"]
    assert old.status == Status.DEPRECATED
    assert old.callable_definition()["launch"] == [  # type: ignore[index]
        {"transport": "sse", "url": "https://translate.example.com/sse"}
    ]


def test_a_record_with_a_bad_remote_keeps_the_rest_and_says_so(tmp_path: Path) -> None:
    record = {
        "name": "com.example/half",
        "description": "Half right.",
        "version": "1.0.0",
        "remotes": [{"type": "streamable-http"}, {"type": "sse", "url": "https://h.example/sse"}],
    }
    (tmp_path / "half.json").write_text(json.dumps(record), encoding="utf-8")
    batch = read_path(tmp_path / "half.json")
    assert len(batch.warnings) == 1 and "/remotes/0" in batch.warnings[0]
    assert "needs a url" in batch.warnings[0]
    entry = batch.records[0].record
    assert isinstance(entry, CatalogEntry) and entry.origin is not None
    assert [launch.transport for launch in entry.origin.launch] == ["sse"]


@asynccontextmanager
async def registry_api(home: Path) -> AsyncIterator[tuple[LGent, httpx.AsyncClient]]:
    async with LGent.open(home) as lg:
        app = build_http_app(lg, web=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            yield lg, http


async def test_the_v0_1_list_and_versions_endpoints(tmp_path: Path, mcp_tools: Path) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    shutil.copy(RECORDS / "servers-page.json", folder)
    shutil.copy(RECORDS / "weather.server.json", folder)
    shutil.copy(mcp_tools / "time.json", folder)  # a server read from a tools/list file
    async with registry_api(tmp_path / "H") as (lg, http):
        await lg.load(folder)
        first = (await http.get("/v0.1/servers", params={"limit": 2})).json()
        names = [s["server"]["name"] for s in first["servers"]]
        assert names == ["com.example/old-translator", "io.github.example-lab/notes"]
        assert first["metadata"] == {"count": 2, "nextCursor": "2"}
        second = (await http.get("/v0.1/servers", params={"cursor": "2"})).json()
        assert [s["server"]["name"] for s in second["servers"]] == [
            "io.github.example-lab/weather",
            "time",
        ]
        assert "nextCursor" not in second["metadata"]
        weather, made = second["servers"]
        record = json.loads((RECORDS / "weather.server.json").read_text(encoding="utf-8"))
        assert weather["server"] == record
        official = weather["_meta"]["io.modelcontextprotocol.registry/official"]
        assert official == {"status": "active", "isLatest": True}
        assert made["server"]["name"] == "time" and made["server"]["version"]
        assert len(made["server"]["description"]) <= 100
        deprecated = first["servers"][0]["_meta"]["io.modelcontextprotocol.registry/official"]
        assert deprecated["status"] == "deprecated"

        # a new version of the weather server: both listed, newest first
        newer = {**record, "version": "1.5.0", "description": "Forecasts, now hourly."}
        (folder / "weather.server.json").write_text(json.dumps(newer), encoding="utf-8")
        await lg.load(folder)
        versions = (await http.get("/v0.1/servers/io.github.example-lab%2Fweather/versions")).json()
        assert [s["server"]["version"] for s in versions["servers"]] == ["1.5.0", "1.4.0"]
        flags = [
            s["_meta"]["io.modelcontextprotocol.registry/official"]["isLatest"]
            for s in versions["servers"]
        ]
        assert flags == [True, False]
        one = await http.get("/v0.1/servers/io.github.example-lab%2Fweather/versions/1.4.0")
        assert one.status_code == 200 and one.json()["server"]["version"] == "1.4.0"
        latest = await http.get("/v0.1/servers/io.github.example-lab%2Fweather/versions/latest")
        assert latest.json()["server"]["description"] == "Forecasts, now hourly."
        for missing in (
            "/v0.1/servers/com.example%2Fnothing/versions",
            "/v0.1/servers/io.github.example-lab%2Fweather/versions/9.9.9",
            "/v0.1/servers/time%2Fget_current_time/versions",  # a tool, not a server
        ):
            answer = await http.get(missing)
            assert (answer.status_code, answer.json()) == (404, {"error": "Server not found"})
        bad = await http.get("/v0.1/servers", params={"cursor": "x"})
        assert bad.status_code == 400 and "cursor" in bad.json()["error"]


@pytest.mark.real_model
async def test_the_v0_1_search_is_l_gents_search(tmp_path: Path) -> None:
    async with registry_api(tmp_path / "H") as (lg, http):
        await lg.load(RECORDS)
        found = (
            await http.get("/v0.1/servers", params={"search": "rain tomorrow in my city"})
        ).json()
        assert found["servers"][0]["server"]["name"] == "io.github.example-lab/weather"
        assert found["servers"][0]["_meta"]["lgent/catalog"]["score"] > 0
        words = (await http.get("/v0.1/servers", params={"search": "translate text"})).json()
        assert words["servers"][0]["server"]["name"] == "com.example/old-translator"
