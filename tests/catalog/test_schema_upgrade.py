"""A catalog of schema version 1 (before row checksums and owners) is read as it is read-only,
and upgraded on the first writable open: every row summed, every owner unknown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from lgent.catalog.postgres import PostgresCatalog
from lgent.catalog.records import UNKNOWN_OWNER, Owner
from lgent.catalog.store import CatalogStore
from lgent.errors import OwnershipError
from lgent.models import TypeDecl
from tests.conftest import make_entry

ADDED = (
    ("entries", "owner_kind"),
    ("entries", "owner_name"),
    ("entries", "row_sum"),
    ("types", "row_sum"),
    ("changes", "row_sum"),
)


def make_legacy_sqlite(path: Path) -> None:
    store = CatalogStore(path)
    store.register_batch([make_entry("A", description="apples")], [TypeDecl(type="Document")])
    store.close()
    conn = sqlite3.connect(path)
    for table, column in ADDED:
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_a_legacy_sqlite_catalog_is_read_then_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    make_legacy_sqlite(path)
    old = CatalogStore(path, read_only=True)
    assert old.legacy and old.get("A").description == "apples"
    assert old.owners(["A"]) == {"A": UNKNOWN_OWNER}
    assert all(f.level == "ok" for f in old.check())
    old.close()
    store = CatalogStore(path)
    assert not store.legacy and store.get("A").description == "apples"
    assert [t.type for t in store.types()] == ["Document"] and len(store.changes_since(0)) == 2
    assert all(f.level == "ok" for f in store.check())
    # an unknown owner counts as an author's: no import takes it over
    with pytest.raises(OwnershipError, match="unknown source"):
        store.register_batch([make_entry("A")], owners={"A": Owner("import", "/x/a.json")})
    store.close()
    assert CatalogStore(path, read_only=True).legacy is False


def test_a_legacy_postgres_catalog_is_upgraded_once(pg_catalog_url: str) -> None:
    writer = PostgresCatalog(pg_catalog_url)
    writer.register_batch([make_entry("A"), make_entry("B")], [TypeDecl(type="Document")])
    writer.close()
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        for table, column in ADDED:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")  # type: ignore[arg-type]
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    old = PostgresCatalog(pg_catalog_url, read_only=True)
    assert old.legacy and [e.id for e in old.list_entries()] == ["A", "B"]
    old.close()
    upgraded = PostgresCatalog(pg_catalog_url)
    assert not upgraded.legacy and upgraded.owners(["A"]) == {"A": UNKNOWN_OWNER}
    assert all(f.level == "ok" for f in upgraded.check())
    upgraded.register_batch([make_entry("C")])
    again = PostgresCatalog(pg_catalog_url)
    assert [e.id for e in again.list_entries()] == ["A", "B", "C"]
    again.close()
    upgraded.close()
