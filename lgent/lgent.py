"""The LGent facade: opens a home, wires the catalog and the brains, and delegates.

It holds no ranking, parsing or SQL of its own. Reads run in worker threads; every write goes
through one single-thread executor, so there is exactly one writer.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from cachetools import TTLCache

from lgent import limits
from lgent.brains.base import Brain
from lgent.catalog.checks import BatchReport, check_batch
from lgent.catalog.loaders import Progress, read_path
from lgent.catalog.store import BatchResult, CatalogStore, Change, EntryFilter
from lgent.config import Settings, load_settings
from lgent.errors import LGentError, QueryError
from lgent.home import Home
from lgent.indexing import BuildProgress, SyncReport, sync
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

if TYPE_CHECKING:
    from lgent.brains.graph.brain import GraphBrain
    from lgent.brains.graph.compose import CompositionPath, Signature
    from lgent.brains.graph.lineage import LineageHit
    from lgent.brains.keyword.brain import KeywordBrain
    from lgent.brains.semantic.brain import SemanticBrain
    from lgent.brains.semantic.embedders import Embedder
    from lgent.fusion.fusion import BrainSet

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

BrainName = Literal["keyword", "semantic", "graph"]

P = ParamSpec("P")
T = TypeVar("T")


class LGent:
    """An open L-gent home. Use ``async with LGent.open(home) as lg:``."""

    def __init__(
        self,
        home: Home,
        store: CatalogStore,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
    ) -> None:
        self.home = home
        self.store = store
        self.settings = settings or Settings()
        self.embedder = embedder
        self.progress = progress
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgent-writer")
        # Query embeddings always run on this one thread: torch keeps its worker threads warm
        # for it, and concurrent queries do not oversubscribe the cores (measured at 100k:
        # p99 of one query embedding 12.7 ms here against 17.3 ms on rotating pool threads).
        self._embedding = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lgent-embedding")
        self._brains: dict[str, Brain] = {}
        self._responses: TTLCache[tuple[Any, ...], QueryResponse] | None = (
            TTLCache(self.settings.cache.size, self.settings.cache.ttl_seconds)
            if self.settings.cache.size and self.settings.cache.ttl_seconds
            else None
        )
        self._brain_locks = {name: threading.Lock() for name in ("keyword", "semantic", "graph")}

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
    ) -> AsyncIterator[LGent]:
        """Open (creating if missing) the home at ``home``; ``None`` keeps everything in memory.

        Settings come from ``settings``, else from ``<home>/lgent.toml``, else the defaults.
        ``embedder`` replaces the configured model (e.g. one already loaded, shared by homes);
        ``progress(brain, done, total)`` hears how a long index build is going."""
        lg = await asyncio.to_thread(
            cls.open_sync, home, settings, embedder=embedder, progress=progress
        )
        try:
            yield lg
        finally:
            await asyncio.to_thread(lg.close)

    @classmethod
    def open_sync(
        cls,
        home: str | os.PathLike[str] | None = None,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        progress: BuildProgress | None = None,
    ) -> LGent:
        """Open a home without an event loop; call ``close()`` when done."""
        layout = Home(None if home is None else Path(home))
        layout.create()
        chosen = settings if settings is not None else load_settings(layout.settings_file)
        return cls(layout, CatalogStore(layout.catalog_db), chosen, embedder, progress)

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self._embedding.shutdown(wait=True)
        for brain in self._brains.values():
            brain.close()
        self.store.close()

    # -- brains ----------------------------------------------------------------------------

    def _make_brain(self, name: str) -> Brain:
        if name == "keyword":
            from lgent.brains.keyword.brain import KeywordBrain

            return KeywordBrain(
                self.home.index_dir("keyword"), self.settings.keyword, entries=self.store.get_many
            )
        if name == "semantic":
            from lgent.brains.semantic.brain import SemanticBrain

            report = self.progress
            return SemanticBrain(
                self.home.index_dir("semantic"),
                self.settings.semantic,
                self.embedder,
                progress=None if report is None else lambda d, t: report("semantic", d, t),
            )
        if name == "graph":
            from lgent.brains.graph.brain import GraphBrain

            return GraphBrain()
        raise QueryError(f"unknown brain {name!r} (expected keyword, semantic or graph)")

    def _current(self, name: str, *, rebuild: bool = False) -> tuple[Brain, SyncReport]:
        """The brain ``name``, created on first use and brought up to the catalog's change number."""
        with self._brain_locks[name]:
            brain = self._brains.get(name)
            if brain is None:
                brain = self._brains[name] = self._make_brain(name)
            return brain, sync(brain, self.store, rebuild=rebuild)

    def keyword_brain(self) -> KeywordBrain:
        """The keyword brain, current with the catalog (sync; use from worker threads)."""
        brain, _ = self._current("keyword")
        return brain  # type: ignore[return-value]

    def semantic_brain(self) -> SemanticBrain:
        """The semantic brain, current with the catalog (loads the model on first build/query)."""
        brain, _ = self._current("semantic")
        return brain  # type: ignore[return-value]

    def graph_brain(self) -> GraphBrain:
        """The graph brain, current with the catalog (sync; use from worker threads)."""
        brain, _ = self._current("graph")
        return brain  # type: ignore[return-value]

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
        return await self._read(
            lambda: self.graph_brain().find_paths(source, target, max_length, k, include_unusable)
        )

    async def compatible(
        self,
        artifact_id: str,
        *,
        direction: Literal["downstream", "upstream"] = "downstream",
        limit: int = 50,
        include_unusable: bool = False,
    ) -> list[Signature]:
        """Artifacts that can consume this one's output (downstream) or feed its input (upstream)."""
        as_text(artifact_id, "artifact_id")
        as_int(limit, "limit", 1, limits.MAX_LIMIT)
        if direction not in ("downstream", "upstream"):
            raise bad("direction", "must be 'downstream' or 'upstream'", direction)
        return await self._read(
            lambda: self.graph_brain().find_compatible(
                artifact_id, direction, limit, include_unusable
            )
        )

    async def lineage(
        self, artifact_id: str, *, depth: int | None = None
    ) -> dict[str, list[LineageHit]]:
        """Ancestors, descendants, dependencies, dependents, forging and implementations of one artifact."""
        as_text(artifact_id, "artifact_id")
        if depth is not None:
            as_int(depth, "depth", 1, 100)
        return await self._read(lambda: self.graph_brain().lineage_of(artifact_id, depth))

    async def reindex(
        self, brains: Sequence[str] = ("keyword", "semantic", "graph")
    ) -> list[SyncReport]:
        """Rebuild the named brains' indexes from the catalog."""
        reports = []
        for name in brains:
            if name not in self._brain_locks:
                raise QueryError(f"unknown brain {name!r} (expected keyword, semantic or graph)")
            reports.append((await self._read(self._current, name, rebuild=True))[1])
        return reports

    # -- search ----------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        brain: BrainName = "keyword",
        filters: SearchFilters | None = None,
        limit: int = 10,
        lenient: bool = False,
    ) -> SearchResult:
        """Search one brain directly. ``lenient`` turns syntax errors into plain terms."""
        check_query(query, limit)
        if filters is not None:
            filters = as_model(filters, SearchFilters, "filters")
        if brain == "keyword":
            found = await self._read(
                lambda: self.keyword_brain().search(query, filters, limit, lenient=lenient)
            )
            return SearchResult(
                query=query,
                hits=tuple(found.hits),
                total=found.total,
                warnings=tuple(found.warnings),
            )
        if brain == "semantic":
            hits = await self._read(
                lambda: self.semantic_brain().search(query, filters, None, limit)
            )
            return SearchResult(query=query, hits=tuple(hits), total=len(hits))
        if brain == "graph":
            result = await self._read(lambda: self.graph_brain().search(query, filters, limit))
            return SearchResult(
                query=query,
                hits=tuple(result.hits),
                total=len(result.hits),
                warnings=() if result.operation else (result.reason,),
            )
        raise QueryError(f"unknown brain {brain!r} (expected keyword, semantic or graph)")

    async def similar(self, artifact_id: str, *, limit: int = 10) -> list[BrainHit]:
        """Artifacts closest in meaning to one artifact (not itself, nor its own versions)."""
        check_query("", limit)
        await self.get(as_text(artifact_id, "artifact_id"))
        return await self._read(lambda: self.semantic_brain().find_similar(artifact_id, limit))

    async def query(
        self,
        query: str,
        constraints: Sequence[str] | None = None,
        context: QueryContext | None = None,
        limit: int = 10,
        *,
        lenient: bool = False,
    ) -> QueryResponse:
        """Understand the query, ask the right brains at once, fuse, explain and suggest.

        A query that clearly uses the keyword grammar but breaks it raises QuerySyntaxError;
        ``lenient=True`` reads it as plain words instead (for agents sending free text)."""
        check_query(query, limit)
        if not query.strip():
            raise QueryError("the query is empty")
        constraints = as_texts(constraints, "constraints")
        if context is not None:
            context = as_model(context, QueryContext, "context")
        from lgent.fusion.fusion import QueryFusion

        change_number = await self.change_number()
        key = (
            " ".join(query.split()),
            tuple(constraints or ()),
            context.model_dump_json() if context is not None else None,
            limit,
            change_number,
            lenient,
        )
        if self._responses is not None and key in self._responses:
            return self._responses[key].model_copy(update={"cached": True, "search_time_ms": 0.0})
        brains = await self._read(self._brain_set)
        fusion = QueryFusion(
            brains,
            self.store.snapshot,
            self.settings.fusion,
            self._run,
            run_semantic=self._run_embedding,
        )
        response = await fusion.query(query, constraints, context, limit, lenient=lenient)
        if self._responses is not None:
            self._responses[key] = response
        return response

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
        return await self._read(
            lambda: DependencyResolver(self.graph_brain(), self.store.get_many).resolve(
                requirement, preferences
            )
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
        return await self._read(
            lambda: fill_holes(
                DependencyResolver(self.graph_brain(), self.store.get_many), pipeline, contracts
            )
        )

    def _brain_set(self) -> BrainSet:
        from lgent.fusion.fusion import BrainSet

        semantic: SemanticBrain | None
        try:
            semantic, unavailable = self.semantic_brain(), ""
        except LGentError as err:
            semantic, unavailable = None, str(err)
        return BrainSet(self.keyword_brain(), self.graph_brain(), semantic, unavailable)

    async def _run_embedding(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._embedding, fn)

    async def _run(self, fn: Callable[[], T]) -> T:
        return await asyncio.to_thread(fn)

    # -- helpers ---------------------------------------------------------------------------

    async def _read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, fn, *args)

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
        return self.store.register_batch(entries, types)

    async def load(
        self, path: str | os.PathLike[str], progress: Progress | None = None
    ) -> BatchReport:
        """Read a catalog file or folder and commit it atomically: all of it, or nothing."""
        return await self._write(self._load_sync, Path(as_path(path)), progress)

    def _load_sync(self, path: Path, progress: Progress | None) -> BatchReport:
        batch = read_path(path, progress)
        report = check_batch(self.store, batch.entries, batch.types, located=batch.records)
        report.result = self.store.register_batch(batch.entries, batch.types)
        report.files = batch.files
        report.skipped = batch.skipped
        return report

    async def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        """The latest version of an artifact (or ``version``). Raises NotFoundError."""
        as_text(artifact_id, "artifact_id")
        if version is not None:
            as_text(version, "version")
        return await self._read(self.store.get, artifact_id, version)

    async def get_many(self, artifact_ids: Sequence[str]) -> dict[str, CatalogEntry]:
        """The latest version of each known id (unknown ids are left out)."""
        return await self._read(self.store.get_many, list(artifact_ids))

    async def versions(self, artifact_id: str) -> list[str]:
        return await self._read(self.store.versions, artifact_id)

    async def remove(self, artifact_id: str, version: str | None = None) -> int:
        """Remove an artifact (all versions, or one). Raises NotFoundError."""
        as_text(artifact_id, "artifact_id")
        if version is not None:
            as_text(version, "version")
        return await self._write(self.store.remove, artifact_id, version)

    async def list_entries(
        self, filters: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[CatalogEntry]:
        return await self._read(self.store.list_entries, filters, limit=limit, offset=offset)

    async def count_entries(self, filters: EntryFilter | None = None) -> int:
        """How many artifacts (latest versions) pass ``filters``."""
        return await self._read(self.store.count, filters)

    async def types(self) -> list[TypeDecl]:
        return await self._read(self.store.types)

    async def stats(self) -> dict[str, Any]:
        return await self._read(self.store.stats)

    async def change_number(self) -> int:
        return await self._read(self.store.change_number)

    async def changes_since(self, seq: int) -> list[Change]:
        return await self._read(self.store.changes_since, seq)


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
