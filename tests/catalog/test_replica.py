"""A replica's copy of a shared catalog: pulls, a replaced history, the follower, its notes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest

from lgent.catalog.backends import open_catalog
from lgent.catalog.postgres import PostgresCatalog
from lgent.catalog.protocol import Catalog
from lgent.catalog.replica import Follower, Mirror, PullReport, ReplicaCatalog
from lgent.errors import CatalogUnreachableError
from lgent.home import Home
from lgent.models import TypeDecl
from tests.conftest import make_entry


def same_content(a: Catalog, b: Catalog) -> None:
    assert a.change_number() == b.change_number()
    assert [(c.seq, c.kind, c.op, c.key, c.version) for c in a.changes_since(0)] == [
        (c.seq, c.kind, c.op, c.key, c.version) for c in b.changes_since(0)
    ]
    assert a.list_entries() == b.list_entries()
    assert {e.id: a.versions(e.id) for e in a.list_entries()} == {
        e.id: b.versions(e.id) for e in b.list_entries()
    }
    assert a.types() == b.types()
    assert a.stats() == b.stats()


def test_pulls_copy_every_write_incrementally(pg_catalog_url: str, tmp_path: Path) -> None:
    writer = PostgresCatalog(pg_catalog_url)
    replica = open_catalog(Home(tmp_path), url=pg_catalog_url)
    assert isinstance(replica, ReplicaCatalog)
    writer.register_batch(
        [make_entry("A", version="1.0.0"), make_entry("B")], [TypeDecl(type="Document")]
    )
    assert replica.pull() == PullReport(0, 3)
    writer.register_batch([make_entry("A", version="2.0.0", description="new")])
    writer.register_batch([make_entry("C")], [TypeDecl(type="PDF", subtype_of=("Document",))])
    writer.remove("B")
    writer.remove("A", "1.0.0")
    writer.remove_type("Document")
    assert replica.pull() == PullReport(3, writer.change_number())
    same_content(writer, replica)
    assert replica.pull() == PullReport(9, 9)  # nothing new: nothing done
    replica.close()
    writer.close()


def test_a_write_through_the_replica_is_read_back_at_once(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    replica = open_catalog(Home(tmp_path), url=pg_catalog_url)
    result = replica.register_batch([make_entry("A")])
    assert replica.change_number() == result.change_number == 1
    assert replica.get("A").id == "A"
    replica.close()


def test_another_catalog_or_history_is_copied_again(pg_catalog_url: str, tmp_path: Path) -> None:
    writer = PostgresCatalog(pg_catalog_url)
    writer.register_batch([make_entry("A"), make_entry("B")])
    forgotten: list[str] = []
    replica = ReplicaCatalog(
        PostgresCatalog(pg_catalog_url),
        Mirror(tmp_path / "replica.db"),
        on_replace=lambda: forgotten.append("x"),
    )
    replica.pull()
    # the database is restored from another copy: same catalog, another change 2 (whose rows
    # carry their own checksums, as a restored copy's do)
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        conn.execute("DELETE FROM entries")
        conn.execute("DELETE FROM changes WHERE seq = 2")
        writer.register_batch([make_entry("C")])
    report = replica.pull()
    assert report.replaced and forgotten == ["x"]
    same_content(writer, replica)
    assert replica.exists("C") and not replica.exists("B") and replica.count() == 1
    replica.close()
    writer.close()


def test_notes_say_why_an_answer_may_lag(pg_catalog_url: str, tmp_path: Path) -> None:
    replica = open_catalog(Home(tmp_path), url=pg_catalog_url)
    assert isinstance(replica, ReplicaCatalog)
    assert replica.lag_note() is None
    replica.announce(5)
    assert replica.lag_note() == (
        "catching up with the shared catalog: answering from change 0 of 5 (5 changes behind)"
    )
    replica.unreachable(CatalogUnreachableError("cannot reach the catalog at x"))
    note = replica.lag_note()
    assert note is not None and "unreachable since" in note and "at change 0" in note
    replica.pull()
    assert replica.lag_note() == (
        "catching up with the shared catalog: answering from change 0 of 5 (5 changes behind)"
    )
    replica.close()


def test_follower_pulls_when_a_change_is_announced(pg_catalog_url: str, tmp_path: Path) -> None:
    replica = open_catalog(Home(tmp_path), url=pg_catalog_url)
    assert isinstance(replica, ReplicaCatalog)
    writer = PostgresCatalog(pg_catalog_url)
    pulled: list[PullReport] = []
    arrived = threading.Event()

    def on_pull(report: PullReport) -> None:
        pulled.append(report)
        arrived.set()

    follower = Follower(replica, on_pull, poll_seconds=60)  # only NOTIFY can wake it in time
    follower.start()
    try:
        deadline = time.monotonic() + 10
        while follower.pulls == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        writer.register_batch([make_entry("A")])
        assert arrived.wait(5)
        assert pulled == [PullReport(0, 1)]
        assert replica.get("A").id == "A"
    finally:
        follower.stop()
    replica.close()
    writer.close()


def test_a_copy_answers_while_the_database_is_unreachable(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    replica = open_catalog(Home(tmp_path), url=pg_catalog_url)
    replica.register_batch([make_entry("A")])
    replica.close()
    gone = f"postgresql://lgent@/postgres?host={tmp_path / 'nowhere'}"
    (tmp_path / "nowhere").mkdir()
    reopened = open_catalog(Home(tmp_path), url=gone)
    assert isinstance(reopened, ReplicaCatalog)
    assert reopened.get("A").id == "A"
    note = reopened.lag_note()
    assert note is not None and "unreachable" in note and "at change 1" in note
    with pytest.raises(CatalogUnreachableError):
        reopened.register_batch([make_entry("B")])
    reopened.close()
    (tmp_path / "new").mkdir()
    with pytest.raises(CatalogUnreachableError, match="holds no copy of it yet"):
        open_catalog(Home(tmp_path / "new"), url=gone)


def test_an_in_memory_home_keeps_its_copy_in_memory(pg_catalog_url: str) -> None:
    replica = open_catalog(Home(None), url=pg_catalog_url)
    assert isinstance(replica, ReplicaCatalog) and replica.mirror.path is None
    replica.register_batch([make_entry("A")])
    assert replica.get("A").id == "A" and replica.snapshot(["A"]).change_number == 1
    replica.close()


def test_follower_tells_its_indexes_what_another_process_of_its_home_pulled(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    """Two processes on one home share its copy: when the other one pulls (or writes) first,
    this follower's pull finds the copy current, and must still bring its indexes along."""
    mine = open_catalog(Home(tmp_path), url=pg_catalog_url)
    other = open_catalog(Home(tmp_path), url=pg_catalog_url)  # the same replica.db
    assert isinstance(mine, ReplicaCatalog) and isinstance(other, ReplicaCatalog)
    told: list[PullReport] = []
    follower = Follower(mine, told.append)  # not started: each wake-up done by hand
    follower.pull_once()  # the first look: nothing to tell
    assert told == []
    other.register_batch([make_entry("A")])  # writes, then pulls into the shared copy
    follower.pull_once()
    assert [r.after for r in told] == [1]
    follower.pull_once()  # told already: nothing new
    assert len(told) == 1
    mine.close()
    other.close()


def test_a_copy_pulled_by_another_process_of_the_home_is_never_taken_back(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    """Two processes of one home share its replica.db: a delta read before the other one
    pulled is applied only for what the copy lacks, and never takes the copy back."""
    writer = PostgresCatalog(pg_catalog_url)
    writer.register_batch([make_entry("A")])
    first = open_catalog(Home(tmp_path), url=pg_catalog_url)  # the copy at change 1
    other = Mirror(tmp_path / "replica.db")  # another process's connection to the same copy
    writer.register_batch([make_entry("B")])
    to_two = writer.delta(1)
    writer.register_batch([make_entry("C")])
    to_three = writer.delta(1)
    other.apply(to_three)  # the other process pulled first, to change 3
    first.mirror.apply(to_two)  # read before it: nothing to add, nothing taken back
    same_content(writer, first)
    writer.register_batch([make_entry("A", description="changed")])
    to_four = writer.delta(1)
    other.apply(writer.delta(3))  # it pulled to 4 too ...
    first.mirror.apply(to_four)  # ... and a delta from 1 to 4 adds nothing
    same_content(writer, first)
    writer.register_batch([make_entry("D")])
    partly = writer.delta(3)  # from 4's predecessor: change 4 is held already, 5 is not
    first.mirror.apply(partly)
    same_content(writer, first)
    assert first.get("A").description == "changed"
    other.close()
    first.close()
    writer.close()
