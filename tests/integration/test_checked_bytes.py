"""Every stored byte that answers queries is checked (issue 35, item 2 and the catalog rows of
item 9): a damaged embedding-cache row or catalog row is named by doctor and by the next read,
and never answers a query."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.doctor import check_home
from lgent.errors import CatalogCorruptError
from tests.test_brain_pool import built_home

QUERIES = ("pdf parser", "translate documents", "sentiment of news")


def damage_a_cached_vector(home: Path, how: str) -> None:
    db = sqlite3.connect(home / "indexes" / "semantic" / "embeddings.sqlite")
    key, blob = db.execute("SELECT key, vector FROM embeddings ORDER BY key LIMIT 1").fetchone()
    floats = np.frombuffer(bytes(blob), dtype=np.float32).copy()
    if how == "overwritten":
        floats[:] = 1e10
    else:  # every sign flipped: a vector of length 1 pointing the other way
        floats = -floats
    db.execute("UPDATE embeddings SET vector = ? WHERE key = ?", (floats.tobytes(), key))
    db.commit()
    db.close()


async def rankings(lg: LGent) -> list[list[tuple[str, float]]]:
    found = []
    for query in QUERIES:
        result = await lg.search(query, brain="semantic", lenient=True)
        found.append([(h.id, round(h.score, 5)) for h in result.hits])
    return found


@pytest.mark.parametrize("how", ["overwritten", "sign flipped"])
async def test_a_damaged_cached_vector_is_named_and_embedded_again(
    tmp_path: Path, how: str
) -> None:
    home = await built_home(tmp_path)
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        reference = await rankings(lg)
    damage_a_cached_vector(home, how)
    finding = next(f for f in check_home(home) if f.name == "semantic index")
    assert finding.level == "fail" and "1 cached vector(s) fail their checksum" in finding.message
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.reindex(["semantic"])  # the next read of the cache
        assert await rankings(lg) == reference
        note = lg.brain_status("semantic").extra.get("cache", "")
        assert "1 cached vector(s)" in note and "embedded again" in note
    assert all(f.level == "ok" for f in check_home(home))


async def test_a_catalog_row_edited_in_place_is_named_and_never_served(tmp_path: Path) -> None:
    home = await built_home(tmp_path)
    db = sqlite3.connect(home / "catalog.db")
    db.execute(
        "UPDATE entries SET data = replace(data, 'Layout-aware', 'Evil') "
        "WHERE id = 'PDFParser_v2' AND is_latest = 1"
    )
    db.commit()
    db.close()
    finding = next(f for f in check_home(home) if f.name == "catalog rows")
    assert finding.level == "fail" and "entry 'PDFParser_v2' version 2.3.1" in finding.message
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        with pytest.raises(CatalogCorruptError, match=r"'PDFParser_v2' version 2\.3\.1"):
            await lg.get("PDFParser_v2")
        with pytest.raises(CatalogCorruptError, match="PDFParser_v2"):
            await lg.query("PDFParser_v2")


async def test_a_damaged_row_never_stops_a_brain_and_every_answer_says_so(
    tmp_path: Path,
) -> None:
    home = await built_home(tmp_path)
    db = sqlite3.connect(home / "catalog.db")
    db.execute("UPDATE entries SET status = 'retired' WHERE id = 'FGent' AND is_latest = 1")
    db.commit()
    db.close()
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.reindex()  # every brain builds, leaving the damaged row out
        response = await lg.query("PDF -> Text")
        assert response.results and all(b.ran for b in response.brains if b.brain == "graph")
        assert any("'FGent' version 1.3.0 fail their checksum" in w for w in response.warnings)
        hits = await lg.search("FGent", brain="keyword")
        assert "FGent" not in [h.id for h in hits.hits]
