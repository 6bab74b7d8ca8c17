"""Acceptance 3 of issue 36: on the whole shared ecosystem (every MCP tools/list, every Swagger
spec of the archive, the OpenAPI 3 examples: 17,251 artifacts), each facet's count for a value
equals what listing with that value as a filter counts, for no filter and for a filter already
chosen. Facets are counted in Python from the catalog's facts; listing counts in the store's
SQL: two implementations of one filter, checked against each other."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from lgent import LGent
from lgent.catalog.records import EntryFilter
from lgent.facets import FACET_FIELDS, FACET_NAMES, MAX_TOP, Facet
from lgent.http.app import build_http_app
from tests.ecosystem.conftest import MCP_TOOLS, OPENAPI3, need

pytestmark = pytest.mark.slow  # loads 17,251 artifacts

SAMPLED = 40
"""Values checked per facet: the most frequent ones, then others spread over the ranking."""


def sampled(facet: Facet) -> list[str]:
    values = [v.value for v in facet.values]
    head, rest = values[:SAMPLED], values[SAMPLED:]
    step = max(1, len(rest) // SAMPLED)
    return head + rest[::step][:SAMPLED]


@pytest.fixture(scope="module")
def ecosystem(swagger_specs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("ecosystem") / "home"

    async def load() -> None:
        async with LGent.open(home) as lg:
            for folder in (need(MCP_TOOLS), swagger_specs, need(OPENAPI3)):
                report = await lg.load(folder)
                assert report.rejected == []

    asyncio.run(load())
    return home


async def check(lg: LGent, chosen: EntryFilter | None) -> int:
    """Every facet's sampled counts against the store's count; returns how many were checked."""
    total = await lg.count_entries(chosen)
    facets = await lg.facets(chosen, names=FACET_NAMES, top=MAX_TOP)
    checked = 0
    for name, facet in facets.items():
        field = FACET_FIELDS[name]
        if field != "tag":  # one value or none per artifact: the counts add up to the total
            assert sum(v.count for v in facet.values) + facet.others_count + facet.missing == total
        for value in sampled(facet):
            given = {**(chosen.given() if chosen else {}), field: value}
            expected = await lg.store_count(EntryFilter(**given))
            count = next(v.count for v in facet.values if v.value == value)
            assert count == expected, (name, value, count, expected)
            checked += 1
    return checked


async def test_facet_counts_equal_list_counts_on_the_whole_ecosystem(ecosystem: Path) -> None:
    async with LGent.open(ecosystem) as lg:
        assert await lg.count_entries() == 17_251
        lg.store_count = lambda f: lg.doors.read(lg.store.count, f)  # type: ignore[attr-defined]
        checked = await check(lg, None)
        checked += await check(lg, EntryFilter(entity_type="tool"))
        checked += await check(lg, EntryFilter(entity_type="tool", input_type="json.string"))
        assert checked > 500
        # the same over HTTP: a facet's count is the total /artifacts lists with that value
        app = build_http_app(lg, web=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            browse = (
                await http.get("/search", params={"facets": ",".join(FACET_NAMES), "top": 5})
            ).json()
            assert browse["total"] == 17_251
            listing = {"owner": "author", "input": "input_type", "output": "output_type"}
            for name, facet in browse["facets"].items():
                for value in facet["values"]:
                    key = listing.get(name, name)
                    listed = (await http.get("/artifacts", params={key: value["value"]})).json()
                    assert listed["total"] == value["count"], (name, value)
                    narrowed = (
                        await http.get("/search", params={name: value["value"], "limit": 1})
                    ).json()
                    assert narrowed["total"] == value["count"], (name, value)
