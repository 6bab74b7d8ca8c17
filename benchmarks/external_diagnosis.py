"""Why fusion loses on the development sets: fused nDCG@10 under one changed choice at a time.

    python -m benchmarks.external_diagnosis                        # every variant, every set
    python -m benchmarks.external_diagnosis --variants default,msm=0 --sizes toollens-train=500
    python -m benchmarks.external_diagnosis --labeled              # also the labeled queries

Each variant changes one setting (or the entry text) from the default; the table gives, per
set, fused nDCG@10 with its change against the default, the keyword brain as fusion asks it and
the semantic brain alone, and fused nDCG@10 per query type. ``--labeled`` adds the example
catalog's labeled queries (overall and per class, ``benchmarks/quality.py``). Prints only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections import defaultdict
from collections.abc import Sequence

from benchmarks import devsets
from benchmarks.external_quality import LGentRun, cached_embedder, lgent_rankings, parse_sizes
from benchmarks.ir_metrics import mean_scores
from benchmarks.variants import ATOMS, variant
from lgent.brains.semantic.embedders import SentenceTransformerEmbedder
from lgent.config import Settings

DEFAULT_VARIANTS = (
    "default",
    "entry=plain",
    "entry=rich",
    "msm=0",
    "msm=0.25",
    "keyword=fields",
    "semantic=weighted",
    "fusion=score",
    "depth=100",
    "threshold=-1",
    "msm=0+kw=0.6",
    "msm=0+depth=100",
    "msm=0+entry=rich",
)


def score_run(devset: devsets.DevSet, run: LGentRun) -> dict[str, float]:
    """fused / keyword-or / semantic nDCG@10, fused R@10 and C@10, and fused nDCG@10 per type."""
    judged = [q.relevant for q in devset.queries]
    out: dict[str, float] = {}
    for method, ranked in run.rankings.items():
        scores = mean_scores(ranked, judged)
        out[f"{method} ndcg"] = scores["ndcg@10"]
        if method == "fused":
            out["fused r@10"] = scores["recall@10"]
            out["fused c@10"] = scores["c@10"]
    by_type: dict[str, list[int]] = defaultdict(list)
    for i, kind in enumerate(run.types):
        by_type[kind].append(i)
    for kind, rows in by_type.items():
        ranked = [run.rankings["fused"][i] for i in rows]
        out[f"type {kind} ({len(rows)})"] = mean_scores(ranked, [judged[i] for i in rows])[
            "ndcg@10"
        ]
    out["keyword empty %"] = 100.0 * run.keyword_empty / max(len(devset.queries), 1)
    return out


def labeled(settings: Settings) -> dict[str, float]:
    """Fused nDCG@10 on the example catalog's labeled queries: overall and per class."""
    from benchmarks import quality

    queries = quality.load_queries()
    per = asyncio.run(quality.evaluate(settings, queries, ("fused",)))
    out: dict[str, float] = {}
    flat: list[float] = []
    for cls in quality.CLASSES:
        values = [x[0] for x in per["fused"][cls]]
        flat += values
        out[cls] = sum(values) / len(values)
    out["all"] = sum(flat) / len(flat)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sets", default=",".join(devsets.SETS))
    parser.add_argument("--sizes", default="", help="e.g. metatool-single=1000")
    parser.add_argument(
        "--variants",
        default=",".join(DEFAULT_VARIANTS),
        help="comma-separated; each NAME=VALUE atoms joined by +: "
        + "; ".join(f"{k}: {v}" for k, v in ATOMS.items()),
    )
    parser.add_argument("--labeled", action="store_true", help="also the labeled queries")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sizes = parse_sizes(args.sizes)
    names = [n for n in args.sets.split(",") if n]
    variants = [v for v in args.variants.split(",") if v]
    chosen = {v: variant(v) for v in variants}  # parse them all before the long run
    embedder = cached_embedder(SentenceTransformerEmbedder())
    sets = [devsets.load_set(n, size=sizes.get(n, -1)) for n in names]
    for devset in sets:
        embedder.prime([q.text for q in devset.queries])
    base: dict[str, dict[str, float]] = {}
    for name in variants:
        settings, entry_text = chosen[name]
        for devset in sets:
            run = asyncio.run(
                lgent_rankings(
                    devset,
                    embedder,
                    settings,
                    entry_text=entry_text,
                    methods=("keyword-or", "semantic", "fused"),
                )
            )
            got = score_run(devset, run)
            ref = (
                base.setdefault(devset.spec.name, got)
                if name == "default"
                else base.get(devset.spec.name, got)
            )
            delta = got["fused ndcg"] - ref["fused ndcg"]
            cells = "  ".join(f"{k} {v:.2f}" for k, v in got.items() if k != "fused ndcg")
            print(
                f"{name:22} {devset.spec.name:16} fused {got['fused ndcg']:.2f} ({delta:+.2f})  "
                f"{cells}",
                flush=True,
            )
        if args.labeled:
            lab = labeled(settings)
            print(
                f"{name:22} labeled          " + "  ".join(f"{k} {v:.3f}" for k, v in lab.items()),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
