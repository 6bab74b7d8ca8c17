"""QueryFusion: classify, ask the right brains concurrently, fuse, explain, suggest.

The brains are handed in (any object with the search method each needs), so tests can plug in
fakes. Catalog entries come from a ``snapshot`` callable. Sync brain calls run through ``run``
(the facade passes a thread-pool runner), all brains at once with ``asyncio.gather``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from lgent.brains.graph.brain import GraphBrain
from lgent.brains.graph.query import Composition, TypeQuery
from lgent.catalog.store import Snapshot
from lgent.config import FusionSettings
from lgent.errors import LGentError
from lgent.fusion.classify import Classification, as_words, classify, uses_keyword_syntax
from lgent.fusion.constraints import Constraint, extract_constraints, parse_constraints
from lgent.fusion.interpret import interpretation
from lgent.fusion.rrf import Fused, weighted_rrf, weighted_score_fusion
from lgent.fusion.serendipity import suggest
from lgent.models import (
    BrainHit,
    BrainRun,
    CatalogEntry,
    EntityType,
    Execution,
    QueryContext,
    QueryResponse,
    QueryResult,
    QueryType,
    SearchFilters,
    SourceHit,
    Status,
)

T = TypeVar("T")
Runner = Callable[[Callable[[], T]], Awaitable[T]]


class RankedAnswer(Protocol):
    """What a brain answers fusion: its ranking (id, score; best first), and the explained hit
    of any id in it, made on demand (fusion explains only the results it returns)."""

    @property
    def ranking(self) -> list[tuple[str, float]]: ...

    def explain(self, artifact_id: str, entry: CatalogEntry) -> BrainHit | None: ...


class KeywordAnswer(RankedAnswer, Protocol):
    @property
    def warnings(self) -> list[str]: ...


@dataclass(slots=True)
class HitList:
    """A ranked answer over hits already made (the graph brain's, each with its path)."""

    hits: list[BrainHit]

    @property
    def ranking(self) -> list[tuple[str, float]]:
        return [(h.id, h.score) for h in self.hits]

    def explain(self, artifact_id: str, entry: CatalogEntry) -> BrainHit | None:
        return next((h for h in self.hits if h.id == artifact_id), None)


class KeywordSearcher(Protocol):
    def search(
        self,
        query: str,
        filters: SearchFilters | None = None,
        limit: int = 10,
        *,
        lenient: bool = False,
        default_operator: Any = None,
        min_should_match: float = 0.0,
        explain_top: int | None = None,
        free_text: bool = False,
    ) -> KeywordAnswer: ...


class SemanticSearcher(Protocol):
    def rank(
        self,
        intent: str,
        filters: SearchFilters | None = None,
        threshold: float | None = None,
        limit: int = 10,
    ) -> RankedAnswer: ...


@dataclass(slots=True)
class BrainSet:
    """The brains a query may use; a brain that cannot run carries the reason instead."""

    keyword: KeywordSearcher
    graph: GraphBrain
    semantic: SemanticSearcher | None = None
    semantic_unavailable: str = ""


@dataclass(slots=True)
class _Plan:
    weights: dict[str, float]
    skipped: dict[str, str] = field(default_factory=dict)


class QueryFusion:
    """One query in, one explained ``QueryResponse`` out."""

    def __init__(
        self,
        brains: BrainSet,
        snapshot: Callable[[Sequence[str]], Snapshot],
        settings: FusionSettings,
        run: Runner[Any],
        *,
        run_semantic: Runner[Any] | None = None,
    ) -> None:
        """``snapshot(ids)`` gives the catalog change number and those ids' latest entries, read
        together; results are only ever artifacts the catalog holds at that number. ``run``
        runs a sync call off the event loop; ``run_semantic`` (default ``run``) the semantic
        brain's, which embeds the query."""
        self.brains = brains
        self.snapshot = snapshot
        self.settings = settings
        self.run = run
        self.run_semantic = run_semantic or run

    def entry(self, artifact_id: str) -> CatalogEntry | None:
        snap = self.snapshot([artifact_id])
        return snap.entry(artifact_id) if artifact_id in snap else None

    async def query(
        self,
        query: str,
        constraints: Sequence[str] | None = None,
        context: QueryContext | None = None,
        limit: int = 10,
        *,
        lenient: bool = False,
    ) -> QueryResponse:
        started = time.perf_counter()
        original = query
        parsed = parse_constraints(constraints)
        query, in_text = extract_constraints(query)
        parsed += in_text
        graph = self.brains.graph
        words = self.settings.sentence_words
        classification = await self.run(
            lambda: classify(query, graph, lenient=lenient, sentence_words=words)
        )
        plan = self._plan(classification)
        filters = _filters(parsed)
        fetch = max(limit * self.settings.overfetch, self.settings.min_brain_hits)
        answers, warnings = await self._ask(
            query, classification, plan, filters, fetch, limit, parsed
        )
        rankings = {b: answer.ranking for b, answer in answers.items()}

        ids = list(dict.fromkeys(i for ranking in rankings.values() for i, _ in ranking))
        snap = await self.run(lambda: self.snapshot(ids))
        # entries are decoded only where needed: for constraints, and for the results shown
        admitted = {i: i in snap and all(c.admits(snap.entry(i)) for c in parsed) for i in ids}
        # For "what depends on X" and its kind, the graph's answer is the candidate set (an
        # artifact that does not depend on X is no answer, however similar); X itself is none.
        # For relationship and type questions ("A -> B", a path from A to B) the graph's order
        # leads and the other brains' finds follow it, in fused order (measured on the labeled
        # queries: letting their votes reorder the graph's answer lost nDCG@10, relationship
        # 0.987 against 0.995, type_compat 0.977 against 0.994, composition 0.876 against 0.888).
        relationship = classification.query_type == QueryType.RELATIONSHIP
        subject = classification.named_artifact if relationship else None
        answered = {i for i, _ in rankings.get("graph", [])} if relationship else set()
        rankings = {
            b: [
                (i, s)
                for i, s in r
                if admitted.get(i) and i != subject and (not answered or i in answered)
            ]
            for b, r in rankings.items()
        }
        fused = self._fuse(rankings, plan.weights)
        if classification.query_type in (QueryType.RELATIONSHIP, QueryType.TYPE_QUERY):
            graph_rank = {i: n for n, (i, _) in enumerate(rankings.get("graph", []))}
            fused.sort(key=lambda f: (graph_rank.get(f.id, len(graph_rank)), -f.score))
        ordered, notes = await self._lineage_order(fused, snap, classification, parsed)
        top = ordered[:limit]  # every fused id passed the snapshot, so each has its entry
        entries = {f.id: snap.entry(f.id) for f in top}
        by_brain = {b: _explained(answer, top, entries) for b, answer in answers.items()}
        results = [self._result(f, entries[f.id], by_brain, notes.get(f.id, ())) for f in top]
        serendipity = await self.run(
            lambda: suggest(
                [r.entry for r in results],
                context,
                graph,
                limit=self.settings.serendipity,
                violations=self._violations(parsed),
            )
        )
        runs = tuple(
            BrainRun(
                brain=b,
                ran=b in rankings,
                weight=plan.weights.get(b, 0.0),
                hits=len(rankings.get(b, [])),
                reason=plan.skipped.get(b, ""),
            )
            for b in ("keyword", "semantic", "graph")
        )
        total = len(fused)
        elapsed = (time.perf_counter() - started) * 1000
        return QueryResponse(
            query=original,
            results=tuple(results),
            serendipity=tuple(serendipity),
            query_type=classification.query_type,
            classification_reason=classification.reason,
            query_interpretation=interpretation(
                original, classification, parsed, runs, total, context, in_text=len(in_text)
            ),
            total_matches=total,
            search_time_ms=round(elapsed, 3),
            brains=runs,
            constraints=tuple(c.description for c in parsed),
            warnings=tuple(warnings),
            change_number=snap.change_number,
        )

    # -- planning and asking ---------------------------------------------------------------

    def _plan(self, c: Classification) -> _Plan:
        weights = self.settings.weights_for(c.query_type.value)
        plan = _Plan(dict(weights))
        for brain, weight in weights.items():
            if weight <= 0:
                plan.skipped[brain] = "its weight for this query type is 0"
        if c.query_type == QueryType.KEYWORD_SYNTAX:
            plan.skipped.setdefault(
                "semantic", "keyword operators cannot be honoured by embeddings"
            )
            plan.skipped.setdefault("graph", "keyword operators are not a graph question")
        if self.brains.semantic is None and "semantic" not in plan.skipped:
            plan.skipped["semantic"] = f"unavailable: {self.brains.semantic_unavailable}"
        if (
            c.graph_operation is None
            and c.named_artifact is None
            and c.query_type != QueryType.EXACT_NAME
        ):
            plan.skipped.setdefault(
                "graph", "no type, composition or relationship question recognised"
            )
        for brain in plan.skipped:
            plan.weights[brain] = 0.0
        return plan

    async def _ask(
        self,
        query: str,
        c: Classification,
        plan: _Plan,
        filters: SearchFilters,
        fetch: int,
        limit: int,
        constraints: Sequence[Constraint],
    ) -> tuple[dict[str, RankedAnswer], list[str]]:
        """Each brain's answer (all asked at once) and the keyword brain's warnings.

        A type or relationship question asks the graph (and the keyword brain) first and the
        semantic brain only when the graph's answer leaves room for its votes in the ``limit``
        results (``_graph_settles``): the query embedding is most of a query's time."""
        tasks: dict[str, asyncio.Future[RankedAnswer]] = {}
        warnings: list[str] = []
        kw = self.brains.keyword
        if "keyword" not in plan.skipped:
            share = self.settings.free_text_min_match
            tasks["keyword"] = asyncio.ensure_future(
                self.run(lambda: keyword_search(kw, query, c, filters, fetch, share, explain_top=0))
            )
        if "graph" not in plan.skipped:
            graph = self.brains.graph
            tasks["graph"] = asyncio.ensure_future(
                self.run(
                    lambda: HitList(
                        graph.search(query, filters, fetch, operation=c.graph_operation).hits
                    )
                )
            )
        if "semantic" not in plan.skipped and self.brains.semantic is not None:
            sem = self.brains.semantic
            graph_leads = c.query_type in (QueryType.RELATIONSHIP, QueryType.TYPE_QUERY)
            if graph_leads and "graph" in tasks:
                await asyncio.wait([tasks["graph"]])
                reason = await self._graph_settles(c, tasks["graph"], limit, constraints)
                if reason:
                    plan.skipped["semantic"] = reason
                    plan.weights["semantic"] = 0.0
            if "semantic" not in plan.skipped:
                tasks["semantic"] = asyncio.ensure_future(
                    self.run_semantic(lambda: sem.rank(query, filters, None, fetch))
                )
        names = list(tasks)
        outcomes = await asyncio.gather(*tasks.values(), return_exceptions=True)
        answers: dict[str, RankedAnswer] = {}
        for name, outcome in zip(names, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if name == "keyword" and c.query_type == QueryType.KEYWORD_SYNTAX:
                    raise outcome  # the user's syntax error is the answer
                if not isinstance(outcome, LGentError):
                    raise outcome
                plan.skipped[name] = f"failed: {outcome}"
                plan.weights[name] = 0.0
                continue
            if name == "keyword":
                warnings.extend(cast(KeywordAnswer, outcome).warnings)
            answers[name] = outcome
        return answers, warnings

    async def _graph_settles(
        self,
        c: Classification,
        graph_task: asyncio.Future[RankedAnswer],
        limit: int,
        constraints: Sequence[Constraint],
    ) -> str:
        """Why the semantic brain cannot change the answer the graph gave, or "" if it can.

        The graph's order leads type and relationship questions (``query``), and a relationship
        answer is also the whole candidate set; so semantic votes matter only past the graph's
        admitted hits, when those are fewer than ``limit``."""
        if graph_task.exception() is not None:
            return ""
        ids = [i for i, _ in graph_task.result().ranking]
        if c.query_type == QueryType.RELATIONSHIP:
            return (
                "the graph's answer is the whole answer to a relationship question" if ids else ""
            )
        if len(ids) < limit:
            return ""
        snap = await self.run(lambda: self.snapshot(ids))
        admitted = sum(
            1 for i in ids if i in snap and all(x.admits(snap.entry(i)) for x in constraints)
        )
        if admitted < limit:
            return ""
        return (
            f"the graph's {admitted} type-compatible answers fill the {limit} results, and the "
            "graph's order leads a type question"
        )

    def _fuse(
        self, rankings: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float]
    ) -> list[Fused]:
        if self.settings.method == "score":
            return weighted_score_fusion(rankings, weights)
        return weighted_rrf(rankings, weights, k=self.settings.rrf_k)

    # -- lineage ---------------------------------------------------------------------------

    async def _lineage_order(
        self,
        fused: list[Fused],
        snap: Snapshot,
        c: Classification,
        constraints: list[Constraint],
    ) -> tuple[list[Fused], dict[str, tuple[str, ...]]]:
        """Note "superseded by" on each deprecated/retired result that has a usable successor, and
        when that successor matched too, rank the old one just below it (unless the query names
        the old one, or spells out keyword filters: then the order stays the query's)."""
        graph = self.brains.graph
        old = [
            f.id
            for f in fused[:100]
            if f.id in snap and snap.status(f.id) in (Status.DEPRECATED, Status.RETIRED)
        ]
        if not old:
            return fused, {}
        successors = await self.run(lambda: {i: graph.successor_of(i) for i in old})
        order = list(fused)
        notes: dict[str, tuple[str, ...]] = {}
        for old_id, new_id in successors.items():
            if new_id is None:
                continue
            notes[old_id] = (f"superseded by {new_id}",)
            position = {f.id: n for n, f in enumerate(order)}
            if new_id not in position:
                continue  # not a match for this query: only the note points at it
            notes[new_id] = (*notes.get(new_id, ()), f"successor of {old_id}")
            named_old = c.query_type == QueryType.EXACT_NAME and c.named_artifact == old_id
            if (
                c.query_type == QueryType.KEYWORD_SYNTAX
                or named_old
                or position[new_id] < position[old_id]
            ):
                continue
            demoted = order.pop(position[old_id])
            new_at = position[new_id] - 1  # after the pop
            order.insert(
                new_at + 1, Fused(old_id, order[new_at].score - 1e-9, demoted.contributions)
            )
        return order, notes

    # -- results ---------------------------------------------------------------------------

    def _result(
        self,
        f: Fused,
        entry: CatalogEntry,
        by_brain: Mapping[str, Mapping[str, BrainHit]],
        notes: tuple[str, ...],
    ) -> QueryResult:
        sources = tuple(
            SourceHit(
                brain=c.brain,
                rank=c.rank,
                score=round(c.score, 6),
                contribution=round(c.contribution, 6),
            )
            for c in f.contributions
        )
        highlights: dict[str, str] = {}
        children = []
        for c in f.contributions:
            hit = by_brain.get(c.brain, {}).get(f.id)
            if hit is None:
                continue
            highlights = highlights or dict(hit.highlights)
            children.append({**hit.explanation, "contribution": round(c.contribution, 6)})
        method = self.settings.method
        explanation: dict[str, Any] = {
            "fusion": "weighted reciprocal rank fusion"
            if method == "rrf"
            else "weighted min-max score fusion",
            "score": round(f.score, 6),
            "formula": f"sum(weight / ({self.settings.rrf_k} + rank))"
            if method == "rrf"
            else "sum(weight * normalized score)",
            "children": children,
        }
        superseded = next(
            (n.removeprefix("superseded by ") for n in notes if n.startswith("superseded by ")),
            None,
        )
        if notes:
            explanation["lineage"] = list(notes)
        return QueryResult(
            id=f.id,
            score=round(f.score, 6),
            sources=sources,
            entry=entry,
            highlights=highlights,
            explanation=explanation,
            superseded_by=superseded,
            notes=notes,
        )

    def _violations(self, constraints: list[Constraint]) -> Callable[[str], list[str]]:
        def violations(artifact_id: str) -> list[str]:
            if not constraints:
                return []
            entry = self.entry(artifact_id)
            if entry is None:
                return ["not in the catalog"]
            return [c.description for c in constraints if not c.admits(entry)]

        return violations


def _explained(
    answer: RankedAnswer, top: Sequence[Fused], entries: Mapping[str, CatalogEntry]
) -> dict[str, BrainHit]:
    """The brain's explained hits for the results shown."""
    shown = ((f.id, answer.explain(f.id, entries[f.id])) for f in top)
    return {artifact_id: hit for artifact_id, hit in shown if hit is not None}


def keyword_search(
    brain: KeywordSearcher,
    query: str,
    c: Classification,
    filters: SearchFilters | None,
    limit: int,
    free_text_min_match: float,
    explain_top: int | None = None,
) -> KeywordAnswer:
    """Ask the keyword brain the way the query type calls for.

    Keyword syntax: strict grammar (a syntax error is the answer). A name: the words ANDed,
    then ORed if nothing matched. A type or composition question: the artifacts whose input
    names the source type or whose output names the target (its words would match every entry
    that mentions the types). Plain language: lenient, ORed, and a hit must match
    ``free_text_min_match`` of the words."""
    top = explain_top
    typed = _typed_query(c.graph_operation)
    if typed is not None:
        return brain.search(typed, filters, limit, default_operator="OR", explain_top=top)
    if c.query_type == QueryType.KEYWORD_SYNTAX:
        return brain.search(
            query, filters, limit, lenient=False, default_operator="AND", explain_top=top
        )
    if c.query_type == QueryType.EXACT_NAME:
        result = brain.search(
            query, filters, limit, lenient=True, default_operator="AND", explain_top=top
        )
        if result.ranking:
            return result
        return brain.search(
            query, filters, limit, lenient=True, default_operator="OR", explain_top=top
        )
    return brain.search(
        as_words(query) if uses_keyword_syntax(query) else query,
        filters,
        limit,
        lenient=True,
        default_operator="OR",
        min_should_match=free_text_min_match,
        explain_top=top,
        free_text=True,
    )


def _typed_query(op: object) -> str | None:
    """``input:"A" OR output:"B"`` for a type or composition question, else None."""
    sides: tuple[tuple[str, str | None], ...]
    if isinstance(op, Composition):
        sides = (("input", op.source), ("output", op.target))
    elif isinstance(op, TypeQuery):
        sides = (("input", op.input), ("output", op.output))
    else:
        return None
    quoted = [f'{field}:"{_escape(name)}"' for field, name in sides if name]
    return " OR ".join(quoted) or None


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _filters(constraints: Sequence[Constraint]) -> SearchFilters:
    """The part of the constraints every brain can apply itself (all are post-checked too).

    Two constraints on one attribute must both hold, so their allowed sets intersect."""
    allowed: dict[str, set[str]] = {}
    for c in constraints:
        if c.allowed:
            allowed[c.attribute] = allowed.get(c.attribute, set(c.allowed)) & set(c.allowed)
    return SearchFilters(
        status=tuple(Status(v) for v in sorted(allowed.get("status", ()))),
        entity_type=tuple(EntityType(v) for v in sorted(allowed.get("entity_type", ()))),
        execution=tuple(Execution(v) for v in sorted(allowed.get("execution", ()))),
    )
