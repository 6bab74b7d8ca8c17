"""The LGent facade: opens a home, wires the catalog and the brains, and offers the verbs.

It holds no ranking, parsing or SQL of its own, and checks each argument once at its door
(``lgent.validation``). Every call runs through one of the home's doors (``runtime/doors.py``):
reads on worker threads, every write on the one writer thread, a brain's calls where they run.
The brains live in a ``BrainPool`` (``runtime/brain_pool.py``): each opened when first needed,
pinned by the query that reads it, and caught up by its own background indexer.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lgent.brains.base import Brain, BrainQuery, BrainStatus, QuestionReader
from lgent.brains.defaults import default_registry
from lgent.brains.registry import BrainRegistry
from lgent.catalog.backends import has_catalog
from lgent.catalog.protocol import Catalog
from lgent.catalog.records import Finding
from lgent.config import Settings, load_settings
from lgent.errors import QueryError
from lgent.facets import Facts
from lgent.home import Home
from lgent.models import (
    BrainHit,
    QueryContext,
    QueryResponse,
    SearchFilters,
    SearchResult,
)
from lgent.runtime.brain_pool import BrainPool, Freshness
from lgent.runtime.contexts import BrainMaker
from lgent.runtime.direct import DirectSearch
from lgent.runtime.doors import Doors
from lgent.runtime.indexing import BuildProgress, SyncReport
from lgent.runtime.opening import open_home
from lgent.runtime.responses import ResponseCache
from lgent.validation import (
    QueryArguments,
    as_model,
    as_text,
    bad,
    check_query,
    check_shown,
)
from lgent.verbs.catalog_verbs import CatalogVerbs
from lgent.verbs.graph_verbs import GraphVerbs

if TYPE_CHECKING:
    from lgent.brains.semantic.embedders import Embedder
    from lgent.catalog.replica import Follower, PullReport
    from lgent.runtime.side_builds import SideBuild

__all__ = ["BuildProgress", "Freshness", "LGent"]

T = TypeVar("T")


class LGent(CatalogVerbs, GraphVerbs):
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
        self.home, self.store, self.embedder, self.progress = home, store, embedder, progress
        self.settings = settings or Settings()
        self.read_only = read_only
        self._custom_brains = brains is not None
        self.registry = brains if brains is not None else default_registry()
        self.settings.fusion.check_brains(self.registry.names)
        try:
            self.freshness = Freshness(freshness)
        except ValueError:
            raise bad("freshness", "must be 'wait' or 'snapshot'", freshness) from None
        make = BrainMaker(
            home,
            store,
            self.settings,
            self.registry,
            embedder,
            read_only,
            self.freshness,
            lambda: self.brains,
        )
        self.brains = BrainPool(
            self.registry,
            store,
            make,
            freshness=self.freshness,
            read_only=read_only,
            index_root=None if home.root is None else home.root / "indexes",
            progress=progress,
        )
        where = "in-memory home" if home.root is None else f"home {home.root}"
        self.doors = Doors(self.registry, self.brains, read_only=read_only, where=where)
        self._direct = DirectSearch(
            self.registry, self.brains, self.doors, store, self.catalog_note
        )
        self.responses = ResponseCache(self.settings.cache)
        self.facts = Facts(store)
        self._follower: Follower | None = None

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | Mapping[str, Any] | None = None,
        **options: Any,
    ) -> AsyncIterator[LGent]:
        """Open (creating if missing) the home at ``home``; ``None`` keeps everything in memory.
        The options are ``open_sync``'s; the home is closed when the block ends."""
        lg = await asyncio.to_thread(cls.open_sync, home, settings, **options)
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
        """Open a home without an event loop; call ``close()`` when done.

        Settings come from ``settings`` (or a mapping of sections, read as ``lgent.toml`` is),
        else from ``<home>/lgent.toml``, else the defaults. ``catalog`` (else ``[catalog] url``)
        names a shared PostgreSQL catalog: the home then holds this process's replica of it.
        ``embedder`` replaces the configured model; ``progress(brain, done, total)`` hears how a
        long index build is going; ``brains`` is the brain registry (default: keyword, semantic
        and graph). ``freshness``: ``"wait"`` (default) makes each query wait until the brains
        it asks reflect the catalog as the query found it; ``"snapshot"`` (servers) answers at
        once from each brain's last consistent state, and says how far behind it is.
        ``read_only``: open without writing anything; ``None`` opens read-only exactly when the
        home cannot be written (a read-only mount, a snapshot, no write permission)."""
        got = open_home(
            home, settings, catalog=catalog, progress=progress, brains=brains, read_only=read_only
        )
        try:
            lg = cls(
                got.home,
                got.store,
                got.settings,
                embedder,
                progress,
                brains=brains,
                freshness=freshness,
                read_only=got.read_only,
            )
        except BaseException:
            got.store.close()
            raise
        lg._follow()
        return lg

    @staticmethod
    def source_formats() -> list[str]:
        """The formats ``load(..., kind=)`` and ``lgent import KIND`` read (``mcp``...)."""
        from lgent.catalog.readers import ReaderRegistry

        return ReaderRegistry.default().names

    @staticmethod
    def is_replica(home: str | os.PathLike[str]) -> bool:
        """Whether ``home`` holds a replica of a shared catalog (and no catalog of its own)."""
        return Home(Path(home)).is_replica()

    @staticmethod
    def has_catalog(home: str | os.PathLike[str], *, catalog: str | None = None) -> bool:
        """Whether ``home`` holds a catalog, or the shared ``catalog`` (else ``[catalog] url``)
        is held by the home or its database (``catalog.backends.has_catalog``)."""
        layout = Home(Path(home))
        url = catalog if catalog is not None else load_settings(layout.settings_file).catalog.url
        return has_catalog(layout, url)

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
        batch, keeping the batches written), close the brains and the catalog. A view
        (``scoped``, ``filtered``) closes nothing: the home it views stays open."""
        if self.is_view:
            return
        if self._follower is not None:
            self._follower.stop()
        self.brains.closing = True
        self.doors.close()
        self.brains.close()
        self.store.close()

    # -- brains ----------------------------------------------------------------------------

    async def catch_up(self, brains: Sequence[str] | None = None) -> list[SyncReport]:
        """Bring the named brains (default: every registered one) current with the catalog."""
        names = list(self.registry.names if brains is None else brains)
        return [await self.doors.read(self.brains.slot(name).catch_up_now) for name in names]

    async def build(self, *, complete: bool = False) -> dict[str, str]:
        """Bring the brains current, each brain's state said (``lgent load`` says so after a
        load): the quick ones are built or caught up now; a slow one (embedding) only when
        ``complete``, else its entry says what is left, about how long it takes and who builds
        it (the first query that needs it, when the build is short; else ``lgent reindex``)."""
        number = await self.change_number()
        said: dict[str, str] = {}
        beside = await self._side_builds(number)
        try:
            for spec in self.registry:
                slot = self.brains.slot(spec.name)
                await self.doors.read(slot.opened)
                side = beside.get(spec.name)
                failed = None if side is None else await side.finished()
                beside.pop(spec.name, None)  # ended: nothing left to stop
                if side is not None and failed is None:
                    await self.doors.read(slot.reopen)
                if slot.change_number >= number:
                    said[spec.name] = "current"
                elif spec.hints.slow_build and not complete:
                    said[spec.name] = await self.doors.read(
                        self.brains.pending_note, spec.name, number
                    )
                else:
                    report = await self.doors.read(slot.catch_up_now)
                    done = report.action.replace("_", " ")
                    said[spec.name] = f"{done} to change {report.to_change}"
                if side is not None:
                    said[spec.name] = side.said(failed, slot.change_number)
        finally:
            for side in beside.values():
                side.stop()
        return said

    async def _side_builds(self, number: int) -> dict[str, SideBuild]:
        """The quick brains far behind ``number`` after the first, rebuilt each by a process
        of its own (``runtime.side_builds``); none unless that process would open this very
        home as it is: on disk and writable, its own SQLite catalog, the default brains and
        the settings of its ``lgent.toml``."""
        from lgent.catalog.store import CatalogStore
        from lgent.runtime.side_builds import side_brains, start_side_builds

        root = self.home.root
        if root is None or self.read_only or self._custom_brains:
            return {}
        if type(self.store) is not CatalogStore:
            return {}
        behind: list[tuple[str, int]] = []
        for spec in self.registry:
            if not spec.hints.slow_build:
                slot = self.brains.slot(spec.name)
                await self.doors.read(slot.opened)
                if slot.busy:  # its own indexer is at it already
                    return {}
                if slot.change_number < number:
                    behind.append((spec.name, number - max(slot.change_number, 0)))
        names = side_brains(behind)
        if not names or self.settings != load_settings(self.home.settings_file, self.registry):
            return {}
        return start_side_builds(root, names)

    async def reindex(self, brains: Sequence[str] | None = None) -> list[SyncReport]:
        """Rebuild the named brains' indexes (default: every registered brain) from the catalog."""
        names = list(self.registry.names if brains is None else brains)
        for name in names:
            self.registry.spec(name)
        return [await self.doors.read(self.brains.slot(name).rebuild_now) for name in names]

    def _follow(self) -> None:
        """A shared catalog's replica is kept current by a background thread. After each pull
        the open brains catch up, each on its own indexer (rebuilt when the copy was replaced),
        without waiting for them: a slow catch-up (embedding a large batch) never holds the
        next pull back, and a query waits for the brains it asks (``freshness="wait"``) or says
        how far behind they are."""
        from lgent.catalog.replica import follow

        def pulled(report: PullReport) -> None:
            for slot in self.brains.slots():
                if slot.brain is not None:
                    slot.request(rebuild=report.replaced)

        self._follower = follow(self.store, pulled, self.settings.catalog.poll_seconds)

    def catalog_note(self) -> str | None:
        """Why answers may not reflect the catalog: a replica catching up or unable to reach its
        database, rows that failed their checksums; else None. Queries add it to warnings."""
        from lgent.catalog.replica import lag_note

        notes = [note for note in (lag_note(self.store), self.store.damage_note()) if note]
        return "; ".join(notes) or None

    def brain(self, name: str) -> Brain:
        """The brain ``name``, current with the catalog (sync; not pinned: a catch-up may change
        it under a caller that reads it twice)."""
        return self.brains.current(name)

    def question_reader(self) -> QuestionReader | None:
        """The brain that reads type and relationship questions, current (None: none);
        ``lgent.fusion.classify.classify(text, reader)`` reads a query with it."""
        name = self.registry.question_reader
        reader = None if name is None else self.brains.current(name)
        return reader if isinstance(reader, QuestionReader) else None

    def brain_status(self, name: str) -> BrainStatus:
        """The status of brain ``name`` as it is now, opening it if needed but waiting for no
        catch-up; ``extra["catching_up"]`` says what its indexer is doing, if anything."""
        slot = self.brains.slot(name)
        status = slot.opened().status()
        doing = slot.progress() or (f"failed: {slot.failure}" if slot.failure else "")
        if doing:
            status.extra["catching_up"] = doing
        return status

    async def ready(self, name: str) -> BrainStatus:
        """Open brain ``name``, wait until it reflects the catalog, and let it load what its
        answers need (the embedding model): what a server does before its first query."""
        slot = self.brains.slot(name)
        await asyncio.to_thread(slot.opened)
        await slot.reach(await self.change_number())
        await self.search("warm up", brain=name, limit=1, lenient=True)
        return self.brain_status(name)

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
        self.registry.spec(brain)
        within = await self.visible()
        if within is not None:
            filters = (filters or SearchFilters()).model_copy(update={"ids": within})
        asked = BrainQuery(text=query, limit=limit, filters=filters, strict=not lenient)
        return await self._direct.search(brain, asked)

    async def similar(self, artifact_id: str, *, limit: int = 10) -> list[BrainHit]:
        """Artifacts closest in meaning to one artifact (not itself, nor its own versions)."""
        check_query("", limit)
        artifact_id = (await self.get(as_text(artifact_id, "artifact_id"))).id
        from lgent.brains.semantic.brain import SemanticBrain

        within = await self.visible()

        def similar(brain: Brain) -> list[BrainHit]:
            if not isinstance(brain, SemanticBrain):
                raise QueryError(f"the brain named 'semantic' is a {type(brain).__name__}")
            if within is None:
                return brain.find_similar(artifact_id, limit)
            return brain.find_similar(artifact_id, limit, within)

        return await self.doors.pinned("semantic", similar, await self.change_number())

    async def query(
        self,
        query: str | QueryArguments,
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
        ``lenient=True`` never reads the grammar. ``shown`` (a page: ``range(20, 30)``) makes
        only the results at those positions of the first ``limit``; the total, the order and
        the suggestions are those of the whole answer. ``query`` may be the arguments validated
        already (``QueryArguments``): the others but ``shown`` must then be left out."""
        started = time.perf_counter()
        check_shown(shown)
        if isinstance(query, QueryArguments):
            if (constraints, context, limit, lenient, strict) != (None, None, 10, False, False):
                raise QueryError("give the query's arguments as QueryArguments or one by one")
            arguments = query
        else:
            arguments = QueryArguments.of(query, constraints, context, limit, lenient, strict)
        from lgent.runtime.answering import answer_query

        response = await answer_query(self, arguments, shown, started)
        note = self.catalog_note()
        if note is None:
            return response
        return response.model_copy(update={"warnings": (*response.warnings, note)})
