"""Big builds that do not block: from an empty home, how soon each brain answers after a load.

    python -m benchmarks.build_bench                      # 100,000 entries; resume drill at 20,000
    python -m benchmarks.build_bench --size 20000 --resume 5000 --no-write
    python -m benchmarks.build_bench --size 100000 --ready-within 300 --resume 0

1. **Time to answer.** In one process, as a server runs (``freshness="snapshot"``), a sample of
   ``--size`` packages of the PyPI corpus (``benchmarks/harness/pypi.py``, read in place; the
   synthetic catalog, seed 7 and 200 types, when it is absent or with ``--synthetic``) is loaded
   into an empty home. Clocks start at the load: when it returns (committed), when a keyword
   search and a graph question are first answered by brains that reflect the load, and when
   the semantic brain is ready too (built in the background, with the default embedder, while
   the others answer). ``--ready-within`` stops waiting for the semantic brain after that many
   seconds and reports how far its build had come.
2. **Resume after a kill.** A child process serving a home of ``--resume`` entries starts the
   semantic build and is SIGKILLed halfway through it; a new process finishes the build. It
   must embed only what the first one had not written, and end with the same index as a fresh
   build (same ids, same rankings for probe queries, vectors equal to float precision).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import pypi, runner
from benchmarks.harness.synthetic import generate, write_jsonl
from lgent import LGent
from lgent.brains.semantic.brain import SemanticBrain
from lgent.errors import LGentError

SECTION = "Big builds"
PROBES = ("pdf table extractor", "summarize scanned documents", "stream weather charts")
_CHILD = r"""
import asyncio, sys
from lgent import LGent
async def main():
    async with LGent.open(sys.argv[1], freshness="snapshot") as lg:
        await lg.query("summarize scanned documents")
        await asyncio.sleep(3600)
asyncio.run(main())
"""


async def until_current(lg: LGent, name: str, target: int, started: float) -> float:
    """Seconds from ``started`` until brain ``name`` reflects ``target`` (asking it meanwhile)."""
    while True:
        status = await asyncio.to_thread(lg.brain_status, name)
        if status.change_number >= target:
            return time.perf_counter() - started
        await asyncio.sleep(0.05)


def catalog_file(work: Path, size: int, synthetic: bool) -> tuple[Path, str, str]:
    """The catalog to load (a JSON-lines file under ``work``), what it is, and a graph question
    about it (a type path for the synthetic catalog, an artifact's neighbours for PyPI)."""
    catalog = work / "catalog.jsonl"
    if not synthetic:
        try:
            entries = pypi.load_pypi(limit=size)
        except pypi.CorpusMissingError as err:
            print(f"{err}; the synthetic catalog instead")
        else:
            write_jsonl(catalog, entries, [])
            return catalog, "packages of the PyPI corpus (names and summaries)", entries[0]["id"]
    entries, types = generate(size, seed=7, n_types=200)
    write_jsonl(catalog, entries, types)
    question = f"{types[5]['type']} -> {types[9]['type']}"
    return catalog, "synthetic entries (seed 7, 200 types)", question


async def time_to_answer(
    work: Path, size: int, *, synthetic: bool = False, ready_within: float | None = None
) -> dict[str, Any]:
    catalog, what, question = catalog_file(work, size, synthetic)
    home = work / "home"
    async with LGent.open(home, freshness="snapshot") as lg:
        started = time.perf_counter()
        report = await lg.load(catalog)
        committed = time.perf_counter() - started
        target = report.result.change_number
        for name in ("keyword", "graph", "semantic"):
            lg.brains.slot(name).opened()
            lg.brains.slot(name).request()
        keyword = await until_current(lg, "keyword", target, started)
        graph = await until_current(lg, "graph", target, started)
        found = await lg.search("pdf table extractor", brain="keyword")
        if "->" in question:
            asked = await lg.query(question)
            graph_ran = any(b.brain == "graph" and b.ran for b in asked.brains)
        else:
            await lg.compatible(question)
            graph_ran = True
        answered = time.perf_counter() - started
        during = await lg.query("summarize scanned documents")
        semantic_run = next(b for b in during.brains if b.brain == "semantic")
        semantic: float | None
        try:
            semantic = await asyncio.wait_for(
                until_current(lg, "semantic", target, started), ready_within
            )
            progress = ""
        except TimeoutError:
            semantic = None
            progress = lg.brains.slot("semantic").progress()
    return {
        "size": size,
        "what": what,
        "commit_s": committed,
        "keyword_s": keyword,
        "graph_s": graph,
        "first_answers_s": answered,
        "keyword_hits": len(found.hits),
        "graph_ran": graph_ran,
        "semantic_during": semantic_run.reason or semantic_run.catching_up,
        "all_ready_s": semantic,
        "semantic_progress": progress,
    }


def cached_rows(home: Path) -> int:
    cache = home / "indexes" / "semantic" / "embeddings.sqlite"
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM embeddings").fetchone()[0])
    except sqlite3.Error:
        return 0


async def semantic_brain(home: Path) -> tuple[LGent, SemanticBrain, float]:
    started = time.perf_counter()
    lg = await asyncio.to_thread(LGent.open_sync, home)
    brain = await asyncio.to_thread(lg.brain, "semantic")
    assert isinstance(brain, SemanticBrain)
    return lg, brain, time.perf_counter() - started


async def resume_after_kill(work: Path, size: int) -> dict[str, Any]:
    entries, types = generate(size, seed=8, n_types=100)
    catalog = work / "resume.jsonl"
    write_jsonl(catalog, entries, types)
    home = work / "resume"
    async with LGent.open(home) as lg:
        await lg.load(catalog)
    fresh_home = work / "fresh"
    fresh_home.mkdir()
    shutil.copy(home / "catalog.db", fresh_home / "catalog.db")
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(home)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    while cached_rows(home) < size // 2:
        if child.poll() is not None:
            raise RuntimeError("the serving child exited before it was killed")
        time.sleep(0.1)
    child.send_signal(signal.SIGKILL)
    child.wait()
    kept = cached_rows(home)
    resumed_lg, resumed, resume_s = await semantic_brain(home)
    fresh_lg, fresh, fresh_s = await semantic_brain(fresh_home)
    try:
        ids = sorted(resumed._vectors.ids())
        same_ids = ids == sorted(fresh._vectors.ids())
        worst = max(
            float(np.abs(resumed._vectors.vector(i) - fresh._vectors.vector(i)).max())
            for i in ids[:: max(len(ids) // 500, 1)]
        )
        same_rankings = all(
            [i for i, _ in resumed.rank(p, limit=10).ranking]
            == [i for i, _ in fresh.rank(p, limit=10).ranking]
            for p in PROBES
        )
        return {
            "size": size,
            "kept_at_kill": kept,
            "embedded_on_resume": resumed.counters.texts_embedded,
            "cache_hits_on_resume": resumed.counters.entry_cache_hits,
            "resume_s": resume_s,
            "fresh_s": fresh_s,
            "fresh_embedded": fresh.counters.texts_embedded,
            "same_ids": same_ids,
            "same_rankings": same_rankings,
            "max_vector_difference": worst,
        }
    finally:
        await asyncio.to_thread(resumed_lg.close)
        await asyncio.to_thread(fresh_lg.close)


def markdown(answer: dict[str, Any], resume: dict[str, Any] | None) -> str:
    a = answer
    lines = [
        f"From an empty home, `load` of {a['size']:,} {a['what']} in one "
        'process opened as a server opens it (`freshness="snapshot"`), with the default '
        "embedder. Seconds from the start of the load:",
        "",
        "| Step | Seconds |",
        "|---|---:|",
        f"| the load committed (returns) | {a['commit_s']:.1f} |",
        f"| keyword brain current | {a['keyword_s']:.1f} |",
        f"| graph brain current | {a['graph_s']:.1f} |",
        f"| a keyword search and a graph question answered from current brains | {a['first_answers_s']:.1f} |",
        (
            f"| all three brains ready (semantic index built in the background) | {a['all_ready_s']:.1f} |"
            if a["all_ready_s"] is not None
            else f"| all three brains ready | not within the wait: `{a['semantic_progress']}` |"
        ),
        "",
        f"A plain-language query asked meanwhile was answered without waiting; its semantic "
        f"brain said: `{a['semantic_during']}`.",
    ]
    if resume is not None:
        r = resume
        lines += [
            "",
            f"Resume after a kill: a serving process building the semantic index of "
            f"{r['size']:,} entries was SIGKILLed with {r['kept_at_kill']:,} vectors written; the "
            f"next process embedded {r['embedded_on_resume']:,} texts and read "
            f"{r['cache_hits_on_resume']:,} from the cache ({r['resume_s']:.1f} s, against "
            f"{r['fresh_s']:.1f} s and {r['fresh_embedded']:,} texts for a fresh build). Same ids "
            f"as the fresh build: {r['same_ids']}; same top-10 for the probe queries: "
            f"{r['same_rankings']}; largest difference of a vector component: "
            f"{r['max_vector_difference']:.1e}.",
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--resume", type=int, default=20_000, help="0 skips the resume drill")
    parser.add_argument("--synthetic", action="store_true", help="the synthetic catalog, not PyPI")
    parser.add_argument(
        "--ready-within", type=float, default=None, help="seconds to wait for the semantic brain"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    info = runner.machine_info()
    with tempfile.TemporaryDirectory(prefix="lgent-build-") as tmp:
        work = Path(tmp)
        try:
            answer = asyncio.run(
                time_to_answer(
                    work, args.size, synthetic=args.synthetic, ready_within=args.ready_within
                )
            )
            print(answer)
            resume = asyncio.run(resume_after_kill(work, args.resume)) if args.resume else None
            print(resume)
        except LGentError as err:
            print(f"failed: {err}")
            return 1
    block = markdown(answer, resume)
    if args.no_write:
        print(block)
    else:
        runner.write_results(SECTION, block, info=info)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
