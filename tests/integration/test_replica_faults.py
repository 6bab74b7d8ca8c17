"""Fault drills for replicas on one PostgreSQL catalog (issue 20, acceptance 3 and 4).

* A replica SIGKILLed while it catches up, restarted: it catches up (no rebuild of a persisted
  index) and answers exactly as a home built fresh from the same catalog.
* A writer SIGKILLed inside its batch's transaction: no replica ever sees part of the batch.
* PostgreSQL stopped for 10 s under queries: replicas answer from their copy, say so, and
  resume when it is back.
* Two writers on two replicas registering 1,000 entries each at once: each entry is in the
  catalog once, and every replica's change log holds them in the same order.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from benchmarks.harness.pgcluster import Cluster
from lgent import LGent
from lgent.brains.semantic.embedders import Embedder, HashingEmbedder
from lgent.catalog.postgres import PostgresCatalog
from lgent.catalog.records import EntryFilter
from lgent.catalog.replica import Mirror
from lgent.config import CatalogSettings, Settings
from lgent.errors import CatalogUnreachableError
from lgent.home import MIRROR_FILE
from lgent.models import CatalogEntry
from lgent.serving import health
from tests.conftest import FIXTURES
from tests.integration.test_replicas import eventually
from tests.pg_fixtures import with_params

pytestmark = pytest.mark.slow

FAST = Settings(catalog=CatalogSettings(poll_seconds=0.5))
SLOW = Settings(catalog=CatalogSettings(poll_seconds=60))
PROBES = (
    "NewsParser",
    "pdf text extraction",
    "something that cleans up messy text",
    "PDF -> SentimentScore",
    "what depends on PDFParser_v2",
    "author:ToolForge",
    "widget that turns text into summaries",
    "Widget00420",
)

_CHILD = r"""
import asyncio, json, sys, time
from pathlib import Path
from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.models import CatalogEntry
from lgent.serving import health
home, url, action, *args = sys.argv[1:]

def entry(prefix, i, author):
    return CatalogEntry.parse({"id": f"{prefix}{i:05d}", "name": f"{prefix}{i:05d}",
        "author": author, "description": f"{prefix} number {i}", "input_type": "Text",
        "output_type": "Summary"})

def say(line):
    print(line, flush=True)

async def main():
    if action == "catch_up":  # the configured (real) model, as a replica process has it
        def progress(brain, done, total):
            if brain == "semantic":
                say(f"embedding {done}/{total}")
        async with LGent.open(home, catalog=url, progress=progress) as lg:
            say("catching up")
            await lg.catch_up()
            say("done")
        return
    async with LGent.open(home, catalog=url, embedder=HashingEmbedder()) as lg:
        prefix, count = args[0], int(args[1])
        if action == "batch":
            batch = [entry(prefix, i, prefix) for i in range(count)]
            say("writing")
            await lg.register_many(batch)
        elif action == "one_by_one":
            start = Path(args[2])
            say("ready")
            while not start.exists():
                time.sleep(0.005)
            for i in range(count):
                await lg.register(entry(prefix, i, prefix))
        say("done")

asyncio.run(main())
"""


def child(home: Path, url: str, action: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home), url, action, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )


def finish(process: subprocess.Popen[str], seconds: float) -> tuple[int, str]:
    """Wait for a child (its pipes closed); its exit status and what it wrote to stderr."""
    _, err = process.communicate(timeout=seconds)
    return process.returncode, err


def kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate()


def widget(i: int) -> CatalogEntry:
    return CatalogEntry.parse(
        {
            "id": f"Widget{i:05d}",
            "name": f"Widget{i:05d}",
            "version": "1.0.0",
            "description": f"widget number {i} that turns text into summaries",
            "keywords": ["widget"],
            "input_type": "Text",
            "output_type": "Summary",
            "success_rate": 0.9,
        }
    )


async def probe(lg: LGent) -> dict[str, list[str]]:
    return {q: [r.id for r in (await lg.query(q, limit=10)).results] for q in PROBES}


async def index_content(lg: LGent) -> dict[str, object]:
    """What the persisted indexes hold, independent of how ties in a ranking fall: the keyword
    index's documents matching each probe (as a set) and the semantic index's vector of each
    artifact. (Rankings of near-identical entries can differ between an index caught up and
    one built fresh: tantivy's BM25 statistics count deleted documents until segments merge,
    and equal scores fall in segment order.)"""
    keyword = {
        q: sorted(h.id for h in (await lg.search(q, limit=1000, lenient=True)).hits)
        for q in (*PROBES, "widget", "text OR summaries")
    }
    semantic = lg.brain("semantic")
    vectors = semantic._vectors  # type: ignore[attr-defined]
    return {
        "keyword": keyword,
        "semantic": {i: vectors.vector(i).round(6).tobytes() for i in sorted(vectors.ids())},
        "status": [
            (s.documents, s.change_number)
            for s in (lg.brain(n).status() for n in ("keyword", "semantic", "graph"))
        ],
    }


@pytest.mark.real_model
def test_replica_killed_while_catching_up_resumes_and_equals_a_fresh_build(
    pg_catalog_url: str, tmp_path: Path, example_home: Path, real_embedder: Embedder
) -> None:
    writer, replica, fresh = tmp_path / "writer", tmp_path / "replica", tmp_path / "fresh"
    cache = example_home / "indexes" / "semantic" / "embeddings.sqlite"
    (replica / "indexes" / "semantic").mkdir(parents=True)
    shutil.copy(cache, replica / "indexes" / "semantic" / "embeddings.sqlite")

    async def prepare() -> int:
        async with LGent.open(writer, catalog=pg_catalog_url, embedder=HashingEmbedder()) as w:
            await w.load(FIXTURES)
            await w.register_many([widget(i) for i in range(300)])
            async with LGent.open(replica, catalog=pg_catalog_url, embedder=real_embedder) as r:
                await r.catch_up()
                built = await r.change_number()
            # while the replica is down: 200 more (under half the catalog: caught up, not rebuilt)
            await w.register_many([widget(i) for i in range(300, 500)])
            await w.remove("Widget00003")
        return built

    built = asyncio.run(prepare())
    doomed = child(replica, pg_catalog_url, "catch_up")
    assert doomed.stdout is not None and doomed.stderr is not None
    lines: list[str] = []
    for line in doomed.stdout:
        lines.append(line.strip())
        if line.startswith("embedding"):
            break
    time.sleep(0.3)
    kill(doomed)
    assert "done" not in lines, f"the replica finished before it was killed: {lines}"
    assert "catching up" in lines

    async def restart_and_compare() -> None:
        async with LGent.open(replica, catalog=pg_catalog_url, embedder=real_embedder) as r:
            reports = {s.brain: s for s in await r.catch_up()}
            assert reports["semantic"].action == "caught_up", reports
            assert (reports["semantic"].from_change, reports["semantic"].upserts) == (built, 200)
            assert reports["keyword"].action in ("caught_up", "current"), reports
            got = await index_content(r)
            answers = await probe(r)
        (fresh / "indexes" / "semantic").mkdir(parents=True)
        shutil.copy(
            replica / "indexes" / "semantic" / "embeddings.sqlite",
            fresh / "indexes" / "semantic" / "embeddings.sqlite",
        )
        async with LGent.open(fresh, catalog=pg_catalog_url, embedder=real_embedder) as f:
            assert {s.action for s in await f.catch_up()} == {"rebuilt"}
            want = await index_content(f)
            wanted_answers = await probe(f)
        assert got == want
        assert got["status"] == [(829, built + 201)] * 3
        # the answers hold the same artifacts (their order may differ only among equal scores)
        assert {q: set(ids) for q, ids in answers.items() if q != PROBES[6]} == {
            q: set(ids) for q, ids in wanted_answers.items() if q != PROBES[6]
        }

    asyncio.run(restart_and_compare())


async def test_writer_killed_mid_batch_leaves_all_or_nothing_in_every_replica(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    embedder = HashingEmbedder()
    samples: list[tuple[str, int]] = []
    async with (
        LGent.open(tmp_path / "a", FAST, catalog=pg_catalog_url, embedder=embedder) as a,
        LGent.open(tmp_path / "b", FAST, catalog=pg_catalog_url, embedder=embedder) as b,
    ):
        await a.load(FIXTURES)
        stop = asyncio.Event()

        async def sample() -> None:  # what the replicas show while the writers work
            while not stop.is_set():
                for lg in (a, b):
                    for tag in ("Doomed", "Whole"):
                        found = await lg.search(f"author:{tag}", limit=1)
                        samples.append((tag, found.total))
                        samples.append((tag, lg.store.count(EntryFilter(author=tag))))
                await asyncio.sleep(0.01)

        sampler = asyncio.create_task(sample())
        doomed_url = with_params(pg_catalog_url, application_name="lgent-doomed-writer")
        doomed = child(tmp_path / "w1", doomed_url, "batch", "Doomed", "20000")
        assert await asyncio.to_thread(_in_transaction, pg_catalog_url, doomed, 60)
        kill(doomed)
        await asyncio.to_thread(_gone, pg_catalog_url, "lgent-doomed-writer")
        whole = child(tmp_path / "w2", pg_catalog_url, "batch", "Whole", "3000")
        status, err = await asyncio.to_thread(finish, whole, 120)
        assert status == 0, err
        head = PostgresCatalog(pg_catalog_url)
        number = head.change_number()
        assert head.count(EntryFilter(author="Doomed")) == 0
        assert head.count(EntryFilter(author="Whole")) == 3000
        head.close()
        for lg in (a, b):
            assert await eventually(lambda lg=lg: _at(lg, number), 30)
            assert (await lg.search("author:Whole", limit=1)).total == 3000
            assert (await lg.search("author:Doomed", limit=1)).total == 0
        stop.set()
        await sampler
    assert {n for tag, n in samples if tag == "Doomed"} == {0}
    assert {n for tag, n in samples if tag == "Whole"} <= {0, 3000}
    assert (("Whole", 3000)) in samples


async def _at(lg: LGent, number: int) -> bool:
    return await lg.change_number() == number


def _in_transaction(url: str, process: subprocess.Popen[str], seconds: float) -> bool:
    """Wait until the writer's transaction has written rows (it then holds a transaction id)."""
    deadline = time.monotonic() + seconds
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline and process.poll() is None:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                "'lgent-doomed-writer' AND backend_xid IS NOT NULL"
            ).fetchone()
            if row and row[0]:
                return True
            time.sleep(0.005)
    return False


def _gone(url: str, application: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(1000):
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                (application,),
            ).fetchone()
            if row and not row[0]:
                return
            time.sleep(0.01)
    raise AssertionError(f"{application} still connected")


async def test_replicas_answer_while_postgres_is_down_and_resume(
    private_postgres: Cluster, tmp_path: Path
) -> None:
    """Replica ``a`` polls often; ``b`` and ``c`` poll once a minute, so only a notification can
    bring them a write in time; ``c`` is opened while the database is down (from its copy)."""
    url = private_postgres.url
    embedder = HashingEmbedder()
    async with LGent.open(tmp_path / "c", SLOW, catalog=url, embedder=embedder) as c:
        await c.load(FIXTURES)
    async with (
        LGent.open(tmp_path / "a", FAST, catalog=url, embedder=embedder) as a,
        LGent.open(tmp_path / "b", SLOW, catalog=url, embedder=embedder) as b,
    ):
        before = await probe(a)
        assert await probe(b) == before
        await asyncio.to_thread(private_postgres.stop)
        stopped = time.monotonic()
        async with LGent.open(tmp_path / "c", SLOW, catalog=url, embedder=embedder) as c:
            answered = 0
            while time.monotonic() - stopped < 10:
                for lg in (a, b, c):
                    response = await lg.query(PROBES[answered % len(PROBES)], limit=10)
                    assert [r.id for r in response.results] == before[response.query]
                    if lg is c or time.monotonic() - stopped > 2:  # noticed by now
                        assert any("unreachable" in w for w in response.warnings), response
                    answered += 1
                await asyncio.sleep(0.05)
            unhealthy = await health(c)  # what GET /health answers
            assert unhealthy.status == "degraded" and "unreachable" in unhealthy.catalog
            number = await a.change_number()
            with pytest.raises(CatalogUnreachableError):
                await a.register(widget(1))
            assert await a.change_number() == number
            await asyncio.to_thread(private_postgres.start)

            async def resumed(lg: LGent) -> bool:
                return (await lg.query("NewsParser")).warnings == ()

            for lg in (a, b, c):
                assert await eventually(lambda lg=lg: resumed(lg), 15), (
                    await lg.query("NewsParser")
                ).warnings
            healthy = await health(c)
            assert healthy.catalog == "" and healthy.status == "ok", healthy
            await a.register(widget(1))

            async def sees_it(lg: LGent) -> bool:
                return "Widget00001" in [r.id for r in (await lg.query("Widget00001")).results]

            for lg in (b, c):  # within 10 s: by NOTIFY, not by their 60-second poll
                assert await eventually(lambda lg=lg: sees_it(lg), 10)
    assert answered > 60


def _number_now(lg: LGent) -> int:
    return lg.store.change_number()


async def test_two_writers_on_two_replicas_agree_on_one_order(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    start = tmp_path / "start"
    writers = [
        child(tmp_path / name, pg_catalog_url, "one_by_one", name, "1000", str(start))
        for name in ("Left", "Right")
    ]
    async with LGent.open(
        tmp_path / "observer", FAST, catalog=pg_catalog_url, embedder=HashingEmbedder()
    ) as observer:
        for process in writers:  # both writers are up and waiting
            assert process.stdout is not None
            assert await asyncio.to_thread(process.stdout.readline) == "ready\n"
        start.touch()
        for process in writers:
            status, err = await asyncio.to_thread(finish, process, 300)
            assert status == 0, err
        head = PostgresCatalog(pg_catalog_url)
        assert await eventually(lambda: _at(observer, head.change_number()), 30)
        order = [(c.seq, c.key) for c in head.changes_since(0)]
        assert [seq for seq, _ in order] == list(range(1, 2001))
        keys = [key for _, key in order]
        assert sorted(keys) == sorted(f"{n}{i:05d}" for n in ("Left", "Right") for i in range(1000))
        assert head.count() == 2000 and all(len(head.versions(k)) == 1 for k in keys[:50])
        switches = sum(1 for x, y in itertools.pairwise(keys) if x[:4] != y[:4])
        assert switches > 20, "the writers did not overlap"
        assert [(c.seq, c.key) for c in await observer.changes_since(0)] == order
        head.close()
    for name in ("Left", "Right"):  # each writer's own copy, as its process left it
        mirror = Mirror(tmp_path / name / MIRROR_FILE)
        seen = [(c.seq, c.key) for c in mirror.changes_since(0)]
        mirror.close()
        assert seen == order[: len(seen)]
        assert f"{name}00999" in {key for _, key in seen}
