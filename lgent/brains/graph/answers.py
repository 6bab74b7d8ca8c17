"""The graph brain's answers: rows (an artifact, its score, the relationship that put it there,
the path that justifies it), produced lazily in rank order from the catalog graph, and made into
explained hits only when asked for.

Call these inside ``graph.reading()``: a lazy answer reads the graph row by row.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from lgent.brains.graph.query import (
    Composition,
    GraphQuery,
    Relationship,
    TypeQuery,
    parse_graph_query,
)
from lgent.errors import NotFoundError, TypeLatticeError
from lgent.graph.artifacts import ArtifactInfo
from lgent.graph.lineage import LineageHit
from lgent.graph.model import CatalogGraph, side_type, undeclared
from lgent.graph.signatures import CompositionPath, Direction, PathSearch, Ranked
from lgent.health import UNUSABLE_FACTOR, answer_weight
from lgent.models import BrainHit, EntryText, SearchFilters

GRAPH = "graph"
"""The graph brain's name, as its hits carry it."""


@dataclass(slots=True)
class GraphResult:
    """Hits, the operation the query was read as (None: not a graph question), and why."""

    hits: list[BrainHit]
    operation: GraphQuery | None
    reason: str
    paths: list[CompositionPath] = field(default_factory=list)


def namesakes_note(graph: CatalogGraph, op: Relationship) -> list[str]:
    """A note when the name in the question is shared: which artifact was answered for."""
    if not op.named:
        return []
    owners = graph.namesakes(op.named)
    if op.artifact_id not in owners:
        return []
    shown = ", ".join(owners[:5]) + (f" and {len(owners) - 5} more" if len(owners) > 5 else "")
    return [
        f"{op.named!r} names {len(owners)} artifacts ({shown}): this answers for "
        f"{op.artifact_id}; name another by its id to ask about it"
    ]


def why_none(graph: CatalogGraph, op: Relationship) -> str | None:
    """Why a composition question about ``op``'s artifact has no answer in its types (it
    declares none on that side, or only a primitive), or None."""
    if op.kind not in ("downstream", "upstream"):
        return None
    me = graph.artifact(op.artifact_id)
    if me is None:
        return None
    side, typed = side_type(me, op.kind)
    if not typed:
        return undeclared(op.artifact_id, side)
    try:
        primitive = graph.is_primitive(typed)
    except TypeLatticeError:
        return None
    if primitive:
        return (
            f"{op.artifact_id}'s {side} is {typed}, a primitive: composition never chains "
            "two artifacts through one"
        )
    return None


def rows_for(
    graph: CatalogGraph,
    text: str,
    filters: SearchFilters | None,
    limit: int,
    operation: GraphQuery | None,
    include_unusable: bool = False,
) -> tuple[list[_Row], GraphQuery | None, str, list[CompositionPath]]:
    """``search``'s answer as rows (a hit each, not made yet), the operation, the reason
    and the paths."""
    op = operation if operation is not None else parse_graph_query(text, graph)
    allowed = None if filters is None or filters.ids is None else filters.ids.__contains__
    if op is None:
        named = graph.artifact_id(text, fuzzy=False)
        if named is None:
            return [], None, "no type, composition or relationship question recognised", []
        named_rows = _by_score(_named(graph, named))
        reason = "the query names an artifact"
        return _admitted(graph, named_rows, filters, limit), None, reason, []
    if isinstance(op, Composition):
        max_length = op.max_length or 4
        paths = graph.find_paths(
            PathSearch(op.source, op.target, max_length, max(limit, 5), include_unusable, allowed)
        )
        scores = _path_scores(paths)
        floor = min(scores, default=1.0)
        more = _member_rows(
            graph, op.source, op.target, max_length, include_unusable, floor, paths, allowed
        )
        ranked = itertools.chain(_path_members(paths, scores), more)
        return _admitted(graph, ranked, filters, limit), op, op.describe(), paths
    if isinstance(op, TypeQuery):
        found: list[CompositionPath] = []
        direct = _type_rows(graph, op, limit, include_unusable, found, allowed)
        return _admitted(graph, direct, filters, limit), op, op.describe(), found
    rows = _admitted(graph, _relationship_rows(graph, op), filters, limit)
    return rows, op, op.describe(), []


def _admitted(
    graph: CatalogGraph, ranked: Iterable[_Row], filters: SearchFilters | None, limit: int
) -> list[_Row]:
    """The first ``limit`` admitted rows of ``ranked`` (in its order; each id once), read
    lazily: nothing past the last row needed is computed. With ``filters.ids`` every artifact
    a row's path passes through must be among them too."""
    rows: list[_Row] = []
    seen: set[str] = set()
    only = None if filters is None else filters.ids
    for row in ranked:
        if row.id in seen or not graph.admits(row.id, filters):
            continue
        if only is not None and not all(i in only for i in row.path):
            continue
        seen.add(row.id)
        rows.append(row)
        if len(rows) >= limit:  # before asking ``ranked`` for another row
            break
    return rows


def _member_rows(
    graph: CatalogGraph,
    source: str,
    target: str,
    max_length: int,
    include_unusable: bool,
    floor: float,
    known: list[CompositionPath],
    allowed: Callable[[str], bool] | None = None,
) -> Iterator[_Row]:
    """Every artifact that can be a step of a pipeline from ``source`` to ``target``, in
    ``CompositionIndex.members`` order (usable first), each explained by the best pipeline
    through it and scored below ``floor`` (the lowest score above them), decreasing. Their
    relationship is ``pipeline_member`` (not ``composition``: they are not on the best
    paths found). ``known``: what ``find_paths`` answered for the same pipelines."""
    members = graph.members(
        source, target, max_length, include_unusable=include_unusable, known=known, allowed=allowed
    )
    for n, (artifact_id, path) in enumerate(members):
        step = path.ids.index(artifact_id)
        yield _Row(
            artifact_id,
            floor / (n + 2),
            "pipeline_member",
            path.ids,
            f"step {step + 1} of {len(path)} in {' -> '.join(path.ids)}"
            f" ({' -> '.join(path.types)}), the best pipeline through it",
        )


def _named(graph: CatalogGraph, artifact_id: str) -> list[_Row]:
    rows = [_Row(artifact_id, 1.0, "named", (artifact_id,), "the query names this artifact")]
    for hit in graph.lineage.descendants(artifact_id, depth=3, include_implementers=False):
        rows.append(_Row(hit.id, 0.9 / hit.depth, "successor", hit.path, f"succeeds {artifact_id}"))
    return rows


def _type_rows(
    graph: CatalogGraph,
    op: TypeQuery,
    limit: int,
    include_unusable: bool,
    paths: list[CompositionPath],
    allowed: Callable[[str], bool] | None = None,
) -> Iterator[_Row]:
    """The artifacts doing ``op`` in one step by score (usable before unusable ones, which
    stay so callers see what was replaced; more exact signatures and healthier ones first),
    then, for ``A -> B``, the steps of the best pipelines of 2 or 3 artifacts (found only
    when reached, into ``paths``) and the other artifacts on such pipelines.

    Every one-step score (at least 0.15) is above every pipeline score (at most 0.1), so
    the one-step rows come first however many they are."""
    groups = graph.matching(op.input, op.output)
    last = 1.0
    for usable in (True, False):
        keys = heapq.merge(*(_type_keys(g, op, usable) for g in groups))
        for neg_score, _, _, artifact_id in keys:
            takes, gives = graph.types_of(artifact_id)
            last = -neg_score
            yield _Row(
                artifact_id,
                last,
                "type_match",
                (artifact_id,),
                f"takes {takes or '-'} and gives {gives or '-'}",
            )
    if not (op.input and op.output):
        return
    found = graph.find_paths(
        PathSearch(op.input, op.output, 3, max(limit, 5), include_unusable, allowed)
    )
    paths.extend(p for p in found if len(p) > 1)
    scores = _path_scores(paths, 0.2)
    yield from _path_members(paths, scores)
    floor = min((last, *scores))
    yield from _member_rows(graph, op.input, op.output, 3, include_unusable, floor, found)


def _relationship_rows(graph: CatalogGraph, op: Relationship) -> Iterator[_Row]:
    x = op.artifact_id
    kind = op.kind
    if kind in ("downstream", "upstream"):
        return _compatible_rows(graph, x, kind)
    lineage = graph.lineage
    hits: list[LineageHit]
    if kind == "dependents":
        hits = lineage.dependents(x, depth=3)
    elif kind == "dependencies":
        hits = lineage.dependencies(x, depth=3)
    elif kind == "successors":
        hits = lineage.descendants(x, depth=None, include_implementers=False)
    elif kind == "predecessors":
        hits = lineage.ancestors(x, depth=None)
    elif kind == "descendants":
        hits = lineage.descendants(x, depth=None, include_implementers=True)
    elif kind == "forged":
        hits = lineage.forged(x)
    elif kind == "forger":
        hits = lineage.forger(x)
    elif kind == "implementers":
        hits = lineage.implementers(x)
    else:
        return _similar_rows(graph, x)
    rows = [
        _Row(h.id, _lineage_score(graph, h), h.relation, h.path, _lineage_reason(h, x))
        for h in hits
    ]
    if kind == "successors":  # the newest generation that is usable first
        rows.sort(key=lambda r: (not _usable(graph, r.id), -len(r.path), r.id))
        rows = [r._replace_score(1.0 / (i + 1)) for i, r in enumerate(rows)]
    return iter(_by_score(rows))


def _compatible_rows(graph: CatalogGraph, x: str, kind: Direction) -> Iterator[_Row]:
    """What can follow (downstream) or precede (upstream) ``x``: usable ones first, each
    healthiest first, then by id (``NotFoundError`` if ``x`` has no signature)."""
    target = graph.signature(x)
    if target is None:
        raise NotFoundError(x)
    groups = graph.neighbours(target, kind)
    verb = "consumes the output of" if kind == "downstream" else "feeds the input of"
    for usable in (True, False):
        for neg_health, artifact_id in heapq.merge(*(g.healthiest(usable) for g in groups)):
            if artifact_id == x:
                continue
            yield _Row(
                artifact_id,
                answer_weight(-neg_health, usable),
                f"compatible_{kind}",
                (x, artifact_id) if kind == "downstream" else (artifact_id, x),
                f"{verb} {x}",
            )


def _similar_rows(graph: CatalogGraph, x: str) -> Iterator[_Row]:
    """Declared ``similar_to`` neighbours, then the artifacts that can stand in for ``x``:
    those with its exact signature, then those whose input accepts what ``x`` accepts and
    whose output fits where ``x``'s does (a subtype), deprecated and retired ones lowest;
    all by score (a declared neighbour first on a tie, then by id)."""
    declared = [
        _Row(h.id, _lineage_score(graph, h), h.relation, h.path, f"declared similar to {x}")
        for h in graph.lineage.similar(x)
    ]
    keyed = ((-r.score, 0, str(n), r) for n, r in enumerate(_by_score(declared)))
    me = graph.artifact(x)
    if me is None or not _typed_beyond_primitives(graph, me):
        return (row for *_, row in keyed)
    found = ((-r.score, 1, r.id, r) for r in _substitute_rows(graph, x, me))
    merged = heapq.merge(keyed, found, key=lambda k: k[:3])
    return (row for *_, row in merged)


def _typed_beyond_primitives(graph: CatalogGraph, me: ArtifactInfo) -> bool:
    """Whether ``me``'s signature says what it does: a side typed with more than a primitive
    (``json.string -> -`` fits every tool that takes text, so it makes no stand-ins)."""
    sides = [t for t in (me.input_type, me.output_type) if t]
    try:
        return any(not graph.is_primitive(t) for t in sides)
    except TypeLatticeError:  # a malformed type matches nothing (status() lists it)
        return False


def _substitute_rows(graph: CatalogGraph, x: str, me: ArtifactInfo) -> Iterator[_Row]:
    """Artifacts other than ``me`` with an input exactly when ``me`` has one, accepting
    ``me``'s input, and an output exactly when ``me`` has one, a subtype of ``me``'s: by
    score (same signature 0.5, else 0.4, times health, times 0.3 if unusable), then id."""
    try:
        groups = graph.matching(me.input_type, me.output_type, only=True)
    except TypeLatticeError:  # a malformed type matches nothing (status() lists it)
        return
    streams: list[Iterator[tuple[float, str]]] = []
    for g in groups:
        same = g.input_type == me.input_type and g.output_type == me.output_type
        for usable in (True, False):
            factor = (0.5 if same else 0.4), (1.0 if usable else UNUSABLE_FACTOR)
            streams.append(_ties_by_id(_scaled(g.healthiest(usable), *factor)))
    for neg_score, artifact_id in heapq.merge(*streams):
        if artifact_id == me.id:
            continue
        takes, gives = graph.types_of(artifact_id)
        if takes == me.input_type and gives == me.output_type:
            yield _Row(
                artifact_id,
                -neg_score,
                "same_signature",
                (x, artifact_id),
                f"same signature as {x}: {takes or '-'} -> {gives or '-'}",
            )
        else:
            yield _Row(
                artifact_id,
                -neg_score,
                "substitute",
                (x, artifact_id),
                f"can stand in for {x} ({me.input_type or '-'} -> {me.output_type or '-'}):"
                f" takes {takes or '-'}, gives {gives or '-'}",
            )


def _accepts(graph: CatalogGraph, input_type: str | None, given: str) -> bool:
    """True when an input of ``input_type`` accepts a ``given`` (False if malformed)."""
    if input_type is None:
        return False
    try:
        return graph.is_subtype(given, input_type)
    except TypeLatticeError:
        return False


def _usable(graph: CatalogGraph, artifact_id: str) -> bool:
    info = graph.artifact(artifact_id)
    return info is not None and info.usable


def _lineage_score(graph: CatalogGraph, hit: LineageHit) -> float:
    info = graph.artifact(hit.id)
    quality = UNUSABLE_FACTOR if info is None or not info.usable else answer_weight(info.health)
    return quality / hit.depth


@dataclass(frozen=True, slots=True)
class _Row:
    id: str
    score: float
    relationship: str
    path: tuple[str, ...]
    reason: str

    def _replace_score(self, score: float) -> _Row:
        return _Row(self.id, score, self.relationship, self.path, self.reason)


def hit_of(row: _Row, rank: int) -> BrainHit:
    """The explained hit of ``row`` at ``rank``."""
    return BrainHit(
        id=row.id,
        score=row.score,
        brain=GRAPH,
        rank=rank,
        explanation={
            "brain": GRAPH,
            "rank": rank,
            "relationship": row.relationship,
            "path": list(row.path),
            "reason": row.reason,
        },
    )


@dataclass(slots=True)
class GraphRanking:
    """The graph's answer to one question (a ``RankedAnswer``): its rows in rank order, each
    made into an explained hit only when asked for (fusion shows a page of a deep answer)."""

    rows: list[_Row]
    warnings: list[str] = field(default_factory=list)
    notes: tuple[str, ...] = ()
    weak: str = ""
    _ranks: dict[str, int] | None = None

    @property
    def ranking(self) -> list[tuple[str, float]]:
        return [(r.id, r.score) for r in self.rows]

    @property
    def total(self) -> int:
        return len(self.rows)

    def explain(self, artifact_id: str, entry: EntryText | None = None) -> BrainHit | None:
        if self._ranks is None:
            self._ranks = {r.id: n for n, r in enumerate(self.rows)}
        n = self._ranks.get(artifact_id)
        return None if n is None else hit_of(self.rows[n], n + 1)


def _by_score(rows: list[_Row]) -> list[_Row]:
    """``rows`` by score, highest first; equal scores keep their order."""
    return sorted(rows, key=lambda r: -r.score)


def _type_keys(
    group: Ranked, op: TypeQuery, usable: bool
) -> Iterator[tuple[float, int, float, str]]:
    """``(-score, -exactness, -health, id)`` of the usable (or unusable) artifacts of
    ``group`` answering ``op``, in order (lazily)."""
    exact = int(op.input is not None and group.input_type == op.input) + int(
        op.output is not None and group.output_type == op.output
    )
    for neg_health, artifact_id in group.healthiest(usable):
        score = answer_weight(-neg_health, usable) * (1 + 0.1 * exact)
        yield -score, -exact, neg_health, artifact_id


def _scaled(
    keys: Iterator[tuple[float, str]], factor: float, usable: float
) -> Iterator[tuple[float, str]]:
    """``(-health, id)`` keys as ``(-(factor * health * usable), id)``."""
    for neg_health, artifact_id in keys:
        yield -(factor * -neg_health * usable), artifact_id


def _ties_by_id(keys: Iterator[tuple[float, str]]) -> Iterator[tuple[float, str]]:
    """Keys in order of their first item, sorted within runs of equal first items (a scaled
    health can round two healths to one score: those then go by id)."""
    run: list[tuple[float, str]] = []
    for key in keys:
        if run and key[0] != run[0][0]:
            run.sort()
            yield from run
            run = []
        run.append(key)
    run.sort()
    yield from run


def _path_scores(paths: list[CompositionPath], scale: float = 1.0) -> list[float]:
    """The score of the steps of each path: ``scale * (health / (n + 1) / length)`` for the
    ``n``-th path."""
    return [scale * (p.health / (n + 1) / len(p.ids)) for n, p in enumerate(paths)]


def _path_members(paths: list[CompositionPath], scores: list[float]) -> Iterator[_Row]:
    """A row for each step of each path, highest score first (equal scores in path order,
    steps in order), made only when reached; an artifact on several paths comes once, at its
    first (best) row, the only one a caller keeps."""
    seen: set[str] = set()
    for n in sorted(range(len(paths)), key=lambda n: -scores[n]):
        path = paths[n]
        where = f" of {len(path.ids)} in {' -> '.join(path.ids)} ({' -> '.join(path.types)})"
        for step, artifact_id in enumerate(path.ids, start=1):
            if artifact_id not in seen:
                seen.add(artifact_id)
                yield _Row(artifact_id, scores[n], "composition", path.ids, f"step {step}{where}")


def _lineage_reason(hit: LineageHit, start: str) -> str:
    return f"{hit.relation.replace('_', ' ')} (depth {hit.depth}) via {' -> '.join(hit.path)}"


def explain_path(path: CompositionPath) -> dict[str, Any]:
    return {"ids": list(path.ids), "types": list(path.types), "health": path.health}
