"""The brain pool behind the facade: brains opened only when a query's plan asks for them,
pinned for the whole query, caught up in the background, served from their last consistent
state in ``snapshot`` mode, and never served from a damaged index."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.base import Brain, BrainQuery
from lgent.brains.graph.brain import GraphBrain
from lgent.brains.semantic.brain import SemanticBrain
from lgent.brains.semantic.embedders import HashingEmbedder, Vectors
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import Snapshot
from lgent.doctor import check_home
from lgent.models import BrainRun, QueryResponse, SearchResult
from lgent.runtime.direct import ON_LOOP_LIMIT, DirectSearch
from lgent.runtime.indexing import CatchUpPlan, SyncReport
from tests.conftest import FIXTURES, make_entry


class LazyEmbedder(HashingEmbedder):
    """Hashing vectors behind a pretend model that "loads" (takes ``load_delay``) on first use,
    and whose batches of several texts wait for ``gate`` (one text, a query, never does)."""

    def __init__(self, load_delay: float = 0.0) -> None:
        super().__init__(64)
        self.loaded = False
        self.load_seconds: float | None = None
        self.load_delay = load_delay
        self.gate = threading.Event()
        self.gate.set()

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if not self.loaded:
            time.sleep(self.load_delay)
            self.loaded, self.load_seconds = True, self.load_delay
        if len(texts) > 1:
            assert self.gate.wait(30)
        return super().embed_batch(texts)


def run_of(response: QueryResponse, brain: str) -> BrainRun:
    return next(r for r in response.brains if r.brain == brain)


async def built_home(root: Path) -> Path:
    home = root / "home"
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.load(FIXTURES)
        await lg.reindex()
    return home


async def test_a_query_opens_only_the_brains_its_plan_asks(tmp_path: Path) -> None:
    home = await built_home(tmp_path)
    embedder = LazyEmbedder(load_delay=0.3)
    async with LGent.open(home, embedder=embedder) as lg:
        semantic = lg.brains.slot("semantic")
        syntax = await lg.query("author:ToolForge type:agent")  # filters only, no words
        question = await lg.query("PDF -> SentimentScore")
        relation = await lg.query("what depends on PDFParser_v2")
        assert semantic.brain is None  # never opened: no faiss, no model
        assert not any(run_of(r, "semantic").ran for r in (syntax, question, relation))
        name = await lg.query("PDFParser_v2")
        assert run_of(name, "semantic").ran and name.results[0].id == "PDFParser_v2"
        assert not embedder.loaded  # the named artifact's stored vector was the query
        intent = await lg.query("something that cleans up messy text")
        again = await lg.query("tools that tidy up text")
    assert embedder.loaded
    assert "Loading the embedding model took 0.30 s." in intent.query_interpretation
    assert intent.search_time_ms >= 300  # the query's own time includes what it waited for
    assert "Loading the embedding model" not in again.query_interpretation
    assert again.search_time_ms < intent.search_time_ms


async def test_a_catch_up_never_changes_a_brain_under_a_running_query(tmp_path: Path) -> None:
    """The race that let ``NotFoundError`` escape ``query()``: another writer removes a result
    after fusion read the catalog, and the graph brain is caught up before fusion's suggestions
    ask it about that result. The query holds the graph for its whole run, so the catch-up
    waits for it, or (a rebuild, as here: half the catalog changed) swaps a new instance in
    beside the one the query holds (deterministically: the removal happens inside the query)."""
    async with LGent.open(tmp_path / "home", embedder=HashingEmbedder(64)) as lg:
        await lg.register_many(
            [
                make_entry("Feeder", input_type="Text", output_type="Summary", success_rate=0.9),
                make_entry("Sink", input_type="Summary", output_type="Report", success_rate=0.9),
            ]
        )
        graph = lg.brains.slot("graph")
        read_catalog = lg.store.snapshot
        removed = threading.Event()

        def snapshot(ids: Sequence[str]) -> Snapshot:
            snap = read_catalog(ids)
            if "Feeder" in snap and not removed.is_set():
                removed.set()
                held = graph.brain  # the instance this query pinned when it classified
                lg.store.remove("Feeder")  # a write lands between fusion's reads
                graph.request()  # and the graph's indexer is asked to catch up
                deadline = time.monotonic() + 10
                # it waits for this query's hold, or swaps a rebuilt instance in beside it
                while not graph.lock.writers_waiting and graph.brain is held:
                    assert time.monotonic() < deadline
                    time.sleep(0.01)
                assert isinstance(held, GraphBrain) and held.graph.knows("Feeder")
                assert held.change_number == snap.change_number < lg.store.change_number()
            return snap

        lg.store.snapshot = snapshot  # type: ignore[method-assign]
        response = await lg.query("Feeder", limit=1)
        assert removed.is_set()
        assert [r.id for r in response.results] == ["Feeder"]
        assert [s.artifact_id for s in response.serendipity] == ["Sink"]  # asked the graph
        await asyncio.to_thread(graph.wait_for, await lg.change_number())
        after = await lg.query("Feeder")
    assert "Feeder" not in [r.id for r in after.results]


async def test_a_snapshot_home_answers_at_once_while_a_big_write_is_indexed(
    tmp_path: Path,
) -> None:
    embedder = LazyEmbedder()
    async with LGent.open(tmp_path / "home", embedder=embedder, freshness="snapshot") as lg:
        base = [
            make_entry(f"Widget{i}", description=f"widget {i} converts text") for i in range(40)
        ]
        await lg.register_many(base)
        for name in lg.registry.names:
            await lg.ready(name)  # as a server warms up
        first = await lg.query("widget that converts text")
        assert run_of(first, "semantic").change_number == first.change_number
        embedder.gate.clear()  # the semantic catch-up of the next write stalls
        gadgets = [
            make_entry(f"Gadget{i}", description=f"gadget {i} turns text into tables")
            for i in range(150)
        ]
        await lg.register_many(gadgets)  # more than a small write: returns once committed
        started = time.perf_counter()
        during = await lg.query("gadget that turns text into tables")
        seconds = time.perf_counter() - started
        semantic = run_of(during, "semantic")
        embedder.gate.set()
        for slot in lg.brains.slots():
            if slot.brain is not None:
                await asyncio.to_thread(slot.wait_for, during.change_number)
        after = await lg.query("gadget that turns text into tables")
    assert seconds < 5
    assert semantic.ran and semantic.change_number == first.change_number
    assert during.change_number > first.change_number and semantic.catching_up
    assert "Answered from the last consistent state" in during.query_interpretation
    behind = f"the semantic brain answered from change {first.change_number} of "
    assert any(w.startswith(behind) for w in during.warnings), during.warnings
    assert all(r.change_number == after.change_number for r in after.brains if r.ran), after.brains
    assert not any("brain answered from change" in w for w in after.warnings)
    assert after.results[0].id.startswith("Gadget")


async def test_a_query_before_the_semantic_index_exists_says_so_in_its_warnings(
    tmp_path: Path,
) -> None:
    """A served home just loaded: the semantic index builds in the background, and a plain
    query answered meanwhile warns that it comes from the other brains alone."""
    embedder = LazyEmbedder()
    embedder.gate.clear()  # the first semantic build stalls
    async with LGent.open(tmp_path / "home", embedder=embedder, freshness="snapshot") as lg:
        await lg.register_many(
            [make_entry(f"Widget{i}", description=f"widget {i} converts text") for i in range(40)]
        )
        await lg.ready("keyword")
        early = await lg.query("something that converts text")
        embedder.gate.set()
        await lg.ready("semantic")
        later = await lg.query("something that converts text")
    (lacking,) = [w for w in early.warnings if "did not answer" in w]
    assert lacking.startswith("the semantic brain did not answer (not ready")
    assert lacking.endswith("results come from keyword alone")
    assert not any("did not answer" in w for w in later.warnings)


async def test_a_wait_home_answers_only_once_the_brains_caught_up(tmp_path: Path) -> None:
    embedder = LazyEmbedder()
    async with LGent.open(tmp_path / "home", embedder=embedder) as lg:
        await lg.register_many([make_entry(f"Widget{i}", description="widget") for i in range(40)])
        await lg.query("widget that converts text")
        embedder.gate.clear()
        await lg.register_many(
            [make_entry(f"Gadget{i}", description="gadget for tables") for i in range(150)]
        )
        query = asyncio.create_task(lg.query("gadget for tables"))
        done, _ = await asyncio.wait([query], timeout=0.5)
        assert not done  # it waits for the semantic brain
        embedder.gate.set()
        response = await query
    assert all(r.change_number == response.change_number for r in response.brains if r.ran)
    assert response.results[0].id.startswith("Gadget")


@pytest.mark.parametrize(
    ("brain", "pattern"),
    [
        ("keyword", "*.term"),
        ("keyword", "meta.json"),
        ("keyword", ".managed.json"),
        ("semantic", "vectors-*.faiss"),
        ("semantic", "ids-*.json"),
        ("semantic", "entries-*.json"),
        ("semantic", "manifest.json"),
    ],
)
async def test_a_damaged_index_file_is_named_rebuilt_and_never_served(
    tmp_path: Path, brain: str, pattern: str
) -> None:
    home = await built_home(tmp_path)
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        reference = await lg.search("pdf parser", brain=brain, lenient=True)
    damaged = next((home / "indexes" / brain).glob(pattern))
    data = bytearray(damaged.read_bytes())
    rng = random.Random(7)
    for offset in rng.sample(range(len(data)), min(20, len(data))):
        data[offset] ^= rng.randrange(1, 256)
    # in place, never shorter even for a moment: tantivy may still map the file from the home
    # closed above, and a read past the end of a mapped file is a SIGBUS (it crashed a run)
    with damaged.open("r+b") as f:
        f.write(data)

    finding = next(f for f in check_home(home) if f.name == f"{brain} index")
    assert finding.level == "fail" and damaged.name in finding.message
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        found = await lg.search("pdf parser", brain=brain, lenient=True)
    assert [h.id for h in found.hits] == [h.id for h in reference.hits]
    assert [round(h.score, 5) for h in found.hits] == [round(h.score, 5) for h in reference.hits]
    assert any(damaged.name in w and brain in w for w in found.warnings)
    assert all(f.level == "ok" for f in check_home(home))


async def test_a_score_outside_the_brains_range_is_corruption_and_rebuilt(tmp_path: Path) -> None:
    home = await built_home(tmp_path)
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        damaged = lg.brain("semantic")
        assert isinstance(damaged, SemanticBrain)
        real_search = damaged._vectors.search
        damaged._vectors.search = lambda *a, **k: [  # type: ignore[method-assign]
            (i, 10.55) for i, _ in real_search(*a, **k)
        ]
        response = await lg.query("something that cleans up messy text")
        semantic = run_of(response, "semantic")
        assert not semantic.ran and "10.55" in semantic.reason and "[-1, 1]" in semantic.reason
        slot = lg.brains.slot("semantic")
        deadline = time.monotonic() + 20
        while slot.brain is damaged:  # rebuilt beside it and swapped in
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        again = await lg.query("something that cleans up messy text")
    assert run_of(again, "semantic").ran
    assert all(
        -1 <= s.score <= 1 for r in again.results for s in r.sources if s.brain == "semantic"
    )


async def test_a_build_says_its_steps_loading_the_model_first(tmp_path: Path) -> None:
    calls: list[tuple[str, int, int]] = []
    embedder = LazyEmbedder(load_delay=0.1)
    async with LGent.open(
        tmp_path / "home", embedder=embedder, progress=lambda *call: calls.append(call)
    ) as lg:
        await lg.register_many([make_entry(f"Tool{i}", description=f"tool {i}") for i in range(90)])
        await lg.query("a tool that does things")
    steps = [brain for brain, _, total in calls if total == 0]
    assert steps == ["semantic: loading the model", "semantic: embedding", "semantic: indexing"]
    assert ("semantic", 90, 90) in calls


async def test_a_slow_build_waits_for_the_quick_brains_unless_a_query_is_in_flight() -> None:
    from lgent.runtime.brain_pool import Building

    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        pool = lg.brains
        keyword = pool.slot("keyword")
        keyword.building = Building("rebuilding", 10)
        done = threading.Event()

        def semantic_batch() -> None:
            pool.between_batches("semantic")
            done.set()

        waiter = threading.Thread(target=semantic_batch)
        waiter.start()
        assert not done.wait(0.3)  # the keyword build goes first
        keyword.building = None
        assert done.wait(2.0)
        waiter.join()

        keyword.building = Building("rebuilding", 11)
        started = time.monotonic()
        assert pool.between_batches("keyword") is False  # a quick build never waits
        view = pool.view(0)  # a query in flight: it may wait on the slow build
        try:
            assert pool.between_batches("semantic") is False
        finally:
            view.release()
        assert time.monotonic() - started < 1.0
        keyword.building = None


async def test_a_slow_rebuild_reads_nothing_until_the_quick_brains_are_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slow brain's rebuild does not even read the catalog while a quick brain's build is
    under way: its first steps would slow the build the first answers wait for."""
    import lgent.runtime.brain_pool as brain_pool
    from lgent.runtime.brain_pool import Building

    started: list[str] = []
    real_rebuild_from = brain_pool.rebuild_from

    def spy(brain: Brain, store: Catalog, plan: CatchUpPlan) -> SyncReport:
        started.append(plan.brain)
        return real_rebuild_from(brain, store, plan)

    monkeypatch.setattr(brain_pool, "rebuild_from", spy)
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await lg.register_many([make_entry(f"Tool{i}", description=f"tool {i}") for i in range(5)])
        keyword = lg.brains.slot("keyword")
        assert not keyword.busy
        keyword.building = Building("rebuilding", 10)  # a long keyword build
        assert keyword.busy
        semantic = lg.brains.slot("semantic")
        semantic.opened()
        started.clear()
        semantic.request(rebuild=True)
        await asyncio.sleep(0.4)
        assert started == []  # it waits, having read nothing, and says so
        assert semantic.building is not None and semantic.building.action == "rebuilding"
        assert semantic.building.stage == "waiting for the keyword build"
        assert "waiting for the keyword build" in semantic.progress()
        keyword.building = None
        await asyncio.to_thread(semantic.wait_for, lg.store.change_number(), 10)
        assert started == ["semantic"]
        assert semantic.failure is None


async def test_a_rebuild_swaps_in_beside_a_query_and_closes_the_old_once_it_ends(
    tmp_path: Path,
) -> None:
    """A rebuilt instance is swapped in while a query still holds the old one: the swap waits
    for no gap between queries, a new query reads the new instance at once, and the old one is
    closed only when the query holding it lets go."""
    async with LGent.open(tmp_path / "home", embedder=HashingEmbedder(64)) as lg:
        await lg.register_many([make_entry(f"Tool{i}", description=f"tool {i}") for i in range(9)])
        slot = lg.brains.slot("keyword")
        view = lg.brains.view(await lg.change_number())
        held = await view.acquire("keyword")
        closed: list[bool] = []
        held.close = lambda: closed.append(True)  # type: ignore[method-assign]
        try:
            slot.request(rebuild=True)
            deadline = time.monotonic() + 10
            while slot.brain is held:  # swapped in while this query holds the old one
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            fresh = slot.brain
            assert not slot.lock.writers_waiting
            answer = await asyncio.wait_for(lg.query("tool", limit=3), 5)
            assert answer.results and not closed
            assert view.reflects("keyword") == held.change_number
        finally:
            view.release()
        await asyncio.to_thread(slot.settle)
        assert closed == [True] and slot.brain is fresh


@pytest.mark.parametrize("freshness", ["snapshot", "wait"])
async def test_a_stream_of_queries_cannot_starve_a_catch_up_in_snapshot_mode(
    freshness: str,
) -> None:
    """A query that holds the graph (every query does: it classifies) and then pins the keyword
    brain queues behind a keyword catch-up waiting for its write hold in a snapshot home, so
    overlapping queries cannot hold it off for ever; it never queues behind a catch-up of a
    brain earlier in the pool's order than one it holds (no cycle of waits), nor, in a wait
    home, behind any catch-up once it holds a brain."""
    async with LGent.open(None, embedder=HashingEmbedder(64), freshness=freshness) as lg:
        await lg.register_many([make_entry(f"Tool{i}") for i in range(5)])
        pool = lg.brains
        assert pool.order["graph"] < pool.order["keyword"]
        target = await lg.change_number()
        for name in ("graph", "keyword"):
            await asyncio.to_thread(pool.slot(name).wait_for, target)

        async def held_off(view_brains: Sequence[str], writer_on: str, wanted: str) -> bool:
            """Whether a query holding ``view_brains`` waits to pin ``wanted`` while a catch-up
            waits for the write hold on ``writer_on`` (held off by another query's pin)."""
            reader = pool.view(target)
            await reader.acquire(writer_on)
            slot = pool.slot(writer_on)
            writer = threading.Thread(
                target=lambda: (slot.lock.acquire_write(), slot.lock.release_write())
            )
            writer.start()
            while not slot.lock.writers_waiting:
                await asyncio.sleep(0.005)
            query = pool.view(target)
            try:
                for name in view_brains:
                    await query.acquire(name)
                pinning = asyncio.ensure_future(query.acquire(wanted))
                await asyncio.sleep(0.2)
                waited = not pinning.done()
                reader.release()  # the catch-up gets its hold, then the query its pin
                await asyncio.wait_for(pinning, 5)
                return waited
            finally:
                reader.release()
                query.release()
                await asyncio.to_thread(writer.join)

        assert await held_off(["graph"], "keyword", "keyword") == (freshness == "snapshot")
        assert await held_off(["keyword"], "graph", "graph") is False


async def test_a_search_runs_at_once_when_its_brain_is_free_and_waits_when_it_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LGent.search`` answers in one call, on the event loop itself (the keyword brain's
    reads are quick), where the brain is open, current and free, and the same answer after
    waiting where a catch-up holds it; the pool's count of queries in flight comes back to
    zero either way, also after many searches at once from worker threads."""
    from lgent.runtime.brain_pool import BrainView

    home = await built_home(tmp_path)
    queries = ["pdf", "author:ToolForge type:agent", "pars~1", "news*", "sentiment -twitter"]
    tries: list[tuple[bool, bool]] = []
    """(on the event loop, answered) for each try at answering in one call"""
    search_at = DirectSearch._at
    loop_thread = threading.get_ident()

    def spy(
        direct: DirectSearch,
        number: int,
        name: str,
        asked: BrainQuery,
        read: Callable[[Sequence[str]], Snapshot | None],
    ) -> SearchResult | None:
        found = search_at(direct, number, name, asked, read)
        tries.append((threading.get_ident() == loop_thread, found is not None))
        return found

    monkeypatch.setattr(DirectSearch, "_at", spy)
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.search("warm up", lenient=True)  # opens the brain: waits
        assert tries == [(True, False), (False, False)]
        at_once = [await lg.search(q, lenient=True) for q in queries]
        assert tries[2:] == [(True, True)] * len(queries)  # no hop to a worker thread
        tries.clear()
        page = await lg.search("pdf", lenient=True, limit=ON_LOOP_LIMIT + 1)
        assert tries == [(False, True)]  # a long page is explained on a worker thread
        assert page.hits[: len(at_once[0].hits)] == at_once[0].hits
        slot = lg.brains.slot("keyword")
        slot.lock.acquire_write()  # a catch-up applying its changes
        pending = asyncio.ensure_future(lg.search("pdf", lenient=True))
        await asyncio.sleep(0.2)
        assert not pending.done()  # it waits on the event loop, not on a worker thread
        slot.lock.release_write()
        assert await pending == at_once[0]
        assert tries[-2:] == [(True, False), (False, False)]
        with monkeypatch.context() as patch:
            patch.setattr(BrainView, "try_acquire", lambda self, name: None)
            waited = [await lg.search(q, lenient=True) for q in queries]
        assert waited == at_once
        many = await asyncio.gather(*(lg.search(q, lenient=True) for q in queries * 20))
        assert list(many) == at_once * 20
        assert lg.brains.reading == 0 and slot.lock.readers == 0


async def test_a_search_never_waits_on_the_event_loop_for_the_catalog_writer(
    tmp_path: Path,
) -> None:
    """While this process's writer holds the catalog, a keyword search does not read it on
    the event loop (which keeps running): it waits on a worker thread and then answers as
    before; the catalog's reads that never wait say so by giving None meanwhile."""
    home = await built_home(tmp_path)
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        before = await lg.search("pdf", lenient=True)
        ids = [hit.id for hit in before.hits]
        held, release = threading.Event(), threading.Event()

        def writer() -> None:
            with lg.store._lock:  # type: ignore[attr-defined]  # as a long write holds it
                held.set()
                release.wait(10)

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            assert held.wait(5)
            assert lg.store.snapshot_now(ids) is None
            assert lg.store.change_number_now() is None
            pending = asyncio.ensure_future(lg.search("pdf", lenient=True))
            ticks = 0
            for _ in range(10):
                await asyncio.sleep(0.02)  # the loop keeps turning
                ticks += 1
            assert ticks == 10 and not pending.done()
        finally:
            release.set()
            thread.join(5)
        assert await pending == before
        snapshot = lg.store.snapshot_now(ids)
        assert snapshot is not None and sorted(ids) == sorted(i for i in ids if i in snapshot)
        assert lg.store.change_number_now() == lg.store.change_number()


async def test_a_small_write_does_not_wait_for_a_brain_still_building(tmp_path: Path) -> None:
    """A server whose semantic index is still being built answers a small write at once: the
    build takes the write in, and queries say the brain is not ready meanwhile."""
    embedder = LazyEmbedder()
    embedder.gate.clear()  # the semantic build stalls until the gate opens
    async with LGent.open(tmp_path / "home", embedder=embedder, freshness="snapshot") as lg:
        await lg.register_many(
            [make_entry(f"Widget{i}", description=f"widget {i} converts text") for i in range(40)]
        )
        await lg.query("something that converts text")  # opens the semantic brain: it builds
        written = await asyncio.wait_for(lg.register(make_entry("Late")), timeout=60)
        building = lg.brain_status("semantic")
        embedder.gate.set()
        await lg.ready("semantic")
        found = await lg.query("Late")
    assert not building.ready  # the write returned while the build was still stalled
    assert written.change_number == found.change_number
    assert found.results[0].id == "Late"
