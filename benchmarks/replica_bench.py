"""Replicas on one PostgreSQL catalog: write-to-visible latency and query throughput.

    python -m benchmarks.replica_bench                       # 500 writes, 20 s per throughput row
    python -m benchmarks.replica_bench --writes 50 --seconds 5 --no-write

Starts a throw-away PostgreSQL cluster (``benchmarks/harness/pgcluster.py``), loads the example
catalog into it, and starts two replicas, ``lgent --catalog URL --home H serve --http``, each with
a home of its own (response cache off, so every query does its work). Then:

1. **Write to visible.** A writer process (an L-gent library replica with its own home) registers
   ``--writes`` new artifacts, one at a time. After each commit this process asks both replicas
   for it (``name:"<id>"``, keyword syntax) until each answer holds it. The latency per replica
   runs from the writer's return from ``register`` to the first answer that holds the artifact
   (``CLOCK_MONOTONIC`` is one clock for every process of a machine); each poll is one HTTP query,
   so the resolution is one query's time. The next write waits until both replicas saw this one.
2. **Query throughput.** ``--clients`` concurrent clients send the labeled query mix for
   ``--seconds``: first all to one replica, then spread evenly over both.

Everything shares this machine's cores: PostgreSQL, both replicas, the writer and the clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness import runner
from benchmarks.harness.pgcluster import Cluster

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "catalog_fixtures"
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
UNCACHED_TOML = "[cache]\nsize = 0\n\n[semantic]\nquery_cache_size = 0\n"
SECTION = "Replicas on PostgreSQL"
_LISTENING = re.compile(r"Uvicorn running on (http://\S+)")

_WRITER = r"""
import asyncio, sys, time
from lgent import LGent
from lgent.models import CatalogEntry
home, url = sys.argv[1], sys.argv[2]

async def main():
    async with LGent.open(home, catalog=url) as lg:
        print("ready", flush=True)
        for line in sys.stdin:
            artifact = line.strip()
            await lg.register(CatalogEntry.parse({
                "id": artifact, "name": artifact, "input_type": "Text", "output_type": "Summary",
                "description": "a widget registered by the replica benchmark's writer"}))
            print(time.monotonic_ns(), flush=True)

asyncio.run(main())
"""


def labeled_queries() -> list[str]:
    lines = (FIXTURES / "queries" / "labeled_queries.jsonl").read_text().splitlines()
    queries = [json.loads(line)["query"] for line in lines if line.strip()]
    random.Random(3).shuffle(queries)
    return queries


@contextmanager
def replica(home: Path, url: str) -> Iterator[str]:
    """``lgent serve --http`` on ``home`` as a replica of ``url``; yields its base URL."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "lgent.toml").write_text(UNCACHED_TOML)
    log = home / "serve.log"
    with log.open("w") as errors:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "lgent.cli",
                "--home",
                str(home),
                "--catalog",
                url,
                "serve",
                "--http",
                "--port",
                "0",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env={**os.environ, **ENV},
        )
    try:
        deadline = time.monotonic() + 300
        while not (match := _LISTENING.search(log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the replica did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=60)


async def wait_ready(client: Any, change_number: int) -> None:
    """Until the replica's brains are all built and current at ``change_number``."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        health = (await client.get("/health")).json()
        if health["status"] == "ok" and health["change_number"] >= change_number:
            return
        await asyncio.sleep(0.2)
    raise RuntimeError(f"the replica was not ready in time: {health}")


async def visible_after(client: Any, artifact: str, committed_ns: int) -> float:
    """Milliseconds from ``committed_ns`` to the first answer of ``client`` naming ``artifact``."""
    body = {"query": f'name:"{artifact}"', "limit": 5}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        response = await client.post("/query", json=body)
        seen = time.monotonic_ns()
        response.raise_for_status()
        if any(r["id"] == artifact for r in response.json()["results"]):
            return (seen - committed_ns) / 1e6
    raise RuntimeError(f"{artifact} not visible after 30 s")


@dataclass
class Visibility:
    per_replica: list[runner.LatencyStats]
    both: runner.LatencyStats
    writes: runner.LatencyStats


async def measure_visibility(
    clients: Sequence[Any], url: str, home: Path, writes: int
) -> Visibility:
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(home), url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **ENV},
    )
    assert writer.stdin is not None and writer.stdout is not None
    per_replica: list[list[int]] = [[] for _ in clients]
    both: list[int] = []
    write_ns: list[int] = []
    try:
        assert await asyncio.to_thread(writer.stdout.readline) == "ready\n"
        for i in range(writes):
            artifact = f"ReplicaBenchWidget{i:05d}"
            sent = time.monotonic_ns()
            writer.stdin.write(artifact + "\n")
            writer.stdin.flush()
            committed = int(await asyncio.to_thread(writer.stdout.readline))
            write_ns.append(committed - sent)
            seen = await asyncio.gather(*(visible_after(c, artifact, committed) for c in clients))
            for samples, ms in zip(per_replica, seen, strict=True):
                samples.append(int(ms * 1e6))
            both.append(int(max(seen) * 1e6))
            if (i + 1) % 50 == 0:
                print(f"  {i + 1} writes, last visible after {max(seen):.1f} ms", flush=True)
    finally:
        writer.stdin.close()
        writer.wait(timeout=60)
    return Visibility(
        [runner.LatencyStats.of(s) for s in per_replica],
        runner.LatencyStats.of(both),
        runner.LatencyStats.of(write_ns),
    )


@dataclass
class Throughput:
    replicas: int
    queries: int
    seconds: float
    latency: runner.LatencyStats

    @property
    def rate(self) -> float:
        return self.queries / self.seconds


async def measure_throughput(
    clients: Sequence[Any], queries: Sequence[str], concurrency: int, seconds: float
) -> Throughput:
    samples: list[int] = []
    deadline = time.monotonic() + seconds

    async def client(n: int) -> None:
        target = clients[n % len(clients)]
        i = n * 17
        while time.monotonic() < deadline:
            body = {"query": queries[i % len(queries)], "limit": 10, "lenient": True}
            i += 1
            start = time.perf_counter_ns()
            response = await target.post("/query", json=body)
            response.raise_for_status()
            response.json()
            samples.append(time.perf_counter_ns() - start)

    started = time.monotonic()
    await asyncio.gather(*(client(n) for n in range(concurrency)))
    elapsed = time.monotonic() - started
    return Throughput(len(clients), len(samples), elapsed, runner.LatencyStats.of(samples))


async def load_catalog(home: Path, url: str) -> int:
    from lgent import LGent
    from lgent.brains.semantic.embedders import HashingEmbedder

    async with LGent.open(home, catalog=url, embedder=HashingEmbedder()) as lg:
        await lg.load(FIXTURES)
        return await lg.change_number()


async def run(args: argparse.Namespace, work: Path) -> tuple[Visibility, list[Throughput], str]:
    import httpx
    import psycopg

    cluster = Cluster.create()
    try:
        url = cluster.start()
        with psycopg.connect(url) as conn:
            shown = conn.execute("SHOW server_version").fetchone()
            version = str(shown[0]) if shown else "?"
        number = await load_catalog(work / "loader", url)
        queries = labeled_queries()
        with ExitStack() as stack:
            bases = [stack.enter_context(replica(work / f"replica{n}", url)) for n in (1, 2)]
            async with (
                httpx.AsyncClient(base_url=bases[0], timeout=120) as one,
                httpx.AsyncClient(base_url=bases[1], timeout=120) as two,
            ):
                await asyncio.gather(wait_ready(one, number), wait_ready(two, number))
                for query in queries:  # warm-up: every query once on each replica
                    for client in (one, two):
                        body = {"query": query, "limit": 10, "lenient": True}
                        (await client.post("/query", json=body)).raise_for_status()
                print(f"visibility over {args.writes} writes ...", flush=True)
                visibility = await measure_visibility([one, two], url, work / "writer", args.writes)
                rows: list[Throughput] = []
                for targets in ([one], [one, two]):
                    row = await measure_throughput(targets, queries, args.clients, args.seconds)
                    print(f"  {row.replicas} replica(s): {row.rate:.1f} queries/s", flush=True)
                    rows.append(row)
        return visibility, rows, version
    finally:
        cluster.destroy()


def report(
    visibility: Visibility, rows: list[Throughput], version: str, args: argparse.Namespace
) -> str:
    latency = runner.Table(["measure", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"], digits=1)
    for name, stats in (
        ("write (writer's `register`: checks, commit, its own pull)", visibility.writes),
        ("write to visible in replica 1", visibility.per_replica[0]),
        ("write to visible in replica 2", visibility.per_replica[1]),
        ("write to visible in both", visibility.both),
    ):
        latency.add(name, stats.n, stats.p50, stats.p95, stats.p99, stats.max)
    throughput = runner.Table(
        ["replicas", "clients", "seconds", "queries", "queries/s", "p50 ms", "p99 ms"], digits=1
    )
    for row in rows:
        throughput.add(
            row.replicas,
            args.clients,
            row.seconds,
            row.queries,
            row.rate,
            row.latency.p50,
            row.latency.p99,
        )
    gain = rows[1].rate / rows[0].rate if rows[0].rate else 0.0
    return (
        f"PostgreSQL {version} (a throw-away cluster on a Unix socket, fsync off) holding the "
        "example catalog (330 artifacts); two replicas, each `lgent --catalog URL serve --http` "
        "with a home of its own (response cache and query-embedding cache off); a writer "
        "process (an L-gent library replica) registers new artifacts one at a time, and after "
        'each commit this process polls both replicas with `name:"<id>"` until both answer '
        "with it (the next write waits for that). Latency runs from the writer's return from "
        "`register` to the first answer holding the artifact; a poll is one HTTP query, so "
        "that is the resolution. Throughput: "
        f"{args.clients} concurrent clients send the 205 labeled queries (lenient, limit 10) for "
        f"{args.seconds:g} s, all to one replica, then spread over both. PostgreSQL, both "
        "replicas, the writer and the clients share this machine's cores.\n\n"
        + latency.markdown()
        + "\n\n"
        + throughput.markdown()
        + f"\n\nTwo replicas against one: {gain:.2f}x the queries per second.\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writes", type=int, default=500, help="registrations timed")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per throughput row")
    parser.add_argument("--clients", type=int, default=4, help="concurrent query clients")
    parser.add_argument("--no-write", action="store_true", help="print, leave docs alone")
    args = parser.parse_args(argv)
    info = runner.machine_info()
    work = Path(tempfile.mkdtemp(prefix="lgent-replica-bench-"))
    try:
        visibility, rows, version = asyncio.run(run(args, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    markdown = report(visibility, rows, version, args)
    if args.no_write:
        print(markdown)
    else:
        runner.write_results(SECTION, markdown, info=info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
