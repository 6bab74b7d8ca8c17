"""Reliability drills shared by the tests and ``benchmarks/reliability.py``.

* ``run_concurrency``: readers and one writer on the same home for a fixed time; every response
  is checked against the change log for torn reads (a result naming an artifact the catalog did
  not hold at the response's change number).
* ``run_crash_trial``: a child process loads a batch or rebuilds an index and is SIGKILLed at a
  random moment; the home is reopened and checked (batch all-or-nothing, doctor clean, results
  equal to a fresh build of the same catalog).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import Embedder
from lgent.catalog.records import Change
from lgent.catalog.store import CatalogStore
from lgent.doctor import check_home
from lgent.models import CatalogEntry

PROBE_QUERIES = (
    "NewsParser",
    "pdf text extraction",
    "something that cleans up messy text",
    "PDF -> SentimentScore",
    "what depends on PDFParser_v2",
    "a path from RawHTML to Summary",
    "author:ToolForge",
    "stress widget",
)


def _entry(i: int, tag: str) -> CatalogEntry:
    return CatalogEntry.parse(
        {
            "id": f"Stress{tag}{i:05d}",
            "name": f"Stress{tag}{i:05d}",
            "version": "1.0.0",
            "description": f"stress widget number {i} that converts text into summaries",
            "keywords": ["stress", "widget"],
            "input_type": "Text",
            "output_type": "Summary",
            "success_rate": 0.9,
            "execution": "local",
            "latency_ms": 100,
        }
    )


# -- concurrency ----------------------------------------------------------------------------------


@dataclass
class ConcurrencyReport:
    seconds: float
    readers: int
    queries: int = 0
    registrations: int = 0
    removals: int = 0
    errors: list[str] = field(default_factory=list)
    torn_reads: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "seconds": round(self.seconds, 1),
            "readers": self.readers,
            "queries": self.queries,
            "registrations": self.registrations,
            "removals": self.removals,
            "errors": len(self.errors),
            "torn_reads": len(self.torn_reads),
        }


def alive_at(changes: Sequence[Change], number: int, initial: set[str]) -> set[str]:
    """The artifact ids the catalog held at change ``number``, replaying the log onto ``initial``."""
    alive = set(initial)
    for change in changes:
        if change.seq > number:
            break
        if change.kind != "entry":
            continue
        if change.op == "upsert":
            alive.add(change.key)
        elif change.version is None:
            alive.discard(change.key)
    return alive


async def run_concurrency(
    home: Path,
    seconds: float,
    readers: int = 8,
    seed: int = 0,
    embedder: Embedder | None = None,
    min_queries: int = 3,
    min_writes: int = 10,
) -> ConcurrencyReport:
    """``readers`` query tasks and one writer (register, sometimes remove) for ``seconds``; each
    reader makes at least ``min_queries`` queries and the writer ``min_writes`` writes, however
    slow the machine, so the drill always exercises the overlap."""
    rng = random.Random(seed)
    report = ConcurrencyReport(seconds, readers)
    responses: list[tuple[int, list[str]]] = []
    async with LGent.open(home, embedder=embedder) as lg:
        start_number = await lg.change_number()
        initial = {e.id for e in lg.store.iter_latest()}
        deadline = time.monotonic() + seconds

        async def reader(n: int) -> None:
            i = n
            while time.monotonic() < deadline or i - n < min_queries:
                query = PROBE_QUERIES[i % len(PROBE_QUERIES)]
                i += 1
                try:
                    response = await lg.query(query, limit=10)
                except Exception as err:  # the drill counts every failure, whatever its type
                    report.errors.append(f"{query!r}: {type(err).__name__}: {err}")
                    continue
                report.queries += 1
                responses.append((response.change_number, [r.id for r in response.results]))

        async def writer() -> None:
            i = 0
            live: list[str] = []
            while len(report.errors) < 100 and (
                time.monotonic() < deadline or report.registrations + report.removals < min_writes
            ):
                try:
                    if live and rng.random() < 0.3:
                        await lg.remove(live.pop(rng.randrange(len(live))))
                        report.removals += 1
                    else:
                        entry = _entry(i, "C")
                        await lg.register(entry)
                        live.append(entry.id)
                        report.registrations += 1
                        i += 1
                except Exception as err:
                    report.errors.append(f"write: {type(err).__name__}: {err}")
                await asyncio.sleep(0.02)

        await asyncio.gather(writer(), *(reader(n) for n in range(readers)))
        changes = [c for c in await lg.changes_since(start_number)]
    for number, ids in responses:
        alive = alive_at(changes, number, initial)
        for artifact_id in ids:
            if artifact_id not in alive:
                report.torn_reads.append(f"{artifact_id} at change {number}")
    return report


# -- crash trials ---------------------------------------------------------------------------------

OPERATIONS = ("load", "reindex_keyword", "reindex_semantic", "reindex_graph", "load_then_query")

_CHILD = r"""
import asyncio, sys
from pathlib import Path
from lgent import LGent
from lgent.brains.semantic.embedders import Embedder
home, operation, batch = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
async def main():
    async with LGent.open(home) as lg:
        if operation in ("load", "load_then_query"):
            await lg.load(batch)
        if operation == "load_then_query":
            await lg.query("stress widget")
        if operation.startswith("reindex_"):
            await lg.reindex([operation.removeprefix("reindex_")])
asyncio.run(main())
"""


@dataclass
class CrashTrial:
    operation: str
    delay: float
    finished: bool
    batch_state: str  # "none", "all" or "partial"
    doctor_failures: list[str]
    results_equal: bool
    mismatches: list[str]
    child_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.batch_state != "partial" and not self.doctor_failures and self.results_equal


def write_batch(path: Path, size: int, tag: str) -> list[str]:
    entries = [_entry(i, tag) for i in range(size)]
    path.write_text("".join(json.dumps(e.to_record()) + "\n" for e in entries), encoding="utf-8")
    return [e.id for e in entries]


async def probe(home: Path, embedder: Embedder | None = None) -> dict[str, list[str]]:
    """The probe queries' answers once every brain reflects the catalog (a fresh copy builds
    them all: ``"complete"`` waits for that rather than answering with the brains ready)."""
    async with LGent.open(home, embedder=embedder, freshness="complete") as lg:
        return {q: [r.id for r in (await lg.query(q, limit=10)).results] for q in PROBE_QUERIES}


def fresh_copy(home: Path, target: Path) -> Path:
    """A home with only ``home``'s catalog and its embedding cache: a fresh build of every index
    (the cache is content-addressed, so reusing it only saves re-embedding the same texts)."""
    shutil.rmtree(target, ignore_errors=True)
    (target / "indexes" / "semantic").mkdir(parents=True)
    with CatalogStore(home / "catalog.db") as store:  # a consistent copy, WAL included
        store._conn.execute("VACUUM INTO ?", (str(target / "catalog.db"),))
    cache = home / "indexes" / "semantic" / "embeddings.sqlite"
    if cache.exists():
        shutil.copy(cache, target / "indexes" / "semantic" / "embeddings.sqlite")
    return target


def run_crash_trial(
    base: Path,
    work: Path,
    operation: str,
    delay: float,
    batch_size: int | None = None,
    embedder: Embedder | None = None,
) -> CrashTrial:
    """Copy ``base`` to ``work``, run ``operation`` in a child, SIGKILL it after ``delay`` s, check.

    A plain load writes a 5,000-entry batch (long enough to be killed inside the write); other
    operations use 300 entries."""
    batch_size = batch_size or (5000 if operation == "load" else 300)
    home = work / "home"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copytree(base, home)
    batch = work / "batch.jsonl"
    ids = write_batch(batch, batch_size, "K")
    with CatalogStore(home / "catalog.db") as store:
        before = store.count()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home), operation, str(batch)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    started = time.monotonic()
    try:
        child.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finished = child.returncode == 0
    elapsed = time.monotonic() - started
    with CatalogStore(home / "catalog.db") as store:
        present = sum(1 for i in ids if store.exists(i))
        after = store.count()
    state = (
        "none" if present == 0 and after == before else "all" if present == len(ids) else "partial"
    )
    doctor = [f"{c.name}: {c.message}" for c in check_home(home) if c.level == "fail"]
    got = asyncio.run(probe(home, embedder))
    want = asyncio.run(probe(fresh_copy(home, work / "fresh"), embedder))
    mismatches = [f"{q}: {got[q]} != {want[q]}" for q in PROBE_QUERIES if got[q] != want[q]]
    return CrashTrial(
        operation, delay, finished, state, doctor, not mismatches, mismatches, elapsed
    )
