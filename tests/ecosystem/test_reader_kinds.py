"""Value kinds at import: every ecosystem reader stores each tool's inferred kinds, the vocabulary
becomes types of the catalog, a catalog's own kinds extend it, and OpenAPI 3 links become
``feeds`` relations. Small documents written for these tests, loaded through the public API."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lgent import LGent
from lgent.catalog.loaders import read_path
from lgent.kinds import default_vocabulary
from lgent.models import CatalogEntry, RelationType

MCP_SERVER = {
    "serverInfo": {"name": "places", "version": "1.0"},
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
            "name": "save_report",
            "description": "Write the report to a file and return the absolute path.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "output_path": {"type": "string", "description": "Path of the file"},
                    "text": {"type": "string"},
                },
                "required": ["output_path", "text"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "string"}},
                "required": ["result"],
            },
        },
    ],
}

LINKED_API: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Shop", "version": "1", "x-providerName": "shop.example"},
    "paths": {
        "/orders": {
            "post": {
                "operationId": "createOrder",
                "summary": "Place an order",
                "responses": {
                    "201": {
                        "description": "The order",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                        "links": {
                            "GetOrder": {"operationId": "getOrder"},
                            "Cancel": {"operationRef": "#/paths/~1orders~1{id}/delete"},
                            "Shared": {"$ref": "#/components/links/Track"},
                            "Gone": {"operationId": "noSuchOperation"},
                        },
                    },
                    "400": {"description": "bad", "links": {"Retry": {"operationId": "getOrder"}}},
                },
            }
        },
        "/orders/{id}": {
            "get": {"operationId": "getOrder", "responses": {"200": {"description": "ok"}}},
            "delete": {"responses": {"204": {"description": "cancelled"}}},
        },
        "/tracking/{id}": {
            "get": {"operationId": "trackOrder", "responses": {"200": {"description": "ok"}}}
        },
    },
    "components": {"links": {"Track": {"operationId": "trackOrder"}}},
}


def _write(folder: Path, name: str, data: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _entry(batch_entries: list[CatalogEntry], artifact: str) -> CatalogEntry:
    return next(e for e in batch_entries if e.id == artifact)


def test_an_mcp_tool_carries_its_kinds_with_evidence(tmp_path: Path) -> None:
    batch = read_path(_write(tmp_path, "places.json", MCP_SERVER))
    forecast = _entry(batch.entries, "places/get_forecast").tool_kinds()
    assert [k.kind for k in forecast.needs] == ["GeoPoint"]
    assert forecast.needs[0].fields == ("latitude", "longitude")
    saved = _entry(batch.entries, "places/save_report").tool_kinds()
    assert saved.output is not None and saved.output.kind == "FilePath"
    assert {e.rule for e in saved.output.evidence} >= {"writes"}
    assert all(0.0 < e.confidence <= 1.0 for k in saved.accepts for e in k.evidence)
    server = _entry(batch.entries, "places")
    assert server.kinds is None  # a server is no tool
    assert batch.inference is not None and batch.inference.tools == 2


def test_declared_types_stay_beside_the_kinds(tmp_path: Path) -> None:
    batch = read_path(_write(tmp_path, "places.json", MCP_SERVER))
    saved = _entry(batch.entries, "places/save_report")
    assert saved.output_type == "json.string"  # what the schema declares, as before
    assert saved.tool_kinds().output.kind == "FilePath"


def test_openapi_operations_and_functions_carry_kinds(tmp_path: Path) -> None:
    spec = {
        "swagger": "2.0",
        "info": {"title": "Rates", "version": "1"},
        "paths": {
            "/rates": {
                "get": {
                    "operationId": "getRate",
                    "summary": "Get the exchange rate between two currencies",
                    "parameters": [
                        {
                            "name": "from",
                            "in": "query",
                            "required": True,
                            "type": "string",
                            "enum": ["USD", "EUR", "JPY", "GBP"],
                        },
                        {"name": "day", "in": "query", "type": "string", "format": "date"},
                    ],
                    "responses": {"200": {"description": "ok", "schema": {"type": "number"}}},
                }
            }
        },
    }
    functions = [
        {
            "type": "function",
            "function": {
                "name": "open_page",
                "description": "Open a web page.",
                "parameters": {
                    "type": "object",
                    "properties": {"url": {"type": "string", "format": "uri"}},
                    "required": ["url"],
                },
            },
        }
    ]
    batch = read_path(_write(tmp_path / "in", "rates.json", spec))
    rate = _entry(batch.entries, "rates/getRate").tool_kinds()
    assert [(p.name, p.best.kind if p.best else None) for p in rate.inputs] == [
        ("from", "CurrencyCode"),
        ("day", "Date"),
    ]
    batch = read_path(_write(tmp_path / "fn", "tools.json", functions))
    page = _entry(batch.entries, "fn/open_page").tool_kinds()  # named by its folder
    assert page.needs[0].kind in ("URL", "WebPageURL")


def test_openapi_3_links_become_feeds_relations(tmp_path: Path) -> None:
    batch = read_path(_write(tmp_path, "shop.json", LINKED_API))
    created = _entry(batch.entries, "shop.example/createOrder")
    feeds = created.relation_targets(RelationType.FEEDS)
    assert feeds == [
        "shop.example/getOrder",
        "shop.example/delete/orders/id",
        "shop.example/trackOrder",
    ]  # in the document's order; the 400 response's link is no success
    assert any("noSuchOperation" in w and "GetOrder" not in w for w in batch.warnings)
    assert _entry(batch.entries, "shop.example/getOrder").relation_targets(RelationType.FEEDS) == []


def test_swagger_2_has_no_links(tmp_path: Path) -> None:
    spec = {
        "swagger": "2.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {
                        "200": {"description": "ok", "links": {"B": {"operationId": "b"}}}
                    },
                }
            },
            "/b": {"get": {"operationId": "b", "responses": {"200": {"description": "ok"}}}},
        },
    }
    batch = read_path(_write(tmp_path, "t.json", spec))
    assert all(not e.relation_targets(RelationType.FEEDS) for e in batch.entries)


def test_an_ecosystem_load_declares_the_kinds_where_the_catalog_lacks_them(tmp_path: Path) -> None:
    source = _write(tmp_path, "places.json", MCP_SERVER)
    mine = _write(
        tmp_path / "mine",
        "kinds.json",
        {"types": [{"type": "FilePath", "subtype_of": ["Path"], "description": "My own."}]},
    )

    async def run() -> tuple[dict[str, Any], list[str], list[str]]:
        async with LGent.open(tmp_path / "home") as lg:
            await lg.load(default_vocabulary_path())  # the shipped kinds, as I loaded them
            await lg.load(mine)  # my declaration of one of them
            first = await lg.load(source)
            again = await lg.load(source)
            types = {t.type: t for t in await lg.types()}
            return (
                types["FilePath"].model_dump(),
                first.result.types_added,
                again.result.types_added,
            )

    file_path, added, added_again = asyncio.run(run())
    assert file_path["description"] == "My own."  # never replaced by the shipped one
    assert "FilePath" not in added and added_again == []


def test_kinds_are_types_of_the_catalog_after_an_import(tmp_path: Path) -> None:
    async def run() -> set[str]:
        async with LGent.open(None) as lg:
            await lg.load(_write(tmp_path, "places.json", MCP_SERVER))
            return {t.type for t in await lg.types()}

    types = asyncio.run(run())
    assert {k.name for k in default_vocabulary()} <= types


def default_vocabulary_path() -> Path:
    from lgent.kinds import vocabulary_file

    return vocabulary_file()


ISBN_KINDS = {
    "types": [
        {
            "type": "Isbn",
            "description": "The ISBN of a book.",
            "evidence": {"json_type": "string", "names": ["(?:.+_)?isbn"]},
        }
    ]
}
BOOKS = {
    "tools": [
        {
            "name": "find_book",
            "description": "Find a book.",
            "inputSchema": {
                "type": "object",
                "properties": {"book_isbn": {"type": "string"}},
                "required": ["book_isbn"],
            },
        }
    ]
}


def _isbn_need(lg: LGent) -> Any:
    async def need() -> str | None:
        found = (await lg.get("books/find_book")).tool_kinds()
        return found.needs[0].kind if found.needs else None

    return need()


def test_a_catalog_kind_extends_inference_of_later_imports(tmp_path: Path) -> None:
    kinds = _write(tmp_path / "k", "isbn.json", ISBN_KINDS)
    books = _write(tmp_path / "b", "books.json", BOOKS)

    async def run() -> tuple[str | None, str | None]:
        async with LGent.open(tmp_path / "home") as lg:
            await lg.load(books)
            before = await _isbn_need(lg)
            await lg.load(kinds)
            await lg.load(books)  # imported again: inferred with the catalog's kinds
            return before, await _isbn_need(lg)

    before, after = asyncio.run(run())
    assert before != "Isbn" and after == "Isbn"


def test_kinds_declared_beside_the_sources_of_one_load_count_whatever_the_order(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "both"
    _write(folder, "books.json", BOOKS)  # read before the declarations
    _write(folder, "z_isbn.json", ISBN_KINDS)

    async def run() -> str | None:
        async with LGent.open(None) as lg:
            await lg.load(folder)
            return await _isbn_need(lg)

    assert asyncio.run(run()) == "Isbn"
