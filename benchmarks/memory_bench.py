"""Memory per catalog entry of one L-gent process with every brain loaded.

    python -m benchmarks.memory_bench                       # 25,000 and 100,000 entries
    python -m benchmarks.memory_bench --sizes 5000 20000 --no-write

For each size a home holding that many synthetic entries (seed 7, 200 types) is built with every
brain (``.bench/memory-<size>``, reused by later runs); then a fresh process opens it, brings every
brain current (loading the persisted keyword and semantic indexes, building the in-memory graph),
answers one query of each kind, and reports its resident set size (VmRSS, which includes the
pages of the memory-mapped keyword index the queries touched). The entries' vectors come from a
384-dimension hashing embedder: the size of the faiss index and of everything else per entry is
what the real 384-dimension MiniLM gives, while the model's own memory, the same at any size, is
measured apart (a process that loads it and embeds one text). Memory per entry is the slope
between the two sizes, which cancels what every process holds whatever the size.

Then, on ``benchmarks.fusion_bench``'s home of the larger size (the same catalog, every brain built
with the real model; built first when missing, which embeds every entry), the processes a user
starts: the peak resident set of ``lgent query`` by name and in plain language, each a new
process, and the resident set of ``lgent serve --http`` started and after a few searches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.harness import runner, synthetic

REPO = Path(__file__).resolve().parent.parent
SECTION = "Memory per entry"
DIMENSIONS = 384

_MEASURE = r"""
import asyncio, json, sys
from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from benchmarks.harness.runner import rss_mib

async def main():
    rss = {"start": rss_mib()}
    async with LGent.open(sys.argv[1], embedder=HashingEmbedder(384)) as lg:
        rss["catalog"] = rss_mib()
        for brain in ("keyword", "semantic", "graph"):
            await lg.catch_up([brain])
            rss[brain] = rss_mib()
        names = [e.name for e in lg.store.list_entries(limit=3)]
        types = [t.type for t in lg.store.types() if t.params == 0][:2]
        for query in (names[0], "extract tables from documents", f"{types[0]} -> {types[1]}",
                      f"what depends on {names[1]}", "author:nobody OR keywords:pdf"):
            await lg.query(query, limit=10)
        rss["end"] = rss_mib()
        print(json.dumps(rss))

asyncio.run(main())
"""

_MODEL = r"""
import asyncio, json
from lgent import LGent
from benchmarks.harness.runner import rss_mib

async def main():  # an in-memory home of one entry: the configured model, loaded and warm
    start = rss_mib()
    async with LGent.open(None) as lg:
        await lg.register({"id": "One", "name": "One", "description": "one entry"})
        await lg.search("a warm-up text", brain="semantic")
        model = lg.brain("semantic").status().extra["model"]
        print(json.dumps({"start": start, "end": rss_mib(), "name": model}))

asyncio.run(main())
"""


_PROCESSES = r"""
import json, sys
from benchmarks.memory_bench import processes
cli, served = processes(int(sys.argv[1]))
print(json.dumps({"cli": cli, "served": served}))
"""


def build_home(size: int) -> Path:
    from lgent import LGent
    from lgent.brains.semantic.embedders import HashingEmbedder

    home = REPO / ".bench" / f"memory-{size}"
    marker = home / "built"
    if not marker.exists():
        home.mkdir(parents=True, exist_ok=True)
        entries, types = synthetic.generate(size, seed=7)
        data = home / "catalog.jsonl"
        synthetic.write_jsonl(data, entries, types)

        async def build() -> None:
            async with LGent.open(home, embedder=HashingEmbedder(DIMENSIONS)) as lg:
                await lg.load(data)
                await lg.reindex()

        with runner.Timer() as t:
            asyncio.run(build())
        print(f"built {size} entries in {t.seconds:.0f} s", flush=True)
        data.unlink()
        marker.write_text("ok")
    return home


def child(script: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        timeout=1800,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


PROCESS_QUERIES = ("extract tables from documents", "summarize news articles")
"""Plain-language queries the serving process answers (the first loads the model)."""


def processes(size: int) -> tuple[list[tuple[str, float, float]], tuple[float, float]]:
    """Peak RSS of CLI processes and RSS of a serving process on ``fusion_bench``'s home of
    ``size`` entries (every brain built with the real model; built first if missing): rows of
    (command, peak MiB, wall s), and (MiB once started, MiB after ``PROCESS_QUERIES``)."""
    from benchmarks import ecosystem_bench, fusion_bench
    from lgent import LGent

    home = REPO / ".bench" / f"fusion-{size}"
    if not (home / "loaded").exists():  # built by a child: this process stays small
        subprocess.run(
            [sys.executable, "-c", f"import benchmarks.fusion_bench as f; f.build_home({size})"],
            check=True,
            cwd=REPO,
        )
    assert fusion_bench.build_home(size) == home

    async def first_name() -> str:
        async with LGent.open(home) as lg:
            return lg.store.list_entries(limit=1)[0].name

    name = asyncio.run(first_name())
    commands = (("query", name), ("query", PROCESS_QUERIES[0]))
    rows = []
    for command in commands:
        ecosystem_bench.lgent(home, *command)  # untimed: the file cache warm
        run = ecosystem_bench.lgent(home, *command)
        if run.status != 0:
            raise SystemExit(f"lgent {' '.join(command)} failed:\n{run.output[-2000:]}")
        shown = "`lgent " + " ".join(f'"{a}"' if " " in a else a for a in command) + "`"
        rows.append((shown, run.rss_mib, run.wall))
        print(rows[-1], flush=True)
    served = ecosystem_bench.serving_rss(home, PROCESS_QUERIES)
    print(f"serving: {served}", flush=True)
    return rows, served


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs=2, default=[25_000, 100_000])
    parser.add_argument("--no-write", action="store_true", help="print, leave docs alone")
    args = parser.parse_args(argv)
    info = runner.machine_info()
    measured: dict[int, dict[str, float]] = {}
    disk: dict[int, float] = {}
    for size in args.sizes:
        home = build_home(size)
        measured[size] = {k: float(v) for k, v in child(_MEASURE, str(home)).items()}  # type: ignore[arg-type]
        disk[size] = sum(
            runner.dir_size_mib(p) for p in (home / "catalog.db", home / "indexes") if p.exists()
        )
        print(f"{size}: {measured[size]}, disk {disk[size]:.0f} MiB", flush=True)
    model = child(_MODEL)
    # in a child: a process started from this one, which built homes, would report this
    # one's resident set as its peak
    measured_processes: dict[str, Any] = child(_PROCESSES, str(args.sizes[1]))
    cli = [(str(a), float(b), float(c)) for a, b, c in measured_processes["cli"]]
    served = (float(measured_processes["served"][0]), float(measured_processes["served"][1]))
    small, large = args.sizes
    parts = {
        "catalog opened": ("start", "catalog"),
        "keyword index loaded": ("catalog", "keyword"),
        "semantic index loaded": ("keyword", "semantic"),
        "graph built": ("semantic", "graph"),
        "queries answered": ("graph", "end"),
    }
    table = runner.Table(
        ["step", *(f"{n:,} entries: RSS Δ MiB" for n in args.sizes), "KiB per entry"], 1
    )
    for label, (before, after) in parts.items():
        deltas = [measured[n][after] - measured[n][before] for n in args.sizes]
        table.add(label, *deltas, (deltas[1] - deltas[0]) * 1024 / (large - small))
    total = [measured[n]["end"] for n in args.sizes]
    table.add("whole process", *total, (total[1] - total[0]) * 1024 / (large - small))
    disk_kib = (disk[large] - disk[small]) * 1024 / (large - small)
    model_mib = float(model["end"]) - float(model["start"])  # type: ignore[arg-type]
    markdown = (
        f"Synthetic catalogs (seed 7, 200 types) in a fresh process per size: RSS (VmRSS) after "
        "each brain is brought current, then after one query of each kind (semantic: HNSW over "
        f"{DIMENSIONS}-dimension vectors from a hashing embedder, the size MiniLM's give; VmRSS "
        "includes the touched pages of the memory-mapped keyword index). Per entry: the slope "
        "between the two sizes. The embedding model is measured apart.\n\n"
        + table.markdown()
        + f"\n\n- home on disk per entry (catalog, keyword and semantic indexes, embedding "
        f"cache): {disk_kib:.1f} KiB ({disk[small]:.0f} and {disk[large]:.0f} MiB)"
        + f"\n- the embedding model ({model['name']}), loaded and warm: {model_mib:.0f} MiB, "
        "whatever the catalog's size\n"
        + f"\nProcesses on the {args.sizes[1]:,}-entry home of `benchmarks.fusion_bench` (the "
        "same synthetic catalog, every brain built with the real model): the peak resident set "
        "of each CLI command as a new process (the kernel's accounting of the finished child, "
        "after one untimed run), and the resident set (VmRSS) of `lgent serve --http` once it "
        f"answers `/health` and after {len(PROCESS_QUERIES)} plain-language searches (the "
        "first loads the model and the brains). 1-min load average "
        f"{os.getloadavg()[0]:.2f}.\n\n"
        "| process | peak RSS MiB | wall s |\n|---|---:|---:|\n"
        + "".join(f"| {shown} | {mib:.0f} | {wall:.2f} |\n" for shown, mib, wall in cli)
        + f"| `lgent serve --http`, started | {served[0]:.0f} | |\n"
        + f"| `lgent serve --http`, after the searches | {served[1]:.0f} | |\n"
    )
    if args.no_write:
        print(markdown)
    else:
        runner.write_results(SECTION, markdown, info=info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
