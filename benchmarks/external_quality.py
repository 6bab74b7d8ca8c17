"""Retrieval quality on real tool catalogs: L-gent against the plain hybrid baseline.

    python -m benchmarks.external_quality                      # every set, README sample sizes
    python -m benchmarks.external_quality --sets toollens-train --sizes toollens-train=300
    python -m benchmarks.external_quality --write              # also update docs/quality.md

For each development set under ``../shared/quality/`` (read in place, ``benchmarks/devsets.py``)
one run measures, on the same sampled queries:

- the README's reference baselines (``benchmarks/baselines.py``): bm25s, MiniLM flat cosine and
  RRF of the two, each checked against the README's figures (they must agree within 0.5);
- L-gent with the tools loaded as catalog entries (``devsets.tool_entry``; the judgments never
  reach the catalog): each brain alone through ``LGent.search`` (the keyword brain leniently, so
  a stray quote is not a syntax error; its default operator is AND), the keyword brain asked
  the way fusion asks it for plain words (OR, a share of the words must match), and the fused
  ``LGent.query`` with default settings (a query it refuses counts as an empty answer).

Metrics (``benchmarks/ir_metrics.py``): nDCG@10, Recall@5, Recall@10 and C@10 (every relevant
tool in the top 10), in percent. Query embeddings are computed once per run and kept in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import baselines, devsets
from benchmarks.ir_metrics import METRICS, mean_scores
from lgent import LGent
from lgent.brains.semantic.embedders import (
    CutsToPieces,
    Embedder,
    KnowsWords,
    SentenceTransformerEmbedder,
    Vectors,
)
from lgent.brains.semantic.pooling import Pools, PoolsPieces
from lgent.config import Settings
from lgent.errors import LGentError

REPORT = Path(__file__).resolve().parents[1] / "docs" / "quality.md"
SECTION = "External tool catalogs (development sets)"
TOLERANCE = 0.5
"""How far (points) our baselines may be from the README's figures."""
TARGET_OVER_RRF = 3.0
LIMIT = 10

LGENT_METHODS = ("keyword", "keyword-or", "semantic", "graph", "fused")
VARIANT_METHODS = ("keyword-or", "semantic", "fused")
BASELINES = ("bm25", "minilm", "rrf")
LABELS = {
    "bm25": "bm25s (baseline)",
    "minilm": "MiniLM cosine (baseline)",
    "rrf": "RRF bm25s + MiniLM (baseline)",
    "keyword": "L-gent keyword brain",
    "keyword-or": "L-gent keyword brain, as fusion asks it",
    "semantic": "L-gent semantic brain",
    "graph": "L-gent graph brain",
    "fused": "**L-gent fused `query`**",
}


class CachedEmbedder:
    """The real embedder with every vector kept in memory for the run (same name, same vectors),
    so settings variants and repeated queries embed each text once. ``prime`` embeds in batches."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._vectors: dict[str, Vectors] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    def prime(self, texts: Sequence[str]) -> None:
        self.embed_batch(texts)

    def unknown_words(self, words: Sequence[str]) -> list[str]:
        """The inner embedder's (``KnowsWords``), so weak matches are judged as in the product."""
        if isinstance(self.inner, KnowsWords):
            return self.inner.unknown_words(words)
        return []

    def cut_to_pieces(self, texts: Sequence[str], pieces: int) -> list[str]:
        """The inner embedder's text budget (``CutsToPieces``); whole texts for one that
        counts no word pieces, as the brain gives them."""
        if not isinstance(self.inner, CutsToPieces):
            return list(texts)
        return self.inner.cut_to_pieces(texts, pieces)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            fresh = self.inner.embed_batch(missing)
            self._vectors.update(zip(missing, fresh, strict=True))
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.ascontiguousarray(np.stack([self._vectors[t] for t in texts]))


class CachedPoolingEmbedder(CachedEmbedder):
    """A ``CachedEmbedder`` of an embedder that pools word pieces (``PoolsPieces``), so the
    brain pools as it does with the real embedder; each text's pooled vectors kept per
    pooling."""

    def __init__(self, inner: Embedder) -> None:
        if not isinstance(inner, PoolsPieces):
            raise TypeError(f"{type(inner).__name__} does not pool word pieces")
        super().__init__(inner)
        self.pooler: PoolsPieces = inner
        self._pooled: dict[tuple[str, str], Vectors] = {}

    def embed_pooled(self, texts: Sequence[str], pools: Pools) -> list[Vectors]:
        """The inner embedder's ``embed_pooled``, each text's vectors kept per pooling."""
        tag = f"{pools.__module__}.{pools.__qualname__}"
        missing = [t for t in dict.fromkeys(texts) if (tag, t) not in self._pooled]
        if missing:
            fresh = self.pooler.embed_pooled(missing, pools)
            self._pooled.update(((tag, t), v) for t, v in zip(missing, fresh, strict=True))
        return [self._pooled[tag, t] for t in texts]


def cached_embedder(inner: Embedder) -> CachedEmbedder:
    """``inner`` with its vectors kept for the run, pooling as it does when it can."""
    return CachedPoolingEmbedder(inner) if isinstance(inner, PoolsPieces) else CachedEmbedder(inner)


@dataclass(slots=True)
class LGentRun:
    """L-gent's rankings per method (tool ids, as the set names them) and what fusion did."""

    rankings: dict[str, list[list[str]]]
    types: list[str] = field(default_factory=list)
    """The fused query type of each query, in order ("error" when ``query()`` refused it)."""
    classes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    keyword_empty: int = 0
    """Fused queries where the keyword brain ran and found nothing."""
    keyword_skipped: int = 0
    """Fused queries where the keyword brain did not run."""
    semantic_skipped: int = 0
    """Fused queries where the semantic brain did not run."""
    weak: int = 0
    """Fused answers with a weak-match warning (``lgent/fusion/weak.py``)."""
    weak_found: int = 0
    """... of them, those with a relevant tool in the top 10 all the same."""
    seconds: float = 0.0


async def lgent_rankings(
    devset: devsets.DevSet,
    embedder: Embedder,
    settings: Settings | None = None,
    *,
    entry_text: devsets.EntryText = "basic",
    methods: Sequence[str] = LGENT_METHODS,
) -> LGentRun:
    """Load the set's tools into an in-memory home and rank every query with each method."""
    from lgent.catalog.kind_inference import KindInference
    from lgent.fusion.ask import brain_query
    from lgent.fusion.classify import classify
    from lgent.fusion.constraints import extract_constraints

    inference = KindInference.default()
    entries = [devsets.tool_entry(t, entry_text, inference) for t in devset.tools]
    back = {devsets.entry_id(str(t["id"])): str(t["id"]) for t in devset.tools}
    run = LGentRun({m: [] for m in methods})
    started = time.perf_counter()
    async with LGent.open(None, settings or Settings(), embedder=embedder) as lg:
        await lg.register_many(entries)
        for name in ("keyword", "semantic", "graph"):
            await asyncio.to_thread(lg.brain, name)
        for q in devset.queries:
            for method in methods:
                ids: list[str] = []
                try:
                    if method == "fused":
                        response = await lg.query(q.text, limit=LIMIT)
                        ids = [r.id for r in response.results]
                        run.classes[response.query_type.value] += 1
                        run.types.append(response.query_type.value)
                        for brain in response.brains:
                            if brain.brain == "keyword":
                                run.keyword_skipped += not brain.ran
                                run.keyword_empty += brain.ran and brain.hits == 0
                            if brain.brain == "semantic":
                                run.semantic_skipped += not brain.ran
                        if any(w.startswith("weak match") for w in response.warnings):
                            run.weak += 1
                            relevant = {devsets.entry_id(str(t)) for t in q.relevant}
                            run.weak_found += bool(relevant & set(ids[:10]))
                    elif method == "keyword-or":
                        text, _ = extract_constraints(q.text)
                        kind = classify(text, lg.question_reader())
                        asked = brain_query(text, kind, LIMIT, None, lg.settings.fusion)
                        answer = lg.brain("keyword").answer(asked)
                        ids = [i for i, _ in answer.ranking]
                    else:
                        found = await lg.search(q.text, brain=method, limit=LIMIT, lenient=True)
                        ids = [h.id for h in found.hits]
                except LGentError as err:
                    if method == "fused":
                        run.errors[type(err).__name__] += 1
                        run.types.append("error")
                run.rankings[method].append([back.get(i, i) for i in ids])
    run.seconds = time.perf_counter() - started
    return run


@dataclass(slots=True)
class SetResult:
    devset: devsets.DevSet
    scores: dict[str, dict[str, float]]
    """Per method; a variant's methods are ``method [variant]``."""
    run: LGentRun
    baseline_seconds: float
    variants: dict[str, LGentRun] = field(default_factory=dict)

    def reference_gaps(self) -> dict[str, float]:
        """Our baseline minus the README's, per ``method metric`` (points)."""
        return {
            f"{method} {metric}": self.scores[method][metric] - ref[metric]
            for method, ref in self.devset.spec.reference.items()
            for metric in METRICS
        }

    @property
    def reproduces(self) -> bool | None:
        """Whether every baseline figure is within ``TOLERANCE`` of the README (None: the
        sample is not the README's, so there is nothing to compare)."""
        devset = self.devset
        expected = min(devset.spec.sample or devset.total_queries, devset.total_queries)
        if len(devset.queries) != expected or devset.digest_matches is False:
            return None
        return all(abs(gap) <= TOLERANCE for gap in self.reference_gaps().values())


def baseline_rankings(devset: devsets.DevSet, model: Any) -> dict[str, list[list[str]]]:
    ids = [str(t["id"]) for t in devset.tools]
    texts = [devsets.baseline_text(t, devset.spec.baseline_text) for t in devset.tools]
    queries = [q.text for q in devset.queries]
    bm25 = baselines.bm25_rankings(ids, texts, queries)
    dense = baselines.cosine_rankings(
        ids, baselines.encode(model, texts), baselines.encode(model, queries)
    )
    fused = [baselines.rrf([a, b]) for a, b in zip(bm25, dense, strict=True)]
    return {"bm25": bm25, "minilm": dense, "rrf": fused}


def evaluate_set(
    devset: devsets.DevSet,
    model: Any,
    embedder: CachedEmbedder,
    settings: Settings | None = None,
    entry_text: devsets.EntryText = "basic",
    also: Sequence[str] = (),
) -> SetResult:
    """Baselines and L-gent (default settings, every method) on ``devset``; then, for each
    variant of ``also`` (``benchmarks/variants.py``), the keyword brain as fusion asks it, the
    semantic brain and the fused query under that variant."""
    from benchmarks.variants import variant

    judged = [q.relevant for q in devset.queries]
    started = time.perf_counter()
    rankings = baseline_rankings(devset, model)
    baseline_seconds = time.perf_counter() - started
    embedder.prime([q.text for q in devset.queries])
    run = asyncio.run(lgent_rankings(devset, embedder, settings, entry_text=entry_text))
    rankings.update(run.rankings)
    runs: dict[str, LGentRun] = {}
    for name in also:
        changed, text = variant(name, entry_text)
        runs[name] = asyncio.run(
            lgent_rankings(devset, embedder, changed, entry_text=text, methods=VARIANT_METHODS)
        )
        rankings.update({f"{m} [{name}]": r for m, r in runs[name].rankings.items()})
    scores = {method: mean_scores(r, judged) for method, r in rankings.items()}
    return SetResult(devset, scores, run, baseline_seconds, runs)


# -- reporting ----------------------------------------------------------------------------------


def set_table(result: SetResult) -> str:
    spec = result.devset.spec
    header = "| method | nDCG@10 | Recall@5 | Recall@10 | C@10 |"
    lines = [header, "|---|---:|---:|---:|---:|"]
    rows = [(m, LABELS[m]) for m in (*BASELINES, *LGENT_METHODS) if m in result.scores]
    for name in result.variants:
        rows += [(f"{m} [{name}]", f"{LABELS[m]} `[{_short(name)}]`") for m in VARIANT_METHODS]
    for method, label in rows:
        row = result.scores[method]
        ref = spec.reference.get(method)
        cells = [f"{row[m]:.2f}" + (f" ({ref[m]:.2f})" if ref is not None else "") for m in METRICS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _short(name: str) -> str:
    return name


def _targets(result: SetResult, suffix: str = "") -> str:
    """How the fused nDCG@10 (of the default, or of a variant with ``suffix``) compares with
    the RRF baseline (target +3) and the best single brain measured the same way."""
    scores = result.scores
    fused = scores["fused" + suffix]["ndcg@10"]
    candidates = (
        ("keyword", "keyword-or", "semantic", "graph") if not suffix else VARIANT_METHODS[:2]
    )
    brains = {m: scores[m + suffix]["ndcg@10"] for m in candidates}
    best = max(brains, key=lambda m: brains[m])
    rrf = scores["rrf"]["ndcg@10"]
    met = "met" if fused - rrf >= TARGET_OVER_RRF else "not met"
    return (
        f"fused nDCG@10 {fused:.2f}: {fused - rrf:+.2f} against RRF (target "
        f"+{TARGET_OVER_RRF:.0f}: {met}), {fused - brains[best]:+.2f} against the best single "
        f"brain ({best})"
    )


def set_summary(result: SetResult) -> str:
    devset, run = result.devset, result.run
    n = len(devset.queries)
    digest = devset.digest[:8]
    match = devset.digest_matches
    drawn = (
        f" (random.Random({devset.seed}).sample; qid sha1 {digest}…"
        + (", as the README's" if match else ", not the README's" if match is False else "")
        + ")"
        if n < devset.total_queries
        else ""
    )
    sample = f"{n} of {devset.total_queries} queries{drawn}, {len(devset.tools)} tools"
    gaps = result.reference_gaps()
    worst = max(gaps, key=lambda k: abs(gaps[k]))
    reproduces = result.reproduces
    check = (
        "not comparable (not the README's sample)"
        if reproduces is None
        else (
            f"{'yes' if reproduces else '**NO**'}: every figure within {TOLERANCE} "
            f"(largest gap {gaps[worst]:+.2f}, {worst})"
            if reproduces
            else f"**NO**: {worst} is {gaps[worst]:+.2f} off"
        )
    )
    variants = "".join(
        f" With `[{_short(name)}]`: {_targets(result, f' [{name}]')}; query types "
        + ", ".join(f"{k} {v}" for k, v in vrun.classes.most_common())
        + f"; refused {sum(vrun.errors.values())}."
        for name, vrun in result.variants.items()
    )
    classes = ", ".join(f"{k} {v}" for k, v in run.classes.most_common())
    errors = ", ".join(f"{k} {v}" for k, v in run.errors.most_common()) or "none"
    return (
        f"{sample}. Baselines reproduce the README (in brackets): {check}.\n"
        f"Default settings: {_targets(result)}. "
        f"Query types: {classes}. Refused by `query()`: {errors}. "
        f"The keyword brain found nothing in {run.keyword_empty} of {n} fused queries "
        f"and did not run in {run.keyword_skipped}; the semantic brain did not run in "
        f"{run.semantic_skipped}. A weak-match warning came with {run.weak} fused answers "
        f"({run.weak_found} of them had a relevant tool in the top 10 all the same). "
        f"L-gent {run.seconds:.0f} s, baselines "
        f"{result.baseline_seconds:.0f} s.{variants}"
    )


def report(results: Sequence[SetResult], entry_text: str) -> str:
    parts = [
        "Measured by `python -m benchmarks.external_quality`: the development sets of "
        "`../shared/quality/` (read in place), the README's reference baselines and L-gent in "
        "one run, on the same queries. Figures are percentages; a baseline's README figure "
        "is in brackets. Tools become catalog entries with their name, description and "
        f"(as keywords) category, parameter and output names (entry text `{entry_text}`); "
        'the judgments never reach the catalog. *keyword* is `LGent.search(brain="keyword", '
        "lenient=True)` (AND of the words); *as fusion asks it* is the OR query with "
        "`fusion.free_text_min_match` that `query()` sends for plain words. Rows marked "
        "`[variant]` ran with those changes (`benchmarks/variants.py`). Entry text `rich` also "
        "writes the parameters and outputs into the description as the importers do for MCP, "
        "OpenAPI and OpenAI tools; `basic` keeps them as keywords only. L-gent embeds with the "
        "sentence-transformers embedder here, the baselines' model, so both read the same "
        "vectors (the default ONNX int8 embedder's fidelity: docs/benchmarks.md).",
    ]
    for result in results:
        parts.append(
            f"### {result.devset.spec.name}\n\n{set_summary(result)}\n\n{set_table(result)}"
        )
    return "\n\n".join(parts)


def write_section(markdown: str, info: Mapping[str, Any]) -> None:
    from benchmarks.harness.runner import write_results

    write_results(SECTION, markdown, path=REPORT, info=dict(info), header=None)


# -- the command line -----------------------------------------------------------------------------


def parse_sizes(text: str) -> dict[str, int | None]:
    """``set=N,set=all`` -> sizes; raises SystemExit naming a bad part."""
    sizes: dict[str, int | None] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name not in devsets.SETS or not value:
            raise SystemExit(f"--sizes: expected SET=N with SET in {', '.join(devsets.SETS)}")
        if value == "all":
            sizes[name] = None
        elif value.isdigit() and int(value) > 0:
            sizes[name] = int(value)
        else:
            raise SystemExit(f"--sizes: {part!r}: N must be a positive integer or 'all'")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sets", default=",".join(devsets.SETS), help="comma-separated sets (default: all)"
    )
    parser.add_argument(
        "--sizes", default="", help="sample sizes, e.g. metatool-single=500,toollens-train=all"
    )
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (README: 0)")
    parser.add_argument(
        "--entry-text",
        choices=("plain", "basic", "rich"),
        default="rich",
        help="rich (default): parameters and outputs also go into the entry description, as "
        "the importers write them; basic: only as keywords",
    )
    parser.add_argument(
        "--also",
        action="append",
        default=None,
        help="a variant to measure besides the defaults (benchmarks/variants.py; repeatable)",
    )
    parser.add_argument("--write", action="store_true", help="update docs/quality.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in devsets.SETS]
    if unknown:
        raise SystemExit(f"unknown set(s) {unknown}; known: {', '.join(devsets.SETS)}")
    if not devsets.available():
        raise SystemExit(f"the development sets are not at {devsets.shared_root() / 'quality'}")
    sizes = parse_sizes(args.sizes)
    from benchmarks.variants import variant

    also = [v for v in (args.also or []) if v != "none"]
    for name in also:
        variant(name)  # a bad variant stops here, before the long run
    from benchmarks.harness.runner import machine_info

    info = machine_info()
    model = baselines.load_minilm()
    embedder = cached_embedder(SentenceTransformerEmbedder())
    results = []
    for name in names:
        devset = devsets.load_set(name, size=sizes.get(name, -1), seed=args.seed)
        result = evaluate_set(devset, model, embedder, entry_text=args.entry_text, also=also)
        print(f"\n## {name}\n{set_summary(result)}\n\n{set_table(result)}", flush=True)
        results.append(result)
    if args.write:
        write_section(report(results, args.entry_text), info)
    failed = [r.devset.spec.name for r in results if r.reproduces is False]
    if failed:
        print(f"baselines do not reproduce the README on: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
