"""Reliability figures: crash trials, corruption trials, a concurrency run and fuzzing, written
to docs/reliability.md.

python -m benchmarks.reliability                       # 50 crash trials, 20 per corruption kind
python -m benchmarks.reliability --trials 10 --corruption 5 --seconds 10 --fuzz 2000
python -m benchmarks.reliability --corruption-only      # the corruption trials alone
python -m benchmarks.reliability --rows-only            # the cache-row and catalog-row trials
python -m benchmarks.reliability --edge-files-only      # the odd-file corpus alone (seconds)
python -m benchmarks.reliability --hostile-only         # endless harvests, huge bodies, bad lines
python -m benchmarks.reliability --replica-lag-only     # a large import seen by two replicas

Each run replaces only its own sections of docs/reliability.md.
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
from typing import Any

from benchmarks.harness.corruption import KINDS, CorruptionTrial, rankings, run_corruption_trial
from benchmarks.harness.row_corruption import (
    CACHE_DAMAGE,
    ROW_DAMAGE,
    RowTrial,
    query_answers,
    run_cache_trial,
    run_catalog_trial,
)
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
    parser.add_argument("--rows", type=int, default=20, help="trials per kind of damaged row")
    parser.add_argument("--rows-only", action="store_true", help="run only the row trials")
    parser.add_argument(
        "--hostile-only", action="store_true", help="run only the hostile-peer drills"
    )
    parser.add_argument(
        "--replica-lag-only", action="store_true", help="run only the replica-lag drill"
    )
    args = parser.parse_args(argv)
    if args.edge_files_only:
        return edge_files_main(write=not args.no_write)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.hostile_only:
        return hostile_main(write=not args.no_write)
    if args.replica_lag_only:
        return replica_lag_main(write=not args.no_write)
    rng = random.Random(2026)
    embedder = configured_embedder(SemanticSettings())  # what a home uses by default
    started = time.perf_counter()
    if args.rows_only:
        with tempfile.TemporaryDirectory(prefix="lgent-reliability-") as tmp:
            work = Path(tmp)
            rows = row_trials(base_home(work, embedder), work, args.rows, rng, embedder)
        section = rows_section(rows, time.perf_counter() - started)
        print(section)
        if not args.no_write:
            REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section))
        return 1 if any(not t_ok(t) for t in rows) else 0
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
        rows = row_trials(base, work, args.rows, rng, embedder)
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
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), rows_section(rows)))
    failed = [t for t in trials if not t.ok] + [
        c for c in corruption if c.wrong_answers or not (c.doctor_named_it and c.open_reported_it)
    ]
    failed_rows = [t for t in rows if not t_ok(t)]
    foreign = [k for k in (*loader, *queries) if k.startswith("FOREIGN")]
    edge_failed = edge_files_main(write=not args.no_write)
    hostile_failed = hostile_main(write=not args.no_write)
    lag_failed = replica_lag_main(write=not args.no_write)
    broken = bool(failed or failed_rows or foreign or concurrency.errors or concurrency.torn_reads)
    return 1 if broken or edge_failed or hostile_failed or lag_failed else 0


# -- damaged rows: the embedding cache and the catalog (issue 35) -----------------------------


def t_ok(trial: RowTrial) -> bool:
    return trial.doctor_named_it and trial.read_reported_it and not trial.wrong_answers


def row_trials(
    base: Path, work: Path, per_kind: int, rng: random.Random, embedder: Embedder
) -> list[RowTrial]:
    """``per_kind`` embedding-cache row trials and as many catalog row trials
    (``benchmarks/harness/row_corruption.py``)."""
    reference = asyncio.run(rankings(base, "semantic", embedder))[0]
    answers = asyncio.run(query_answers(base, embedder))
    trials = []
    for n in range(per_kind):
        trials.append(run_cache_trial(base, work / "rows", n, reference, rng, embedder))
        print(f"cache row {n + 1}/{per_kind}: {trials[-1]}")
    for n in range(per_kind):
        trials.append(run_catalog_trial(base, work / "rows", n, answers, rng, embedder))
        print(f"catalog row {n + 1}/{per_kind}: {trials[-1]}")
    return trials


ROWS_TEXT = (
    "Each trial copies a home holding the example catalog with every index built and damages one\n"
    "row (`benchmarks/harness/row_corruption.py`), one way per trial in turn. An embedding-cache row\n"
    "(`indexes/semantic/embeddings.sqlite`) has its vector overwritten with 1e10, 20 of its bytes\n"
    "flipped, every sign flipped, or one mantissa bit flipped (the last two keep a vector of length\n"
    "1, so no range check could see them); the next read of the cache is a rebuild of the semantic\n"
    "index, and a wrong answer is a probe ranking that differs from the intact home's. A catalog\n"
    "row (`catalog.db`) has its JSON or its `status` edited in place through SQL, or three letters\n"
    "of its JSON changed in the file itself; the next read is `LGent.get` of that artifact, and\n"
    "each of seven fused probe queries is judged: the intact home's answer, refused (it met the\n"
    "damaged row: `CatalogCorruptError`, nothing served), or wrong. Every row carries a checksum\n"
    "(CRC-32 of key and vector in the cache, BLAKE2b-64 of the other columns in the catalog),\n"
    "verified on every read; a damaged cache row is embedded again, a damaged catalog row is left\n"
    "out of the indexes and named in every answer's warnings until it is written whole again.\n\n"
)


def rows_section(trials: list[RowTrial], seconds: float | None = None) -> str:
    """The ``## Damaged rows`` section of the report."""
    when = ""
    if seconds is not None:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        when = (
            f"Measured by `python -m benchmarks.reliability --rows-only` on {stamp}, "
            f"{machine_line()}; {seconds:.0f} s.\n\n"
        )
    rows = [
        "| row | damage | trials | named by doctor | reported by the next read | "
        "wrong answers served | probe queries refused |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for kind, ways in (("embedding cache row", CACHE_DAMAGE), ("catalog row", ROW_DAMAGE)):
        for how in ways:
            group = [t for t in trials if t.kind == kind and t.how == how]
            if group:
                rows.append(
                    f"| {kind} | {how} | {len(group)} | {sum(t.doctor_named_it for t in group)} | "
                    f"{sum(t.read_reported_it for t in group)} | "
                    f"{sum(t.wrong_answers for t in group)} | {sum(t.refused for t in group)} |"
                )
        group = [t for t in trials if t.kind == kind]
        if group:
            rows.append(
                f"| **{kind}, all** | | **{len(group)}** | "
                f"**{sum(t.doctor_named_it for t in group)}** | "
                f"**{sum(t.read_reported_it for t in group)}** | "
                f"**{sum(t.wrong_answers for t in group)}** | {sum(t.refused for t in group)} |"
            )
    return "## Damaged rows\n\n" + when + ROWS_TEXT + "\n".join(rows) + "\n"


# -- hostile peers (issue 35) ------------------------------------------------------------------


def hostile_main(*, write: bool) -> int:
    """Endless harvests, huge request bodies and malformed MCP lines, against real processes;
    the section written to docs/reliability.md. 1 if a harvest went over 300 MB or past its
    timeout, a body was not refused, or a malformed line got no reply."""
    from benchmarks.harness.hostile_peers import endless_harvest, hostile_bodies, malformed_mcp

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lgent-hostile-") as tmp:
        work = Path(tmp)
        harvests = [
            endless_harvest(mode, work / "harvest")
            for mode in ("json", "sse-notes", "sse", "sse-one")
        ]
        for h in harvests:
            print(h)
        home = work / "served"

        async def fill() -> None:
            async with LGent.open(home) as lg:
                await lg.load(REPO / "catalog_fixtures")

        asyncio.run(fill())
        bodies = hostile_bodies(home)
        print(bodies)
        lines = malformed_mcp(home)
        print(lines)
    section = hostile_section(harvests, bodies, lines, time.perf_counter() - started)
    print(section)
    if write:
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section))
    over = [h for h in harvests if h.peak_rss_mib >= 300 or h.seconds >= 60 or h.exit_code == 0]
    unanswered = [name for name, code in lines if code == "no reply"]
    return 1 if over or bodies.status != 413 or unanswered else 0


def hostile_section(
    harvests: list[Any], bodies: Any, lines: list[tuple[str, str]], seconds: float
) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    rows = [
        "| the server's answer | exit code | seconds | peak RSS | sent before the stop | what it said |",
        "|---|---:|---:|---:|---:|---|",
    ]
    names = {
        "json": "one JSON document that never ends",
        "sse-notes": "endless valid notifications (SSE, 1 KiB each)",
        "sse": "endless 256 KiB events that are not JSON-RPC",
        "sse-one": "one event that never ends",
    }
    for h in harvests:
        said = h.message.split(": ", 2)[-1].replace("|", "/")[:110]
        rows.append(
            f"| {names[h.mode]} | {h.exit_code} | {h.seconds:.1f} | {h.peak_rss_mib:.0f} MiB | "
            f"{h.sent_mib:.0f} MiB | {said} |"
        )
    codes = ["| request line | answer |", "|---|---|"]
    codes += [f"| {name} | {code} |" for name, code in lines]
    return (
        "## Hostile peers\n\n"
        f"Measured by `python -m benchmarks.reliability --hostile-only` on {stamp}, {machine_line()}; "
        f"{seconds:.0f} s (`benchmarks/harness/hostile_peers.py`).\n\n"
        "**Harvests.** `lgent import mcp --url URL` (timeout 60 s) against a local server whose answer\n"
        "never ends. Everything a server sends over HTTP counts against 64 MiB; past it the harvest\n"
        "stops at once and nothing is imported. Peak RSS is the child's own (`wait4`).\n\n"
        + "\n".join(rows)
        + "\n\n"
        "**Request bodies.** `lgent serve --http` on the example catalog. A JSON body is bounded in\n"
        "bytes (1 MB), values and keys (5,000) and depth (32) before any model validates it, parsed\n"
        "for that on a worker thread when it is large; a 422 lists at most 20 problems.\n"
        f"A `POST /query` of {bodies.body_keys:,} unknown keys ({bodies.body_bytes / 1e6:.2f} MB) was "
        f"answered {bodies.status} in {bodies.seconds * 1000:.0f} ms with {bodies.answer_bytes} bytes "
        "; `/health` took "
        f"{bodies.health_ms_alone:.1f} ms alone and {bodies.health_ms_during:.0f} ms while six such "
        "bodies arrived at once.\n\n"
        "**Malformed MCP requests.** `lgent serve --mcp`, after `initialize`, each line below, then a\n"
        "ping. JSON-RPC's codes: -32700 not JSON, -32600 not a request, -32601 unknown method, -32602\n"
        "bad params.\n\n" + "\n".join(codes) + "\n"
    )


# -- replica lag (issue 35) --------------------------------------------------------------------


def replica_lag_main(*, write: bool) -> int:
    """The replica-lag drill (``benchmarks/harness/replica_lag.py``); 1 if an answer was behind
    without saying so, or the new entry took more than 10 s to show."""
    from benchmarks.harness.pgcluster import server_binaries
    from benchmarks.harness.replica_lag import run_drill

    if server_binaries() is None:
        print("replica lag: no PostgreSQL server binaries here; skipped")
        return 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lgent-lag-") as tmp:
        lags, version = asyncio.run(run_drill(Path(tmp)))
    for lag in lags:
        print(lag)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    rows = [
        "| replica | new entry answered after | polls | answers behind without saying so | "
        "most changes behind, as /health said |",
        "|---|---:|---:|---:|---:|",
    ]
    rows += [
        f"| {n} | {lag.visible_s:.1f} s | {lag.polls} | {lag.silent} | {lag.largest_behind:,} |"
        for n, lag in enumerate(lags, start=1)
    ]
    section = (
        "## Replica lag\n\n"
        f"Measured by `python -m benchmarks.reliability --replica-lag-only` on {stamp}, "
        f"{machine_line()}; PostgreSQL {version}; {time.perf_counter() - started:.0f} s.\n\n"
        "Two `lgent serve --http` replicas of one PostgreSQL catalog (the example catalog, the\n"
        "default embedder), then a writer imports 3,000 entries in one batch, waits a second and\n"
        "registers one more (`benchmarks/harness/replica_lag.py`). Each replica is polled (a keyword\n"
        "query for the new id, and `/health`) until it answers with the new entry. A pull no longer\n"
        "waits for the brains to catch up (the semantic brain embeds the 3,000 texts meanwhile), so\n"
        "the next change is pulled at once; an answer that is behind says so (a warning naming the\n"
        "shared catalog for the replica's copy, each brain's `catching_up` and the interpretation\n"
        "for a brain).\n\n" + "\n".join(rows) + "\n"
    )
    print(section)
    if write:
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section))
    return 1 if any(lag.silent or not 0 <= lag.visible_s < 10 for lag in lags) else 0


# -- odd files (issue 18, point 1) ------------------------------------------------------------

EDGE_HEADING = "## Odd files"


def edge_files_main(*, write: bool) -> int:
    """Load every case of the odd-file corpus (``benchmarks/harness/edge_files.py``), print the
    outcome of each and the counts, and write them to docs/reliability.md. 1 if any case went
    wrong (an untyped exception, a silent skip, a load that blocked)."""
    from benchmarks.harness.as_user import unprivileged
    from benchmarks.harness.edge_files import build_cases, run_case, run_unprivileged

    work = Path(tempfile.mkdtemp(prefix="lgent-edge-"))
    os.chmod(work, 0o755)  # the unprivileged user must reach the cases
    try:
        cases = build_cases(work)
        outcomes = [run_case(case) for case in cases]
        real = [c for c in cases if c.denied or "system folder" in c.fragment]
        as_user = run_unprivileged(real)
    finally:
        for path in [work, *work.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(work)
    user = unprivileged()
    who = user if isinstance(user, str) else user.user
    for o in outcomes:
        print(f"{o.result:8} {o.case}: {o.detail}")
    if isinstance(as_user, str):
        print(f"not run as another user: {as_user}")
        real_outcomes: dict[str, Any] = {}
    else:
        real_outcomes = {o.case: o for o in as_user}
        for o in as_user:
            print(f"{o.result:8} as {who}: {o.case}: {o.detail}")
    counts = Counter(o.result for o in outcomes)
    print(fmt(counts))
    if write:
        write_edge_section(outcomes, counts, real_outcomes, who)
    every = [*outcomes, *real_outcomes.values()]
    return 0 if all(o.ok for o in every) and not isinstance(as_user, str) else 1


def write_edge_section(
    outcomes: Sequence[Any], counts: Counter[str], real: dict[str, Any], user: str
) -> None:
    """Replace (or add) the odd-files section of docs/reliability.md."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    rows = [f"| input | outcome | as {user} |", "|---|---|---|"]
    for o in outcomes:
        mine = real.get(o.case)
        rows.append(f"| {o.case} | {o.result} | {mine.result if mine else ''} |")
    section = (
        f"{EDGE_HEADING}\n\n"
        f"Measured by `python -m benchmarks.reliability --edge-files-only` on {stamp}, {machine_line()}.\n"
        "Each input class of issues 18 and 35 is loaded on its own (`benchmarks/harness/edge_files.py`; the same\n"
        "corpus is `tests/catalog/test_edge_files.py`): `error` is a typed `LGentError` naming the file, `skip` a skip\n"
        "listed in the load report with its reason (the folder's other files still load), `rejected` an ecosystem\n"
        "source left out and named. Anything else (`wrong`, `foreign`, `blocked`) is a failure. The unreadable\n"
        "file and folders and the links into /proc, /sys and /dev are also loaded for real by an unprivileged\n"
        f"user (`{user}`, through `setpriv`: `benchmarks/harness/as_user.py`), whom their modes stop as the\n"
        "kernel stops any user but root (the first column, run as root, simulates the refusals: `os.open` and\n"
        "`os.scandir` refuse with EACCES). A symlink into /proc, /sys or /dev is never followed, even with\n"
        "`--follow-symlinks`.\n"
        f"Counts: {fmt(counts)} of {sum(counts.values())} inputs; "
        f"{sum(o.ok for o in real.values())} of {len(real)} as {user}.\n\n" + "\n".join(rows) + "\n"
    )
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else "# Reliability\n"
    REPORT.write_text(replace_section(text, section), encoding="utf-8")


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
    "manifest (and the manifest carries its own; tantivy's `.managed.json`, which tantivy rewrites\n"
    "itself, must parse and list every file of the index), so a damaged file is never served: the brain is\n"
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
    """Replace the sections of a full run in docs/reliability.md (the others are kept)."""
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
    header = (
        "# Reliability\n\n"
        f"Measured by `python -m benchmarks.reliability` on {stamp}, {machine_line()}; {seconds:.0f} s in all.\n"
        "CI runs the same drills with smaller counts (`tests/integration/`, `tests/catalog/test_hostile_files.py`).\n\n"
    )
    crash = (
        "## Crash trials\n\n"
        "Each trial copies a home holding the example catalog with every index built, starts a child process that\n"
        "loads a 5,000-entry batch, rebuilds one brain's index, or loads 300 entries and then queries (so every brain catches up),\n"
        "and SIGKILLs it after a random delay. The home is then reopened: the batch must be all there or not at all,\n"
        "`lgent doctor` must find no failure, and eight probe queries across all query types must return exactly\n"
        "what a fresh build from the same catalog returns.\n\n" + "\n".join(rows) + "\n"
    )
    together = (
        "## Concurrency\n\n"
        f"Eight query tasks and one writer (registering, and removing 30% of what it registered) on one home for "
        f"{concurrency['seconds']} s:\n\n"
        "| queries served | registrations | removals | errors | torn reads |\n|---:|---:|---:|---:|---:|\n"
        f"| {concurrency['queries']} | {concurrency['registrations']} | {concurrency['removals']} | "
        f"{concurrency['errors']} | {concurrency['torn_reads']} |\n\n"
        "A torn read is a result naming an artifact the catalog did not hold at the response's change number\n"
        "(checked by replaying the change log).\n"
    )
    fuzzing = (
        "## Fuzzing\n\n"
        f"- Catalog loader: {sum(loader.values())} random JSONL files (random records and random text lines): {fmt(loader)}.\n"
        f"- Query entry point (`LGent.query`, strict and lenient): {sum(queries.values())} random queries: {fmt(queries)}.\n\n"
        + (
            "No input produced an exception outside the `LGentError` tree.\n"
            if not any(k.startswith("FOREIGN") for k in (*loader, *queries))
            else "Some inputs raised exceptions outside the `LGentError` tree (marked FOREIGN above).\n"
        )
    )
    text = REPORT.read_text(encoding="utf-8") if REPORT.exists() else header
    first = text.find("\n## ")
    text = header + (text[first + 1 :] if first >= 0 else "")
    for section in (crash, corruption_section(corruption), together, fuzzing):
        text = replace_section(text, section)
    REPORT.write_text(text, encoding="utf-8")


def fmt(counts: Counter[str]) -> str:
    """``kind: count`` pairs in name order."""
    return ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))


if __name__ == "__main__":
    sys.exit(main())
