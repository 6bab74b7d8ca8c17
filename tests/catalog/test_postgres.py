"""What only the PostgreSQL backend has to prove: concurrent writers, the lock, NOTIFY, and its
errors (the protocol suite covers everything the backends share)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest

from lgent.catalog.postgres import PostgresCatalog
from lgent.config import redact
from lgent.errors import CatalogCorruptError, CatalogError, CatalogUnreachableError
from lgent.models import TypeDecl
from tests.conftest import make_entry
from tests.pg_fixtures import with_params, with_schema


def test_concurrent_writers_number_in_commit_order(pg_catalog_url: str) -> None:
    """Four writers on four connections, a reader following the log the whole time: the reader
    never sees a hole that a later read fills, and every change has its own number."""
    writers = [PostgresCatalog(pg_catalog_url) for _ in range(4)]
    reader = PostgresCatalog(pg_catalog_url)
    done = threading.Event()
    holes: list[str] = []
    seen: list[int] = []

    def write(n: int) -> None:
        for i in range(40):
            writers[n].register_batch([make_entry(f"W{n}_{i}"), make_entry(f"X{n}_{i}")])

    def follow() -> None:
        while not done.is_set() or (seen[-1] if seen else 0) < reader.change_number():
            for change in reader.changes_since(seen[-1] if seen else 0):
                if change.seq != (seen[-1] if seen else 0) + 1:
                    holes.append(f"{change.seq} after {seen[-1] if seen else 0}")
                seen.append(change.seq)

    follower = threading.Thread(target=follow)
    follower.start()
    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    follower.join()
    assert holes == []
    assert seen == list(range(1, 321))
    keys = [c.key for c in reader.changes_since(0)]
    assert len(keys) == len(set(keys)) == 320
    assert reader.count() == 320
    for catalog in [*writers, reader]:
        catalog.close()


def test_writers_queue_on_the_change_log_lock(pg_catalog_url: str) -> None:
    """A writer waits while another holds the lock; plain readers do not."""
    first = PostgresCatalog(pg_catalog_url)
    second = PostgresCatalog(pg_catalog_url)
    first.register_batch([make_entry("A")])
    with psycopg.connect(pg_catalog_url, autocommit=True) as holder:
        with holder.transaction():
            holder.execute("LOCK TABLE changes IN EXCLUSIVE MODE")
            finished: list[float] = []
            started = time.monotonic()
            writer = threading.Thread(
                target=lambda: (
                    second.register_batch([make_entry("B")]),
                    finished.append(time.monotonic()),
                )
            )
            writer.start()
            assert first.get("A").id == "A"  # a read goes through meanwhile
            assert first.change_number() == 1
            time.sleep(0.3)
            assert finished == []
        writer.join()
    assert finished and finished[0] - started >= 0.3
    assert [c.key for c in first.changes_since(0)] == ["A", "B"]
    first.close()
    second.close()


def test_a_rolled_back_write_leaves_no_hole(pg_catalog_url: str) -> None:
    catalog = PostgresCatalog(pg_catalog_url)
    catalog.register_batch([make_entry("A")])
    with pytest.raises(CatalogError, match="unknown"):
        catalog.remove_type("unknown")  # NotFoundError inside the transaction
    catalog.register_batch([make_entry("B")], [TypeDecl(type="PDF")])
    assert [c.seq for c in catalog.changes_since(0)] == [1, 2, 3]
    catalog.close()


def test_listener_hears_this_catalog_only(pg_catalog_url: str, postgres_server: str) -> None:
    schema = f"lgent_other_{time.monotonic_ns()}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    catalog = PostgresCatalog(pg_catalog_url)
    other = PostgresCatalog(with_schema(postgres_server, schema))
    listener = catalog.listener()
    try:
        listener.connect()
        assert listener.wait(0.05) == 0
        other.register_batch([make_entry("Other")])
        assert listener.wait(0.3) == 0  # another schema's commit is not ours
        catalog.register_batch([make_entry("A"), make_entry("B")])
        started = time.monotonic()
        assert listener.wait(5) == 2
        assert time.monotonic() - started < 1
        threading.Timer(0.1, listener.wake).start()
        started = time.monotonic()
        assert listener.wait(10) == 0
        assert time.monotonic() - started < 2
    finally:
        listener.close()
        catalog.close()
        other.close()
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_read_only_creates_nothing_and_refuses_writes(pg_catalog_url: str) -> None:
    with pytest.raises(CatalogError, match="no catalog at"):
        PostgresCatalog(pg_catalog_url, read_only=True)
    PostgresCatalog(pg_catalog_url).close()
    catalog = PostgresCatalog(pg_catalog_url, read_only=True)
    with pytest.raises(CatalogError, match="read-only"):
        catalog.register_batch([make_entry("A")])
    assert catalog.count() == 0
    catalog.close()


def test_unknown_schema_version_is_corrupt(pg_catalog_url: str) -> None:
    PostgresCatalog(pg_catalog_url).close()
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(CatalogCorruptError, match="schema version 99 is not supported"):
        PostgresCatalog(pg_catalog_url)


def test_unreachable_server_is_a_clear_error(tmp_path: object) -> None:
    url = f"postgresql://lgent:secret@/postgres?host={tmp_path}"
    started = time.monotonic()
    with pytest.raises(CatalogUnreachableError, match="cannot reach the catalog") as err:
        PostgresCatalog(url)
    assert "secret" not in str(err.value)
    assert time.monotonic() - started < 10


def test_check_finds_a_hole_in_the_change_log(pg_catalog_url: str) -> None:
    catalog = PostgresCatalog(pg_catalog_url)
    catalog.register_batch([make_entry("A"), make_entry("B")])
    assert [f.level for f in catalog.check()] == ["ok"]
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        conn.execute("DELETE FROM changes WHERE seq = 1")
    assert [(f.name, f.level) for f in catalog.check()] == [("catalog change log", "fail")]
    catalog.close()


def test_a_lost_connection_is_reopened(pg_catalog_url: str) -> None:
    catalog = PostgresCatalog(with_params(pg_catalog_url, application_name="lgent-reopen"))
    catalog.register_batch([make_entry("A")])
    with psycopg.connect(pg_catalog_url, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'lgent-reopen'"
        )
    with pytest.raises(CatalogUnreachableError, match="connection lost"):
        catalog.get("A")
    assert catalog.get("A").id == "A"
    catalog.close()


def test_redact_hides_the_password() -> None:
    assert redact("postgresql://u:pw@db.example:5433/cat") == "postgresql://u@db.example:5433/cat"
    assert redact("postgresql://u@/cat?host=/tmp/x") == "postgresql://u@/cat?host=/tmp/x"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u:pw@127.0.0.1:notaport/c", "postgresql://u@127.0.0.1:notaport/c"),
        ("postgresql://u:pw@[::1:5432/c", "postgresql://u@[::1:5432/c"),  # unparseable host
        ("postgresql://u:pw@[::1]:5432/c", "postgresql://u@[::1]:5432/c"),  # brackets kept
        ("postgresql://h:1/c?user=u&password=pw", "postgresql://h:1/c?user=u&password=***"),
        ("host=h password=pw dbname=c", "host=h password=*** dbname=c"),
        ("mysql://u:pw@h/db", "mysql://u@h/db"),
    ],
)
def test_redact_hides_a_password_in_every_form_and_never_raises(url: str, shown: str) -> None:
    assert redact(url) == shown and "pw" not in shown


def test_a_malformed_catalog_url_is_a_typed_error_without_its_password(
    tmp_path: Path,
) -> None:
    from lgent import LGent

    for url in ("postgresql://u:pw@127.0.0.1:notaport/c", "postgresql://u:pw@[::1:5432/c"):
        with pytest.raises(CatalogUnreachableError) as info:
            LGent.open_sync(tmp_path / "home", catalog=url).close()
        assert ":pw@" not in str(info.value), info.value


def test_without_postgres_tests_skip_locally_and_fail_under_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests import pg_fixtures
    from tests.pg_fixtures import unavailable

    monkeypatch.setattr(pg_fixtures, "_SKIPPED", [])  # not reported at the end of this run
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL unavailable: no server"):
        unavailable("no server")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL is required under CI"):
        unavailable("no server")
