"""Shared fixtures: the same tests run against an in-memory and an on-disk store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lgent.catalog.store import CatalogStore
from lgent.models import CatalogEntry

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "catalog_fixtures"


@pytest.fixture(params=["memory", "disk"])
def store_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path | None:
    """``None`` for an in-memory store, a file path for an on-disk one."""
    return None if request.param == "memory" else tmp_path / "catalog.db"


@pytest.fixture
def store(store_path: Path | None) -> Iterator[CatalogStore]:
    s = CatalogStore(store_path)
    yield s
    s.close()


def make_entry(artifact_id: str, **fields: object) -> CatalogEntry:
    """A valid entry with ``name`` defaulting to the id."""
    return CatalogEntry.parse({"id": artifact_id, "name": fields.pop("name", artifact_id), **fields})
