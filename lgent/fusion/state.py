"""What one query's fusion steps share: the query's state (``QueryState``), filled in step by
step, and what every step may use (``FusionContext``: the brains, the catalog, the settings and
where sync calls run).

A step is ``async def step(state, context) -> None``, a function in its rule's module; the
order of the steps is ``lgent.fusion.fusion.STEPS``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lgent.brains.base import BrainQuery, KeepsGraph, QuestionReader, RankedAnswer
from lgent.brains.registry import BrainRegistry
from lgent.catalog.records import Snapshot
from lgent.config import FusionSettings
from lgent.errors import LGentError
from lgent.fusion.access import BrainAccess
from lgent.fusion.classify import Classification
from lgent.fusion.constraints import Constraint
from lgent.fusion.plan import Plan
from lgent.fusion.rrf import Fused
from lgent.graph.protocol import GraphReader
from lgent.models import CatalogEntry, Companion, QueryResponse, QueryResult, SerendipityItem
from lgent.validation import QueryArguments

T = TypeVar("T")
Runner = Callable[[Callable[[], T]], Awaitable[T]]
Ranking = list[tuple[str, float]]


@dataclass(slots=True)
class FusionContext:
    """What the steps of every query use: how to reach the brains (``access``, each declared
    in ``registry``), the catalog (``snapshot(ids)``: the change number and those entries, read
    together), the settings, and where sync calls run (``run``; a brain's own ``runners``)."""

    access: BrainAccess
    registry: BrainRegistry
    snapshot: Callable[[Sequence[str]], Snapshot]
    settings: FusionSettings
    run: Runner[Any]
    runners: Mapping[str, Runner[Any]]
    unavailable: Mapping[str, str]
    """Brains that could not be opened, with why (the plan reports them)."""
    within: frozenset[str] | None = None
    """The only artifacts this query may see (a reader's scope: ``lgent.scopes``); None: all.
    The brains search inside it, the snapshot holds nothing else, and the graph read by the
    steps knows nothing else (``lgent.graph.scoped``)."""

    def runner(self, brain: str) -> Runner[Any]:
        """Where brain ``brain``'s calls run."""
        return self.runners.get(brain, self.run)

    async def reader(self) -> QuestionReader | None:
        """The brain that reads questions (opened now if it was not), if it can be had."""
        name = self.access.question_reader()
        if name is None:
            return None
        try:
            brain = await self.access.acquire(name)
        except LGentError:
            return None  # the plan reports it when it is asked
        if not isinstance(brain, QuestionReader):
            return None
        if self.within is not None:
            from lgent.graph.scoped import ScopedReader

            return ScopedReader(brain, self.within)
        return brain

    async def graph(self) -> GraphReader | None:
        """The catalog graph (lineage notes, suggestions), if the brain that reads questions
        keeps it and can be had."""
        reader = await self.reader()
        return reader.catalog_graph() if isinstance(reader, KeepsGraph) else None

    def entry(self, artifact_id: str) -> CatalogEntry | None:
        snap = self.snapshot([artifact_id])
        return snap.entry(artifact_id) if artifact_id in snap else None


@dataclass(slots=True)
class QueryState:
    """One query as the steps fill it in, in step order: the constraints, the reading, the plan,
    the brains' answers and rankings, the catalog snapshot of the candidates, the fused order
    with its lineage notes, the results shown, the suggestions and the response."""

    arguments: QueryArguments
    shown: range | None
    started: float
    text: str = ""
    """The query without the constraint clauses read from its end."""
    constraints: list[Constraint] = field(default_factory=list)
    in_text: int = 0
    """How many of ``constraints`` were read from the query text."""
    classification: Classification | None = None
    plan: Plan | None = None
    words: frozenset[str] = frozenset()
    """A plain-language query's content words, analyzed once for the rules that read them."""
    asked: BrainQuery | None = None
    answers: dict[str, RankedAnswer] = field(default_factory=dict)
    vouching: asyncio.Future[tuple[str, ...]] | None = None
    """The ids a sentence's words vouch for (``WORD_FEEDBACK``), being read while the brains
    answer (``feedback.start_vouching``)."""
    warnings: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    """How a rule changed the answer (the interpretation says so)."""
    rankings: dict[str, Ranking] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    snap: Snapshot | None = None
    scales: dict[str, dict[str, float]] = field(default_factory=dict)
    method: str = "rrf"
    leader: str | None = None
    fused: list[Fused] = field(default_factory=list)
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    top: list[Fused] = field(default_factory=list)
    entries: dict[str, CatalogEntry] = field(default_factory=dict)
    results: list[QueryResult] = field(default_factory=list)
    companions: dict[str, Companion] = field(default_factory=dict)
    """Results offered as companions of a result above them (``fusion/companions.py``)."""
    supplied: frozenset[str] | None = None
    """The value kinds the request supplies (``fusion/supplied.py``; None: not read yet)."""
    suggestions: list[SerendipityItem] = field(default_factory=list)
    response: QueryResponse | None = None

    @property
    def c(self) -> Classification:
        """The classification (set by the classify step)."""
        assert self.classification is not None, "the query is not classified yet"
        return self.classification

    @property
    def the_plan(self) -> Plan:
        assert self.plan is not None, "the query is not planned yet"
        return self.plan

    @property
    def catalog(self) -> Snapshot:
        """The snapshot of the candidates (set by the candidates step)."""
        assert self.snap is not None, "the candidates are not read yet"
        return self.snap

    @property
    def plain(self) -> bool:
        """Whether the query reads as plain language (the rules for sentences apply)."""
        from lgent.models import QueryType

        return self.c.query_type == QueryType.SEMANTIC_INTENT


Step = Callable[[QueryState, FusionContext], Awaitable[None]]
