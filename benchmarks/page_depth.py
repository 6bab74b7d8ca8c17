"""Does cutting pages from a query's first 100 results change its first 10?

    python -m benchmarks.page_depth [--home PATH]

The HTTP API, the MCP server, the CLI and the retrievers answer a page of a query from the
query asked for ``serving.PAGE_DEPTH`` results, so that the total does not change with the page
size. Fusion asks each brain for more hits the more results are wanted, which could reorder the
top; this compares nDCG@10 of the labeled queries asked for 10 results with the first 10 of the
same queries asked for ``PAGE_DEPTH``, per query class, and the time each takes (median, with
the response and query-embedding caches off).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import defaultdict
from pathlib import Path

from benchmarks.quality import K, load_queries, ndcg

Row = tuple[list[float], list[float], list[float], list[float]]


async def compare(home: Path) -> dict[str, Row]:
    from lgent import LGent
    from lgent.brains.semantic.settings import SemanticSettings
    from lgent.config import CacheSettings, Settings
    from lgent.serving import PAGE_DEPTH

    settings = Settings(
        cache=CacheSettings(size=0), brains={"semantic": SemanticSettings(query_cache_size=0)}
    )
    rows: dict[str, Row] = defaultdict(lambda: ([], [], [], []))
    async with LGent.open(home, settings) as lg:
        for q in load_queries():
            constraints = list(q.constraints) or None
            started = time.perf_counter()
            small = await lg.query(q.query, constraints, limit=K)
            middle = time.perf_counter()
            deep = await lg.query(q.query, constraints, limit=PAGE_DEPTH)
            done = time.perf_counter()
            for name in (q.cls, "all"):
                row = rows[name]
                row[0].append(ndcg([r.id for r in small.results], q.relevant))
                row[1].append(ndcg([r.id for r in deep.results][:K], q.relevant))
                row[2].append((middle - started) * 1000)
                row[3].append((done - middle) * 1000)
    return rows


def main(argv: list[str] | None = None) -> None:
    from benchmarks.serve_bench import build_home

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="a home holding the example catalog")
    args = parser.parse_args(argv)
    rows = asyncio.run(compare(args.home or build_home()))
    print("| class | n | nDCG@10, limit 10 | nDCG@10, first 10 of 100 | p50 ms, 10 | p50 ms, 100 |")
    print("|---|---|---|---|---|---|")
    for name, (small, deep, t_small, t_deep) in sorted(rows.items()):
        print(
            f"| {name} | {len(small)} | {statistics.mean(small):.4f} | {statistics.mean(deep):.4f} "
            f"| {statistics.median(t_small):.1f} | {statistics.median(t_deep):.1f} |"
        )


if __name__ == "__main__":
    main()
