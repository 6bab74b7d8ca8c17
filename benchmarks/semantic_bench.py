"""Semantic brain: embedding throughput, query latency at 100k entries, HNSW recall, baselines.

    python -m benchmarks.semantic_bench               # 100k entries (reuses .bench/fusion-100000)
    python -m benchmarks.semantic_bench --size 10000 --no-write

1. Throughput: ``SentenceTransformerEmbedder.embed_batch`` against raw sentence-transformers
   ``SentenceTransformer(path).encode`` on the same ~3,000 entry texts (PyPI summaries when the
   corpus is there, else synthetic), the systems alternating run by run.
2. The SemanticBrain of the fusion benchmark's home (``benchmarks.fusion_bench.build_home``: the
   synthetic catalog, seed 7), with the real model; its embedding cache is shared with that
   benchmark, so nothing already embedded there is embedded again. Query latency over ~500
   distinct intents, with the query embedding (query LRU off) and with it cached.
3. HNSW recall@10 against exact search (faiss ``IndexFlatIP``) over the brain's own vectors.
4. Beside them, on the same vectors and query vectors: numpy brute force, raw faiss
   ``IndexFlatIP`` and raw faiss ``IndexHNSWFlat`` with the brain's parameters.

Targets (issue 4): throughput within 10% of raw ``encode``; query p99 <= 25 ms with the query
embedding, <= 3 ms with it cached; recall@10 >= 0.95. Writes the ``Semantic brain`` section of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fusion_bench import build_home
from benchmarks.harness import pypi, runner, synthetic
from lgent import LGent
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import SentenceTransformerEmbedder
from lgent.brains.semantic.settings import SemanticSettings
from lgent.brains.semantic.text import entry_text
from lgent.config import Settings
from lgent.models import CatalogEntry

THROUGHPUT_TOLERANCE = 0.10
QUERY_P99_MS = 25.0
CACHED_P99_MS = 3.0
RECALL_TARGET = 0.95
K = 10


# -- 1. embedding throughput ---------------------------------------------------------------------


def throughput_texts(n: int) -> tuple[list[str], str]:
    """``n`` entry texts as the brain builds them (plain mode), and where they came from."""
    try:
        records, corpus = pypi.load_pypi(limit=n), "PyPI package names and summaries"
    except pypi.CorpusMissingError as err:
        print(f"{err}; using the synthetic catalog")
        records, corpus = synthetic.generate(n, seed=3)[0], "synthetic catalog entries"
    return [entry_text(CatalogEntry.parse(r)) for r in records], corpus


def measure_throughput(
    texts: list[str], rounds: int, batch_size: int
) -> tuple[str, dict[str, Any]]:
    from sentence_transformers import SentenceTransformer

    embedder = SentenceTransformerEmbedder(batch_size=batch_size)
    raw = SentenceTransformer(str(embedder.model_dir), device="cpu")
    systems: dict[str, Callable[[list[str]], Any]] = {
        "L-gent `embed_batch`": embedder.embed_batch,
        f"raw `encode` (batch {batch_size}, normalized)": lambda t: raw.encode(
            t,
            batch_size=batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=True,
        ),
        "raw `encode` (defaults: batch 32)": lambda t: raw.encode(t, show_progress_bar=False),
    }
    names = list(systems)
    for fn in systems.values():  # load the model, warm torch's kernels
        fn(texts[:64])
    ours = embedder.embed_batch(texts[:256])
    theirs = systems[names[1]](texts[:256])
    max_diff = float(np.max(np.abs(ours - theirs)))
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names if r % 2 == 0 else names[::-1]  # alternate, so drift hits both alike
        for name in order:
            with runner.Timer() as t:
                systems[name](texts)
            rates[name].append(len(texts) / t.seconds)
            print(f"round {r + 1}: {name}: {rates[name][-1]:.1f} texts/s")
    base = statistics.median(rates[names[1]])
    table = runner.Table(
        ["system", "runs", "median texts/s", "min", "max", "vs raw encode (same batch)"]
    )
    for name in names:
        med = statistics.median(rates[name])
        table.add(
            name, len(rates[name]), med, min(rates[name]), max(rates[name]), f"{med / base:.3f}x"
        )
    ratio = statistics.median(rates[names[0]]) / base
    paired = [a / b for a, b in zip(rates[names[0]], rates[names[1]], strict=True)]
    return table.markdown(), {
        "ratio": ratio,
        "paired": paired,
        "max_diff": max_diff,
        "load_s": embedder.load_seconds,
        "rate": statistics.median(rates[names[0]]),
    }


# -- 2. the brain at scale -----------------------------------------------------------------------


def intents(n: int, seed: int = 5) -> list[str]:
    """``n`` distinct natural-language intents over the synthetic catalog's vocabulary."""
    rng = random.Random(seed)
    s = synthetic
    verbs = [v.lower() for v in s.VERBS.values()]
    templates: list[Callable[[], str]] = [
        lambda: (
            f"something that {rng.choice(verbs)} {rng.choice(s.ADJECTIVES)} "
            f"{rng.choice(s.DOMAINS).lower()} {rng.choice(s.OBJECTS)}"
        ),
        lambda: (
            f"turn {rng.choice(s.DOMAINS).lower()} {rng.choice(s.OBJECTS)} into {rng.choice(s.OUTPUTS)}"
        ),
        lambda: (
            f"help {rng.choice(s.USE_CASES)} with {rng.choice(s.ADJECTIVES)} {rng.choice(s.OBJECTS)}"
        ),
        lambda: (
            f"{rng.choice(s.FEATURES)} for {rng.choice(s.DOMAINS).lower()} {rng.choice(s.OBJECTS)} "
            f"using {rng.choice(s.TECHNIQUES)}"
        ),
        lambda: (
            f"like a {rng.choice(s.ROLES).lower()} but for {rng.choice(s.DOMAINS).lower()} "
            f"{rng.choice(s.OBJECTS)}"
        ),
    ]
    out: dict[str, None] = {}
    while len(out) < n:
        out[templates[len(out) % len(templates)]()] = None
    return list(out)


def latency(fn: Callable[[Any], object], inputs: Sequence[Any]) -> runner.LatencyStats:
    return runner.time_calls(fn, inputs)


def semantic_brain(lg: LGent) -> SemanticBrain:
    """The open home's semantic brain, current with its catalog."""
    brain = lg.brain("semantic")
    assert isinstance(brain, SemanticBrain)
    return brain


async def measure_brain(
    home: Path, queries: list[str], warmups: list[str], rebuild: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    off = Settings(brains={"semantic": SemanticSettings(query_cache_size=0)})
    async with LGent.open(home, off) as lg:
        out["entries"] = lg.store.count()
        with runner.Timer() as t:
            brain = await asyncio.to_thread(semantic_brain, lg)
        out["open_s"], out["open_embedded"] = t.seconds, brain.counters.texts_embedded
        print(
            f"semantic brain ready in {t.seconds:.1f} s ({brain.counters.texts_embedded} texts embedded)"
        )
        if rebuild:
            before = brain.counters.texts_embedded
            with runner.Timer() as t:
                await lg.reindex(["semantic"])
            brain = semantic_brain(lg)
            out["rebuild_s"], out["rebuild_embedded"] = (
                t.seconds,
                brain.counters.texts_embedded - before,
            )
            print(f"rebuilt from the embedding cache in {t.seconds:.1f} s")
        out["status"] = brain.status()
        for q in warmups:
            brain.search(q)
        out["embed_only"] = latency(brain.query_vector, queries)
        out["search_uncached"] = latency(lambda q: brain.search(q, limit=K), queries)
        query_vectors = np.stack([brain.query_vector(q) for q in queries])
        out.update(vector_baselines(brain, queries, query_vectors))

    async with LGent.open(home, Settings()) as lg:
        brain = await asyncio.to_thread(semantic_brain, lg)
        for q in queries:  # fill the query LRU
            brain.search(q, limit=K)
        out["search_cached"] = runner.time_calls(
            lambda q: brain.search(q, limit=K), queries, repeat=3
        )
        out["cache_hits"] = brain.counters.query_cache_hits
    return out


# -- 3 and 4. recall and the vector baselines ----------------------------------------------------


def vector_baselines(brain: SemanticBrain, queries: list[str], qv: np.ndarray) -> dict[str, Any]:
    import faiss

    index = brain._vectors  # the brain's VectorIndex: its ids and stored vectors (public methods)
    with runner.Timer() as t:
        ids = index.ids()
        matrix = np.ascontiguousarray(np.stack([index.vector(i) for i in ids]), dtype=np.float32)
    print(f"read {len(ids)} vectors from the brain in {t.seconds:.1f} s")
    settings = brain.settings
    exact = faiss.IndexFlatIP(matrix.shape[1])
    exact.add(matrix)
    _, truth = exact.search(qv, K)
    truth_ids = [{ids[j] for j in row} for row in truth.tolist()]

    hits = [[h.id for h in brain.search(q, threshold=-1.0, limit=K)] for q in queries]
    recall = statistics.fmean(len(truth_ids[i] & set(h)) / K for i, h in enumerate(hits))

    hnsw = faiss.IndexHNSWFlat(matrix.shape[1], settings.hnsw_m, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = settings.ef_construction
    with runner.Timer() as t:
        hnsw.add(matrix)
    hnsw.hnsw.efSearch = settings.ef_search
    raw_build = t.seconds
    _, raw_found = hnsw.search(qv, K)
    raw_recall = statistics.fmean(
        len(truth_ids[i] & {ids[j] for j in row if j >= 0}) / K
        for i, row in enumerate(raw_found.tolist())
    )

    def numpy_top(q: np.ndarray) -> np.ndarray:
        scores = matrix @ q
        part = np.argpartition(-scores, K - 1)[:K]
        return part[np.argsort(-scores[part])]

    rows = [q.reshape(1, -1) for q in qv]
    return {
        "recall": recall,
        "raw_recall": raw_recall,
        "raw_build_s": raw_build,
        "kind": index.kind,
        "numpy": latency(numpy_top, list(qv)),
        "faiss_flat": latency(lambda q: exact.search(q, K), rows),
        "faiss_hnsw": latency(lambda q: hnsw.search(q, K), rows),
        "vector_index": latency(lambda q: index.search(q, K), list(qv)),
    }


# -- the report ----------------------------------------------------------------------------------


def verdict(ok: bool, text: str) -> str:
    return f"- {'PASS' if ok else 'FAIL'}: {text}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--size", type=int, default=100_000, help="catalog size (home of fusion_bench)"
    )
    parser.add_argument("--texts", type=int, default=3000, help="texts for the throughput runs")
    parser.add_argument("--rounds", type=int, default=3, help="throughput runs per system")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument(
        "--no-rebuild", action="store_true", help="skip the rebuild from the embedding cache"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    info = runner.machine_info()

    texts, corpus = throughput_texts(args.texts)
    batch = SemanticSettings().batch_size
    tp_table, tp = measure_throughput(texts, args.rounds, batch)

    home = build_home(args.size)
    all_intents = intents(args.queries + 20)
    brain = asyncio.run(
        measure_brain(home, all_intents[20:], all_intents[:20], not args.no_rebuild)
    )

    lat = runner.Table(
        ["operation", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "target (p99)"], digits=3
    )
    for label, key, target in (
        (
            "SemanticBrain.search, query embedding included (LRU off)",
            "search_uncached",
            f"<= {QUERY_P99_MS:g} ms",
        ),
        (
            "SemanticBrain.search, query embedding cached (LRU warm)",
            "search_cached",
            f"<= {CACHED_P99_MS:g} ms",
        ),
        ("query embedding alone (`query_vector`, LRU off)", "embed_only", "-"),
        (f"brain's vector index alone (faiss {brain['kind']} + id map)", "vector_index", "-"),
        ("raw faiss IndexHNSWFlat (same M / efSearch)", "faiss_hnsw", "-"),
        ("raw faiss IndexFlatIP (exact)", "faiss_flat", "-"),
        ("numpy brute force (matrix @ q, argpartition)", "numpy", "-"),
    ):
        s: runner.LatencyStats = brain[key]
        lat.add(label, s.n, s.p50, s.p95, s.p99, s.max, target)

    settings = SemanticSettings()
    n = brain["entries"]
    build_lines = [
        f"- opening the home's persisted index: {brain['open_s']:.1f} s "
        f"({brain['open_embedded']:,} texts embedded)",
    ]
    if "rebuild_s" in brain:
        build_lines.append(
            f"- full rebuild from the embedding cache (entry texts, cache read, HNSW construction, "
            f"save): {brain['rebuild_s']:.1f} s ({brain['rebuild_embedded']:,} texts embedded)"
        )
        build_lines.append(
            f"- a first build embeds every entry: about {n / tp['rate']:.0f} s at the measured "
            f"throughput ({tp['rate']:.0f} texts/s) plus the rebuild above"
        )
    build_lines.append(
        f"- raw faiss IndexHNSWFlat build over the same vectors: {brain['raw_build_s']:.1f} s"
    )
    ratio = tp["ratio"]
    p99, c99 = brain["search_uncached"].p99, brain["search_cached"].p99
    checks = [
        verdict(
            abs(1 - ratio) <= THROUGHPUT_TOLERANCE,
            f"embedding throughput {ratio:.3f}x raw `encode` at the same batch size "
            f"(paired runs: {', '.join(f'{p:.3f}' for p in tp['paired'])}; target within 10%)",
        ),
        verdict(
            p99 <= QUERY_P99_MS,
            f"query p99 with the query embedding {p99:.2f} ms (target <= {QUERY_P99_MS:g} ms)",
        ),
        verdict(
            c99 <= CACHED_P99_MS,
            f"query p99 with the embedding cached {c99:.2f} ms (target <= {CACHED_P99_MS:g} ms)",
        ),
        verdict(
            brain["recall"] >= RECALL_TARGET,
            f"HNSW recall@10 {brain['recall']:.4f} against exact search over {n:,} vectors, "
            f"{args.queries} queries (target >= {RECALL_TARGET}); raw faiss HNSW: {brain['raw_recall']:.4f}",
        ),
    ]
    text = (
        "### Embedding throughput\n\n"
        f"{len(texts):,} entry texts (plain mode) of {corpus}, all-MiniLM-L6-v2 on the CPU, "
        f"{args.rounds} runs per system alternating; vectors agree with raw `encode` to "
        f"{tp['max_diff']:.1e}. Model load: {tp['load_s']:.1f} s.\n\n" + tp_table + "\n\n"
        f"### Search at {n:,} entries\n\n"
        f"The synthetic catalog of `.bench/fusion-{args.size}` (seed 7; shared with the fusion "
        f"benchmark, embedding cache included); index `{brain['kind']}` (M {settings.hnsw_m}, "
        f"efConstruction {settings.ef_construction}, efSearch {settings.ef_search}); "
        f"{args.queries} distinct intents (e.g. `{all_intents[20]}`), top {K}, one thread. "
        "The baseline rows take the same query vectors, precomputed.\n\n"
        + lat.markdown()
        + "\n\nBuild:\n\n"
        + "\n".join(build_lines)
        + "\n\nAcceptance (issue 4, point 3):\n\n"
        + "\n".join(checks)
    )
    print(text)
    if not args.no_write:
        runner.write_results("Semantic brain", text, info=info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
