"""Retrieval quality on the labeled queries: nDCG@10 and Recall@10 per class, per brain and fused.

    .venv/bin/python -m benchmarks.quality                  # print the table, update docs/quality.md
    .venv/bin/python -m benchmarks.quality --failures 5     # also show the worst queries per class
    .venv/bin/python -m benchmarks.quality --compare        # also measure the alternatives

Single brains are measured on their own ranking (with the query's constraints applied as the
same post-filter); "fused" is ``LGent.query``. The labeled set is a yardstick, not a target:
never edit a judgment to lift a score (catalog_fixtures/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks import variants
from lgent import LGent
from lgent.config import Settings
from lgent.fusion.constraints import extract_constraints, parse_constraints

REPO = Path(__file__).resolve().parent.parent
CATALOG = REPO / "catalog_fixtures"
QUERIES = CATALOG / "queries" / "labeled_queries.jsonl"
REPORT = REPO / "docs" / "quality.md"
CLASSES = (
    "exact_name",
    "keyword_syntax",
    "semantic_intent",
    "type_compat",
    "relationship",
    "composition",
)
K = 10


@dataclass(frozen=True)
class Labeled:
    qid: str
    cls: str
    query: str
    relevant: dict[str, int]
    constraints: tuple[str, ...]


def load_queries(path: Path = QUERIES) -> list[Labeled]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out.append(
                Labeled(
                    d["qid"], d["class"], d["query"], d["relevant"], tuple(d.get("constraints", ()))
                )
            )
    return out


def ndcg(ranked: Sequence[str], relevant: dict[str, int], k: int = K) -> float:
    """Normalized DCG with gains 2^grade - 1 and log2(rank + 1) discounts."""
    dcg = sum(
        (2 ** relevant.get(doc, 0) - 1) / math.log2(i + 2) for i, doc in enumerate(ranked[:k])
    )
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall(ranked: Sequence[str], relevant: dict[str, int], k: int = K) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


async def rankings(lg: LGent, q: Labeled, systems: Sequence[str]) -> dict[str, list[str]]:
    """Top-10 ids of each system for one query."""
    from lgent.errors import LGentError
    from lgent.fusion.ask import brain_query
    from lgent.fusion.classify import classify

    text, in_text = extract_constraints(q.query)
    constraints = parse_constraints(list(q.constraints)) + in_text
    out: dict[str, list[str]] = {}

    async def keep(ids: list[str]) -> list[str]:
        if not constraints:
            return ids[:K]
        entries = await asyncio.to_thread(lg.store.get_many, ids)
        return [i for i in ids if i in entries and all(c.admits(entries[i]) for c in constraints)][
            :K
        ]

    fetch = 50
    for system in systems:
        try:
            kind = await asyncio.to_thread(lambda: classify(text, lg.question_reader()))
            if system == "fused":
                response = await lg.query(q.query, constraints=list(q.constraints) or None, limit=K)
                out[system] = [r.id for r in response.results]
            else:
                brain = await asyncio.to_thread(lg.brain, system)
                asked = brain_query(text, kind, fetch, None, lg.settings.fusion)
                answer = await asyncio.to_thread(brain.answer, asked)
                out[system] = await keep([i for i, _ in answer.ranking])
        except LGentError:
            out[system] = []
    return out


async def evaluate(
    settings: Settings, queries: list[Labeled], systems: Sequence[str]
) -> dict[str, Any]:
    async with LGent.open(None, settings) as lg:
        await lg.load(CATALOG)
        for name in lg.registry.names:
            await asyncio.to_thread(lg.brain, name)
        per: dict[str, dict[str, list[tuple[float, float, Labeled, list[str]]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for q in queries:
            ranked = await rankings(lg, q, systems)
            for system, ids in ranked.items():
                per[system][q.cls].append((ndcg(ids, q.relevant), recall(ids, q.relevant), q, ids))
    return per


def table(per: dict[str, Any], systems: Sequence[str]) -> str:
    header = "| class | n | " + " | ".join(f"{s} nDCG@10" for s in systems) + " | fused Recall@10 |"
    lines = [header, "|" + "---|" * (len(systems) + 3)]
    totals: dict[str, list[float]] = defaultdict(list)
    recalls: list[float] = []
    for cls in CLASSES:
        cells = []
        n = len(per[systems[0]][cls])
        for s in systems:
            scores = [x[0] for x in per[s][cls]]
            totals[s] += scores
            cells.append(f"{sum(scores) / len(scores):.3f}" if scores else "-")
        rec = [x[1] for x in per["fused"][cls]] if "fused" in per else []
        recalls += rec
        lines.append(
            f"| {cls} | {n} | " + " | ".join(cells) + f" | {sum(rec) / len(rec):.3f} |"
            if rec
            else " | - |"
        )
    n_all = len(totals[systems[0]])
    cells = [f"**{sum(v) / len(v):.3f}**" for v in (totals[s] for s in systems)]
    lines.append(
        f"| **all** | {n_all} | "
        + " | ".join(cells)
        + f" | **{sum(recalls) / len(recalls):.3f}** |"
    )
    return "\n".join(lines)


def failures(per: dict[str, Any], system: str, count: int) -> str:
    out = []
    for cls in CLASSES:
        worst = sorted(per[system][cls], key=lambda x: x[0])[:count]
        for score, _, q, ids in worst:
            if score >= 0.999:
                continue
            want = sorted(q.relevant.items(), key=lambda kv: -kv[1])
            out.append(f"{q.qid} [{score:.2f}] {q.query!r}\n    want {want}\n    got  {ids[:10]}")
    return "\n".join(out)


COMPARED = (
    "default",
    "fusion=rrf",
    "msm=0.5",
    "kw=0.5+sem=0.5",
    "keyword=fields",
    "semantic=weighted",
    "cover=0.5",
    "clauses=1",
    "long=0",
    "feedback=0",
    "long=0+kw=0.3+sem=0.7+depth=30",
)
"""The alternatives ``--compare`` measures beside the defaults (each one change or two)."""


def settings_variant(name: str) -> Settings:
    """The default settings with a variant's changes (``benchmarks/variants.py``)."""
    return variants.variant(name)[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--failures", type=int, default=0, help="show the N worst fused queries per class"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also measure the alternatives in COMPARED (rank fusion, other weights...)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="with --compare, also a settings variant of benchmarks/variants.py (repeatable)",
    )
    parser.add_argument("--no-write", action="store_true", help="do not update docs/quality.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    queries = load_queries()
    systems = ("keyword", "semantic", "graph", "fused")
    started = time.perf_counter()
    per = asyncio.run(evaluate(settings_variant("default"), queries, systems))
    main_table = table(per, systems)
    print(main_table)
    if args.failures:
        print(failures(per, "fused", args.failures))
    sections = [main_table]
    if args.compare:
        rows = [
            "| variant | " + " | ".join(CLASSES) + " | all |",
            "|" + "---|" * (len(CLASSES) + 2),
        ]
        overall: dict[str, float] = {}
        for variant in (*COMPARED, *args.variant):
            result = (
                per
                if variant == "default"
                else asyncio.run(evaluate(settings_variant(variant), queries, ("fused",)))
            )
            scores = [[x[0] for x in result["fused"][c]] for c in CLASSES]
            flat = [s for group in scores for s in group]
            overall[variant] = sum(flat) / len(flat)
            rows.append(
                f"| {variant} | "
                + " | ".join(f"{sum(g) / len(g):.3f}" for g in scores)
                + f" | {overall[variant]:.3f} |"
            )
        best = max(overall, key=lambda v: overall[v])
        rows.append(
            "\nBest overall on the labeled queries: "
            + (
                f"the default ({overall['default']:.3f})."
                if overall[best] <= overall["default"]
                else f"{best} ({overall[best]:.3f} against the default's "
                f"{overall['default']:.3f}). The defaults are chosen on these queries and on "
                "the development sets together (External tool catalogs, below): a variant that "
                "wins here may lose there."
            )
        )
        compare = "\n".join(rows)
        print(compare)
        sections.append(
            "Fused nDCG@10 of alternatives (each changes one setting from the default):\n\n"
            + compare
        )
    seconds = time.perf_counter() - started
    if not args.no_write:
        write_report(sections, len(queries), seconds)
    return 0


def write_report(sections: Sequence[str], n: int, seconds: float) -> None:
    from benchmarks.harness.runner import machine_line

    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    body = "\n\n".join(sections)
    # the ``## `` sections other benchmarks write (benchmarks/external_quality.py) stay as they are
    current = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
    start = current.find("\n## ")
    others = "\n" + current[start + 1 :] if start >= 0 else ""
    REPORT.write_text(
        "# Retrieval quality\n\n"
        f"Measured by `python -m benchmarks.quality` on {stamp}, {machine_line()}; {n} labeled queries "
        f"over the example catalog (`catalog_fixtures/`), {seconds:.0f} s.\n\n"
        "nDCG@10 uses gains 2^grade - 1 over the graded judgments (0-3); single brains are their own\n"
        "rankings with the query's constraints as a post-filter; *fused* is `LGent.query`.\n\n"
        f"{body}\n{others}",
        encoding="utf-8",
    )


if __name__ == "__main__":
    sys.exit(main())
