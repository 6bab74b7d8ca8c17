"""A replica's lag is stated, and a slow catch-up never holds its pulls back (issue 35, item 5):
while the semantic brain embeds a large batch written through another home, the next change is
pulled at once, the keyword brain answers it, and answers and /health say what is behind."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder, Vectors
from lgent.catalog.postgres import PostgresCatalog
from lgent.serving import health
from tests.conftest import make_entry

pytestmark = pytest.mark.slow


class SlowEmbedder(HashingEmbedder):
    """Half a second per batch of entry texts (a query's single text is not slowed)."""

    def __init__(self) -> None:
        super().__init__(64)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if len(texts) > 1:
            time.sleep(0.5)
        return super().embed_batch(texts)


async def test_a_slow_catch_up_never_holds_a_pull_back(pg_catalog_url: str, tmp_path: Path) -> None:
    writer = PostgresCatalog(pg_catalog_url)
    writer.register_batch([make_entry("Seed", description="the first artifact")])
    async with LGent.open(
        tmp_path / "replica",
        catalog=pg_catalog_url,
        embedder=SlowEmbedder(),
        freshness="snapshot",
    ) as lg:
        for name in ("keyword", "semantic", "graph"):
            await lg.ready(name)
        # a large batch through another home: about 10 s of embedding for this replica
        writer.register_batch(
            [make_entry(f"Widget{i}", description=f"widget number {i}") for i in range(600)]
        )
        await asyncio.sleep(1.0)
        writer.register_batch([make_entry("ZebraCounter", description="counts zebra stripes")])
        head = writer.change_number()
        started = time.monotonic()
        while await lg.change_number() < head and time.monotonic() - started < 5:
            await asyncio.sleep(0.05)
        assert await lg.change_number() == head  # pulled while the semantic brain embeds
        found = None
        while time.monotonic() - started < 5:
            found = await lg.search("ZebraCounter", brain="keyword")
            if found.hits:
                break
            await asyncio.sleep(0.05)
        assert found is not None and found.hits and found.hits[0].id == "ZebraCounter"
        response = await lg.query("widget number 7")
        semantic = next(b for b in response.brains if b.brain == "semantic")
        assert semantic.change_number is not None and semantic.change_number < head
        assert "semantic" in response.query_interpretation
        assert "behind" in response.query_interpretation or semantic.catching_up
        state = await health(lg)
        assert state.status == "degraded"
        brains = {b.name: b for b in state.brains}
        assert brains["semantic"].change_number is not None
        assert brains["semantic"].change_number < state.change_number == head
    writer.close()


async def test_the_lag_note_counts_the_changes_behind(pg_catalog_url: str, tmp_path: Path) -> None:
    async with LGent.open(
        tmp_path / "replica", catalog=pg_catalog_url, embedder=HashingEmbedder()
    ) as lg:
        store = lg.store
        store.announce(await lg.change_number() + 3101)  # type: ignore[attr-defined]
        note = lg.catalog_note()
        assert note is not None and "3,101 changes behind" in note
        assert (await health(lg)).catalog == note
