"""Embedding long texts: the semantic brain's build rate on the real ecosystem's entry texts,
before and after the text budget, with what the budget costs in quality.

    python -m benchmarks.long_text_bench                      # base checkout: ../base
    python -m benchmarks.long_text_bench --base /path/to/old/checkout --sample 2000
    python -m benchmarks.long_text_bench --no-quality --no-write

Reads the 567 Swagger specs of ``../shared/ecosystem/openapi/apis-guru-swagger2-specs.tar.gz``
(unpacked into a temporary folder, untimed) and the 70 MCP servers of
``../shared/ecosystem/mcp-tools-list`` in place (or ``$LGENT_ECOSYSTEM_DATA``), and makes every
entry's text as the semantic brain does (``entry_text``, plain mode). It reports:

- the length of those texts in the model's word pieces (percentiles, whole texts) and what each
  candidate budget would cut;
- the build rate (entries/s) of a fresh in-memory ``SemanticBrain`` over a seeded sample of the
  entries, every text embedded, on each side: *before* (the ``--base`` checkout's code, as it
  was), *after* (this checkout, default settings) and *after, whole texts* (this checkout with
  the budget at the model's 256-piece limit). Each side is a worker process of its own
  (``benchmarks/long_text_worker.py``, run with that checkout's ``lgent``), all loaded at once;
  they take turns chunk by chunk, the order rotating, so load from other work on the machine
  hits all alike. CPU seconds per wall second show how many cores a build kept busy;
- one query embedding's latency (p50/p99) on each side, taking turns in blocks;
- unless ``--no-quality``: nDCG@10 of the development sets (``benchmarks.external_quality``,
  fused and semantic brain) and of the labeled queries per class (``benchmarks.quality``) with
  the default budget against whole texts.

Writes the ``Embedding long texts`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from benchmarks.harness import runner
from lgent.brains.semantic.settings import SemanticSettings
from lgent.config import Settings

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(
    os.environ.get("LGENT_ECOSYSTEM_DATA") or REPO.parent / "shared" / "ecosystem"
).resolve()
ARCHIVE = SHARED / "openapi" / "apis-guru-swagger2-specs.tar.gz"
MCP_TOOLS = SHARED / "mcp-tools-list"
WORKER = Path(__file__).resolve().parent / "long_text_worker.py"
SECTION = "Embedding long texts"
MODEL_LIMIT = 256
BUDGETS = (32, 48, 64, 96, 128, 192, 256)
PERCENTILES = (10, 25, 50, 75, 90, 95, 99)
THROUGHPUT_GAIN = 3.0
NDCG_LOSS_MAX = 0.5  # points, on every development set
LABELED_CLASS_MAX = 0.01
SETS = ("toollens-train", "metatool-single", "metatool-multi")


# -- the texts ----------------------------------------------------------------------------------


def ecosystem_entries(specs: Path) -> list[Any]:
    """Every latest entry of the Swagger specs and the MCP servers, by id."""
    from lgent.catalog.loaders import read_path

    found = {e.id: e for path in (specs, MCP_TOOLS) for e in read_path(path).entries}
    return [found[i] for i in sorted(found)]


def piece_counts(texts: Sequence[str]) -> np.ndarray:
    """Each whole text's length in the model's word pieces ([CLS] and [SEP] included)."""
    from tokenizers import Tokenizer

    from lgent.brains.semantic.embedders import default_model_dir

    folder, _ = default_model_dir()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return np.array([len(e.ids) for e in tokenizer.encode_batch(list(texts))])


def length_tables(counts: np.ndarray) -> str:
    pct = runner.Table(["texts", "mean", *(f"p{p}" for p in PERCENTILES), "max"], digits=0)
    pct.add(len(counts), float(counts.mean()), *np.percentile(counts, PERCENTILES), counts.max())
    seen = np.minimum(counts, MODEL_LIMIT)
    cuts = runner.Table(["budget (word pieces)", "texts cut", "share cut", "pieces embedded"])
    for budget in sorted({*BUDGETS, SemanticSettings().entry_tokens}):
        cut = int((counts > budget).sum())
        kept = float(np.minimum(counts, budget).sum() / seen.sum())
        cuts.add(budget, cut, f"{cut / len(counts):.1%}", f"{kept:.0%}")
    return (
        "Length of the entry texts in word pieces (whole texts, [CLS] and [SEP] included; the "
        f"model reads at most {MODEL_LIMIT}):\n\n"
        + pct.markdown()
        + "\n\nWhat each budget cuts (*pieces embedded*: against whole texts cut at the model's "
        "limit):\n\n" + cuts.markdown()
    )


# -- the paired runs ----------------------------------------------------------------------------


@dataclass
class Side:
    """One worker process: a checkout's code with some settings."""

    label: str
    checkout: Path
    entry_tokens: int | None
    process: subprocess.Popen[str] | None = None
    seconds: float = 0.0
    cpu: float = 0.0
    embedded: int = 0
    cut: int = 0
    latencies: list[float] = field(default_factory=list)

    def start(self, specs: Path, ids_file: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.checkout), "HF_HUB_OFFLINE": "1"}
        command = [sys.executable, str(WORKER), str(specs), str(MCP_TOOLS), str(ids_file)]
        if self.entry_tokens is not None:
            command.append(str(self.entry_tokens))
        self.process = subprocess.Popen(
            command,
            cwd=self.checkout,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process is not None
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def read(self) -> dict[str, Any]:
        line = self._pipes()[1].readline()
        if not line:
            raise RuntimeError(f"the {self.label} worker stopped (exit {self.process_exit()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        stdin, _ = self._pipes()
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        return self.read()

    def process_exit(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def stop(self) -> None:
        """Ask the worker to quit (closing its stdin) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            stdin, _ = self._pipes()
            with contextlib.suppress(OSError, ValueError):  # it may have stopped already
                stdin.write(json.dumps({"op": "quit"}) + "\n")
                stdin.close()
            self.process.wait(timeout=60)

    @property
    def rate(self) -> float:
        return self.embedded / self.seconds


def rotated(sides: list[Side], turn: int) -> list[Side]:
    shift = turn % len(sides)
    return sides[shift:] + sides[:shift]


def run_sides(
    sides: list[Side], specs: Path, sample: list[str], chunk: int, queries: list[str], work: Path
) -> None:
    ids_file = work / "ids.json"
    ids_file.write_text(json.dumps(sample), encoding="utf-8")
    for side in sides:  # one at a time: each reads the specs and loads the model
        side.start(specs, ids_file)
        ready = side.read()
        print(f"{side.label}: {ready['ready']} entries, lgent from {ready['lgent']}", flush=True)
    try:
        for turn, start in enumerate(range(0, len(sample), chunk)):
            for side in rotated(sides, turn):
                got = side.ask({"op": "build", "start": start, "stop": start + chunk})
                side.seconds += got["seconds"]
                side.cpu += got["cpu"]
                side.embedded += got["embedded"]
                side.cut += got["cut"]
            done = min(start + chunk, len(sample))
            rates = ", ".join(f"{s.label} {s.rate:.1f}/s" for s in sides)
            print(f"{done} of {len(sample)} entries: {rates}", flush=True)
        block = 25
        for turn, start in enumerate(range(0, len(queries), block)):
            for side in rotated(sides, turn):
                side.latencies += side.ask(
                    {"op": "queries", "texts": queries[start : start + block]}
                )["ms"]
    finally:
        for side in sides:
            side.stop()


def query_texts(n: int) -> list[str]:
    from benchmarks import quality
    from benchmarks.semantic_bench import intents

    texts = [q.query for q in quality.load_queries()]
    return (texts + intents(max(n - len(texts), 0)))[:n]


# -- quality ------------------------------------------------------------------------------------


def devset_quality(budget: int, size: int | None) -> list[tuple[str, dict[str, float]]]:
    """Per development set: nDCG@10 of the fused query and the semantic brain, whole texts
    against the budget, with the texts the budget cuts."""
    from benchmarks import devsets, external_quality
    from benchmarks.ir_metrics import mean_scores
    from lgent.brains.semantic.embedders import SentenceTransformerEmbedder
    from lgent.brains.semantic.text import budgeted_texts

    embedder = external_quality.cached_embedder(SentenceTransformerEmbedder())
    out = []
    for name in SETS:
        devset = devsets.load_set(name, size=-1 if size is None else size, seed=0)
        embedder.prime([q.text for q in devset.queries])
        judged = [q.relevant for q in devset.queries]
        row: dict[str, float] = {}
        for tokens in (MODEL_LIMIT, budget):
            settings = Settings(brains={"semantic": SemanticSettings(entry_tokens=tokens)})
            run = asyncio.run(
                external_quality.lgent_rankings(
                    devset, embedder, settings, entry_text="rich", methods=("semantic", "fused")
                )
            )
            for method in ("semantic", "fused"):
                scores = mean_scores(run.rankings[method], judged)
                row[f"{method} {tokens}"] = scores["ndcg@10"]
        tools = [devsets.tool_entry(t, "rich") for t in devset.tools]
        made = budgeted_texts(tools, "plain", embedder, budget)
        row["tools"], row["cut"] = len(tools), sum(made.cut)
        print(f"{name}: {row}", flush=True)
        out.append((name, row))
    return out


def labeled_quality(budget: int) -> dict[int, dict[str, dict[str, float]]]:
    """nDCG@10 of the labeled queries per class and system, whole texts and the budget."""
    from benchmarks import quality

    queries = quality.load_queries()
    systems = ("semantic", "fused")
    out: dict[int, dict[str, dict[str, float]]] = {}
    for tokens in (MODEL_LIMIT, budget):
        settings = Settings(brains={"semantic": SemanticSettings(entry_tokens=tokens)})
        per = asyncio.run(quality.evaluate(settings, queries, systems))
        out[tokens] = {
            s: {c: statistics.fmean(x[0] for x in per[s][c]) for c in quality.CLASSES}
            for s in systems
        }
    return out


def quality_section(budget: int, devset_size: int | None) -> tuple[str, list[str]]:
    """The quality tables and their acceptance lines."""
    from benchmarks import quality

    dev = devset_quality(budget, devset_size)
    table = runner.Table(
        [
            "development set",
            "tools (cut)",
            "fused, whole texts",
            f"fused, budget {budget}",
            "change",
            "semantic brain, whole",
            f"semantic brain, {budget}",
            "change",
        ],
        digits=2,
    )
    worst = 0.0
    for name, row in dev:
        fused = row[f"fused {budget}"] - row[f"fused {MODEL_LIMIT}"]
        sem = row[f"semantic {budget}"] - row[f"semantic {MODEL_LIMIT}"]
        worst = min(worst, fused)
        table.add(
            name,
            f"{row['tools']:.0f} ({row['cut']:.0f})",
            row[f"fused {MODEL_LIMIT}"],
            row[f"fused {budget}"],
            f"{fused:+.2f}",
            row[f"semantic {MODEL_LIMIT}"],
            row[f"semantic {budget}"],
            f"{sem:+.2f}",
        )
    labeled = labeled_quality(budget)
    lt = runner.Table(["system", "texts", *quality.CLASSES], digits=3)
    gaps: dict[str, tuple[float, str]] = {}
    for system in ("semantic", "fused"):
        for tokens in (MODEL_LIMIT, budget):
            lt.add(
                system,
                "whole" if tokens == MODEL_LIMIT else f"budget {budget}",
                *labeled[tokens][system].values(),
            )
        change = {
            c: labeled[budget][system][c] - labeled[MODEL_LIMIT][system][c] for c in quality.CLASSES
        }
        worst_class = max(change, key=lambda c: abs(change[c]))
        gaps[system] = (change[worst_class], worst_class)
    sizes = "the README samples" if devset_size is None else f"{devset_size} queries each"
    text = (
        f"Quality, whole texts (budget {MODEL_LIMIT}: only what the model cannot read is cut) "
        f"against the budget of {budget} word pieces. Development sets (`benchmarks."
        f"external_quality`'s run, {sizes}, seed 0, entry text `rich`, embedded with the "
        "sentence-transformers embedder as that benchmark does), nDCG@10 in percent:\n\n"
        + table.markdown()
        + f"\n\nLabeled queries (`benchmarks.quality`, {len(quality.load_queries())} queries over "
        "the example catalog, default embedder), nDCG@10 per class:\n\n" + lt.markdown()
    )
    checks = [
        verdict(
            worst >= -NDCG_LOSS_MAX,
            f"the budget costs at most {NDCG_LOSS_MAX} nDCG@10 point on every development set "
            f"(fused; worst change {worst:+.2f})",
        ),
    ]
    for system, label in (("fused", "fused answers"), ("semantic", "the semantic brain alone")):
        moved, where = gaps[system]
        checks.append(
            verdict(
                abs(moved) <= LABELED_CLASS_MAX,
                f"labeled queries, {label}: every class within {LABELED_CLASS_MAX} "
                f"(largest change {moved:+.3f}, {where})",
            )
        )
    return text, checks


# -- the report ---------------------------------------------------------------------------------


def verdict(ok: bool, text: str) -> str:
    return f"- {'PASS' if ok else 'FAIL'}: {text}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default=str(REPO.parent / "base"), help="the checkout before")
    parser.add_argument("--sample", type=int, default=2000, help="entries embedded per side")
    parser.add_argument("--chunk", type=int, default=50, help="entries per turn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--queries", type=int, default=300, help="single-query embeddings")
    parser.add_argument("--no-whole", action="store_true", help="skip the whole-texts side")
    parser.add_argument("--no-quality", action="store_true")
    parser.add_argument("--devset-size", type=int, help="queries per development set")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    base = Path(args.base).resolve()
    if not ARCHIVE.exists():
        raise SystemExit(f"the Swagger archive is not at {ARCHIVE}")
    if not (base / "lgent" / "__init__.py").exists():
        raise SystemExit(f"--base {base} is not a checkout of lgent")
    info = runner.machine_info()
    loads = [os.getloadavg()]
    budget = SemanticSettings().entry_tokens
    sides = [Side("before", base, None), Side(f"after (budget {budget})", REPO, None)]
    if not args.no_whole:
        sides.append(Side(f"after, whole texts (budget {MODEL_LIMIT})", REPO, MODEL_LIMIT))
    from lgent.brains.semantic.text import entry_text

    with tempfile.TemporaryDirectory(prefix="long-text-bench-") as tmp:
        work = Path(tmp)
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(work, filter="data")
        specs = work / "specs"
        entries = ecosystem_entries(specs)
        counts = piece_counts([entry_text(e) for e in entries])
        ids = [e.id for e in entries]
        sample = random.Random(args.seed).sample(ids, min(args.sample, len(ids)))
        queries = query_texts(args.queries)
        run_sides(sides, specs, sample, args.chunk, queries, work)
    loads.append(os.getloadavg())
    before, after = sides[0], sides[1]
    gain = after.rate / before.rate
    table = runner.Table(
        [
            "side",
            "entries/s",
            "x before",
            "CPU s per wall s",
            "CPU ms per entry",
            "texts cut",
            "query p50 ms",
            "query p99 ms",
        ],
        digits=2,
    )
    for side in sides:
        lat = sorted(side.latencies)
        table.add(
            side.label,
            side.rate,
            side.rate / before.rate,
            side.cpu / side.seconds,
            1000 * side.cpu / side.embedded,
            "-" if side is before else side.cut,
            runner.percentile(lat, 50),
            runner.percentile(lat, 99),
        )
    lat_before, lat_after = sorted(before.latencies), sorted(after.latencies)
    load_text = ", ".join(f"{a:.1f}/{b:.1f}/{c:.1f}" for a, b, c in loads)
    lines = [
        f"`python -m benchmarks.long_text_bench`: the {len(entries):,} entries of the 567 "
        "Swagger specs and 70 MCP servers of `../shared/ecosystem`, their texts made as the "
        "semantic brain makes them (`entry_text`, plain mode).",
        "",
        length_tables(counts),
        "",
        f"Build rate over {len(sample):,} of the entries (`random.Random({args.seed}).sample`), "
        "each side a fresh in-memory `SemanticBrain` per turn of "
        f"{args.chunk} entries embedding every text, the sides taking turns (order rotating); "
        f"*before* is the code of `{base.name}` ({commit_of(base)}), *after* this checkout "
        f"({commit_of(REPO)}). Query: {len(queries)} single texts (the labeled queries, then "
        "synthetic intents) embedded one at a time, in blocks of 25 taking turns. Load average "
        f"(1/5/15 min) at start and end: {load_text}.",
        "",
        table.markdown(),
    ]
    checks = [
        verdict(
            gain >= THROUGHPUT_GAIN,
            f"build rate {gain:.2f}x before's ({before.rate:.1f} -> {after.rate:.1f} entries/s; "
            f"target >= {THROUGHPUT_GAIN}x)",
        ),
        f"- CPU time per entry {1000 * before.cpu / before.embedded:.0f} -> "
        f"{1000 * after.cpu / after.embedded:.0f} ms ({before.cpu / after.cpu:.2f}x less work; "
        "less swayed than the rate by other work on the machine)",
        f"- one query embedding: p50 {runner.percentile(lat_before, 50):.2f} -> "
        f"{runner.percentile(lat_after, 50):.2f} ms, p99 {runner.percentile(lat_before, 99):.2f}"
        f" -> {runner.percentile(lat_after, 99):.2f} ms",
    ]
    if not args.no_quality:
        text, quality_checks = quality_section(budget, args.devset_size)
        lines += ["", text]
        checks += quality_checks
    lines += [
        "",
        f"Acceptance (issue 32, embedding long texts; default budget {budget}):",
        "",
        *checks,
    ]
    markdown = "\n".join(lines)
    if args.no_write:
        print(markdown)
    else:
        runner.write_results(SECTION, markdown, info=info)
    return 0


def commit_of(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown commit"


if __name__ == "__main__":
    sys.exit(main())
