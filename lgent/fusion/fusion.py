"""QueryFusion: classify, ask the right brains concurrently, fuse, explain, suggest.

The brains come in by name with the registry that declares them (``lgent/brains/registry.py``),
through a ``BrainAccess`` (``fusion/access.py``) that hands each one over when the plan first
asks for it, so a query opens only the brains it uses (a name lookup never loads the embedding
model); tests plug in fakes, and a new brain needs no change here. Catalog entries come from a
``snapshot`` callable. Sync brain calls run through ``run`` (the facade passes a thread-pool
runner; brains declared ``own_thread`` get their own runner), all brains at once with
``asyncio.gather``. Which brain is asked, and how much its vote weighs, is ``fusion/plan.py``.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from lgent.brains.base import (
    Brain,
    BrainQuery,
    GrammarFilter,
    MovableAnswer,
    QuestionReader,
    RankedAnswer,
)
from lgent.brains.graph.brain import GraphBrain
from lgent.brains.registry import BrainRegistry, SkipRule
from lgent.catalog.records import Snapshot
from lgent.config import FusionSettings
from lgent.errors import IndexNotReadyError, LGentError, QuerySyntaxError
from lgent.fusion.access import BrainAccess, FixedBrains, Unavailable
from lgent.fusion.classify import Classification, classify
from lgent.fusion.constraints import Constraint, extract_constraints, parse_constraints
from lgent.fusion.coverage import coverage, coverage_scales, query_words
from lgent.fusion.feedback import feedback_ids
from lgent.fusion.interpret import interpretation, shortfall_warnings
from lgent.fusion.length import long_request_weights
from lgent.fusion.plan import CANDIDATE_SET_CLASSES, Plan, leader_settles, plan_query
from lgent.fusion.rrf import Fused, weighted_rrf, weighted_score_fusion
from lgent.fusion.serendipity import suggest
from lgent.fusion.ties import has_ties, order_by_leader
from lgent.fusion.weak import weak_match_warning
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
    RelationType,
    SearchFilters,
    SourceHit,
    Status,
)

T = TypeVar("T")
Runner = Callable[[Callable[[], T]], Awaitable[T]]

SUGGESTED_FROM = 3
"""Suggestions start from this many of the best results (``serendipity.suggest``)."""


class QueryFusion:
    """One query in, one explained ``QueryResponse`` out."""

    def __init__(
        self,
        brains: Mapping[str, Brain] | BrainAccess,
        registry: BrainRegistry,
        snapshot: Callable[[Sequence[str]], Snapshot],
        settings: FusionSettings,
        run: Runner[Any],
        *,
        runners: Mapping[str, Runner[Any]] | None = None,
        unavailable: Mapping[str, str] | None = None,
    ) -> None:
        """``brains``: how to reach the brains of this query (each registered in ``registry``),
        or the open brains by name, with those that could not be opened in ``unavailable`` and
        the reason. ``snapshot(ids)`` gives the catalog change number and those ids' latest
        entries, read together; results are only ever artifacts the catalog holds at that
        number. ``run`` runs a sync call off the event loop; ``runners`` may give a brain its
        own."""
        self.access: BrainAccess = (
            brains if not isinstance(brains, Mapping) else FixedBrains(brains, unavailable)
        )
        self.registry = registry
        self.snapshot = snapshot
        self.settings = settings
        self.run = run
        self.runners = dict(runners or {})
        self.unavailable = dict(unavailable or {})

    async def _reader(self) -> QuestionReader | None:
        """The brain that reads questions (opened now if it was not), if it can be had."""
        name = self.access.question_reader()
        if name is None:
            return None
        try:
            brain = await self.access.acquire(name)
        except LGentError:
            return None  # the plan reports it when it is asked
        return brain if isinstance(brain, QuestionReader) else None

    async def _graph(self) -> GraphBrain | None:
        """The graph brain (lineage notes, suggestions), if one is registered and can be had."""
        reader = await self._reader()
        return reader if isinstance(reader, GraphBrain) else None

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
        strict: bool = False,
        shown: range | None = None,
    ) -> QueryResponse:
        """The fused answer's first ``limit`` results; with ``shown`` (positions, step 1), only
        the results at those positions are made (entries read, explained) and returned: the
        ranking, the total and the suggestions are still those of the first ``limit``."""
        started = time.perf_counter()
        original = query
        parsed = parse_constraints(constraints)
        query, in_text = extract_constraints(query)
        parsed += in_text
        reader = await self._reader()
        classification = await self.run(
            lambda: classify(query, reader, lenient=lenient, strict=strict)
        )
        weights = self.settings.weights_for(classification.query_type.value, self.registry)
        plan = plan_query(classification, self.registry, weights, self.unavailable)
        # the content words the rules for plain-language queries read (LONG_REQUESTS,
        # WORD_FEEDBACK, WORD_COVERAGE, WEAK_MATCHES), analyzed once
        plain = classification.query_type == QueryType.SEMANTIC_INTENT
        words = query_words(classification.plain or query) if plain else frozenset()
        self._long_request(plan, classification, words)
        fetch = max(limit * self.settings.overfetch, self.settings.min_brain_hits)
        asked = brain_query(query, classification, fetch, _filters(parsed), self.settings)
        answers, warnings = await self._ask(asked, classification, plan, limit, parsed)
        await self._word_feedback(words, classification, answers)
        if classification.unread:
            warnings.insert(0, f"not read as a graph question: {classification.unread}")
        rankings = {b: list(answer.ranking) for b, answer in answers.items()}

        ids = list(dict.fromkeys(i for ranking in rankings.values() for i, _ in ranking))
        if classification.query_type == QueryType.KEYWORD_SYNTAX:
            ids = await self._grammar_restricts(query, ids, rankings, warnings)
        subject = (
            classification.named_artifact
            if classification.query_type == QueryType.RELATIONSHIP
            else None
        )
        # the subject is read with the candidates: what it is part of is left out below
        read = ids if subject is None or subject in ids else [*ids, subject]
        snap = await self.run(lambda: self.snapshot(read))
        # entries are decoded only where needed: for constraints, and for the results shown
        admitted = {i: i in snap and all(c.admits(snap.entry(i)) for c in parsed) for i in ids}
        # The leader's order leads the classes it leads, and for a relationship question its
        # answer is the candidate set (plan.py); the question's own subject is never an answer.
        # Measured on the labeled queries: letting the other votes reorder the graph's answer
        # lost nDCG@10 (relationship 0.987 against 0.995, type_compat 0.977 against 0.994,
        # composition 0.876 against 0.888).
        leader = plan.leader if plan.leader in rankings else None
        candidates = (
            {i for i, _ in rankings[leader]}
            if leader is not None and classification.query_type in CANDIDATE_SET_CLASSES
            else set()
        )
        # nor is what the subject is part of (an MCP server, an API), which names its parts in
        # its description, unless the leader itself answers with it
        wholes = (
            set(snap.entry(subject).relation_targets(RelationType.PART_OF))
            if subject is not None and subject in snap
            else set()
        )
        rankings = {
            b: [
                (i, s)
                for i, s in r
                if admitted.get(i)
                and i != subject
                and (i in candidates or (not candidates and i not in wholes))
            ]
            for b, r in rankings.items()
        }
        scales = self._word_coverage(words, classification, rankings, snap)
        method = self.settings.method_for(classification.query_type.value)
        fused = self._fuse(method, rankings, plan.weights, scales)
        if leader is not None:  # LEADER_TIES (ties.py): its runs of equal scores by the others
            order_by_leader(fused, leader, rankings[leader])
        if fused:
            weak = self._weak_matches(words, classification, answers, rankings, snap)
            if weak is not None:
                warnings.append(weak)
        ordered, notes = await self._lineage_order(fused, snap, classification)
        top = ordered[:limit]  # every fused id passed the snapshot, so each has its entry
        page = top if shown is None else top[shown.start : shown.stop]
        leading = top[:SUGGESTED_FROM]
        entries = {f.id: snap.entry(f.id) for f in (*page, *leading)}
        by_brain = {b: _explained(answer, page, entries) for b, answer in answers.items()}
        results = [
            self._result(f, entries[f.id], by_brain, notes.get(f.id, ()), method) for f in page
        ]
        serendipity = []
        graph = await self._graph()
        if graph is not None:
            serendipity = await self.run(
                lambda: suggest(
                    [entries[f.id] for f in leading],
                    context,
                    graph,
                    limit=self.settings.serendipity,
                    violations=self._violations(parsed),
                    result_ids=[f.id for f in top],
                )
            )
        else:
            warnings.append("no brain composes artifacts: no suggestions or lineage notes")
        runs = tuple(
            BrainRun(
                brain=b,
                ran=b in rankings,
                weight=plan.weights.get(b, 0.0),
                hits=len(rankings.get(b, [])),
                reason=plan.skipped.get(b, ""),
                change_number=self.access.reflects(b) if b in rankings else None,
                catching_up=self.access.progress(b) if b in rankings else "",
            )
            for b in self.registry.names
        )
        warnings.extend(self.access.notes())
        warnings.extend(shortfall_warnings(runs, plan.missing, snap.change_number))
        made = [str(n) for answer in answers.values() for n in getattr(answer, "notes", ())]
        total = len(fused)
        elapsed = (time.perf_counter() - started) * 1000
        return QueryResponse(
            query=original,
            results=tuple(results),
            serendipity=tuple(serendipity),
            query_type=classification.query_type,
            classification_reason=classification.reason,
            query_interpretation=interpretation(
                original,
                classification,
                parsed,
                runs,
                total,
                context,
                in_text=len(in_text),
                change_number=snap.change_number,
                notes=made,
            ),
            total_matches=total,
            search_time_ms=round(elapsed, 3),
            brains=runs,
            constraints=tuple(c.description for c in parsed),
            warnings=tuple(warnings),
            change_number=snap.change_number,
        )

    # -- asking ----------------------------------------------------------------------------

    def _start(self, name: str, asked: BrainQuery) -> asyncio.Future[RankedAnswer]:
        runner = self.runners.get(name, self.run)

        async def ask() -> RankedAnswer:
            try:
                brain = await self.access.acquire(name)
            except Unavailable:
                raise
            except IndexNotReadyError as err:
                raise Unavailable(name, f"not ready: {err}") from err
            except LGentError as err:
                raise Unavailable(name, f"unavailable: {err}") from err
            try:
                answer: RankedAnswer = await runner(lambda: brain.answer(asked))
                return answer
            except LGentError as err:
                self.access.failed(name, err)
                raise

        return asyncio.ensure_future(ask())

    async def _ask(
        self,
        asked: BrainQuery,
        c: Classification,
        plan: Plan,
        limit: int,
        constraints: Sequence[Constraint],
    ) -> tuple[dict[str, RankedAnswer], list[str]]:
        """Each asked brain's answer (all at once) and their warnings.

        A brain whose ``SkipRule`` is ``AFTER_LEADER`` waits for the leader of the query's
        class (if there is one and it is asked), and is asked only when the leader's answer
        leaves room for its votes in the ``limit`` results (``plan.leader_settles``)."""
        tasks: dict[str, asyncio.Future[RankedAnswer]] = {}
        deferred: list[str] = []
        for spec in self.registry:
            if not plan.asks(spec.name):
                continue
            if spec.skip == SkipRule.AFTER_LEADER and plan.leader and plan.asks(plan.leader):
                deferred.append(spec.name)
            else:
                tasks[spec.name] = self._start(spec.name, asked)
        for name in deferred:
            leading = tasks.get(plan.leader or "")
            if leading is not None:
                await asyncio.wait([leading])
                reason = await self._leader_settles(c, plan, leading, limit, constraints)
                if reason:
                    plan.skip(name, reason)
                    continue
            tasks[name] = self._start(name, asked)
        names = list(tasks)
        outcomes = await asyncio.gather(*tasks.values(), return_exceptions=True)
        answers: dict[str, RankedAnswer] = {}
        warnings: list[str] = []
        for name, outcome in zip(names, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if isinstance(outcome, QuerySyntaxError) and asked.strict:
                    raise outcome  # the user's syntax error is the answer
                if isinstance(outcome, Unavailable):
                    plan.lack(name, outcome.reason)
                    continue
                if not isinstance(outcome, LGentError):
                    raise outcome
                plan.lack(name, f"failed: {outcome}")
                continue
            warnings.extend(outcome.warnings)
            answers[name] = outcome
        return answers, warnings

    async def _leader_settles(
        self,
        c: Classification,
        plan: Plan,
        leading: asyncio.Future[RankedAnswer],
        limit: int,
        constraints: Sequence[Constraint],
    ) -> str:
        """Why the deferred brains cannot change the leader's answer, or "" if they can."""
        if leading.exception() is not None or plan.leader is None:
            return ""
        ranking = leading.result().ranking
        ids = [i for i, _ in ranking]
        # LEADER_TIES: the other votes still order the leader's equal scores among the shown
        # results (one more than the page: the subject of a relationship question is dropped)
        ties = has_ties(ranking, limit + 1)
        admitted: int | None = None
        if not ties and c.query_type not in CANDIDATE_SET_CLASSES and len(ids) >= limit:
            snap = await self.run(lambda: self.snapshot(ids))
            admitted = sum(
                1 for i in ids if i in snap and all(x.admits(snap.entry(i)) for x in constraints)
            )
        return leader_settles(c.query_type, plan.leader, len(ids), admitted, limit, ties=ties)

    async def _grammar_restricts(
        self,
        text: str,
        ids: list[str],
        rankings: dict[str, list[tuple[str, float]]],
        warnings: list[str],
    ) -> list[str]:
        """``GRAMMAR_RESTRICTS``: a query written in the keyword grammar is the user's exact
        request, so every brain's candidates are cut to what it matches (the brains that read
        only its words cannot apply its fields and negations themselves)."""
        grammar = await self._grammar_filter()
        if grammar is None:
            warnings.append("no brain applies the keyword grammar: its filters were not applied")
            return ids
        allowed = await self.run(lambda: grammar.matching(text, ids))
        for brain, ranking in rankings.items():
            rankings[brain] = [(i, score) for i, score in ranking if i in allowed]
        return [i for i in ids if i in allowed]

    async def _grammar_filter(self) -> GrammarFilter | None:
        """The first brain that honours the grammar and can filter by it, if one can be had."""
        for spec in self.registry:
            if not spec.honours_grammar:
                continue
            try:
                brain = await self.access.acquire(spec.name)
            except LGentError:
                continue
            if isinstance(brain, GrammarFilter):
                return brain
        return None

    def _long_request(self, plan: Plan, c: Classification, words: frozenset[str]) -> None:
        """``LONG_REQUESTS`` (``length.py``): on a plain-language query the word-matching
        brains' share of the vote grows with the number of its content words."""
        s = self.settings
        if not s.long_requests or c.query_type != QueryType.SEMANTIC_INTENT:
            return
        plan.weights = long_request_weights(
            plan.weights,
            {spec.name for spec in self.registry if spec.matches_words},
            len(words),
            short=s.short_request_words,
            long=s.long_request_words,
            share=s.long_request_share,
        )

    async def _word_feedback(
        self, words: frozenset[str], c: Classification, answers: dict[str, RankedAnswer]
    ) -> None:
        """``WORD_FEEDBACK`` (``feedback.py``): on a plain-language query, each answer that can
        be moved (``MovableAnswer``) is searched again, on its brain's runner, with the query
        moved toward the word-matching brains' hits that hold most of the query's words; the
        moved answer replaces it (one that fails leaves it)."""
        s = self.settings
        if s.feedback_weight <= 0 or c.query_type != QueryType.SEMANTIC_INTENT:
            return
        movable = {b: a for b, a in answers.items() if isinstance(a, MovableAnswer)}
        heads = [
            [i for i, _ in answers[spec.name].ranking[: s.feedback_depth]]
            for spec in self.registry
            if spec.matches_words and spec.name in answers and spec.name not in movable
        ]
        read = list(dict.fromkeys(i for head in heads for i in head))
        if not movable or not read:
            return
        snap = await self.run(lambda: self.snapshot(read))
        toward = feedback_ids(
            words,
            heads,
            {i: snap.entry(i) for i in read if i in snap},
            depth=s.feedback_depth,
            share=s.feedback_share,
            min_words=s.feedback_min_words,
        )
        if not toward:
            return
        for name, answer in movable.items():
            move = functools.partial(answer.moved_toward, toward, s.feedback_weight)
            try:
                answers[name] = await self.runners.get(name, self.run)(move)
            except LGentError as err:
                self.access.failed(name, err)  # the first answer stands

    def _word_coverage(
        self,
        words: frozenset[str],
        c: Classification,
        rankings: Mapping[str, Sequence[tuple[str, float]]],
        snap: Snapshot,
    ) -> dict[str, dict[str, float]]:
        """``WORD_COVERAGE`` (``coverage.py``): on a plain-language query, each word-matching
        brain's vote for an artifact is scaled by how many of the query's words it holds."""
        saturation = self.settings.coverage_saturation
        if saturation <= 0 or c.query_type != QueryType.SEMANTIC_INTENT:
            return {}
        scales: dict[str, dict[str, float]] = {}
        for spec in self.registry:
            if spec.matches_words and rankings.get(spec.name):
                ids = [i for i, _ in rankings[spec.name]]
                entries = {i: snap.entry(i) for i in ids if i in snap}
                found = coverage_scales(
                    words, ids, entries, saturation, self.settings.coverage_floor
                )
                if self.settings.coverage_scope == "query":
                    best = max(found.values(), default=1.0)
                    found = dict.fromkeys(found, best)
                scales[spec.name] = found
        return scales

    def _weak_matches(
        self,
        words: frozenset[str],
        c: Classification,
        answers: Mapping[str, RankedAnswer],
        rankings: Mapping[str, Sequence[tuple[str, float]]],
        snap: Snapshot,
    ) -> str | None:
        """``WEAK_MATCHES`` (``weak.py``): on a plain-language query, a warning when the brains
        that judge closeness found nothing close and no artifact holds the query's words."""
        if c.query_type != QueryType.SEMANTIC_INTENT:
            return None
        weak = {
            b: reason
            for b, answer in answers.items()
            if b in rankings and (reason := str(getattr(answer, "weak", "") or ""))
        }
        if not weak:
            return None
        best = [
            max(
                (coverage(words, snap.entry(i)) for i, _ in rankings[spec.name] if i in snap),
                default=0.0,
            )
            for spec in self.registry
            if spec.matches_words and rankings.get(spec.name)
        ]
        return weak_match_warning(weak, best)

    def _fuse(
        self,
        method: str,
        rankings: Mapping[str, Sequence[tuple[str, float]]],
        weights: Mapping[str, float],
        scales: Mapping[str, Mapping[str, float]],
    ) -> list[Fused]:
        if method == "score":
            return weighted_score_fusion(rankings, weights, scales)
        return weighted_rrf(rankings, weights, k=self.settings.rrf_k, scales=scales)

    # -- lineage ---------------------------------------------------------------------------

    async def _lineage_order(
        self,
        fused: list[Fused],
        snap: Snapshot,
        c: Classification,
    ) -> tuple[list[Fused], dict[str, tuple[str, ...]]]:
        """Note "superseded by" on each deprecated/retired result that has a usable successor, and
        when that successor matched too, rank the old one just below it (unless the query names
        the old one, or spells out keyword filters: then the order stays the query's)."""
        old = [
            f.id
            for f in fused[:100]
            if f.id in snap and snap.status(f.id) in (Status.DEPRECATED, Status.RETIRED)
        ]
        if not old:
            return fused, {}
        graph = await self._graph()
        if graph is None:
            return fused, {}
        successors = await self.run(
            lambda: {i: graph.successor_of(i) if graph.knows(i) else None for i in old}
        )
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
        method: str,
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


def brain_query(
    text: str,
    c: Classification,
    limit: int,
    filters: SearchFilters | None,
    settings: FusionSettings,
) -> BrainQuery:
    """The query every brain is asked for ``text`` read as ``c`` (benchmarks ask single brains
    exactly this way)."""
    return BrainQuery(
        text=text,
        limit=limit,
        query_type=c.query_type,
        filters=filters,
        strict=c.query_type == QueryType.KEYWORD_SYNTAX,
        min_should_match=settings.free_text_min_match,
        reading=c.reading,
        named_artifact=c.named_artifact,
        plain_text=c.plain,
    )


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
