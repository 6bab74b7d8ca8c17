"""The entries a write stored are handed to the index builds that read them back right after,
without decoding them again; what is read is always what a fresh decode of the row gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from lgent.catalog.fresh import QUICK_READS, FreshEntries
from lgent.catalog.store import CatalogStore
from lgent.errors import CatalogCorruptError
from lgent.models import TypeDecl
from tests.conftest import make_entry


def test_the_quick_reads_after_a_write_take_the_written_entries(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    written = [make_entry("A", description="counts apples"), make_entry("B")]
    store.register_batch(written)
    for _ in range(QUICK_READS):
        read = list(store.iter_latest(skip_damaged=True))
        assert [e.id for e in read] == ["A", "B"]
        assert all(a is b for a, b in zip(read, written, strict=True))
    again = list(store.iter_latest())  # every quick read was served: decoded from now on
    assert again == written and all(a is not b for a, b in zip(again, written, strict=True))
    store.close()


def test_a_row_changed_behind_the_store_is_decoded_not_taken(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    store.register_batch([make_entry("A", description="counts apples")])
    other = CatalogStore(tmp_path / "catalog.db")  # another writer rewrites the row
    other.register_batch([make_entry("A", description="counts pears")])
    other.close()
    (entry,) = list(store.iter_latest())
    assert entry.description == "counts pears"
    store.close()


def test_a_row_edited_in_place_is_refused_even_when_kept(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    store.register_batch([make_entry("A", description="counts apples"), make_entry("B")])
    conn = sqlite3.connect(tmp_path / "catalog.db")
    with conn:
        conn.execute("UPDATE entries SET data = replace(data, 'apples', 'pears')")
    conn.close()
    with pytest.raises(CatalogCorruptError, match=r"'A' version 0\.1\.0 fails its checksum"):
        list(store.iter_latest())
    assert [e.id for e in store.iter_latest(skip_damaged=True)] == ["B"]
    store.close()


def test_a_failed_write_keeps_nothing(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    store.register_batch([make_entry("A")])
    kept = store._fresh
    assert len(kept) == 1
    store.close()
    with pytest.raises(Exception):  # noqa: B017 - the closed connection's own error
        store.register_batch([make_entry("B")])
    assert len(kept) == 0


def test_each_entry_is_handed_out_a_bounded_number_of_times() -> None:
    fresh = FreshEntries(reads=2)
    entry = make_entry("A")
    fresh.keep([(("A", "0.1.0", "h", "s"), entry)])
    assert fresh.take(("A", "0.1.0", "h", "s")) is entry
    assert fresh.take(("A", "0.1.0", "h", "other")) is None
    assert fresh.take(("A", "0.1.0", "h", "s")) is entry
    assert fresh.take(("A", "0.1.0", "h", "s")) is None
    fresh.keep([(("B", "0.1.0", "h", "s"), make_entry("B"))])
    fresh.keep([])  # the next write replaces what was kept
    assert len(fresh) == 0


def test_type_declarations_read_again_are_verified_and_current(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalog.db")
    store.register_batch([], [TypeDecl(type="Document", description="a document")])
    first = store.types()
    assert store.types() == first and store.types()[0] is first[0]  # decoded once
    other = CatalogStore(tmp_path / "catalog.db")
    other.register_batch([], [TypeDecl(type="Document", description="a text")])
    other.close()
    assert [t.description for t in store.types()] == ["a text"]
    conn = sqlite3.connect(tmp_path / "catalog.db")
    with conn:
        conn.execute("UPDATE types SET data = replace(data, 'a text', 'a page')")
    conn.close()
    with pytest.raises(CatalogCorruptError, match="type 'Document'"):
        store.types()
    store.close()
