"""PostgreSQL for the tests (a pytest plugin, loaded by tests/conftest.py).

``postgres_server``: ``$LGENT_TEST_POSTGRES_URL`` (``.ci/run`` starts a throw-away cluster and
sets it), else a throw-away cluster started here from the server binaries on this machine.
When neither is possible the tests that need PostgreSQL are skipped, and the reason is printed
at the end of the run; under CI (``$CI`` set) they fail instead: CI must run them.
``pg_catalog_url``: a new, empty schema on that server for one test (dropped afterwards).
``private_postgres``: a cluster of the test's own, which it may stop and start.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import NoReturn
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from benchmarks.harness.pgcluster import Cluster, server_binaries

_SKIPPED: list[str] = []


def unavailable(reason: str) -> NoReturn:
    """Skip (locally) or fail (under CI) a test that needs PostgreSQL."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is required under CI: {reason}", pytrace=False)
    if reason not in _SKIPPED:
        _SKIPPED.append(reason)
    pytest.skip(f"PostgreSQL unavailable: {reason}")


def with_params(url: str, **params: str) -> str:
    """``url`` with libpq parameters added to its query string."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), *params.items()]
    return urlunsplit(parts._replace(query=urlencode(query)))


def with_schema(url: str, schema: str) -> str:
    """``url`` selecting ``schema`` (a catalog lives in the schema its search_path names)."""
    return with_params(url, options=f"-csearch_path={schema}")


def start_cluster() -> Cluster:
    bindir = server_binaries()
    if bindir is None:
        unavailable(
            "no PostgreSQL server binaries (apt-get install postgresql, or set "
            "LGENT_TEST_POSTGRES_URL to a server's URL)"
        )
    try:
        cluster = Cluster.create(bindir)
        cluster.start()
    except (RuntimeError, OSError) as err:
        unavailable(f"cannot start a throw-away cluster: {err}")
    return cluster


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for this test session."""
    given = os.environ.get("LGENT_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    cluster = start_cluster()
    try:
        yield cluster.url
    finally:
        cluster.destroy()


@pytest.fixture
def pg_catalog_url(postgres_server: str) -> Iterator[str]:
    """A URL whose catalog is a new, empty schema (dropped after the test)."""
    import psycopg

    schema = f"lgent_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_schema(postgres_server, schema)
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def private_postgres() -> Iterator[Cluster]:
    """A running cluster of this test's own (it may stop and start it)."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.destroy()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reason in _SKIPPED:
        terminalreporter.write_line(f"PostgreSQL tests skipped: {reason}", yellow=True)
