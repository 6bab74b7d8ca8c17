"""Queries in other languages over real MCP servers: fused against each brain alone.

    python -m benchmarks.multilingual                   # the default embedder
    python -m benchmarks.multilingual --embedder multilingual
    python -m benchmarks.multilingual --write           # also update docs/quality.md

The tools of the shared MCP servers (``../shared/ecosystem/mcp-tools-list``, read in place: many
describe their tools in Chinese) are loaded into an in-memory home, and each query of
``benchmarks/data/multilingual_mcp.jsonl`` (Chinese, Japanese, German and Spanish, written and
judged by hand before any rule was tuned on them; the judgments never reach the catalog) is
ranked by the keyword brain alone (``LGent.search``), the keyword brain as fusion asks it, the
semantic brain alone and the fused ``LGent.query``. Metrics: nDCG@10, Recall@5 and MRR@10 in
percent, per language and overall.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks import devsets
from benchmarks.ir_metrics import mean_scores

QUERIES = Path(__file__).resolve().parent / "data" / "multilingual_mcp.jsonl"
REPORT = Path(__file__).resolve().parents[1] / "docs" / "quality.md"
SECTION = "Other languages (MCP servers)"
METHODS = ("keyword", "keyword-or", "semantic", "fused")
LABELS = {
    "keyword": "keyword brain (`LGent.search`)",
    "keyword-or": "keyword brain, as fusion asks it",
    "semantic": "semantic brain",
    "fused": "**fused `query`**",
}
SHOWN = ("ndcg@10", "recall@5", "mrr@10")
LIMIT = 10


@dataclass(frozen=True, slots=True)
class Judged:
    qid: str
    lang: str
    text: str
    relevant: frozenset[str]


def load_queries(path: Path = QUERIES) -> list[Judged]:
    """The judged queries, in file order."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found.append(Judged(row["qid"], row["lang"], row["text"], frozenset(row["relevant"])))
    return found


def servers() -> Path:
    """The shared MCP servers' folder (``$LGENT_SHARED`` or the usual places)."""
    return devsets.shared_root() / "ecosystem" / "mcp-tools-list"


async def rankings(queries: Sequence[Judged], embedder: str = "onnx") -> dict[str, list[list[str]]]:
    """Each method's ranking (ids) of every query, over the shared MCP servers."""
    from lgent import LGent
    from lgent.config import Settings
    from lgent.fusion.ask import brain_query
    from lgent.fusion.classify import classify

    settings = Settings.of({"semantic": {"embedder": embedder}})
    found: dict[str, list[list[str]]] = {m: [] for m in METHODS}
    async with LGent.open(None, settings) as lg:
        await lg.load(servers())
        for q in queries:
            response = await lg.query(q.text, limit=LIMIT)
            found["fused"].append([r.id for r in response.results])
            direct = await lg.search(q.text, brain="keyword", limit=LIMIT, lenient=True)
            found["keyword"].append([h.id for h in direct.hits])
            kind = classify(q.text, lg.question_reader())
            asked = brain_query(q.text, kind, LIMIT, None, lg.settings.fusion)
            answer = lg.brain("keyword").answer(asked)
            found["keyword-or"].append([i for i, _ in answer.ranking][:LIMIT])
            meaning = await lg.search(q.text, brain="semantic", limit=LIMIT)
            found["semantic"].append([h.id for h in meaning.hits])
    return found


def table(queries: Sequence[Judged], ranked: Mapping[str, list[list[str]]]) -> str:
    """nDCG@10, Recall@5 and MRR@10 per method, overall and per language."""
    langs = sorted({q.lang for q in queries})
    header = "| method | " + " | ".join(
        [*(f"{m} (all {len(queries)})" for m in SHOWN), *(f"nDCG@10 {lang}" for lang in langs)]
    )
    lines = [header + " |", "|---" + "|---:" * (len(SHOWN) + len(langs)) + "|"]
    for method in METHODS:
        rows = ranked[method]
        overall = mean_scores(rows, [q.relevant for q in queries])
        cells = [f"{overall[m]:.1f}" for m in SHOWN]
        for lang in langs:
            picked = [i for i, q in enumerate(queries) if q.lang == lang]
            part = mean_scores([rows[i] for i in picked], [queries[i].relevant for i in picked])
            cells.append(f"{part['ndcg@10']:.1f}")
        lines.append(f"| {LABELS[method]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scores(queries: Sequence[Judged], ranked: Mapping[str, list[list[str]]]) -> dict[str, float]:
    """Each method's nDCG@10 over every query, in percent."""
    judged = [q.relevant for q in queries]
    return {m: mean_scores(ranked[m], judged)["ndcg@10"] for m in METHODS}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--embedder",
        action="append",
        default=None,
        help="semantic.embedder to measure (repeatable; default: onnx)",
    )
    parser.add_argument("--write", action="store_true", help="update docs/quality.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not servers().is_dir():
        raise SystemExit(f"the shared MCP servers are not at {servers()}")
    queries = load_queries()
    parts = []
    for embedder in args.embedder or ["onnx"]:
        ranked = asyncio.run(rankings(queries, embedder))
        part = f"Embedder `{embedder}`:\n\n{table(queries, ranked)}"
        print(f"\n{part}", flush=True)
        parts.append(part)
    if args.write:
        from benchmarks.harness.runner import machine_info, write_results

        intro = (
            "Measured by `python -m benchmarks.multilingual`: "
            f"{len(queries)} queries in Chinese, Japanese, German and Spanish "
            "(`benchmarks/data/multilingual_mcp.jsonl`, judged by hand before any rule was "
            "tuned on them) over the 70 shared MCP servers (527 tools, many described in "
            "Chinese). Percentages."
        )
        write_results(
            SECTION, "\n\n".join([intro, *parts]), path=REPORT, info=machine_info(), header=None
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
