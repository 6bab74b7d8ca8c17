"""The catalog graph's verbs of the facade: paths, compatibility, lineage, the resolver and
hole filling, each reading one pinned state of the graph (as the view's scope sees it:
``lgent.graph.scoped``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, TypeVar

from lgent import limits
from lgent.brains.base import Brain, KeepsGraph
from lgent.brains.registry import BrainRegistry
from lgent.catalog.protocol import Catalog
from lgent.errors import QueryError
from lgent.ids import stable_id
from lgent.models import FilledPipeline, Resolution, ResolutionPreferences, TypeRequirement
from lgent.runtime.brain_pool import BrainPool
from lgent.runtime.doors import Doors
from lgent.validation import as_int, as_model, as_text, as_texts, bad

if TYPE_CHECKING:
    from lgent.graph.artifacts import ArtifactInfo
    from lgent.graph.lineage import LineageHit
    from lgent.graph.protocol import GraphReader
    from lgent.graph.signatures import CompositionPath, Signature
    from lgent.models import CatalogEntry

T = TypeVar("T")


class GraphVerbs:
    """What an open home answers from the catalog graph."""

    store: Catalog
    doors: Doors
    brains: BrainPool
    registry: BrainRegistry

    if TYPE_CHECKING:

        async def visible(self) -> frozenset[str] | None: ...  # AccessVerbs

        def within(self) -> frozenset[str] | None: ...  # AccessVerbs

    def catalog_graph(self) -> GraphReader:
        """The catalog graph, current (sync, not pinned: prefer ``with_graph``)."""
        keeper = self.registry.graph_keeper
        brain = self.brains.current(keeper) if keeper is not None else None
        if not isinstance(brain, KeepsGraph):
            raise QueryError("no registered brain keeps the catalog graph")
        within = self.within()
        if within is None:
            return brain.catalog_graph()
        from lgent.graph.scoped import ScopedGraph

        return ScopedGraph(brain.catalog_graph(), within)

    async def with_graph(self, fn: Callable[[GraphReader], T]) -> T:
        """``fn(graph)`` on a worker thread with the brain that keeps the catalog graph pinned:
        one state of the graph for the whole call, as fresh as the home's freshness asks."""
        keeper = self.registry.graph_keeper
        if keeper is None:
            raise QueryError("no registered brain keeps the catalog graph")
        within = await self.visible()

        def call(brain: Brain) -> T:
            assert isinstance(brain, KeepsGraph)  # its spec's capability, checked when made
            graph = brain.catalog_graph()
            if within is not None:
                from lgent.graph.scoped import ScopedGraph

                graph = ScopedGraph(graph, within)
            return fn(graph)

        return await self.doors.pinned(
            keeper, call, await self.doors.read(self.store.change_number)
        )

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
        from lgent.graph.signatures import PathSearch  # it checks max_length and k

        source, target = as_text(source_type, "source_type"), as_text(target_type, "target_type")
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
        """Artifacts that can consume this one's output (downstream) or feed its input."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        as_int(limit, "limit", 1, limits.MAX_LIMIT)
        if direction not in ("downstream", "upstream"):
            raise bad("direction", "must be 'downstream' or 'upstream'", direction)
        return await self.with_graph(
            lambda g: g.find_compatible(artifact_id, direction, limit, include_unusable)
        )

    async def runnable(self, have: Sequence[str], *, limit: int = 50) -> list[ArtifactInfo]:
        """What can run with what the caller has: artifacts whose every need (every input type,
        inferred kinds included) one of the ``have`` types satisfies, those using more of what
        was given first (``lgent compatible --have URL,Date``)."""
        given = as_texts(have, "have")
        if not given:
            raise bad("have", "name at least one type you have", have)
        as_int(limit, "limit", 1, limits.MAX_LIMIT)
        return await self.with_graph(lambda g: g.runnable_with(given, limit))

    async def lineage(
        self, artifact_id: str, *, depth: int | None = None
    ) -> dict[str, list[LineageHit]]:
        """Ancestors, descendants, dependencies, dependents, forging and implementations."""
        artifact_id = stable_id(as_text(artifact_id, "artifact_id"))
        if depth is not None:
            as_int(depth, "depth", 1, 100)
        return await self.with_graph(lambda g: g.lineage_of(artifact_id, depth))

    async def resolve(
        self, requirement: TypeRequirement, preferences: ResolutionPreferences | None = None
    ) -> Resolution:
        """The best healthy artifact for a type requirement, scored, with runners-up; raises
        DependencyError (the closest candidates and why each failed) or TypeLatticeError."""
        from lgent.resolver.resolver import DependencyResolver

        requirement = as_model(requirement, TypeRequirement, "requirement")
        if preferences is not None:
            preferences = as_model(preferences, ResolutionPreferences, "preferences")
        read = await self._entries_seen()
        return await self.with_graph(
            lambda g: DependencyResolver(g, read).resolve(requirement, preferences)
        )

    async def _entries_seen(self) -> Callable[[Sequence[str]], dict[str, CatalogEntry]]:
        """``store.get_many`` as this view sees the catalog (what the resolver reads)."""
        within = await self.visible()
        if within is None:
            return self.store.get_many

        def read(ids: Sequence[str]) -> dict[str, CatalogEntry]:
            return self.store.get_many([i for i in ids if i in within])

        return read

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
        read = await self._entries_seen()
        return await self.with_graph(
            lambda g: fill_holes(DependencyResolver(g, read), pipeline, contracts)
        )
