"""Shared fixtures: the same tests run against an in-memory and an on-disk store."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lgent import LGent
from lgent.catalog.protocol import Catalog
from lgent.catalog.store import CatalogStore
from lgent.models import CatalogEntry
from tests import examples

if TYPE_CHECKING:
    from lgent.brains.semantic.embedders import Embedder

REPO = Path(__file__).resolve().parent.parent
MODEL_FIXTURES = frozenset({"real_embedder", "example_home", "open_example"})
"""Fixtures that load the real model: a test that uses one is marked ``real_model``."""


MODEL_BLOCKER = REPO / "tests" / "model_blocker"
"""Its ``sitecustomize`` refuses the model's packages in a process started with it on PYTHONPATH
and ``LGENT_TEST_NO_MODEL=1``."""


def quick_run(config: pytest.Config) -> bool:
    """Whether this is the model-free run: its mark expression says ``not real_model``."""
    return re.search(r"\bnot\s+real_model\b", config.option.markexpr or "") is not None


def refuse_the_model() -> None:
    """Make loading the model an error in this process and in every process it starts."""
    os.environ["LGENT_TEST_NO_MODEL"] = "1"
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(MODEL_BLOCKER) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(MODEL_BLOCKER), *paths) if p)
    if not any(type(finder).__name__ == "ModelBlocker" for finder in sys.meta_path):
        spec = importlib.util.spec_from_file_location(
            "lgent_test_model_blocker", MODEL_BLOCKER / "sitecustomize.py"
        )
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(importlib.util.module_from_spec(spec))  # installs the finder


CACHE_MADE = pytest.StashKey[str]()
"""The ``LGENT_CACHE_DIR`` this process made for the run (removed at its end)."""

QUICK_WORKERS = 4
"""At most this many processes for the quick run (one per core the process may use)."""


def spread_over_cores(config: pytest.Config) -> None:
    """Run the tests in one pytest-xdist worker per core (at most ``QUICK_WORKERS``) when
    pytest-xdist is installed, there are several cores and ``-n`` was not given: the settings
    xdist's own ``pytest_cmdline_main`` makes of ``-n N``, before its ``pytest_configure``
    (trylast) starts the workers. A worker (``workerinput``) never starts workers of its own."""
    cores = min(len(os.sched_getaffinity(0)), QUICK_WORKERS)
    if (
        hasattr(config, "workerinput")
        or not config.pluginmanager.hasplugin("xdist")
        or getattr(config.option, "numprocesses", 0) is not None
        or config.option.collectonly
        or cores < 2
    ):
        return
    config.option.numprocesses = cores
    config.option.dist = "load"
    config.option.tx = ["popen"] * cores


def pytest_configure(config: pytest.Config) -> None:
    """The model-free run (``-m "not real_model"``) is the quick one: loading the model is an
    error in it, in every process; property tests make a tenth of their examples (unless
    ``LGENT_TEST_EXAMPLES`` says otherwise); its tests spread over the cores (unless ``-n`` is
    given). Every other run makes the full counts in the processes it is told."""
    if "LGENT_CACHE_DIR" not in os.environ:  # the optimized model kept apart from the user's
        made = tempfile.mkdtemp(prefix="lgent-test-cache-")
        os.environ["LGENT_CACHE_DIR"] = made
        config.stash[CACHE_MADE] = made
    quick = quick_run(config)
    if quick:
        refuse_the_model()
        spread_over_cores(config)
    examples.scale(quick)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the cache folder this process made for the run (its workers share it)."""
    made = config.stash.get(CACHE_MADE, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that loads the real model (through a fixture) as ``real_model``, so
    ``pytest -m "not real_model"`` runs without it (tests/test_model_free.py checks that). The
    quick run also leaves out the ``slow`` tests (live servers, faults, very large inputs):
    the default run, the one CI makes, has every test."""
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.real_model)
    if quick_run(config):
        slow = [item for item in items if item.get_closest_marker("slow") is not None]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Say so at the end of a quick run: it left out the slow tests, and its property tests
    generated fewer than their full counts."""
    if quick_run(config):
        terminalreporter.write_line(
            "the quick run leaves out the tests marked slow (live servers, faults, very large "
            "inputs); the full run has them",
            yellow=True,
        )
    share = examples.fraction()
    if share != 1:
        terminalreporter.write_line(
            f"property tests ran {share:.0%} of their examples (LGENT_TEST_EXAMPLES={share:g})",
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
    from lgent.brains.semantic.settings import SemanticSettings

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
