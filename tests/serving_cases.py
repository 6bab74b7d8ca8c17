"""Calls the MCP and HTTP tests make, the library's own answers to them, and server processes.

Both servers must answer each case exactly as the library does on the same home: the library's
answers are computed once per test session (one model load) and compared id by id.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lgent import LGent, QueryContext, TypeRequirement
from lgent.serving import PAGE_DEPTH, warm_up

SEED_QUERY = {
    "query": "process financial PDFs and extract sentiment",
    "constraints": ["latency < 2s", "local execution"],
    "context": {
        "user_history": ["Summarizer_v4"],
        "current_pipeline": ["DataSource", "???", "Database"],
    },
    "limit": 5,
    "lenient": False,
}
QUERIES = [
    SEED_QUERY,
    {"query": "PDFParser", "constraints": [], "limit": 5, "lenient": False},
    {"query": "PDF -> SentimentScore", "constraints": [], "limit": 5, "lenient": False},
    {"query": "name:pdf* AND status:active", "constraints": [], "limit": 10, "lenient": False},
]
RESOLVE = {"input_type": "PDF", "output_type": "SentimentScore", "contracts": ["deterministic"]}
FILL = {"pipeline": ["DataSource", "???", "Database"]}
PATHS = {"source_type": "RawHTML", "target_type": "Summary", "max_length": 4, "k": 5}
SIMILAR = {"artifact_id": "FinancialPDFAnalyzer", "limit": 5}
ARTIFACT = "FinancialPDFAnalyzer"


@dataclass(frozen=True)
class Expected:
    """The library's answers to the cases, as JSON-ready data."""

    queries: list[dict[str, Any]]
    resolution: dict[str, Any]
    filled: dict[str, Any]
    paths: list[list[str]]
    similar: list[str]
    entry: dict[str, Any]


@functools.cache
def library_answers(home: Path) -> Expected:
    """What ``LGent`` itself answers on ``home`` (cached: the model loads once per session).

    The servers page a query's first ``PAGE_DEPTH`` results, so the first page of a case is the
    first ``limit`` results of the query asked for ``PAGE_DEPTH``."""

    async def compute() -> Expected:
        async with LGent.open(home) as lg:
            await warm_up(lg)  # as the servers do: no first query reports the model's load
            queries = []
            for case in QUERIES:
                context = QueryContext(**case["context"]) if "context" in case else None
                response = await lg.query(
                    case["query"],
                    case["constraints"],
                    context,
                    PAGE_DEPTH,
                    lenient=case["lenient"],
                )
                page = response.model_copy(update={"results": response.results[: case["limit"]]})
                queries.append(page.model_dump(mode="json"))
            resolution = await lg.resolve(TypeRequirement(**RESOLVE))
            filled = await lg.fill_holes(FILL["pipeline"])
            paths = await lg.find_paths(
                PATHS["source_type"],
                PATHS["target_type"],
                max_length=PATHS["max_length"],
                k=PATHS["k"],
            )
            hits = await lg.similar(SIMILAR["artifact_id"], limit=SIMILAR["limit"])
            entry = await lg.get(ARTIFACT)
        return Expected(
            queries=queries,
            resolution=resolution.model_dump(mode="json"),
            filled=filled.model_dump(mode="json"),
            paths=[list(p.ids) for p in paths],
            similar=[h.id for h in hits],
            entry=entry.model_dump(mode="json"),
        )

    return asyncio.run(compute())


def assert_same_query(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Same results in the same order, same sources, scores, interpretation and suggestions."""
    assert [r["id"] for r in got["results"]] == [r["id"] for r in want["results"]]
    for mine, theirs in zip(got["results"], want["results"], strict=True):
        assert mine["score"] == theirs["score"]
        assert [s["brain"] for s in mine["sources"]] == [s["brain"] for s in theirs["sources"]]
    assert got["query_type"] == want["query_type"]
    assert timeless(got["query_interpretation"]) == timeless(want["query_interpretation"])
    assert got["total_matches"] == want["total_matches"]
    assert [s["artifact_id"] for s in got["serendipity"]] == [
        s["artifact_id"] for s in want["serendipity"]
    ]


_MODEL_LOAD = re.compile(r" Loading the embedding model took [0-9.]+ s\.")


def timeless(interpretation: str) -> str:
    """The interpretation without the model load's duration (said by whichever query waited
    for the load: on a server, one that arrived while the warm-up was loading it)."""
    return _MODEL_LOAD.sub("", interpretation)


def assert_same_score(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Same breakdown; recency moves with the clock between the two computations."""
    assert got["weights"] == want["weights"]
    for part in ("success", "recency", "usage", "version", "total"):
        assert got[part] == pytest.approx(want[part], abs=1e-4)


def server_env() -> dict[str, str]:
    return {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}


def serve_command(home: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", *flags]


_LISTENING = re.compile(r"Uvicorn running on (http://\S+)")


@contextmanager
def http_server(home: Path, log: Path, *flags: str, timeout: float = 60.0) -> Iterator[str]:
    """``lgent serve --http --port 0`` as a subprocess; yields its base URL, stops it after."""
    with log.open("w") as errors:
        process = subprocess.Popen(
            [*serve_command(home, "--http", "--port", "0", *flags)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env={**os.environ, **server_env()},
        )
    try:
        deadline = time.monotonic() + timeout
        while not (match := _LISTENING.search(log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the HTTP server did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield match.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
