"""Reliability figures: crash trials, corruption trials, a concurrency run and fuzzing, written
to docs/reliability.md.

python -m benchmarks.reliability                       # 50 crash trials, 20 per corruption kind
python -m benchmarks.reliability --trials 10 --corruption 5 --seconds 10 --fuzz 2000
python -m benchmarks.reliability --corruption-only      # the corruption trials alone
python -m benchmarks.reliability --edge-files-only      # the odd-file corpus alone (seconds)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.harness.corruption import KINDS, CorruptionTrial, rankings, run_corruption_trial
from benchmarks.harness.runner import machine_line
from benchmarks.harness.stress import OPERATIONS, CrashTrial, run_concurrency, run_crash_trial
from lgent import LGent
from lgent.brains.semantic.embedder_choice import configured_embedder
from lgent.brains.semantic.embedders import Embedder
from lgent.brains.semantic.settings import SemanticSettings
from lgent.catalog.loaders import read_path
from lgent.errors import LGentError

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "docs" / "reliability.md"
ALPHABET = string.printable + 'éß日本\u200b\x00\x07\ud7ff{}[]":,'


def base_home(work: Path, embedder: Embedder) -> Path:
    home = work / "base"

    async def build() -> None:
        async with LGent.open(home, embedder=embedder) as lg:
            await lg.load(REPO / "catalog_fixtures")
            await lg.reindex()

    asyncio.run(build())
    return home


def fuzz_loader(count: int, work: Path, rng: random.Random) -> Counter[str]:
    """Random JSON-ish lines through the loader: each gives records or a LoadError."""
    outcomes: Counter[str] = Counter()
    fields = [
        "id",
        "name",
        "version",
        "status",
        "keywords",
        "relations",
        "success_rate",
        "type",
        "zzz",
    ]
    for i in range(count):
        lines = []
        for _ in range(rng.randint(0, 5)):
            if rng.random() < 0.5:
                record: dict[str, object] = {
                    rng.choice(fields): rng.choice(
                        [None, 1, -1.5, "x", "1.0.0", [], {}, "Ab_1", True]
                    )
                    for _ in range(rng.randint(0, 5))
                }
                lines.append(json.dumps(record))
            else:
                lines.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40))))
        path = work / f"fuzz{i % 10}.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        try:
            read_path(path)
            outcomes["records"] += 1
        except LGentError as err:
            outcomes[type(err).__name__] += 1
        except Exception as err:
            outcomes[f"FOREIGN {type(err).__name__}"] += 1
    return outcomes


async def fuzz_queries(
    count: int, home: Path, embedder: Embedder, rng: random.Random
) -> Counter[str]:
    """Random strings through ``LGent.query``: each gives a response or an LGentError."""
    outcomes: Counter[str] = Counter()
    pieces = [
        *ALPHABET,
        " AND ",
        " OR ",
        " NOT ",
        "name:",
        "(",
        ")",
        '"',
        "*",
        "~",
        "->",
        "what depends on ",
        "pdf",
    ]
    async with LGent.open(home, embedder=embedder) as lg:
        for _ in range(count):
            query = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
            try:
                await lg.query(query, limit=rng.choice([1, 5, 10]), lenient=rng.random() < 0.5)
                outcomes["response"] += 1
            except LGentError as err:
                outcomes[type(err).__name__] += 1
            except Exception as err:
                outcomes[f"FOREIGN {type(err).__name__}"] += 1
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--corruption", type=int, default=20, help="trials per kind of index file")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fuzz", type=int, default=20_000, help="loader inputs (queries: a tenth)")
    parser.add_argument(
        "--corruption-only",
        action="store_true",
        help="run only the corruption trials and update only their section of the report",
    )
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--edge-files-only", action="store_true", help="run only the odd-file corpus (issue 18)"
    )
    args = parser.parse_args(argv)
    if args.edge_files_only:
        return edge_files_main(write=not args.no_write)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    rng = random.Random(2026)
    embedder = configured_embedder(SemanticSettings())  # what a home uses by default
    started = time.perf_counter()
    if args.corruption_only:
        with tempfile.TemporaryDirectory(prefix="lgent-reliability-") as tmp:
            work = Path(tmp)
            damaged = corruption_trials(
                base_home(work, embedder), work, args.corruption, rng, embedder
            )
        section = corruption_section(damaged, time.perf_counter() - started)
        print(section)
        if not args.no_write:
            REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section))
        bad = [
            t for t in damaged if t.wrong_answers or not (t.doctor_named_it and t.open_reported_it)
        ]
        return 1 if bad else 0
    with tempfile.TemporaryDirectory(prefix="lgent-reliability-") as tmp:
        work = Path(tmp)
        base = base_home(work, embedder)
        # calibration: how long each operation takes when left alone, so kills land inside it
        duration = {
            op: run_crash_trial(base, work / "trial", op, 600, embedder=embedder).child_seconds
            for op in OPERATIONS
        }
        print("operation seconds:", {k: round(v, 2) for k, v in duration.items()})
        trials: list[CrashTrial] = []
        for n in range(args.trials):
            operation = OPERATIONS[n % len(OPERATIONS)]
            delay = rng.uniform(0.1, 1.0) * duration[operation]
            trial = run_crash_trial(base, work / "trial", operation, delay, embedder=embedder)
            trials.append(trial)
            print(
                f"trial {n + 1}/{args.trials}: {operation} killed at {delay:.2f}s "
                f"({'finished first' if trial.finished else 'killed'}) -> batch {trial.batch_state}, "
                f"{'OK' if trial.ok else 'FAILED ' + str(trial.mismatches or trial.doctor_failures)}"
            )
        corruption = corruption_trials(base, work, args.corruption, rng, embedder)
        concurrent_home = work / "concurrent"
        shutil.copytree(base, concurrent_home)
        concurrency = asyncio.run(
            run_concurrency(concurrent_home, args.seconds, 8, embedder=embedder)
        )
        print(concurrency.to_dict())
        loader = fuzz_loader(args.fuzz, work, rng)
        queries = asyncio.run(fuzz_queries(max(args.fuzz // 10, 1), base, embedder, rng))
    print(loader, queries)
    if not args.no_write:
        write_report(
            trials,
            corruption,
            concurrency.to_dict(),
            loader,
            queries,
            time.perf_counter() - started,
        )
    failed = [t for t in trials if not t.ok] + [
        c for c in corruption if c.wrong_answers or not (c.doctor_named_it and c.open_reported_it)
    ]
    foreign = [k for k in (*loader, *queries) if k.startswith("FOREIGN")]
    edge_failed = edge_files_main(write=not args.no_write)
    return (
        1 if failed or concurrency.errors or concurrency.torn_reads or foreign or edge_failed else 0
    )


# -- odd files (issue 18, point 1) ------------------------------------------------------------

EDGE_HEADING = "## Odd files"


def edge_files_main(*, write: bool) -> int:
    """Load every case of the odd-file corpus (``benchmarks/harness/edge_files.py``), print the
    outcome of each and the counts, and write them to docs/reliability.md. 1 if any case went
    wrong (an untyped exception, a silent skip, a load that blocked)."""
    from benchmarks.harness.edge_files import build_cases, run_case

    with tempfile.TemporaryDirectory(prefix="lgent-edge-") as tmp:
        outcomes = [run_case(case) for case in build_cases(Path(tmp))]
    for o in outcomes:
        print(f"{o.result:8} {o.case}: {o.detail}")
    counts = Counter(o.result for o in outcomes)
    print(fmt(counts))
    if write:
        write_edge_section(outcomes, counts)
    return 0 if all(o.ok for o in outcomes) else 1


def write_edge_section(outcomes: Sequence[object], counts: Counter[str]) -> None:
    """Replace (or add) the odd-files section of docs/reliability.md."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    rows = ["| input | outcome |", "|---|---|"]
    rows += [f"| {o.case} | {o.result} |" for o in outcomes]  # type: ignore[attr-defined]
    section = (
        f"{EDGE_HEADING}\n\n"
        f"Measured by `python -m benchmarks.reliability --edge-files-only` on {stamp}, {machine_line()}.\n"
        "Each input class of issue 18 is loaded on its own (`benchmarks/harness/edge_files.py`; the same corpus\n"
        "is `tests/catalog/test_edge_files.py`): `error` is a typed `LGentError` naming the file, `skip` a skip\n"
        "listed in the load report with its reason (the folder's other files still load), `rejected` an ecosystem\n"
        "source left out and named. Anything else (`wrong`, `foreign`, `blocked`) is a failure. Run as root\n"
        "(whom permissions do not stop), the unreadable file and folder are simulated: `os.open` and\n"
        "`os.scandir` refuse them with EACCES, as the kernel does for another user.\n"
        f"Counts: {fmt(counts)} of {sum(counts.values())} inputs.\n\n" + "\n".join(rows) + "\n"
    )
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else "# Reliability\n"
    if EDGE_HEADING in text:
        before, _, after = text.partition(EDGE_HEADING)
        rest = after.split("\n## ", 1)
        text = before + section + ("\n## " + rest[1] if len(rest) > 1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    REPORT.write_text(text, encoding="utf-8")


def corruption_trials(
    base: Path, work: Path, per_kind: int, rng: random.Random, embedder: Embedder
) -> list[CorruptionTrial]:
    """``per_kind`` trials for every kind of index file (``benchmarks/harness/corruption.py``)."""
    references = {
        brain: asyncio.run(rankings(base, brain, embedder))[0]
        for brain in sorted({b for b, _ in KINDS.values()})
    }
    trials = []
    for kind, (brain, _) in KINDS.items():
        for n in range(per_kind):
            trial = run_corruption_trial(
                base, work / "corrupt", kind, references[brain], rng, embedder=embedder
            )
            trials.append(trial)
            print(
                f"corruption {kind} {n + 1}/{per_kind}: {trial.file}: doctor "
                f"{'named it' if trial.doctor_named_it else 'MISSED IT'}, open "
                f"{'reported it' if trial.open_reported_it else 'DID NOT REPORT IT'}, "
                f"{trial.wrong_answers} wrong answers"
            )
    return trials


def corruption_rows(trials: list[CorruptionTrial]) -> list[str]:
    rows = [
        "| index file | trials | named by doctor | reported by the next open | wrong answers served |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind in KINDS:
        group = [t for t in trials if t.kind == kind]
        if group:
            rows.append(
                f"| {kind} | {len(group)} | {sum(t.doctor_named_it for t in group)} | "
                f"{sum(t.open_reported_it for t in group)} | {sum(t.wrong_answers for t in group)} |"
            )
    return rows


CORRUPTION_TEXT = (
    "Each trial copies a home holding the example catalog with every index built, flips 20 random\n"
    "bytes (XOR with a random non-zero value) in one file of one kind, runs `lgent doctor`, then\n"
    "opens the home and asks that brain four probe searches. Every index file's checksum is in its\n"
    "manifest (and the manifest carries its own), so a damaged file is never served: the brain is\n"
    "rebuilt from the catalog and the response says which file failed. A wrong answer is a ranking\n"
    "(ids and scores) that differs from the intact home's.\n\n"
)


def corruption_section(trials: list[CorruptionTrial], seconds: float | None = None) -> str:
    """The ``## Corruption trials`` section of the report."""
    when = ""
    if seconds is not None:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        when = (
            f"Measured by `python -m benchmarks.reliability --corruption-only` on {stamp}, "
            f"{machine_line()}; {seconds:.0f} s.\n\n"
        )
    return (
        "## Corruption trials\n\n"
        + when
        + CORRUPTION_TEXT
        + "\n".join(corruption_rows(trials))
        + "\n"
    )


def replace_section(document: str, section: str) -> str:
    """``document`` with the ``## `` section that ``section`` starts with replaced (or added
    before ``## Concurrency``)."""
    title = section.splitlines()[0]
    start = document.find(title + "\n")
    if start < 0:
        at = document.find("## Concurrency\n")
        at = len(document) if at < 0 else at
        return document[:at] + section + "\n" + document[at:]
    end = document.find("\n## ", start + len(title))
    end = len(document) if end < 0 else end + 1
    return document[:start] + section + "\n" + document[end:]


def write_report(
    trials: list[CrashTrial],
    corruption: list[CorruptionTrial],
    concurrency: dict[str, object],
    loader: Counter[str],
    queries: Counter[str],
    seconds: float,
) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    by_op: dict[str, list[CrashTrial]] = {}
    for t in trials:
        by_op.setdefault(t.operation, []).append(t)
    rows = [
        "| operation | trials | killed mid-way | batch: none / all / partial | doctor failures | results = fresh build |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for op, group in by_op.items():
        states = Counter(t.batch_state for t in group)
        rows.append(
            f"| {op} | {len(group)} | {sum(not t.finished for t in group)} | "
            f"{states['none']} / {states['all']} / {states['partial']} | "
            f"{sum(bool(t.doctor_failures) for t in group)} | {sum(t.results_equal for t in group)}/{len(group)} |"
        )
    REPORT.write_text(
        "# Reliability\n\n"
        f"Measured by `python -m benchmarks.reliability` on {stamp}, {machine_line()}; {seconds:.0f} s in all.\n"
        "CI runs the same drills with smaller counts (`tests/integration/`, `tests/catalog/test_hostile_files.py`).\n\n"
        "## Crash trials\n\n"
        "Each trial copies a home holding the example catalog with every index built, starts a child process that\n"
        "loads a 5,000-entry batch, rebuilds one brain's index, or loads 300 entries and then queries (so every brain catches up),\n"
        "and SIGKILLs it after a random delay. The home is then reopened: the batch must be all there or not at all,\n"
        "`lgent doctor` must find no failure, and eight probe queries across all query types must return exactly\n"
        "what a fresh build from the same catalog returns.\n\n"
        + "\n".join(rows)
        + "\n\n"
        + corruption_section(corruption)
        + "\n"
        "## Concurrency\n\n"
        f"Eight query tasks and one writer (registering, and removing 30% of what it registered) on one home for "
        f"{concurrency['seconds']} s:\n\n"
        "| queries served | registrations | removals | errors | torn reads |\n|---:|---:|---:|---:|---:|\n"
        f"| {concurrency['queries']} | {concurrency['registrations']} | {concurrency['removals']} | "
        f"{concurrency['errors']} | {concurrency['torn_reads']} |\n\n"
        "A torn read is a result naming an artifact the catalog did not hold at the response's change number\n"
        "(checked by replaying the change log).\n\n"
        "## Fuzzing\n\n"
        f"- Catalog loader: {sum(loader.values())} random JSONL files (random records and random text lines): {fmt(loader)}.\n"
        f"- Query entry point (`LGent.query`, strict and lenient): {sum(queries.values())} random queries: {fmt(queries)}.\n\n"
        + (
            "No input produced an exception outside the `LGentError` tree.\n"
            if not any(k.startswith("FOREIGN") for k in (*loader, *queries))
            else "Some inputs raised exceptions outside the `LGentError` tree (marked FOREIGN above).\n"
        ),
        encoding="utf-8",
    )


def fmt(counts: Counter[str]) -> str:
    """``kind: count`` pairs in name order."""
    return ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))


if __name__ == "__main__":
    sys.exit(main())
