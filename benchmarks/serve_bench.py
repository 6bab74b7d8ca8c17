"""Warm query latency over MCP (stdio) and HTTP on the example catalog, from a second process.

    python -m benchmarks.serve_bench                # 1,000 timed calls per row
    python -m benchmarks.serve_bench --calls 200 --no-write

This process is the client: it starts ``lgent serve --mcp`` / ``lgent serve --http`` as
subprocesses on a home holding the example catalog (``.bench/serve-example``, built once), waits
until the server has answered (model and indexes loaded), makes warm-up calls, then times
``--calls`` sequential calls over one connection (an MCP stdio session with the SDK's
``ClientSession``; one keep-alive ``httpx.Client``). The query mix is the example catalog's 205
labeled queries (names, intents, type questions, relationships, composition, keyword syntax),
shuffled and cycled. Each row runs twice: with the response cache off (every call runs the fused
query, query embedding included) and on (repeated queries, what a busy agent mostly sends).
The same queries through the library in this process give the baseline the transports add to.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness import runner

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "catalog_fixtures"
HOME = REPO / ".bench" / "serve-example"
UNCACHED_TOML = "[cache]\nsize = 0\n\n[semantic]\nquery_cache_size = 0\n"
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
ARTIFACT = "FinancialPDFAnalyzer"


@dataclass(frozen=True)
class Row:
    transport: str
    operation: str
    cache: str
    stats: runner.LatencyStats


def build_home() -> Path:
    """The example catalog loaded and every brain built (reused by later runs)."""
    marker = HOME / "loaded"
    if not marker.exists():
        from lgent import LGent

        shutil.rmtree(HOME, ignore_errors=True)

        async def load() -> None:
            async with LGent.open(HOME) as lg:
                await lg.load(FIXTURES)
                await lg.reindex()

        asyncio.run(load())
        marker.write_text("ok")
    return HOME


def set_cache(home: Path, *, on: bool) -> None:
    settings = home / "lgent.toml"
    if on:
        settings.unlink(missing_ok=True)
    else:
        settings.write_text(UNCACHED_TOML)


def query_mix(calls: int) -> tuple[list[str], list[str]]:
    """The labeled queries (shuffled), and ``calls`` of them cycled."""
    lines = (FIXTURES / "queries" / "labeled_queries.jsonl").read_text().splitlines()
    distinct = [json.loads(line)["query"] for line in lines if line.strip()]
    random.Random(3).shuffle(distinct)
    return distinct, [distinct[i % len(distinct)] for i in range(calls)]


async def timed(
    call: Callable[[str], Awaitable[Any]], inputs: Sequence[str]
) -> runner.LatencyStats:
    clock = time.perf_counter_ns
    samples = []
    for item in inputs:
        start = clock()
        await call(item)
        samples.append(clock() - start)
    return runner.LatencyStats.of(samples)


def server_command(home: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", *flags]


# -- MCP -----------------------------------------------------------------------------------------


async def bench_mcp(
    home: Path, distinct: list[str], mix: list[str], cache: str
) -> tuple[list[Row], float]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    command, *args = server_command(home, "--mcp")
    params = StdioServerParameters(command=command, args=args, env=ENV)
    rows: list[Row] = []
    started = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()

            async def search(query: str) -> None:
                result = await session.call_tool("search", {"query": query, "limit": 10})
                if result.is_error:
                    raise RuntimeError(f"{query!r}: {result.content}")

            async def get(_: str) -> None:
                result = await session.call_tool("get_artifact", {"id": ARTIFACT})
                if result.is_error:
                    raise RuntimeError(str(result.content))

            await search(distinct[0])
            first_answer = time.perf_counter() - started
            for query in distinct:  # warm-up (and, with the cache on, fill it)
                await search(query)
            rows.append(Row("MCP (stdio)", "search", cache, await timed(search, mix)))
            if cache == "off":
                rows.append(Row("MCP (stdio)", "get_artifact", "-", await timed(get, mix)))
    return rows, first_answer


# -- HTTP ----------------------------------------------------------------------------------------

_LISTENING = re.compile(r"Uvicorn running on (http://\S+)")


@contextmanager
def http_server(home: Path, log: Path) -> Iterator[str]:
    with log.open("w") as errors:
        process = subprocess.Popen(
            server_command(home, "--http", "--port", "0"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env={**os.environ, **ENV},
        )
    try:
        while not (match := _LISTENING.search(log.read_text())):
            if process.poll() is not None:
                raise RuntimeError(f"the HTTP server did not start:\n{log.read_text()}")
            time.sleep(0.02)
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=30)


async def bench_http(
    home: Path, distinct: list[str], mix: list[str], cache: str
) -> tuple[list[Row], float]:
    import httpx

    rows: list[Row] = []
    started = time.perf_counter()
    with (
        http_server(home, home / "http-bench.log") as url,
        httpx.Client(base_url=url, timeout=120) as client,
    ):

        async def search(query: str) -> None:
            response = client.post("/query", json={"query": query, "limit": 10, "lenient": True})
            response.raise_for_status()
            response.json()

        async def get(_: str) -> None:
            response = client.get(f"/artifacts/{ARTIFACT}")
            response.raise_for_status()
            response.json()

        await search(distinct[0])
        first_answer = time.perf_counter() - started
        for query in distinct:
            await search(query)
        rows.append(Row("HTTP (FastAPI + uvicorn)", "POST /query", cache, await timed(search, mix)))
        if cache == "off":
            rows.append(
                Row("HTTP (FastAPI + uvicorn)", "GET /artifacts/{id}", "-", await timed(get, mix))
            )
    return rows, first_answer


# -- the library in this process -----------------------------------------------------------------


async def bench_library(home: Path, distinct: list[str], mix: list[str], cache: str) -> list[Row]:
    from lgent import LGent

    async with LGent.open(home) as lg:

        async def search(query: str) -> None:
            await lg.query(query, limit=10, lenient=True)

        for query in distinct:
            await search(query)
        return [
            Row("library, in process (baseline)", "LGent.query", cache, await timed(search, mix))
        ]


async def measure(home: Path, calls: int) -> tuple[list[Row], dict[str, float]]:
    distinct, mix = query_mix(calls)
    rows: list[Row] = []
    first: dict[str, float] = {}
    try:
        for cache in ("off", "on"):
            set_cache(home, on=cache == "on")
            added = await bench_library(home, distinct, mix, cache)
            mcp_rows, first[f"MCP, cache {cache}"] = await bench_mcp(home, distinct, mix, cache)
            http_rows, first[f"HTTP, cache {cache}"] = await bench_http(home, distinct, mix, cache)
            for row in added + mcp_rows + http_rows:
                print(
                    f"{row.transport:32} {row.operation:22} cache {row.cache:3} "
                    f"p50 {row.stats.p50:7.2f} ms  p99 {row.stats.p99:7.2f} ms",
                    flush=True,
                )
                rows.append(row)
    finally:
        set_cache(home, on=True)
    return rows, first


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=1000, help="timed calls per row")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; leave docs/benchmarks.md"
    )
    args = parser.parse_args(argv)
    os.environ.update(ENV)
    info = runner.machine_info()
    rows, first = asyncio.run(measure(build_home(), args.calls))

    order = {"off": 0, "on": 1, "-": 2}
    table = runner.Table(
        ["transport", "call", "response cache", "n", "p50 ms", "p95 ms", "p99 ms", "mean ms"]
    )
    for row in sorted(rows, key=lambda r: (order[r.cache], r.operation != "LGent.query")):
        table.add(
            row.transport,
            row.operation,
            row.cache,
            row.stats.n,
            row.stats.p50,
            row.stats.p95,
            row.stats.p99,
            row.stats.mean,
        )
    starts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in first.items())
    text = (
        "Example catalog (330 artifacts, 99 types), all three brains built, the real MiniLM model. "
        "The client is the benchmark process; the server is `lgent serve --mcp` (the SDK's "
        "`stdio_client` + `ClientSession`; answers are compact text) or `lgent serve --http` "
        "(one keep-alive `httpx.Client`, JSON parsed). "
        f"Calls are sequential over one connection; the query mix is the {len(query_mix(1)[0])} "
        "labeled queries of `catalog_fixtures/queries` (six query classes) shuffled and cycled, "
        "`limit` 10, lenient, no explanation trees (both servers ask fusion for the first 100 "
        "results and return a page of them); a warm-up pass over every distinct query runs "
        "first. Cache `off`: `lgent.toml` sets `[cache] size = 0` and `[semantic] "
        "query_cache_size = 0`, so each call runs the whole fused query with the query "
        "embedding; `on`: the defaults, every timed call a repeat. `get_artifact` shows the "
        "per-call cost of each transport around a trivial lookup.\n\n"
        + table.markdown()
        + f"\n\nTime from spawning the server to its first answer (imports, model load, warm-up): {starts}.\n\n"
        "Run: `python -m benchmarks.serve_bench` (`--calls N`)."
    )
    if args.no_write:
        print(text)
    else:
        runner.write_results("Serving: MCP and HTTP", text, info=info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
