"""The catalog file itself: an empty or foreign file is an error (never an empty catalog, never
taken over), a new one appears whole, and writers of two processes queue instead of failing."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from lgent import LGent
from lgent.catalog.store import CatalogStore
from lgent.doctor import check_home
from lgent.errors import CatalogCorruptError, CatalogError
from tests.conftest import make_entry


def test_an_empty_catalog_file_is_an_error_not_an_empty_catalog(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    path.write_bytes(b"")
    with pytest.raises(CatalogCorruptError, match=r"empty \(0 bytes\)"):
        CatalogStore(path)
    with pytest.raises(CatalogCorruptError, match=r"empty \(0 bytes\)"):
        CatalogStore(path, read_only=True)
    assert path.stat().st_size == 0  # left as it was: nothing restarts at change number 1
    (finding,) = check_home(tmp_path)
    assert finding.level == "fail" and "empty (0 bytes)" in finding.message


async def test_loading_into_a_home_with_an_empty_catalog_file_fails(tmp_path: Path) -> None:
    (tmp_path / "catalog.db").write_bytes(b"")
    with pytest.raises(CatalogCorruptError):
        async with LGent.open(tmp_path) as lg:
            await lg.register(make_entry("A"))
    assert (tmp_path / "catalog.db").stat().st_size == 0


def test_a_foreign_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(CatalogCorruptError, match=r"not an L-gent catalog.*tables found: users"):
        CatalogStore(path)
    assert path.read_bytes() == before
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("users",)]  # no L-gent table was created inside it


def test_a_new_catalog_appears_whole(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    CatalogStore(path).close()
    assert not list(tmp_path.glob(".catalog.db.*"))  # the temporary file is gone
    with CatalogStore(path) as store:
        assert store.change_number() == 0


def test_a_writer_queues_behind_another_process_and_hears_how_long(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    CatalogStore(path).close()
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock for a while
    threading.Timer(2.5, lambda: other.execute("COMMIT")).start()
    waits: list[float] = []
    started = time.monotonic()
    with CatalogStore(path, on_wait=waits.append) as store:
        result = store.register_batch([make_entry("A")])
    assert time.monotonic() - started >= 2.0
    assert result.change_number == 1
    assert waits and waits == sorted(waits) and waits[-1] >= 1.0
    other.close()


def test_a_writer_gives_up_after_its_wait_with_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "catalog.db"
    CatalogStore(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with (
            CatalogStore(path, write_wait=1.5) as store,
            pytest.raises(CatalogError, match=r"waited [0-9]+ s"),
        ):
            store.register_batch([make_entry("A")])
    finally:
        other.execute("ROLLBACK")
        other.close()
    with CatalogStore(path) as store:
        assert store.count() == 0


def test_a_snapshot_is_one_moment_while_another_process_commits(tmp_path: Path) -> None:
    """Another process's commit that lands between a snapshot's reads (its change number, then
    its rows) is not seen by either: the entries are the ones the catalog held at that number."""
    path = tmp_path / "catalog.db"
    reader, other = CatalogStore(path), CatalogStore(path)  # two connections, as two processes
    try:
        other.register_batch([make_entry("A", version="1.0.0", description="old")], [])
        before = reader.change_number()
        read_rows = reader._latest_rows

        def rows_after_a_commit_elsewhere(ids: list[str]) -> dict[str, tuple[str, str]]:
            other.register_batch([make_entry("A", version="2.0.0", description="new")], [])
            return read_rows(ids)

        reader._latest_rows = rows_after_a_commit_elsewhere  # type: ignore[method-assign]
        snap = reader.snapshot(["A"])
        assert other.change_number() == before + 1  # the commit landed, between the two reads
        assert snap.change_number == before and snap.entry("A").version == "1.0.0"
        del reader._latest_rows
        later = reader.snapshot(["A"])
        assert later.change_number == before + 1 and later.entry("A").version == "2.0.0"
        reader.register_batch([make_entry("B")], [])  # the read transaction ended
    finally:
        reader.close()
        other.close()
