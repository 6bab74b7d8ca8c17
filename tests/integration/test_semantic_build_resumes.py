"""A long semantic build: killed (SIGKILL) it resumes without re-embedding the batches it had
written, and ends equal to a fresh build; interrupted (Ctrl-C) it stops within a batch or two
and keeps what it wrote."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from lgent import LGent
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.store import CatalogStore
from tests.conftest import make_entry

pytestmark = pytest.mark.slow  # builds killed and resumed

REPO = Path(__file__).resolve().parents[2]
ENTRIES = 2000


def catalog_home(root: Path) -> Path:
    home = root / "home"
    home.mkdir(parents=True)
    with CatalogStore(home / "catalog.db") as store:
        store.register_batch(
            [
                make_entry(
                    f"Widget{i:04d}", description=f"widget {i} converts text number {i % 97}"
                )
                for i in range(ENTRIES)
            ]
        )
    return home


def cached_rows(home: Path) -> int:
    cache = home / "indexes" / "semantic" / "embeddings.sqlite"
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM embeddings").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not made yet
        return 0


def _default_sigint() -> None:
    """A child started from a shell has Ctrl-C's default disposition; one started from this test
    process may inherit SIGINT ignored (something earlier in a test session can leave it so), and
    Python then never turns SIGINT into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def child(home: Path, freshness: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.integration.slow_build", str(home), freshness],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        preexec_fn=_default_sigint,
    )


def wait_for_rows(home: Path, rows: int, process: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + 120
    while (found := cached_rows(home)) < rows:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"only {found} rows cached"
        time.sleep(0.05)
    return found


async def semantic_of(home: Path, embedder: HashingEmbedder) -> tuple[SemanticBrain, LGent]:
    lg = await asyncio.to_thread(LGent.open_sync, home, embedder=embedder)
    brain = await asyncio.to_thread(lg.brain, "semantic")
    assert isinstance(brain, SemanticBrain)
    return brain, lg


async def test_a_killed_background_build_resumes_and_equals_a_fresh_build(tmp_path: Path) -> None:
    home = catalog_home(tmp_path)
    server = child(home, "snapshot")
    wait_for_rows(home, ENTRIES // 4, server)
    server.send_signal(signal.SIGKILL)
    server.communicate()  # reaped, its pipes closed
    kept = cached_rows(home)
    assert ENTRIES // 4 <= kept < ENTRIES

    resumed, lg = await semantic_of(home, HashingEmbedder(64))
    try:
        assert resumed.counters.entry_cache_hits == kept
        assert resumed.counters.texts_embedded == ENTRIES - kept  # nothing embedded twice
        fresh_home = tmp_path / "fresh"
        fresh_home.mkdir()
        shutil.copy(home / "catalog.db", fresh_home / "catalog.db")
        fresh, other = await semantic_of(fresh_home, HashingEmbedder(64))
        try:
            assert fresh.counters.texts_embedded == ENTRIES
            ids = sorted(resumed._vectors.ids())
            assert ids == sorted(fresh._vectors.ids()) and len(ids) == ENTRIES
            for artifact_id in ids[::50]:
                assert np.array_equal(
                    resumed._vectors.vector(artifact_id), fresh._vectors.vector(artifact_id)
                )
            for text in ("widget 7 converts text", "number 42"):
                assert resumed.rank(text, limit=20).ranking == fresh.rank(text, limit=20).ranking
        finally:
            await asyncio.to_thread(other.close)
    finally:
        await asyncio.to_thread(lg.close)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX here")
def test_ctrl_c_stops_a_long_build_quickly_and_keeps_its_batches(tmp_path: Path) -> None:
    home = catalog_home(tmp_path)
    one_shot = child(home, "wait")  # waits for the build, as the CLI does
    wait_for_rows(home, 256, one_shot)
    sent = time.monotonic()
    one_shot.send_signal(signal.SIGINT)
    one_shot.wait(timeout=30)
    stopped = time.monotonic() - sent
    kept = cached_rows(home)
    out, err = one_shot.communicate()
    assert "answered" not in out, out + err[-2000:]  # it stopped before the build could finish
    assert stopped < 5.0, f"took {stopped:.2f} s to stop"  # a batch is 0.1 s: a loose bound
    assert 256 <= kept < ENTRIES
