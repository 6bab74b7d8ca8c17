"""Nothing blocks silently on an index build: while the semantic index is being built, a query
on every surface (Python, HTTP, MCP, the CLI) answers at once from the brains that are ready and
says which one is building, how far it is, and how to finish it."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder, Vectors
from lgent.http.app import build_http_app
from lgent.mcp.server import build_mcp_server
from lgent.models import TypeDecl
from lgent.runtime.brain_pool import LONG_BUILD
from tests.cli.inprocess import run_cli
from tests.conftest import make_entry


class StallingEmbedder(HashingEmbedder):
    """Hashing vectors; after ``allowed`` batches of several texts, batches wait for ``gate``
    (a single text, a query, never waits)."""

    def __init__(self, allowed: int) -> None:
        super().__init__(32)
        self.allowed = allowed
        self.gate = threading.Event()
        self.stalled = threading.Event()

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if len(texts) > 1:
            if self.allowed <= 0:
                self.stalled.set()
                assert self.gate.wait(60)
            self.allowed -= 1
        return super().embed_batch(texts)


def tools(count: int) -> list:  # type: ignore[type-arg]
    return [
        make_entry(f"Converter{i}", description=f"converts text of kind {i} to markdown")
        for i in range(count)
    ]


async def test_servers_answer_during_a_build_and_say_how_far_it_is(tmp_path: Path) -> None:
    embedder = StallingEmbedder(allowed=1)
    async with LGent.open(tmp_path / "home", embedder=embedder, freshness="snapshot") as lg:
        await lg.register_many(tools(100))
        await lg.query("converts text to markdown")  # opens the semantic brain: it builds
        deadline = time.monotonic() + 30
        while "32 of 100" not in lg.brain_status("semantic").extra.get("catching_up", ""):
            assert time.monotonic() < deadline, lg.brain_status("semantic")
            await asyncio.sleep(0.05)
        while lg.brain_status("keyword").change_number < 100:  # a busy machine may lag
            assert time.monotonic() < deadline, lg.brain_status("keyword")
            await asyncio.sleep(0.05)
        started = time.monotonic()
        response = await lg.query("converts text to markdown")
        took = time.monotonic() - started
        said = " ".join(response.warnings)
        assert response.results and {s.brain for r in response.results for s in r.sources} == {
            "keyword"
        }
        assert "semantic" in said and "32 of 100 entries, 32%" in said, said
        assert took < 5  # it never waited for the stalled build
        web = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=build_http_app(lg)), base_url="http://127.0.0.1"
        )
        async with web:
            page = (await web.get("/search", params={"q": "converts text to markdown"})).json()
        assert page["results"] and "32%" in " ".join(page["warnings"])
        answer = await build_mcp_server(lg).call_tool("search", {"query": "converts text"})
        text = "".join(getattr(c, "text", "") for c in answer.content)
        assert "Converter" in text and "32%" in text, text
        embedder.gate.set()


def test_the_cli_answers_without_a_long_build_and_says_how_to_finish_it(tmp_path: Path) -> None:
    catalog = tmp_path / "tools.jsonl"
    count = LONG_BUILD + 10
    catalog.write_text("".join(e.model_dump_json(exclude_none=True) + "\n" for e in tools(count)))
    home = tmp_path / "H"
    loaded = run_cli("--home", str(home), "load", str(catalog))
    assert loaded.returncode == 0, loaded.stderr
    said = " ".join(loaded.stdout.split())
    assert "keyword index: rebuilt to change" in said and "graph index:" in said
    assert f"{count:,} entries to index" in said and "lgent reindex" in said
    started = time.monotonic()
    found = run_cli("--home", str(home), "query", "converts text to markdown", "--json")
    took = time.monotonic() - started
    assert found.returncode == 0, found.stderr
    page = __import__("json").loads(found.stdout)
    semantic = next(b for b in page["brains"] if b["brain"] == "semantic")
    assert page["results"] and not semantic["ran"]
    assert "not built yet" in semantic["reason"] and "lgent reindex" in semantic["reason"]
    assert took < 30  # no model was loaded, nothing was embedded


def test_the_cli_answers_while_another_process_builds_and_says_how_far(tmp_path: Path) -> None:
    """A server (here an ``LGent`` of this process) builds the semantic index of a long
    catalog; ``lgent query`` meanwhile answers from keyword and graph and says how far the
    build has come (the vectors it has cached), without waiting for it."""
    home = tmp_path / "H"
    count = LONG_BUILD + 10
    embedder = StallingEmbedder(allowed=2)

    async def build_meanwhile() -> None:
        async with LGent.open(home, embedder=embedder, freshness="snapshot") as lg:
            typed = [
                e.model_copy(update={"input_type": "Text", "output_type": "Markdown"})
                for e in tools(count)
            ]
            await lg.register_many(typed, [TypeDecl(type="Text"), TypeDecl(type="Markdown")])
            await lg.query("converts text to markdown")  # opens the semantic brain: it builds
            assert await asyncio.to_thread(embedder.stalled.wait, 60)
            cached = lg.brain_status("semantic").extra["cached_vectors"]
            started = time.monotonic()
            found = await asyncio.to_thread(
                run_cli, "--home", str(home), "query", "converts things of any kind", "--json"
            )
            took = time.monotonic() - started
            chained = await asyncio.to_thread(
                run_cli, "--home", str(home), "query", "Text -> Markdown", "--json"
            )
            embedder.gate.set()
            assert chained.returncode == 0, chained.stderr
            by_type = json.loads(chained.stdout)
            graph = next(b for b in by_type["brains"] if b["brain"] == "graph")
            assert graph["ran"] and by_type["results"], by_type["brains"]
            assert found.returncode == 0, found.stderr
            page = json.loads(found.stdout)
            semantic = next(b for b in page["brains"] if b["brain"] == "semantic")
            assert page["results"] and not semantic["ran"]
            share = cached * 100 // count
            assert (
                f"building, about {cached:,} of {count:,} entries embedded, {share}%"
                in semantic["reason"]
            ), semantic["reason"]
            assert took < 30  # no model was loaded, nothing was embedded

    asyncio.run(build_meanwhile())
