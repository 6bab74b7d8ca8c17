"""Searching through the facade: the index follows every catalog change, in-process and after reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgent import LGent, QueryError
from tests.conftest import make_entry


async def hit_ids(lg: LGent, query: str) -> list[str]:
    return [h.id for h in (await lg.search(query)).hits]


@pytest.mark.parametrize("persistent", [False, True])
async def test_register_and_remove_show_up_in_the_next_search(
    tmp_path: Path, persistent: bool
) -> None:
    home = tmp_path / "home" if persistent else None
    async with LGent.open(home) as lg:
        await lg.register(make_entry("NewsParser", description="parses news"))
        assert await hit_ids(lg, "news") == ["NewsParser"]
        await lg.register(make_entry("NewsDigest", description="daily news digest"))
        assert set(await hit_ids(lg, "news")) == {"NewsParser", "NewsDigest"}
        await lg.remove("NewsParser")
        assert await hit_ids(lg, "news") == ["NewsDigest"]
        await lg.register(make_entry("NewsDigest", description="weekly roundup"))  # content update
        assert await hit_ids(lg, "daily") == []
    if persistent:
        async with LGent.open(home) as lg:
            assert await hit_ids(lg, "news") == ["NewsDigest"]
            assert await hit_ids(lg, "weekly") == ["NewsDigest"]


async def test_changes_made_by_another_handle_are_caught_up(tmp_path: Path) -> None:
    home = tmp_path / "home"
    async with LGent.open(home) as reader:
        await reader.register(make_entry("Alpha"))
        assert await hit_ids(reader, "alpha") == ["Alpha"]
        async with LGent.open(home) as writer:  # e.g. `lgent load` in another process
            await writer.register(make_entry("AlphaTwo", description="alpha again"))
            await writer.remove("Alpha")
        assert await hit_ids(reader, "alpha") == ["AlphaTwo"]


async def test_stale_manifest_is_caught_up_on_open(tmp_path: Path) -> None:
    home = tmp_path / "home"
    async with LGent.open(home) as lg:
        await lg.register(make_entry("First"))
        await lg.search("first")  # builds the index at this change number
    from lgent.catalog.store import CatalogStore

    with CatalogStore(home / "catalog.db") as store:  # the catalog moves on without the index
        store.register(make_entry("Second"))
    async with LGent.open(home) as lg:
        assert await hit_ids(lg, "second") == ["Second"]


async def test_reindex_rebuilds(tmp_path: Path) -> None:
    async with LGent.open(tmp_path / "home") as lg:
        await lg.register_many([make_entry("A1"), make_entry("B1")])
        (report,) = await lg.reindex(["keyword"])
        assert report.action == "rebuilt" and report.upserts == 2
        assert await hit_ids(lg, "a1") == ["A1"]


@pytest.mark.parametrize(
    ("query", "limit", "message"),
    [
        ("x" * 2001, 10, "query is 2001 characters long; the limit is 2000"),
        ("pdf", 0, "limit must be an integer from 1 to 1000, got 0"),
        ("pdf", -3, "limit must be an integer from 1 to 1000, got -3"),
        ("pdf", 10**9, "limit must be an integer from 1 to 1000, got 1000000000"),
    ],
)
async def test_bad_query_or_limit(query: str, limit: int, message: str) -> None:
    async with LGent.open(None) as lg:
        with pytest.raises(QueryError) as info:
            await lg.search(query, limit=limit)
        assert str(info.value) == message
