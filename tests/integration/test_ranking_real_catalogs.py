"""Ranking on a real catalog: the 70 shared MCP servers (read in place from ../shared, skipped
where they are not), answered with the real model.

- sentences quoting examples (single, double, typographic quotes, guillemets) are read as plain
  words: never an empty answer, and the semantic brain always votes;
- random strings of letters all get the weak-match warning, real requests over the same
  catalog none;
- the fused total and scores do not depend on the page size, in Python, the CLI, HTTP and MCP;
- the multilingual judged set: fused at least as good as the better single brain.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchmarks.multilingual import load_queries, scores
from lgent import LGent
from lgent.http.app import build_http_app
from lgent.mcp.server import build_mcp_server
from lgent.models import QueryResponse
from tests.ecosystem.conftest import MCP_TOOLS, need

QUOTED = [
    "Reverse the words in the sentence 'Hello world! How are you?'",
    'Reverse the words in the sentence "Hello world! How are you?"',
    "Reverse the words in “Hello world! How are you?”",
    "Count how many times the letter r appears in 'strawberry'",
    'Count how many times the letter r appears in "strawberry"',
    "Count how many times the letter r appears in ‘strawberry’",
    "Translate 'good morning' into French",
    'Translate "good morning" into French',
    "Translate «good morning» into French",
    "Search the web for 'best pizza in Naples'",
    'Search the web for "best pizza in Naples"',
    "Search the web for “best pizza in Naples”",
    "Read the file named 'notes.txt' from my desktop",
    'Read the file named "notes.txt" from my desktop',
    "Commit my changes with the message 'fix typo in readme'",
    'Commit my changes with the message "fix typo in readme"',
    "Commit my changes with the message „fix typo in readme“",
    "Get the weather for 'San Francisco, CA' tomorrow",
    'Get the weather for "San Francisco, CA" tomorrow',
    "What is the stock price of 'AAPL' today?",
    'What is the stock price of "AAPL" today?',
    "Find Wikipedia articles about 'the French Revolution'",
    "Find Wikipedia articles about “the French Revolution”",
    "Take a screenshot of the page titled 'Example Domain'",
    'Take a screenshot of the page titled "Example Domain"',
    "Convert the HTML '<p>Hello</p>' to markdown",
    "Look up the whois record for 'example.com', please",
    'Look up the whois record for "example.com", please',
    "Make a pie chart with the labels 'red', 'green' and 'blue'",
    "Make a pie chart with the labels ‘red’, ‘green’ and ‘blue’",
    "Play the chess move 'e4' in my current game",
    "Summarize the paper 'Attention Is All You Need' from arXiv",
    'Summarize the paper "Attention Is All You Need" from arXiv',
]

REAL = [
    "get the weather forecast for a city",
    "take a screenshot of a web page",
    "convert html to markdown",
    "search arxiv for papers about transformers",
    "read the contents of a file",
    "list docker containers",
    "current stock price for a ticker symbol",
    "commit my changes to git",
    "generate a pie chart from data",
    "find electric vehicle charging stations nearby",
    "look up whois information for a domain",
    "get the transcript of a youtube video",
    "convert a word document to pdf",
    "merge several pdf files",
    "what time is it in tokyo",
    "exchange rate between dollars and euros",
    "search hacker news stories",
    "create a new powerpoint presentation",
    "price of bitcoin",
    "play a chess move",
    "search clinical trials for a disease",
    "geocode an address to coordinates",
    "summarize a wikipedia article",
    "generate a random number",
    "fetch a web page as markdown",
    "find npm package vulnerabilities",
    "create a knowledge graph entity",
    "trending repositories on github",
    "write a note in my knowledge base",
    "calculate a math expression",
]


def random_letters(rng: random.Random) -> str:
    """One to three words of five to nine random lowercase letters."""
    return " ".join(
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9)))
        for _ in range(rng.randint(1, 3))
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    servers = need(MCP_TOOLS)
    where = tmp_path_factory.mktemp("mcp") / "home"

    async def load() -> None:
        async with LGent.open(where) as lg:
            await lg.load(servers)
            await lg.ready("semantic")

    asyncio.run(load())
    yield where


def weak(response: QueryResponse) -> bool:
    return any(w.startswith("weak match") for w in response.warnings)


@pytest.mark.slow
def test_quoted_examples_are_plain_words_that_always_answer(home: Path) -> None:
    async def ask() -> None:
        async with LGent.open(home) as lg:
            for text in QUOTED:
                response = await lg.query(text, limit=5)
                assert response.results, text
                assert response.query_type.value == "semantic_intent", text
                semantic = next(b for b in response.brains if b.brain == "semantic")
                assert semantic.ran and semantic.hits > 0, (text, response.query_interpretation)
                assert "grammar restricts" not in response.query_interpretation, text

    assert len(QUOTED) >= 30
    assert {q for q in QUOTED if "'" in q} and {q for q in QUOTED if '"' in q}
    assert {q for q in QUOTED if "“" in q or "‘" in q}
    asyncio.run(ask())


@pytest.mark.slow
def test_random_letters_are_weak_matches_and_real_requests_are_not(home: Path) -> None:
    rng = random.Random(34)
    nonsense = [random_letters(rng) for _ in range(30)]

    async def ask() -> tuple[list[QueryResponse], list[QueryResponse]]:
        async with LGent.open(home) as lg:
            made = [await lg.query(q, limit=5) for q in nonsense]
            real = [await lg.query(q, limit=5) for q in REAL]
            return made, real

    made, real = asyncio.run(ask())
    assert [q for q, r in zip(nonsense, made, strict=True) if not weak(r)] == []
    assert [q for q, r in zip(REAL, real, strict=True) if weak(r)] == []
    # the warning names the closest artifacts, and the scores say how little they are worth
    first = made[0]
    said = next(w for w in first.warnings if w.startswith("weak match"))
    assert first.results[0].id in said
    assert all(r.score < 0.2 for r in first.results)
    assert all(r.results[0].score > 0.5 for r in real)


def _cli(
    home: Path,
    text: str,
    limit: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, object]:
    from lgent.cli.app import main

    args = ["lgent", "--home", str(home), "query", text, "--limit", str(limit), "--json"]
    monkeypatch.setattr(sys, "argv", args)
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    found: dict[str, object] = json.loads(capsys.readouterr().out)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "text", ["send a message to someone", "fetch/fetch", "what can take fetch/fetch's output"]
)
def test_totals_and_scores_do_not_depend_on_the_page_size_on_any_surface(
    home: Path, text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    limits = (3, 10, 50)

    async def python_and_servers() -> dict[str, dict[int, tuple[int, list[float]]]]:
        seen: dict[str, dict[int, tuple[int, list[float]]]] = {"python": {}, "http": {}, "mcp": {}}
        async with LGent.open(home) as lg:
            transport = httpx.ASGITransport(app=build_http_app(lg))
            mcp = build_mcp_server(lg)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
                for limit in limits:
                    mine = await lg.query(text, limit=limit)
                    seen["python"][limit] = (mine.total_matches, [r.score for r in mine.results])
                    page = (await web.post("/query", json={"query": text, "limit": limit})).json()
                    seen["http"][limit] = (
                        page["total_matches"],
                        [r["score"] for r in page["results"]],
                    )
                    said = await mcp.call_tool(
                        "search", {"query": text, "limit": limit, "detail": "full"}
                    )
                    full = json.loads("".join(getattr(c, "text", "") for c in said.content))
                    seen["mcp"][limit] = (
                        full.get("total_matches", 0),
                        [r["score"] for r in full.get("results", [])],
                    )
        return seen

    seen = asyncio.run(python_and_servers())
    seen["cli"] = {}
    for limit in limits:
        page = _cli(home, text, limit, monkeypatch, capsys)
        results = page["results"]
        assert isinstance(results, list)
        seen["cli"][limit] = (int(str(page["total_matches"])), [r["score"] for r in results])
    deepest = seen["python"][50]
    assert deepest[0] > 0
    for surface, answers in seen.items():
        for limit, (total, shown) in answers.items():
            assert total == deepest[0], (surface, limit, total)
            assert shown == deepest[1][: len(shown)], (surface, limit)
            assert len(shown) == min(limit, deepest[0]), (surface, limit)


@pytest.mark.slow
def test_fused_is_at_least_the_better_brain_on_the_multilingual_set() -> None:
    need(MCP_TOOLS)
    from benchmarks.multilingual import rankings

    queries = load_queries()
    assert len(queries) >= 30
    assert {q.lang for q in queries} >= {"zh", "ja", "de", "es"}
    found = scores(queries, asyncio.run(rankings(queries)))
    assert found["fused"] >= max(found["keyword"], found["semantic"]), found
