"""The LGent facade: opens a home, wires the catalog and the brains, and delegates.

It holds no ranking, parsing or SQL of its own. Reads run in worker threads; every write goes
through one single-thread executor, so there is exactly one writer. The brains live in a
``BrainPool`` (``lgent/brain_pool.py``): each opened when first needed, pinned by the query that
reads it, and caught up by its own background indexer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from cachetools import TTLCache

from lgent import limits
from lgent.arguments import QueryArguments
from lgent.brain_pool import BrainPool, BrainSlot, BrainView, Freshness
from lgent.brains.base import Brain, BrainQuery, BrainStatus
from lgent.brains.defaults import default_registry
from lgent.brains.registry import BrainContext, BrainRegistry
from lgent.catalog.backends import open_catalog
from lgent.catalog.checks import BatchReport, check_batch
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import BatchResult, Change, EntryFilter, Finding, Snapshot
from lgent.config import LoadSettings, Settings, load_settings
from lgent.errors import (
    CatalogError,
    LGentError,
    LoadError,
    NotFoundError,
    QueryError,
    ReadOnlyHomeError,
)
from lgent.fusion.weak import one_brain_warning
from lgent.home import Home
from lgent.ids import stable_id
from lgent.indexing import BuildProgress, SyncReport
from lgent.inputs import as_entries, as_int, as_model, as_path, as_text, as_texts, bad
from lgent.models import (
    BrainHit,
    CatalogEntry,
    FilledPipeline,
    QueryContext,
    QueryResponse,
    Resolution,
    ResolutionPreferences,
    SearchFilters,
    SearchResult,
    TypeDecl,
    TypeRequirement,
)
from lgent.unanswered import require_an_answer

if TYPE_CHECKING:
    from lgent.brains.graph.brain import GraphBrain
    from lgent.brains.graph.compose import CompositionPath, Signature
    from lgent.brains.graph.lineage import LineageHit
    from lgent.brains.semantic.embedders import Embedder
    from lgent.catalog.loaders import LoadedBatch, Progress
    from lgent.catalog.replica import Follower, PullReport

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

__all__ = ["BuildProgress", "Freshness", "LGent", "check_query"]

P = ParamSpec("P")
T = TypeVar("T")

ON_LOOP_LIMIT = 50
"""The most hits a direct search of a quick brain (``BrainSpec.quick_reads``) may ask for and
still run on the event loop: explaining each shown hit takes about 20 µs, so up to 50 keep
the loop's other work waiting about a millisecond at most; a larger page goes to a thread."""


class LGent:
    """An open L-gent home. Use ``async with LGent.open(home) as lg:``."""

    def __init__(
        self,
        home: Home,
        store: Catalog,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
        *,
        brains: BrainRegistry | None = None,
        freshness: Freshness | str = Freshness.WAIT,
        read_only: bool = False,
    ) -> None:
        self.home = home
        self.store = store
        self.settings = settings or Settings()
        self.embedder = embedder
        self.progress = progress
        self.read_only = read_only
        self.registry = brains if brains is not None else default_registry()
        self.settings.fusion.check_brains(self.registry.names)
        try:
            self.freshness = Freshness(freshness)
        except ValueError:
            raise bad("freshness", "must be 'wait' or 'snapshot'", freshness) from None
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgent-writer")
        # A brain declared ``own_thread`` (the semantic one: query embeddings) always runs on
        # its one thread: torch keeps its worker threads warm for it, and concurrent queries do
        # not oversubscribe the cores (measured at 100k: p99 of one query embedding 12.7 ms
        # there against 17.3 ms on rotating pool threads).
        self._threads = {
            spec.name: ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"lgent-{spec.name}")
            for spec in self.registry
            if spec.own_thread
        }
        self.brains = BrainPool(
            self.registry,
            store,
            self._make_brain,
            freshness=self.freshness,
            read_only=read_only,
            index_root=None if home.root is None else home.root / "indexes",
            progress=progress,
        )
        self._responses: TTLCache[tuple[Any, ...], QueryResponse] | None = (
            TTLCache(self.settings.cache.size, self.settings.cache.ttl_seconds)
            if self.settings.cache.size and self.settings.cache.ttl_seconds
            else None
        )
        self._follower: Follower | None = None
        self._closed = False

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        catalog: str | None = None,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
        brains: BrainRegistry | None = None,
        freshness: Freshness | str = Freshness.WAIT,
        read_only: bool | None = None,
    ) -> AsyncIterator[LGent]:
        """Open (creating if missing) the home at ``home``; ``None`` keeps everything in memory.

        Settings come from ``settings`` (or a mapping of sections, read as ``lgent.toml`` is),
        else from ``<home>/lgent.toml``, else the defaults.
        ``catalog`` (else ``[catalog] url``) names a shared PostgreSQL catalog to use instead
        of the home's own SQLite file: the home then holds this process's replica of it (see
        docs/architecture.md). ``embedder`` replaces the configured model (e.g. one already
        loaded, shared by homes); ``progress(brain, done, total)`` hears how a long index build
        is going; ``brains`` is the brain registry (default: keyword, semantic and graph).

        ``freshness``: ``"wait"`` (default) makes each query wait until the brains it asks
        reflect the catalog as the query found it; ``"snapshot"`` (servers) answers at once
        from each brain's last consistent state while it catches up, and says how far behind
        it is. ``read_only``: open without writing anything (queries work, writes raise
        ``ReadOnlyHomeError``); ``None`` opens read-only exactly when the home cannot be
        written (a read-only mount, a snapshot, no write permission)."""
        lg = await asyncio.to_thread(
            cls.open_sync,
            home,
            settings,
            catalog=catalog,
            embedder=embedder,
            progress=progress,
            brains=brains,
            freshness=freshness,
            read_only=read_only,
        )
        try:
            yield lg
        finally:
            await asyncio.to_thread(lg.close)

    @classmethod
    def open_sync(
        cls,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        catalog: str | None = None,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
        brains: BrainRegistry | None = None,
        freshness: Freshness | str = Freshness.WAIT,
        read_only: bool | None = None,
    ) -> LGent:
        """Open a home without an event loop; call ``close()`` when done."""
        layout = Home(None if home is None else Path(home))
        if read_only is None:
            read_only = layout.read_only()
        if not read_only:
            layout.create()
        chosen = (
            Settings.of(settings) if settings is not None else load_settings(layout.settings_file)
        )
        url = catalog if catalog is not None else chosen.catalog.url
        if read_only and url is None:
            layout.require_catalog()
        on_wait = None if progress is None else _writer_wait(progress)
        store = open_catalog(layout, read_only=read_only, url=url, on_wait=on_wait)
        try:
            lg = cls(
                layout,
                store,
                chosen,
                embedder,
                progress,
                brains=brains,
                freshness=freshness,
                read_only=read_only,
            )
        except BaseException:
            store.close()
            raise
        lg._follow()
        return lg

    @staticmethod
    def source_formats() -> list[str]:
        """The formats ``load(..., kind=)`` and ``lgent import KIND`` read (``mcp``, ``openapi``...)."""
        from lgent.catalog.readers import ReaderRegistry

        return ReaderRegistry.default().names

    @staticmethod
    def is_replica(home: str | os.PathLike[str]) -> bool:
        """Whether ``home`` holds a replica of a shared catalog (and no catalog of its own)."""
        return Home(Path(home)).is_replica()

    @staticmethod
    def has_catalog(home: str | os.PathLike[str], *, catalog: str | None = None) -> bool:
        """Whether ``home`` holds a catalog (an unreadable one counts: opening it says why).
        With a shared catalog (``catalog``, else ``[catalog] url``): whether the home holds a
        copy of it or the database holds it (one that cannot be reached counts too). Nothing
        is created."""
        from lgent.errors import CatalogCorruptError, CatalogUnreachableError
        from lgent.home import MIRROR_FILE

        layout = Home(Path(home))
        url = catalog if catalog is not None else load_settings(layout.settings_file).catalog.url
        if url is not None and layout.root is not None and (layout.root / MIRROR_FILE).exists():
            return True
        try:
            open_catalog(layout, read_only=True, url=url).close()
        except (CatalogCorruptError, CatalogUnreachableError):
            return True
        except CatalogError:
            return False
        return True

    @staticmethod
    def check_home(home: str | os.PathLike[str], *, catalog: str | None = None) -> list[Finding]:
        """``lgent doctor``: check the home's catalog (or the shared ``catalog``) and indexes
        without changing anything; each finding that is not ok says what to run to repair it."""
        from lgent.doctor import check_home

        return check_home(Path(home), catalog_url=catalog)

    @property
    def catalog_url(self) -> str | None:
        """The shared catalog's URL when this home is a replica of one, else None."""
        from lgent.catalog.replica import ReplicaCatalog

        return self.store.primary.url if isinstance(self.store, ReplicaCatalog) else None

    def close(self) -> None:
        """Stop the follower and the background indexers (a long build stops at its next
        batch, keeping the batches written), close the brains and the catalog."""
        self._closed = True
        if self._follower is not None:
            self._follower.stop()
        self.brains.closing = True
        self._writer.shutdown(wait=True)
        for thread in self._threads.values():
            thread.shutdown(wait=True)
        self.brains.close()
        self.store.close()

    # -- brains ----------------------------------------------------------------------------

    def _make_brain(self, slot: BrainSlot, fresh: bool, in_memory: bool) -> Brain:
        spec = self.registry.spec(slot.name)
        context = BrainContext(
            index_dir=None if in_memory else self.home.index_dir(slot.name),
            settings=self.settings,
            embedder=self.embedder,
            progress=slot.step,
            entries=self.store.get_many,
            stage=slot.stage,
            fresh=fresh,
            read_only=self.read_only and not in_memory,
            cancelled=lambda: self.brains.between_batches(slot.name),
            background=self.freshness == Freshness.SNAPSHOT,
            replacing=slot.brain if fresh else None,
        )
        return spec.factory(context)

    async def catch_up(self, brains: Sequence[str] | None = None) -> list[SyncReport]:
        """Bring the named brains (default: every registered one) current with the catalog,
        applying the changes since their stamp (or building them if they never were)."""
        names = list(self.registry.names if brains is None else brains)
        slots = [self.brains.slot(name) for name in names]
        return [await self._read(slot.catch_up_now) for slot in slots]

    # -- replicas --------------------------------------------------------------------------

    def _follow(self) -> None:
        """When the catalog is shared (a replica), keep it current from a background thread."""
        from lgent.catalog.replica import Follower, ReplicaCatalog

        if isinstance(self.store, ReplicaCatalog):
            self._follower = Follower(
                self.store, self._pulled, poll_seconds=self.settings.catalog.poll_seconds
            )
            self._follower.start()

    def _pulled(self, report: PullReport) -> None:
        """The follower moved the replica's copy: the open brains catch up with it, each on its
        own indexer (rebuilt when the copy was replaced). This does not wait for them, so a
        slow catch-up (embedding a large batch) never holds the next pull back: a query waits
        for the brains it asks (``freshness="wait"``) or says how far behind they are."""
        for slot in self.brains.slots():
            if slot.brain is not None:
                slot.request(rebuild=report.replaced)

    def catalog_note(self) -> str | None:
        """Why answers may not reflect the catalog: a replica catching up or unable to reach its
        database, rows that failed their checksums; else None. Queries add it to warnings."""
        from lgent.catalog.replica import ReplicaCatalog

        lag = self.store.lag_note() if isinstance(self.store, ReplicaCatalog) else None
        notes = [note for note in (lag, self.store.damage_note()) if note]
        return "; ".join(notes) or None

    def brain(self, name: str) -> Brain:
        """The brain ``name``, current with the catalog (sync; use from worker threads).

        It is not pinned: a catch-up may change it under a caller that reads it twice."""
        return self.brains.current(name)

    def brain_status(self, name: str) -> BrainStatus:
        """The status of brain ``name`` as it is now, opening it if needed but waiting for no
        catch-up; ``extra["catching_up"]`` says what its indexer is doing, if anything."""
        slot = self.brains.slot(name)
        status = slot.opened().status()
        doing = slot.progress()
        if not doing and slot.failure is not None:
            doing = f"failed: {slot.failure}"
        if doing:
            status.extra["catching_up"] = doing
        return status

    async def ready(self, name: str) -> BrainStatus:
        """Open brain ``name``, wait until it reflects the catalog, and let it load what its
        answers need (the embedding model): what a server does before its first query, so that
        no query pays for it. Returns its status."""
        slot = self.brains.slot(name)
        await asyncio.to_thread(slot.opened)
        await slot.reach(await self.change_number())
        await self.search("warm up", brain=name, limit=1, lenient=True)
        return self.brain_status(name)

    async def _pinned(self, name: str, fn: Callable[[Brain], T]) -> T:
        """``fn(brain)`` where brain ``name``'s calls run, with the brain pinned: one state of
        it for the whole call."""
        view = self.brains.view(await self.change_number())
        try:
            brain = await view.acquire(name)
            return await self._run_brain(name, lambda: fn(brain))
        finally:
            view.release()

    async def with_graph(self, fn: Callable[[GraphBrain], T]) -> T:
        """``fn(graph)`` on a worker thread with the graph brain pinned: one state of it for the
        whole call, as fresh as the home's freshness asks (never a wait on a worker thread)."""
        from lgent.brains.graph.brain import GraphBrain

        def call(brain: Brain) -> T:
            if not isinstance(brain, GraphBrain):
                raise QueryError(f"the brain named 'graph' is a {type(brain).__name__}")
            return fn(brain)

        return await self._pinned("graph", call)

    def graph_brain(self) -> GraphBrain:
        """The graph brain, current with the catalog: paths, lineage and the resolver use it."""
        from lgent.brains.graph.brain import GraphBrain

        brain = self.brain("graph")
        if not isinstance(brain, GraphBrain):
            raise QueryError(f"the brain named 'graph' is a {type(brain).__name__}, not GraphBrain")
        return brain

    async def find_paths(
        self,
        source_type: str,
        target_type: str,
        *,
        max_length: int = 5,
        k: int = 5,
        include_unusable: bool = False,
    ) -> list[CompositionPath]:
        """Up to ``k`` pipelines from one type to another, shortest first (ties: healthier)."""
        source, target = as_text(source_type, "source_type"), as_text(target_type, "target_type")
        as_int(max_length, "max_length", 1, 10)
        as_int(k, "k", 1, limits.MAX_LIMIT)
        from lgent.brains.graph.compose import PathSearch

        search = PathSearch(source, target, max_length, k, include_unusable)
        return await self.with_graph(lambda g: g.find_paths(search))

    async def compatible(
        self,
        artifact_id: str,
        *,
        direction: Literal["downstream", "upstream"] = "downstream",
        limit: int = 50,
        include_unusable: bool = False,
    ) -> list[Signature]:
        """Artifacts that can consume this one's output (downstream) or feed its input (upstream)."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        as_int(limit, "limit", 1, limits.MAX_LIMIT)
        if direction not in ("downstream", "upstream"):
            raise bad("direction", "must be 'downstream' or 'upstream'", direction)
        return await self.with_graph(
            lambda g: g.find_compatible(artifact_id, direction, limit, include_unusable)
        )

    async def lineage(
        self, artifact_id: str, *, depth: int | None = None
    ) -> dict[str, list[LineageHit]]:
        """Ancestors, descendants, dependencies, dependents, forging and implementations of one artifact."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        if depth is not None:
            as_int(depth, "depth", 1, 100)
        return await self.with_graph(lambda g: g.lineage_of(artifact_id, depth))

    async def reindex(self, brains: Sequence[str] | None = None) -> list[SyncReport]:
        """Rebuild the named brains' indexes (default: every registered brain) from the catalog."""
        names = list(self.registry.names if brains is None else brains)
        for name in names:
            self.registry.spec(name)
        return [await self._read(self.brains.slot(name).rebuild_now) for name in names]

    # -- search ----------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        brain: str = "keyword",
        filters: SearchFilters | None = None,
        limit: int = 10,
        lenient: bool = False,
    ) -> SearchResult:
        """Search one brain directly. ``lenient`` turns syntax errors into plain terms."""
        check_query(query, limit)
        if filters is not None:
            filters = as_model(filters, SearchFilters, "filters")
        quick = self.registry.spec(brain).quick_reads and limit <= ON_LOOP_LIMIT
        asked = BrainQuery(text=query, limit=limit, filters=filters, strict=not lenient)
        # No hop for a quick brain that the catalog and the brain let be read at once: the
        # search runs here, on the event loop. One hop otherwise: where the brain is open,
        # current enough and free to read, the whole search runs in one call where the brain's
        # calls run; else (it must be opened, caught up or waited for) the view waits on the
        # event loop, as every query's does.
        if quick:
            self._check_open()
            here = self._search_at_once(brain, asked, now=True)
            if here is not None:
                return here
        at_once = await self._run_brain(brain, lambda: self._search_at_once(brain, asked))
        if at_once is not None:
            return at_once
        view = self.brains.view(await self.change_number())
        try:
            found = await view.acquire(brain)
            answer = await self._run_brain(
                brain, lambda: self._search_in(view, brain, found, asked, self.store.snapshot)
            )
            assert answer is not None  # ``snapshot`` always reads
            return answer
        finally:
            view.release()

    def _search_at_once(
        self, name: str, asked: BrainQuery, *, now: bool = False
    ) -> SearchResult | None:
        """``search`` in one sync call when brain ``name`` can be read without waiting (see
        ``BrainView.try_acquire``) at the catalog's current change number; else None.
        ``now``: the catalog too is read only if that needs no wait (``Catalog.snapshot_now``):
        the call never blocks, so the event loop may make it."""
        store = self.store
        number = store.change_number_now() if now else store.change_number()
        if number is None:
            return None
        view = self.brains.view(number)
        try:
            found = view.try_acquire(name)
            if found is None:
                return None
            return self._search_in(
                view, name, found, asked, store.snapshot_now if now else store.snapshot
            )
        finally:
            view.release()

    def _search_in(
        self,
        view: BrainView,
        name: str,
        found: Brain,
        asked: BrainQuery,
        read: Callable[[Sequence[str]], Snapshot | None],
    ) -> SearchResult | None:
        """The answer of brain ``found`` (pinned in ``view``), its hits explained from the text
        of the entries the catalog holds (an artifact removed since is left out); None when
        ``read`` (the catalog's ``snapshot`` or ``snapshot_now``) could not read them."""
        try:
            answer = found.answer(asked)
            ids = [i for i, _ in answer.ranking]
            held = read(ids)
            if held is None:
                return None
            made = (answer.explain(i, held.text(i)) for i in ids if i in held)
            note = self.catalog_note()
            weak = getattr(answer, "weak", "")
            return SearchResult(
                query=asked.text,
                hits=tuple(hit for hit in made if hit is not None),
                total=answer.total,
                warnings=(
                    *answer.warnings,
                    *((one_brain_warning(weak),) if weak else ()),
                    *view.notes(),
                    *((note,) if note else ()),
                ),
            )
        except LGentError as err:
            view.failed(name, err)
            raise

    async def similar(self, artifact_id: str, *, limit: int = 10) -> list[BrainHit]:
        """Artifacts closest in meaning to one artifact (not itself, nor its own versions)."""
        check_query("", limit)
        artifact_id = (await self.get(as_text(artifact_id, "artifact_id"))).id
        from lgent.brains.semantic.brain import SemanticBrain

        def similar(brain: Brain) -> list[BrainHit]:
            if not isinstance(brain, SemanticBrain):
                raise QueryError(f"the brain named 'semantic' is a {type(brain).__name__}")
            return brain.find_similar(artifact_id, limit)

        return await self._pinned("semantic", similar)

    async def query(
        self,
        query: str,
        constraints: Sequence[str] | None = None,
        context: QueryContext | None = None,
        limit: int = 10,
        *,
        lenient: bool = False,
        strict: bool = False,
        shown: range | None = None,
    ) -> QueryResponse:
        """Understand the query, ask the right brains at once, fuse, explain and suggest.

        Text a person or an agent writes never raises: the keyword grammar is read where it is
        clearly meant (``author:F-gent type:agent``, ``"exact phrase" AND pdf``) and restricts
        the results; everything else is plain words. ``strict=True`` reads any grammar operator
        as grammar and raises QuerySyntaxError (with its position) for a malformed query;
        ``lenient=True`` never reads the grammar.

        ``shown`` (a page: ``range(20, 30)``) returns only the results at those positions of
        the first ``limit``, made without making the others; the total, the order and the
        suggestions are those of the whole answer (``lgent.serving.query_page``)."""
        started = time.perf_counter()
        check_query(query, limit)
        check_shown(shown)
        if not query.strip():
            raise QueryError("the query is empty")
        constraints = as_texts(constraints, "constraints")
        if context is not None:
            context = as_model(context, QueryContext, "context")
        QueryArguments.check(
            query=query,
            constraints=tuple(constraints or ()),
            context=context,
            limit=limit,
            lenient=lenient,
            strict=strict,
        )
        from lgent.fusion.fusion import QueryFusion

        change_number = await self.change_number()
        key = (
            " ".join(query.split()),
            tuple(constraints or ()),
            context.model_dump_json() if context is not None else None,
            limit,
            change_number,
            lenient,
            strict,
            shown,
        )
        if self._responses is not None and key in self._responses:
            elapsed = round((time.perf_counter() - started) * 1000, 3)
            cached = self._responses[key]
            return self._with_note(
                cached.model_copy(update={"cached": True, "search_time_ms": elapsed})
            )
        view = self.brains.view(change_number)
        try:
            fusion = QueryFusion(
                view,
                self.registry,
                self.store.snapshot,
                self.settings.fusion,
                self._run,
                runners={name: self._runner(name) for name in self._threads},
            )
            response = await fusion.query(
                query, constraints, context, limit, lenient=lenient, strict=strict, shown=shown
            )
        finally:
            view.release()
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        response = response.model_copy(update={"search_time_ms": elapsed})
        require_an_answer(response)
        behind = any(
            r.change_number is not None and r.change_number < response.change_number
            for r in response.brains
        )
        degraded = behind or any(
            r.reason.startswith(("not ready", "unavailable", "failed")) for r in response.brains
        )
        if not response.results and not constraints and await self.count_entries() == 0:
            response = response.model_copy(
                update={"warnings": (*response.warnings, self._empty_note())}
            )
        if self._responses is not None and not degraded:
            self._responses[key] = response
        return self._with_note(response)

    def _empty_note(self) -> str:
        """What an answer from an empty catalog says (a mistyped home is created empty)."""
        where = "in memory" if self.home.root is None else f"at {self.home.root}"
        return (
            f"the catalog {where} is empty: load artifacts into it first (LGent.load, lgent load)"
        )

    def _with_note(self, response: QueryResponse) -> QueryResponse:
        """The response, with the catalog note in its warnings when there is one."""
        note = self.catalog_note()
        if note is None:
            return response
        return response.model_copy(update={"warnings": (*response.warnings, note)})

    async def resolve(
        self, requirement: TypeRequirement, preferences: ResolutionPreferences | None = None
    ) -> Resolution:
        """The best healthy artifact for a type requirement, scored, with runners-up.

        Raises DependencyError (listing the closest candidates and why each failed) or
        TypeLatticeError for an unknown type."""
        from lgent.resolver.resolver import DependencyResolver

        requirement = as_model(requirement, TypeRequirement, "requirement")
        if preferences is not None:
            preferences = as_model(preferences, ResolutionPreferences, "preferences")
        return await self.with_graph(
            lambda g: DependencyResolver(g, self.store.get_many).resolve(requirement, preferences)
        )

    async def fill_holes(
        self, pipeline: Sequence[str], contracts: Sequence[str] = ()
    ) -> FilledPipeline:
        """Fill every ``???`` in a pipeline of types/artifacts with an artifact or a short path."""
        from lgent.resolver.holes import fill_holes
        from lgent.resolver.resolver import DependencyResolver

        if (
            isinstance(pipeline, str)
            or not isinstance(pipeline, Sequence)
            or not all(isinstance(p, str) for p in pipeline)
        ):
            raise QueryError(
                "pipeline must be a list of strings such as ['DataSource', '???', 'Database']"
            )
        contracts = as_texts(contracts, "contracts")
        return await self.with_graph(
            lambda g: fill_holes(DependencyResolver(g, self.store.get_many), pipeline, contracts)
        )

    def _runner(self, name: str) -> Callable[[Callable[[], T]], Awaitable[T]]:
        thread = self._threads[name]

        async def run(fn: Callable[[], T]) -> T:
            return await asyncio.get_running_loop().run_in_executor(thread, fn)

        return run

    def _check_open(self) -> None:
        """A CatalogError once ``close()`` has run: the catalog and the brains are gone."""
        if self._closed:
            where = "in-memory home" if self.home.root is None else f"home {self.home.root}"
            raise CatalogError(f"this LGent ({where}) is closed; open the home again")

    async def _run_brain(self, name: str, fn: Callable[[], T]) -> T:
        """Run ``fn`` where brain ``name``'s calls run (its own thread, or a worker thread)."""
        self._check_open()
        if name in self._threads:
            return await self._runner(name)(fn)
        return await asyncio.to_thread(fn)

    async def _run(self, fn: Callable[[], T]) -> T:
        self._check_open()
        return await asyncio.to_thread(fn)

    # -- helpers ---------------------------------------------------------------------------

    async def _read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        self._check_open()
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a write on the one writer thread; a read-only home refuses it."""
        self._check_open()
        if self.read_only:
            raise ReadOnlyHomeError(
                f"home {self.home.root} is read-only: it can be queried, not changed "
                "(copy it to a writable place to change it)"
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, fn, *args)

    def _written(self, result: BatchResult, changes: int) -> None:
        """After a commit: the open brains catch up (a small write waits for them)."""
        if changes:
            self.brains.after_write(result.change_number, changes)

    # -- catalog ---------------------------------------------------------------------------

    async def register(self, entry: CatalogEntry | Mapping[str, Any]) -> BatchResult:
        """Add or update one entry (or a mapping of its fields). A new version keeps the older ones."""
        return await self.register_many([as_model(entry, CatalogEntry, "entry")])

    async def register_many(
        self, entries: Iterable[CatalogEntry], types: Iterable[TypeDecl] = ()
    ) -> BatchResult:
        """Add or update entries (and type declarations) in one atomic batch."""
        checked = as_entries(entries)
        declared = [as_model(t, TypeDecl, f"types[{i}]") for i, t in enumerate(types)]
        if len(checked) > limits.MAX_BATCH_ENTRIES:
            raise bad(
                "entries",
                f"{len(checked)} entries in one batch; the limit is {limits.MAX_BATCH_ENTRIES}",
            )
        return await self._write(self._commit_checked, checked, declared)

    def _commit_checked(
        self, entries: Sequence[CatalogEntry], types: Sequence[TypeDecl]
    ) -> BatchResult:
        check_batch(self.store, entries, types)
        result = self.store.register_batch(entries, types)
        self._written(result, _changed(result))
        return result

    async def load(
        self,
        path: str | os.PathLike[str],
        progress: Progress | None = None,
        *,
        kind: str | None = None,
        dry_run: bool = False,
        follow_symlinks: bool | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> BatchReport:
        """Read a file or folder and commit it atomically: each file in the format its content
        shows (or all in format ``kind``: ``mcp``, ``openapi``, ``a2a``, ``openai``, ``jsonl``...).
        Native catalog files are all of it or nothing; an ecosystem source that cannot be read is
        left out (``report.rejected``) and the rest synced (added, updated, retired, unchanged).
        ``dry_run`` reports what would change and writes nothing. Files over
        ``load.max_file_mib`` are refused; symlinks leading out of the folder are skipped unless
        ``follow_symlinks`` (default: the ``load.follow_symlinks`` setting).

        The reading stops, committing nothing, once ``cancelled()`` is true, this call is
        cancelled or the home closes (``LoadStoppedError``, or the cancellation); a commit that
        has begun finishes."""
        if kind is not None:
            as_text(kind, "kind")
        options = self.settings.load
        if follow_symlinks is not None:
            if not isinstance(follow_symlinks, bool):
                raise bad("follow_symlinks", f"expected true or false, got {follow_symlinks!r}")
            options = dataclasses.replace(options, follow_symlinks=follow_symlinks)
        abandoned = threading.Event()

        def stop() -> bool:
            asked = cancelled is not None and cancelled()
            return asked or abandoned.is_set() or self.brains.closing

        try:
            return await self._write(
                self._load_sync, Path(as_path(path)), progress, kind, dry_run, options, stop
            )
        except asyncio.CancelledError:
            abandoned.set()  # the writer thread stops reading at its next file or progress step
            raise

    async def import_mcp(
        self,
        *,
        command: str | None = None,
        url: str | None = None,
        dry_run: bool = False,
        timeout: float = 60.0,
        name: str | None = None,
    ) -> BatchReport:
        """Harvest a running MCP server's tools through the official ``mcp`` client, started
        with ``command`` (stdio) or reached at ``url`` (streamable HTTP), and sync them like a
        ``tools/list`` file of that server. ``name``: the server's name here (its id and owner)
        instead of the one it gives itself (``lgent.catalog.harvest``)."""
        from lgent.catalog.harvest import harvest_mcp
        from lgent.catalog.loaders import read_document

        doc = await harvest_mcp(command=command, url=url, timeout=timeout, name=name)
        batch = await asyncio.to_thread(read_document, doc, "mcp")
        if batch.rejected:
            raise LoadError(batch.rejected[0][1])
        return await self._write(self._commit_loaded, batch, dry_run)

    def _load_sync(
        self,
        path: Path,
        progress: Progress | None,
        kind: str | None,
        dry_run: bool,
        options: LoadSettings,
        cancelled: Callable[[], bool],
    ) -> BatchReport:
        from lgent.catalog.loaders import read_path

        batch = read_path(path, progress, kind=kind, options=options, cancelled=cancelled)
        return self._commit_loaded(batch, dry_run)

    def _commit_loaded(self, batch: LoadedBatch, dry_run: bool) -> BatchReport:
        from lgent.catalog.reconcile import commit_loaded

        report = commit_loaded(self.store, batch, dry_run)
        if not dry_run:
            self._written(report.result, _changed(report.result))
        return report

    async def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        """The latest version of an artifact (or ``version``). Raises NotFoundError. A real-world
        id (``Ant Design Components``) is looked up by its stable form (``lgent.ids``)."""
        as_text(artifact_id, "artifact_id")
        check_version(version)
        return await self._read(self.store.get, stable_id(artifact_id), version)

    async def get_many(self, artifact_ids: Sequence[str]) -> dict[str, CatalogEntry]:
        """The latest version of each known id (unknown ids are left out)."""
        return await self._read(self.store.get_many, list(artifact_ids))

    async def versions(self, artifact_id: str) -> list[str]:
        """The versions the catalog holds of an artifact, oldest first. Raises NotFoundError."""
        found: list[str] = await self._read(
            self.store.versions, stable_id(as_text(artifact_id, "artifact_id"))
        )
        if not found:
            raise NotFoundError(artifact_id)
        return found

    async def remove(self, artifact_id: str, version: str | None = None) -> int:
        """Remove an artifact (all versions, or one). Raises NotFoundError."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        check_version(version)
        return await self._write(self._remove_sync, artifact_id, version)

    def _remove_sync(self, artifact_id: str, version: str | None) -> int:
        removed = self.store.remove(artifact_id, version)
        self._written(BatchResult(change_number=self.store.change_number()), 1)
        return removed

    async def list_entries(
        self,
        filters: EntryFilter | Mapping[str, Any] | None = None,
        *,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[CatalogEntry]:
        """Artifacts (latest versions) passing ``filters`` (an ``EntryFilter`` or a mapping of
        its fields), in id order: ``limit`` of them (None: all) after the first ``offset``."""
        check_offset(offset)
        if limit is not None:
            check_offset(limit, "limit")
        chosen = EntryFilter.of(filters)
        return await self._read(self.store.list_entries, chosen, limit=limit, offset=offset)

    async def count_entries(self, filters: EntryFilter | Mapping[str, Any] | None = None) -> int:
        """How many artifacts (latest versions) pass ``filters`` (as ``list_entries`` reads them)."""
        return await self._read(self.store.count, EntryFilter.of(filters))

    async def types(self) -> list[TypeDecl]:
        return await self._read(self.store.types)

    async def stats(self) -> dict[str, Any]:
        return await self._read(self.store.stats)

    async def change_number(self) -> int:
        return await self._read(self.store.change_number)

    async def changes_since(self, seq: int) -> list[Change]:
        return await self._read(self.store.changes_since, seq)


WAITING_FOR_A_WRITER = "waiting for another process to finish writing the catalog"
"""The name ``progress(name, seconds, 0)`` is called with while a write waits for its turn."""


def _writer_wait(progress: BuildProgress) -> Callable[[float], None]:
    return lambda waited: progress(WAITING_FOR_A_WRITER, int(waited), 0)


def _changed(result: BatchResult) -> int:
    """How many changes a write recorded."""
    return sum(
        len(part)
        for part in (
            result.added,
            result.updated,
            result.retired,
            result.types_added,
            result.types_updated,
        )
    )


def check_shown(shown: range | None) -> None:
    """``shown`` is None or a range of positions (step 1) from 0 to ``limits.MAX_LIMIT``."""
    if shown is None:
        return
    if not isinstance(shown, range) or shown.step != 1 or not 0 <= shown.start < shown.stop:
        raise QueryError(
            f"shown must be a range of result positions such as range(0, 10), got {shown!r}"
        )
    if shown.stop > limits.MAX_LIMIT:
        raise QueryError(f"shown reaches position {shown.stop}; the limit is {limits.MAX_LIMIT}")


def check_version(version: str | None) -> None:
    """None (the latest) or a version's text; a blank one is an error, not "no such artifact"."""
    if version is not None and not as_text(version, "version").strip():
        raise bad("version", "must not be empty (leave it out for the latest)", version)


def check_offset(value: int, argument: str = "offset") -> None:
    """Reject a row count (an offset, or a listing's limit) that is not an integer from 0 to
    ``MAX_OFFSET`` with a QueryError naming ``argument``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limits.MAX_OFFSET:
        raise QueryError(
            f"{argument} must be an integer from 0 to {limits.MAX_OFFSET}, got {value!r}"
        )


def check_query(query: str, limit: int) -> None:
    """Reject over-long queries and out-of-range limits with a clear QueryError."""
    if not isinstance(query, str):
        raise QueryError(f"query must be a string, got {type(query).__name__}")
    if len(query) > limits.MAX_QUERY_LENGTH:
        raise QueryError(
            f"query is {len(query)} characters long; the limit is {limits.MAX_QUERY_LENGTH}"
        )
    control = _CONTROL.search(query)
    if control is not None:
        raise QueryError(
            f"query contains the control character {control.group()!r} at position {control.start()}"
        )
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= limits.MAX_LIMIT:
        raise QueryError(f"limit must be an integer from 1 to {limits.MAX_LIMIT}, got {limit!r}")
