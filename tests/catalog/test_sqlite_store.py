"""The SQLite backend's own behaviour: files, reopening, corruption, schema versions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lgent.catalog.store import CatalogStore
from lgent.errors import CatalogCorruptError
from tests.conftest import make_entry


def test_persists_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    with CatalogStore(path) as store:
        store.register_batch([make_entry("A", version="1.0.0"), make_entry("A", version="1.1.0")])
        store.remove("A", "1.0.0")
        number = store.change_number()
    with CatalogStore(path) as store:
        assert store.get("A").version == "1.1.0"
        assert store.change_number() == number
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "catalog.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(CatalogCorruptError, match="not a readable L-gent catalog"):
        CatalogStore(bad)


def test_unknown_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    CatalogStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(CatalogCorruptError, match="schema version 99"):
        CatalogStore(path)
