"""Shared fixtures: the same tests run against an in-memory and an on-disk store."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lgent import LGent
from lgent.catalog.protocol import Catalog
from lgent.catalog.store import CatalogStore
from lgent.models import CatalogEntry
from tests.examples import FRACTION

if TYPE_CHECKING:
    from lgent.brains.semantic.embedders import Embedder

REPO = Path(__file__).resolve().parent.parent
MODEL_FIXTURES = frozenset({"real_embedder", "example_home", "open_example"})
"""Fixtures that load the real model: a test that uses one is marked ``real_model``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that loads the real model (through a fixture) as ``real_model``, so
    ``pytest -m "not real_model"`` runs without it (tests/test_model_free.py checks that)."""
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.real_model)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say so at the end of a run whose property tests generated fewer than their full counts."""
    if FRACTION != 1:
        terminalreporter.write_line(
            f"property tests ran {FRACTION:.0%} of their examples (LGENT_TEST_EXAMPLES={FRACTION:g})",
            yellow=True,
        )


FIXTURES = REPO / "catalog_fixtures"


pytest_plugins = ("tests.pg_fixtures",)


def _postgres(request: pytest.FixtureRequest) -> Catalog:
    from lgent.catalog.postgres import PostgresCatalog

    return PostgresCatalog(request.getfixturevalue("pg_catalog_url"))


def _postgres_replica(tmp: Path, request: pytest.FixtureRequest) -> Catalog:
    from lgent.catalog.backends import open_catalog
    from lgent.home import Home

    return open_catalog(Home(tmp), url=request.getfixturevalue("pg_catalog_url"))


CATALOG_BACKENDS: dict[str, Callable[[Path, pytest.FixtureRequest], Catalog]] = {
    "sqlite-memory": lambda _, __: CatalogStore(None),
    "sqlite-file": lambda tmp, _: CatalogStore(tmp / "catalog.db"),
    "postgres": lambda _, request: _postgres(request),
    "postgres-replica": _postgres_replica,
}
"""Every catalog backend the protocol suite (tests/catalog/test_catalog_protocol.py) runs on:
a factory of a new, empty catalog from the test's folder and its request (for fixtures such as
``pg_catalog_url``: a new schema on the session's PostgreSQL server)."""


@pytest.fixture(params=list(CATALOG_BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Catalog]:
    """A new, empty catalog of each backend."""
    s = CATALOG_BACKENDS[request.param](tmp_path, request)
    yield s
    s.close()


def entry_lookup(
    entries: Iterable[CatalogEntry],
) -> Callable[[Sequence[str]], dict[str, CatalogEntry]]:
    """A catalog stand-in for ``KeywordBrain(entries=...)``: the given entries by id."""
    by_id = {e.id: e for e in entries}
    return lambda ids: {i: by_id[i] for i in ids if i in by_id}


def make_entry(artifact_id: str, **fields: object) -> CatalogEntry:
    """A valid entry with ``name`` defaulting to the id."""
    return CatalogEntry.parse(
        {"id": artifact_id, "name": fields.pop("name", artifact_id), **fields}
    )


OpenHome = Callable[[], AbstractAsyncContextManager[LGent]]


@pytest.fixture(scope="session")
def real_embedder() -> Embedder:
    """The real MiniLM embedder the default settings choose (ONNX), loaded once for the session.

    The default, not sentence-transformers: it is what users and the CLI processes the tests start
    open the example home with (another model's index would be rebuilt there). The tests of
    ``tests/brains/semantic`` run the brain on both real embedders."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from lgent.brains.semantic.embedder_choice import configured_embedder
    from lgent.config import SemanticSettings

    return configured_embedder(SemanticSettings())


@pytest.fixture(scope="session")
def example_home(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[Path]:
    """A home with the example catalog loaded and every brain built (shared, read-only)."""
    home = tmp_path_factory.mktemp("example") / "home"

    async def build() -> None:
        async with LGent.open(home, embedder=real_embedder) as lg:
            await lg.load(FIXTURES)
            await lg.reindex()

    asyncio.run(build())
    yield home


@pytest.fixture
def open_example(example_home: Path, real_embedder: Embedder) -> OpenHome:
    """Opens the shared example home with the already-loaded model."""
    return lambda: LGent.open(example_home, embedder=real_embedder)
