"""A catalog of schema version 1 (before row checksums and owners) is read as it is read-only,
and upgraded on the first writable open: every row summed, every owner unknown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from lgent.catalog.postgres import PostgresCatalog
from lgent.catalog.records import UNKNOWN_OWNER, Owner, row_sum
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
    ("changes", "writer"),
    ("changes", "status"),
)
"""The columns a schema version 1 catalog lacks."""
NAMING = (("changes", "writer"), ("changes", "status"))
"""The columns a schema version 2 catalog lacks."""


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


def make_unnamed_sqlite(path: Path) -> None:
    """A catalog of schema version 2: checksums and owners, no writer or status per change."""
    store = CatalogStore(path)
    store.register_batch([make_entry("A", description="apples")], [TypeDecl(type="Document")])
    store.close()
    conn = sqlite3.connect(path)
    for table, column in NAMING:
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    rows = conn.execute("SELECT seq, kind, op, key, version, at FROM changes").fetchall()
    conn.executemany(  # summed as version 2 summed them
        "UPDATE changes SET row_sum = ? WHERE seq = ?", [(row_sum(r), r[0]) for r in rows]
    )
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_a_version_2_sqlite_catalog_keeps_its_sums_and_then_names_writers(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    make_unnamed_sqlite(path)
    old = CatalogStore(path, read_only=True)
    assert old.unnamed and [c.writer for c in old.changes_since(0)] == [None, None]
    assert all(f.level == "ok" for f in old.check())
    old.close()
    store = CatalogStore(path)
    assert all(f.level == "ok" for f in store.check())  # the old change rows keep their sums
    store.register_batch([make_entry("A", version="2.0.0")], writer="alice")
    history = store.history("A")
    assert [(c.version, c.writer, c.status) for c in history] == [
        ("0.1.0", None, None),
        ("2.0.0", "alice", "active"),
    ]
    conn = sqlite3.connect(path)
    conn.execute("UPDATE changes SET writer = NULL WHERE writer = 'alice'")
    conn.commit()
    conn.close()
    assert [f.level for f in store.check() if f.level != "ok"] == ["fail"]  # noticed
    store.close()


def test_a_version_2_postgres_catalog_is_upgraded(pg_catalog_url: str) -> None:
    writer = PostgresCatalog(pg_catalog_url)
    writer.register_batch([make_entry("A")], [TypeDecl(type="Document")])
    writer.close()
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        for table, column in NAMING:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")  # type: ignore[arg-type]
        rows = conn.execute("SELECT seq, kind, op, key, version, at FROM changes").fetchall()
        for r in rows:  # summed as version 2 summed them
            conn.execute("UPDATE changes SET row_sum = %s WHERE seq = %s", (row_sum(r), r[0]))
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    old = PostgresCatalog(pg_catalog_url, read_only=True)
    assert old.unnamed and [c.writer for c in old.changes_since(0)] == [None, None]
    old.close()
    upgraded = PostgresCatalog(pg_catalog_url)
    assert all(f.level == "ok" for f in upgraded.check())
    upgraded.remove("A", writer="bob")
    assert [(c.op, c.writer) for c in upgraded.history("A")] == [
        ("upsert", None),
        ("remove", "bob"),
    ]
    upgraded.close()
