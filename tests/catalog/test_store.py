"""The SQLite store, run against an in-memory and an on-disk database (see conftest)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lgent.catalog.store import CatalogStore, EntryFilter
from lgent.errors import CatalogCorruptError, NotFoundError, ValidationError
from lgent.models import TypeDecl
from tests.conftest import make_entry


def test_register_get_and_history(store: CatalogStore) -> None:
    store.register(make_entry("Sum", version="1.0.0", description="old"))
    store.register(make_entry("Sum", version="2.0.0", description="new"))
    store.register(make_entry("Sum", version="1.5.0", description="middle"))
    assert store.get("Sum").version == "2.0.0"  # latest by semver, not by arrival
    assert store.get("Sum", "1.0.0").description == "old"
    assert store.versions("Sum") == ["1.0.0", "1.5.0", "2.0.0"]
    assert store.count() == 1


def test_same_version_new_content_replaces(store: CatalogStore) -> None:
    store.register(make_entry("A", version="1.0.0", description="first"))
    result = store.register(make_entry("A", version="1.0.0", description="second"))
    assert result.updated == ["A"]
    assert store.get("A").description == "second"
    assert store.versions("A") == ["1.0.0"]


def test_identical_content_records_no_change(store: CatalogStore) -> None:
    store.register(make_entry("A"))
    before = store.change_number()
    result = store.register(make_entry("A"))
    assert result.unchanged == ["A"]
    assert store.change_number() == before


def test_missing_ids(store: CatalogStore) -> None:
    with pytest.raises(NotFoundError, match="no artifact with id 'nope'"):
        store.get("nope")
    store.register(make_entry("A", version="1.0.0"))
    with pytest.raises(NotFoundError, match=r"at version 9\.9\.9"):
        store.get("A", "9.9.9")
    with pytest.raises(NotFoundError):
        store.remove("nope")


def test_remove_all_versions_or_one(store: CatalogStore) -> None:
    store.register_batch([make_entry("A", version="1.0.0"), make_entry("A", version="2.0.0")])
    assert store.remove("A", "2.0.0") == 1
    assert store.get("A").version == "1.0.0"  # the older version becomes latest again
    assert store.remove("A") == 1
    assert not store.exists("A")


def test_list_filters(store: CatalogStore) -> None:
    store.register_batch(
        [
            make_entry("A", entity_type="agent", status="active", author="ann", input_type="PDF"),
            make_entry(
                "B", entity_type="tool", status="deprecated", author="bob", output_type="Text"
            ),
            make_entry("C", entity_type="agent", status="deprecated", author="ann"),
        ]
    )
    ids = lambda f: [e.id for e in store.list_entries(f)]  # noqa: E731
    assert ids(EntryFilter(entity_type="agent")) == ["A", "C"]
    assert ids(EntryFilter(status="deprecated", author="ann")) == ["C"]
    assert ids(EntryFilter(input_type="PDF")) == ["A"]
    assert ids(EntryFilter(output_type="Text")) == ["B"]
    assert [e.id for e in store.list_entries(limit=1, offset=1)] == ["B"]
    assert store.count(EntryFilter(status="deprecated")) == 2


def test_change_log(store: CatalogStore) -> None:
    assert store.change_number() == 0
    store.register_batch([make_entry("A"), make_entry("B")], [TypeDecl(type="PDF")])
    n = store.change_number()
    store.register(make_entry("A", description="changed"))
    store.remove("B")
    changes = store.changes_since(n)
    assert [(c.kind, c.op, c.key) for c in changes] == [
        ("entry", "upsert", "A"),
        ("entry", "remove", "B"),
    ]
    assert [c.seq for c in changes] == [n + 1, n + 2]
    assert store.changes_since(store.change_number()) == []
    kinds = {(c.kind, c.key) for c in store.changes_since(0)}
    assert ("type", "PDF") in kinds


def test_batch_is_atomic(store: CatalogStore) -> None:
    store.register(make_entry("Keep"))
    before = (store.count(), store.change_number())

    def bad_batch():  # the third entry fails validation while the batch is being built
        yield make_entry("A")
        yield make_entry("B")
        yield make_entry("C", success_rate=7)

    with pytest.raises(ValidationError):
        store.register_batch(bad_batch())
    assert (store.count(), store.change_number()) == before
    assert not store.exists("A")


def test_types_round_trip(store: CatalogStore) -> None:
    store.register_batch(
        [], [TypeDecl(type="Document"), TypeDecl(type="PDF", subtype_of=("Document",))]
    )
    assert [t.type for t in store.types()] == ["Document", "PDF"]
    store.remove_type("PDF")
    assert [t.type for t in store.types()] == ["Document"]


def test_stats(store: CatalogStore) -> None:
    store.register_batch(
        [
            make_entry("A", entity_type="agent", relations=[{"type": "depends_on", "target": "B"}]),
            make_entry("B", version="1.0.0"),
            make_entry("B", version="1.1.0"),
        ],
        [TypeDecl(type="PDF")],
    )
    stats = store.stats()
    assert stats["artifacts"] == 2 and stats["versions"] == 3
    assert stats["types"] == 1 and stats["relations"] == 1
    assert stats["by_entity_type"] == {"agent": 1, "tool": 1}


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


def test_snapshot_reads_together_and_decodes_on_demand(store: CatalogStore) -> None:
    store.register_batch(
        [make_entry("A", version="1.0.0"), make_entry("B", status="deprecated")], []
    )
    store.register_batch([make_entry("A", version="2.0.0", description="newer")], [])
    snap = store.snapshot(["A", "B", "missing"])
    assert snap.change_number == store.change_number()
    assert "missing" not in snap and len(snap) == 2
    assert snap.status("B").value == "deprecated"
    assert snap._entries == {}  # a status needs no decoding
    assert snap.entry("A").version == "2.0.0" and snap.entry("A") is snap.entry("A")
    with pytest.raises(KeyError):
        snap.entry("missing")
    store.remove("A")
    assert "A" in snap and "A" not in store.snapshot(["A"])  # a snapshot keeps its moment
