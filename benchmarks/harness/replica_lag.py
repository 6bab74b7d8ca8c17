"""The replica-lag drill (issue 35): a large import through another home, then one new entry.
How long until two serving replicas answer with the new entry, and what do their answers and
``/health`` say meanwhile?

Starts a throw-away PostgreSQL cluster, loads the example catalog, starts two replicas (``lgent
--catalog URL serve --http``, response cache off), waits until both are ready, then a writer (an
L-gent library replica of its own) registers ``batch`` entries in one batch, waits one second
and registers ``LagDrillZebra``. From that commit on, each replica is polled (a keyword query
for the new id, ``/health``) until its answer holds the new entry; each poll's answer is judged:
it is either current (every brain it asked at the catalog's last change) or it *says* what is
behind (a catalog note, a brain's ``catching_up`` or an interpretation that names a brain behind).
"""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.harness.pgcluster import Cluster
from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.models import CatalogEntry

NEW = "LagDrillZebra"


@dataclass
class ReplicaLag:
    visible_s: float
    polls: int = 0
    silent: int = 0
    """Answers without the new entry that were behind without saying so: the replica's copy
    behind the shared catalog with no warning naming it, or a brain behind the copy with
    neither its ``catching_up`` nor the interpretation saying so (should be 0)."""
    largest_behind: int = 0
    """The most changes ``/health`` said the replica's copy or a brain was behind."""
    notes: list[str] = field(default_factory=list)


def _behind(health: dict[str, Any], head: int) -> int:
    numbers = [int(b.get("change_number") or 0) for b in health.get("brains", [])]
    return max([head - int(health.get("change_number", 0)), *(head - n for n in numbers)])


async def _follow(client: Any, head: int) -> ReplicaLag:
    started = time.monotonic()
    lag = ReplicaLag(visible_s=-1.0)
    body = {"query": f'name:"{NEW}"', "limit": 5}
    while time.monotonic() - started < 600:
        answer = (await client.post("/query", json=body)).json()
        health = (await client.get("/health")).json()
        lag.polls += 1
        found = any(r["id"] == NEW for r in answer.get("results", []))
        behind = _behind(health, head)
        lag.largest_behind = max(lag.largest_behind, behind)
        # behind the shared catalog: its copy (said by a warning naming the shared catalog),
        # or a brain behind the copy (said by the brain's catching_up or the interpretation)
        copy_behind = answer["change_number"] < head
        copy_said = any("shared catalog" in w for w in answer.get("warnings", []))
        slow = [
            b
            for b in answer.get("brains", [])
            if b["ran"] and (b.get("change_number") or head) < answer["change_number"]
        ]
        slow_said = all(
            b.get("catching_up") or b["brain"] in answer.get("query_interpretation", "")
            for b in slow
        )
        if not found and ((copy_behind and not copy_said) or not slow_said):
            lag.silent += 1
        if health.get("catalog") and len(lag.notes) < 2:
            lag.notes.append(health["catalog"])
        if found:
            lag.visible_s = time.monotonic() - started
            return lag
        await asyncio.sleep(0.1)
    return lag


async def run_drill(work: Path, batch: int = 3000) -> tuple[list[ReplicaLag], str]:
    """The drill (see the module docstring): each replica's lag, and the server's version."""
    import httpx
    import psycopg

    from benchmarks.replica_bench import load_catalog, replica, wait_ready

    cluster = Cluster.create()
    try:
        url = cluster.start()
        with psycopg.connect(url) as conn:
            shown = conn.execute("SHOW server_version").fetchone()
            version = str(shown[0]) if shown else "?"
        number = await load_catalog(work / "loader", url)
        with ExitStack() as stack:
            bases = [stack.enter_context(replica(work / f"replica{n}", url)) for n in (1, 2)]
            async with (
                httpx.AsyncClient(base_url=bases[0], timeout=120) as one,
                httpx.AsyncClient(base_url=bases[1], timeout=120) as two,
            ):
                await asyncio.gather(wait_ready(one, number), wait_ready(two, number))
                async with LGent.open(
                    work / "writer", catalog=url, embedder=HashingEmbedder()
                ) as writer:
                    await writer.register_many(
                        [
                            CatalogEntry.parse(
                                {
                                    "id": f"LagDrillWidget{i:05d}",
                                    "name": f"LagDrillWidget{i:05d}",
                                    "description": f"widget {i} of the lag drill's large import",
                                }
                            )
                            for i in range(batch)
                        ]
                    )
                    await asyncio.sleep(1.0)
                    await writer.register(
                        {"id": NEW, "name": NEW, "description": "stripes counted after the batch"}
                    )
                    head = await writer.change_number()
                lags = await asyncio.gather(_follow(one, head), _follow(two, head))
        return list(lags), version
    finally:
        cluster.destroy()
