"""GraphBrain: compatibility, dependencies, lineage and composition over the catalog's graph.

It holds the type lattice, the lineage graph and a composition index, all in memory and
rebuilt from the catalog on first use (a 100k-entry catalog builds in a few seconds), then kept
current from the change log. Plain-text questions are read by ``query.parse_graph_query``;
each hit says which relationship put it there and the path that justifies it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import heapq
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lgent.brains.base import BrainQuery, BrainStatus, ChangeSet, Reading
from lgent.brains.graph.artifacts import (
    ArtifactInfo,
    ArtifactTable,
    Fitness,
    health_of,
)
from lgent.brains.graph.compose import (
    CompositionIndex,
    CompositionPath,
    Direction,
    PathSearch,
    Ranked,
    Signature,
)
from lgent.brains.graph.lineage import LineageGraph, LineageHit, bfs
from lgent.brains.graph.names import NameIndex, normalized
from lgent.brains.graph.query import (
    Composition,
    GraphQuery,
    Relationship,
    TypeQuery,
    parse_graph_query,
    unknown_names,
)
from lgent.brains.graph.types import TypeLattice
from lgent.errors import BuildStoppedError, NotFoundError, TypeLatticeError
from lgent.models import BrainHit, CatalogEntry, EntryText, SearchFilters, TypeDecl
from lgent.typeexpr import canonical

T = TypeVar("T")

CANCEL_EVERY = 1000
"""A build asks whether to stop (and gives way to queries) every this many entries."""
UNUSABLE_FACTOR = 0.3
"""Scales the score of a deprecated or retired hit: it stays, below the usable ones."""


@dataclass(slots=True)
class GraphResult:
    """Hits, the operation the query was read as (None: not a graph question), and why."""

    hits: list[BrainHit]
    operation: GraphQuery | None
    reason: str
    paths: list[CompositionPath] = field(default_factory=list)


def _locked(method: Callable[..., T]) -> Callable[..., T]:
    """Run the method under the brain's lock: catalog changes never interleave with a read."""

    @functools.wraps(method)
    def wrapper(self: GraphBrain, *args: Any, **kwargs: Any) -> T:
        with self.lock:
            return method(self, *args, **kwargs)

    return wrapper


class GraphBrain:
    """The graph brain (in memory; ``change_number`` -1 until built).

    Thread-safe: every public method holds ``lock`` (re-entrant), so a caller that needs several
    reads to agree with each other can hold it around them too."""

    name = "graph"

    def __init__(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """``cancelled()`` is asked during a build (true: ``BuildStoppedError``, the brain is
        left unbuilt)."""
        self.cancelled = cancelled
        self.lock = threading.RLock()
        self._change_number = -1
        self._reset([])

    def _reset(self, types: Sequence[TypeDecl]) -> None:
        self.lattice = _lattice(types)
        self.lineage = LineageGraph()
        self.composition = CompositionIndex(self.lattice)
        self.info = ArtifactTable()
        self.names = NameIndex()
        self._type_names: dict[str, str] = {}
        self._index_type_names()

    # -- Brain protocol --------------------------------------------------------------------

    @property
    def change_number(self) -> int:
        return self._change_number

    @_locked
    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self._reset(types)
        self._change_number = -1
        declared: dict[str, list[tuple[str, str]]] = {}
        for n, entry in enumerate(entries, start=1):
            self._add(entry)
            declared[entry.id] = _relations(entry)
            if n % CANCEL_EVERY == 0 and self.cancelled():
                self._reset(types)
                raise BuildStoppedError(f"the graph build stopped after {n} entries")
        self.lineage = LineageGraph.of(
            (source, relation, target)
            for source, pairs in declared.items()
            for relation, target in pairs
        )
        self.names = NameIndex.of(self.info.names())
        self.composition.warm()
        self._change_number = change_number

    @_locked
    def apply_changes(self, changes: ChangeSet) -> None:
        """Apply a batch of catalog changes; each entry costs what its own names, relations and
        type group cost, never a pass over the catalog (new type declarations rebuild the
        lattice and the type tables, which are as large as the type vocabulary)."""
        if changes.types is not None:
            self.lattice = _lattice(changes.types)
            self.composition.set_lattice(self.lattice)
            self._index_type_names()
        for artifact_id in changes.removals:
            self._remove(artifact_id)
        for entry in changes.upserts:
            self._remove(entry.id)
            self._add(entry)
            self.lineage.set_relations(entry.id, _relations(entry))
            self.names.add(entry.id, entry.name)
        self._change_number = changes.change_number

    @_locked
    def status(self) -> BrainStatus:
        problems = self.composition.problems()
        return BrainStatus(
            self.name,
            self._change_number >= 0,
            len(self.info),
            self._change_number,
            detail=f"{len(self.lattice)} types, {len(self.lineage.relations())} relations",
            extra={"type_problems": problems[:20]},
        )

    def close(self) -> None:
        """Nothing to release (in memory)."""

    def _add(self, entry: CatalogEntry) -> None:
        """Index ``entry`` (its names and relations are indexed by the caller: in bulk by
        ``build``)."""
        info = ArtifactInfo(
            entry.id,
            entry.name,
            entry.status,
            entry.entity_type.value,
            entry.author,
            entry.execution.value if entry.execution else None,
            health_of(entry),
            _canonical_or_none(entry.input_type),
            _canonical_or_none(entry.output_type),
            entry.success_rate,
            entry.usage_count,
            entry.last_used,
            entry.version,
            entry.contracts,
        )
        self.info.add(info)
        # a malformed type matches nothing; status() lists the problems
        with contextlib.suppress(TypeLatticeError):
            self.composition.add(
                Signature(entry.id, info.input_type, info.output_type, info.usable, info.health)
            )

    def _remove(self, artifact_id: str) -> None:
        info = self.info.remove(artifact_id)
        if info is not None:
            self.names.remove(artifact_id, info.name)
            self.lineage.remove_relations_of(artifact_id)
            self.composition.remove(artifact_id)

    def _index_type_names(self) -> None:
        self._type_names = {t.lower(): t for t in self.lattice.types()}
        self._type_names["any"] = "Any"

    # -- vocabulary (for the query parser and for fusion) ----------------------------------

    @_locked
    def type_name(self, text: str) -> str | None:
        """The declared type ``text`` names (case-insensitive; parametric forms checked)."""
        text = text.strip()
        direct = self._type_names.get(text.lower())
        if direct is not None:
            return direct
        if "[" in text:
            try:
                expr = canonical(text)
            except TypeLatticeError:
                return None
            head = self._type_names.get(expr.split("[", 1)[0].lower())
            if head is None:
                return None
            args = re.findall(r"[A-Za-z_][\w.\-]*", expr)[1:]
            fixed = [self._type_names.get(a.lower()) for a in args]
            if all(fixed):
                rebuilt = expr
                for raw, good in zip(args, fixed, strict=True):
                    rebuilt = re.sub(rf"\b{re.escape(raw)}\b", str(good), rebuilt, count=1)
                return head + rebuilt[len(expr.split("[", 1)[0]) :]
        return None

    @_locked
    def prepare(self) -> None:
        """Build the composition tables a first path or type question would (``warm_up``)."""
        self.composition.prepare()

    @_locked
    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The artifact ``text`` names: by id or name, ignoring case and punctuation (an id wins
        over a look-alike name, then the smallest id); then, if ``fuzzy``, the closest name or
        id by ``difflib`` ratio (at least 0.88, keys of 5 characters or more; see ``names``)."""
        return self.names.lookup(text, fuzzy=fuzzy)

    # -- search ----------------------------------------------------------------------------

    @_locked
    def interpret(self, text: str) -> GraphQuery | None:
        return parse_graph_query(text, self)

    def read_question(self, text: str) -> Reading | None:
        """The type, composition or relationship question in ``text`` (``QuestionReader``)."""
        op = self.interpret(text)
        if isinstance(op, Composition):
            return Reading("composition", op.describe(), op.source, op.target, detail=op)
        if isinstance(op, TypeQuery):
            return Reading("type", op.describe(), op.input, op.output, detail=op)
        if isinstance(op, Relationship):
            return Reading(
                "relationship",
                op.describe(),
                artifact=op.artifact_id,
                detail=op,
                relation=op.kind,
            )
        return None

    def answer(self, query: BrainQuery) -> GraphRanking:
        """The graph's answer to the question ``query`` was read as (or that its text asks);
        each hit is made (explained) only when fusion asks for it."""
        detail = query.reading.detail if query.reading is not None else None
        operation = detail if isinstance(detail, Composition | TypeQuery | Relationship) else None
        rows, op, reason, _ = self._rows(query.text, query.filters, query.limit, operation)
        direct = query.query_type is None  # asked by name: say when no question was read
        if direct and not op:
            return GraphRanking(rows, [reason])
        empty = None
        if not rows and isinstance(op, Relationship):
            empty = self._why_none(op) or f"the graph found none: {op.describe()}"
        said = [empty] if empty else []
        if isinstance(op, Relationship):
            said += self._namesakes(op)
        return GraphRanking(rows, said)

    @_locked
    def _namesakes(self, op: Relationship) -> list[str]:
        """A note when the name in the question is shared: which artifact was answered for."""
        if not op.named:
            return []
        owners = self.names.namesakes(normalized(op.named))
        if op.artifact_id not in owners:
            return []
        shown = ", ".join(owners[:5]) + (f" and {len(owners) - 5} more" if len(owners) > 5 else "")
        return [
            f"{op.named!r} names {len(owners)} artifacts ({shown}): this answers for "
            f"{op.artifact_id}; name another by its id to ask about it"
        ]

    @_locked
    def undeclared_side(self, artifact_id: str, direction: Direction) -> str | None:
        """Why nothing composes with ``artifact_id`` in ``direction`` when it declares no type
        on that side (its output downstream, its input upstream); None when it does."""
        me = self.info.get(artifact_id)
        if me is None:
            return None
        side, typed = _side_type(me, direction)
        return None if typed else _undeclared(artifact_id, side)

    def _why_none(self, op: Relationship) -> str | None:
        """Why a composition question about ``op``'s artifact has no answer in its types (it
        declares none on that side, or only a primitive), or None."""
        if op.kind not in ("downstream", "upstream"):
            return None
        me = self.info.get(op.artifact_id)
        if me is None:
            return None
        side, typed = _side_type(me, op.kind)
        if not typed:
            return _undeclared(op.artifact_id, side)
        try:
            primitive = self.lattice.is_primitive(typed)
        except TypeLatticeError:
            return None
        if primitive:
            return (
                f"{op.artifact_id}'s {side} is {typed}, a primitive: composition never chains "
                "two artifacts through one"
            )
        return None

    @_locked
    def unread(self, text: str) -> str | None:
        """Why ``text``, shaped like a graph question, could not be read as one (an unknown type
        or artifact, with the closest known names), or None."""
        unknown = unknown_names(text, self)
        if not unknown:
            return None
        parts = []
        for kind, name in unknown:
            if kind == "type":
                close = self._close_types(name)
                what = "no declared type"
            else:
                close = self.names.closest(name, 3)
                what = "no artifact's name or id"
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            parts.append(f"{name!r} is {what}{hint}")
        return " and ".join(parts)

    @_locked
    def search(
        self,
        text: str,
        filters: SearchFilters | None = None,
        limit: int = 10,
        *,
        operation: GraphQuery | None = None,
        include_unusable: bool = False,
    ) -> GraphResult:
        """Answer a graph question in ``text`` (or the given ``operation``).

        A composition (or an ``A -> B`` type query, after the artifacts doing it in one step)
        lists the steps of the best paths, then, while short of ``limit``, every other
        artifact on some pipeline of the allowed length (``pipeline_member``), deprecated and
        retired ones last. "Alternatives to X" lists the declared ``similar_to`` neighbours,
        then artifacts that can stand in for X (its signature, or a subtype output).

        Rows are produced lazily in rank order and only until ``limit`` are admitted, so a
        question with thousands of matches costs what its first ``limit`` answers cost."""
        rows, op, reason, paths = self._rows(text, filters, limit, operation, include_unusable)
        hits = [_hit(row, rank) for rank, row in enumerate(rows, start=1)]
        return GraphResult(hits, op, reason, paths)

    @_locked
    def _rows(
        self,
        text: str,
        filters: SearchFilters | None,
        limit: int,
        operation: GraphQuery | None,
        include_unusable: bool = False,
    ) -> tuple[list[_Row], GraphQuery | None, str, list[CompositionPath]]:
        """``search``'s answer as rows (a hit each, not made yet), the operation, the reason
        and the paths."""
        op = operation if operation is not None else self.interpret(text)
        if op is None:
            named = self.artifact_id(text, fuzzy=False)
            if named is None:
                return [], None, "no type, composition or relationship question recognised", []
            named_rows = _by_score(self._named(named))
            reason = "the query names an artifact"
            return self._admitted(named_rows, filters, limit), None, reason, []
        if isinstance(op, Composition):
            max_length = op.max_length or 4
            paths = self.composition.find_paths(
                PathSearch(op.source, op.target, max_length, max(limit, 5), include_unusable)
            )
            scores = _path_scores(paths)
            floor = min(scores, default=1.0)
            more = self._member_rows(
                op.source, op.target, max_length, include_unusable, floor, paths
            )
            ranked = itertools.chain(_path_members(paths, scores), more)
            return self._admitted(ranked, filters, limit), op, op.describe(), paths
        if isinstance(op, TypeQuery):
            found: list[CompositionPath] = []
            direct = self._type_rows(op, limit, include_unusable, found)
            return self._admitted(direct, filters, limit), op, op.describe(), found
        rows = self._admitted(self._relationship_rows(op), filters, limit)
        return rows, op, op.describe(), []

    def _admitted(
        self, ranked: Iterable[_Row], filters: SearchFilters | None, limit: int
    ) -> list[_Row]:
        """The first ``limit`` admitted rows of ``ranked`` (in its order; each id once), read
        lazily: nothing past the last row needed is computed."""
        rows: list[_Row] = []
        seen: set[str] = set()
        for row in ranked:
            if row.id in seen or not self.info.admits(row.id, filters):
                continue
            seen.add(row.id)
            rows.append(row)
            if len(rows) >= limit:  # before asking ``ranked`` for another row
                break
        return rows

    def _member_rows(
        self,
        source: str,
        target: str,
        max_length: int,
        include_unusable: bool,
        floor: float,
        known: list[CompositionPath],
    ) -> Iterator[_Row]:
        """Every artifact that can be a step of a pipeline from ``source`` to ``target``, in
        ``CompositionIndex.members`` order (usable first), each explained by the best pipeline
        through it and scored below ``floor`` (the lowest score above them), decreasing. Their
        relationship is ``pipeline_member`` (not ``composition``: they are not on the best
        paths found). ``known``: what ``find_paths`` answered for the same pipelines."""
        members = self.composition.members(
            source, target, max_length, include_unusable=include_unusable, known=known
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

    def _named(self, artifact_id: str) -> list[_Row]:
        rows = [_Row(artifact_id, 1.0, "named", (artifact_id,), "the query names this artifact")]
        for hit in self.lineage.descendants(artifact_id, depth=3, include_implementers=False):
            rows.append(
                _Row(hit.id, 0.9 / hit.depth, "successor", hit.path, f"succeeds {artifact_id}")
            )
        return rows

    def _type_rows(
        self,
        op: TypeQuery,
        limit: int,
        include_unusable: bool,
        paths: list[CompositionPath],
    ) -> Iterator[_Row]:
        """The artifacts doing ``op`` in one step by score (usable before unusable ones, which
        stay so callers see what was replaced; more exact signatures and healthier ones first),
        then, for ``A -> B``, the steps of the best pipelines of 2 or 3 artifacts (found only
        when reached, into ``paths``) and the other artifacts on such pipelines.

        Every one-step score (at least 0.15) is above every pipeline score (at most 0.1), so
        the one-step rows come first however many they are."""
        groups = self.composition.matching(op.input, op.output)
        last = 1.0
        for usable in (True, False):
            keys = heapq.merge(*(_type_keys(g, op, usable) for g in groups))
            for neg_score, _, _, artifact_id in keys:
                takes, gives = self.info.types(artifact_id)
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
        found = self.composition.find_paths(
            PathSearch(op.input, op.output, 3, max(limit, 5), include_unusable)
        )
        paths.extend(p for p in found if len(p) > 1)
        scores = _path_scores(paths, 0.2)
        yield from _path_members(paths, scores)
        floor = min((last, *scores))
        yield from self._member_rows(op.input, op.output, 3, include_unusable, floor, found)

    @_locked
    def type_candidates(self, input_type: str, output_type: str) -> list[Fitness]:
        """Artifacts (usable or not) whose input accepts ``input_type`` and whose output fits
        ``output_type``, in no particular order (the resolver ranks them by its own score)."""
        table = self.info
        found = self.composition.fitting_ids(input_type, output_type)
        return [table.fitness(i) for i in found if i in table]

    @_locked
    def accepting(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        """Artifacts (usable or not) whose input accepts ``type_name``, healthiest first."""
        pseudo = Signature("\0query", None, type_name)
        sigs = self.composition.find_compatible(
            pseudo, "downstream", include_unusable=True, limit=limit, chain=False
        )
        return [self.info[s.id] for s in sigs if s.id in self.info]

    @_locked
    def producing(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        """Artifacts (usable or not) whose output is ``type_name`` or a subtype, healthiest first."""
        pseudo = Signature("\0query", type_name, None)
        sigs = self.composition.find_compatible(
            pseudo, "upstream", include_unusable=True, limit=limit, chain=False
        )
        return [self.info[s.id] for s in sigs if s.id in self.info]

    def _relationship_rows(self, op: Relationship) -> Iterator[_Row]:
        x = op.artifact_id
        kind = op.kind
        if kind in ("downstream", "upstream"):
            return self._compatible_rows(x, kind)
        lineage = self.lineage
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
            return self._similar_rows(x)
        rows = [
            _Row(h.id, self._lineage_score(h), h.relation, h.path, _lineage_reason(h, x))
            for h in hits
        ]
        if kind == "successors":  # the newest generation that is usable first
            rows.sort(key=lambda r: (not self._usable(r.id), -len(r.path), r.id))
            rows = [r._replace_score(1.0 / (i + 1)) for i, r in enumerate(rows)]
        return iter(_by_score(rows))

    def _compatible_rows(self, x: str, kind: Direction) -> Iterator[_Row]:
        """What can follow (downstream) or precede (upstream) ``x``: usable ones first, each
        healthiest first, then by id (``NotFoundError`` if ``x`` has no signature)."""
        target = self.composition.get(x)
        if target is None:
            raise NotFoundError(x)
        groups = self.composition.neighbours(target, kind)
        verb = "consumes the output of" if kind == "downstream" else "feeds the input of"
        for usable in (True, False):
            factor = 1.0 if usable else 0.3
            for neg_health, artifact_id in heapq.merge(*(g.healthiest(usable) for g in groups)):
                if artifact_id == x:
                    continue
                yield _Row(
                    artifact_id,
                    factor * (0.5 + 0.5 * -neg_health),
                    f"compatible_{kind}",
                    (x, artifact_id) if kind == "downstream" else (artifact_id, x),
                    f"{verb} {x}",
                )

    def _similar_rows(self, x: str) -> Iterator[_Row]:
        """Declared ``similar_to`` neighbours, then the artifacts that can stand in for ``x``:
        those with its exact signature, then those whose input accepts what ``x`` accepts and
        whose output fits where ``x``'s does (a subtype), deprecated and retired ones lowest;
        all by score (a declared neighbour first on a tie, then by id)."""
        declared = [
            _Row(h.id, self._lineage_score(h), h.relation, h.path, f"declared similar to {x}")
            for h in self.lineage.similar(x)
        ]
        keyed = ((-r.score, 0, str(n), r) for n, r in enumerate(_by_score(declared)))
        me = self.info.get(x)
        if me is None or not self._typed_beyond_primitives(me):
            return (row for *_, row in keyed)
        found = ((-r.score, 1, r.id, r) for r in self._substitute_rows(x, me))
        merged = heapq.merge(keyed, found, key=lambda k: k[:3])
        return (row for *_, row in merged)

    def _typed_beyond_primitives(self, me: ArtifactInfo) -> bool:
        """Whether ``me``'s signature says what it does: a side typed with more than a primitive
        (``json.string -> -`` fits every tool that takes text, so it makes no stand-ins)."""
        sides = [t for t in (me.input_type, me.output_type) if t]
        try:
            return any(not self.lattice.is_primitive(t) for t in sides)
        except TypeLatticeError:  # a malformed type matches nothing (status() lists it)
            return False

    def _substitute_rows(self, x: str, me: ArtifactInfo) -> Iterator[_Row]:
        """Artifacts other than ``me`` with an input exactly when ``me`` has one, accepting
        ``me``'s input, and an output exactly when ``me`` has one, a subtype of ``me``'s: by
        score (same signature 0.5, else 0.4, times health, times 0.3 if unusable), then id."""
        try:
            groups = self.composition.matching(me.input_type, me.output_type, only=True)
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
            takes, gives = self.info.types(artifact_id)
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

    def _accepts(self, input_type: str | None, given: str) -> bool:
        """True when an input of ``input_type`` accepts a ``given`` (False if malformed)."""
        if input_type is None:
            return False
        try:
            return self.lattice.is_subtype(given, input_type)
        except TypeLatticeError:
            return False

    def _usable(self, artifact_id: str) -> bool:
        info = self.info.get(artifact_id)
        return info is not None and info.usable

    def _lineage_score(self, hit: LineageHit) -> float:
        info = self.info.get(hit.id)
        quality = 0.3 if info is None or not info.usable else 0.5 + 0.5 * info.health
        return quality / hit.depth

    # -- direct operations (CLI / API) -----------------------------------------------------

    @_locked
    def find_paths(self, search: PathSearch) -> list[CompositionPath]:
        """The pipelines ``search`` asks for; an unknown type is a TypeLatticeError."""
        source, target = self._require_type(search.source), self._require_type(search.target)
        return self.composition.find_paths(
            dataclasses.replace(search, source=source, target=target)
        )

    @_locked
    def find_compatible(
        self,
        artifact_id: str,
        direction: Direction = "downstream",
        limit: int = 50,
        include_unusable: bool = False,
    ) -> list[Signature]:
        self._require_artifact(artifact_id)
        return self.composition.find_compatible(
            artifact_id,
            direction,
            include_unusable=include_unusable,
            limit=limit,
        )

    @_locked
    def lineage_of(self, artifact_id: str, depth: int | None = None) -> dict[str, list[LineageHit]]:
        self._require_artifact(artifact_id)
        g = self.lineage
        return {
            "ancestors": g.ancestors(artifact_id, depth),
            "descendants": g.descendants(artifact_id, depth, include_implementers=False),
            "dependencies": g.dependencies(artifact_id, depth or 1),
            "dependents": g.dependents(artifact_id, depth or 1),
            "forged_by": g.forger(artifact_id),
            "forged": g.forged(artifact_id),
            "implements": list(bfs(artifact_id, g.outgoing("implements"), 1)),
            "implementers": g.implementers(artifact_id),
            "similar": g.similar(artifact_id),
            "part_of": list(bfs(artifact_id, g.outgoing("part_of"), 1)),
            "parts": list(bfs(artifact_id, g.incoming("part_of"), 1)),
        }

    @_locked
    def is_subtype(self, a: str, b: str) -> bool:
        return self.lattice.is_subtype(a, b)

    @_locked
    def compose_check(self, first: str, second: str) -> bool:
        """True when ``first``'s output fits ``second``'s input."""
        a, b = self.info.get(first), self.info.get(second)
        if a is None or b is None or a.output_type is None or b.input_type is None:
            return False
        return self.lattice.is_subtype(a.output_type, b.input_type)

    @_locked
    def latest(self, artifact_id: str) -> str:
        """The newest usable generation of ``artifact_id`` along successor links (itself if none)."""
        hits = self.lineage.descendants(artifact_id, depth=None, include_implementers=False)
        usable = [h for h in hits if self._usable(h.id)]
        if not usable:
            return artifact_id
        return max(usable, key=lambda h: (h.depth, h.id)).id

    @_locked
    def knows(self, artifact_id: str) -> bool:
        """Whether ``artifact_id`` is in the graph (the catalog may be ahead of it)."""
        return artifact_id in self.info

    @_locked
    def successor_of(self, artifact_id: str) -> str | None:
        """The usable artifact that directly or eventually replaced ``artifact_id``, if any."""
        newest = self.latest(artifact_id)
        return None if newest == artifact_id else newest

    def _require_type(self, text: str) -> str:
        name = self.type_name(text)
        if name is None:
            raise TypeLatticeError(self.unknown_type_message(text))
        return name

    @_locked
    def unknown_type_message(self, text: str) -> str:
        close = self._close_types(text)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"unknown type {text!r}{hint}"

    def _close_types(self, text: str) -> list[str]:
        """Up to three declared types whose names are closest to ``text``: suggestions."""
        return difflib.get_close_matches(text, self.lattice.types(), n=3, cutoff=0.6)

    def _require_artifact(self, artifact_id: str) -> None:
        if artifact_id not in self.info:
            raise NotFoundError(artifact_id)


@dataclass(frozen=True, slots=True)
class _Row:
    id: str
    score: float
    relationship: str
    path: tuple[str, ...]
    reason: str

    def _replace_score(self, score: float) -> _Row:
        return _Row(self.id, score, self.relationship, self.path, self.reason)


def _hit(row: _Row, rank: int) -> BrainHit:
    """The explained hit of ``row`` at ``rank``."""
    return BrainHit(
        id=row.id,
        score=row.score,
        brain=GraphBrain.name,
        rank=rank,
        explanation={
            "brain": GraphBrain.name,
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
        return None if n is None else _hit(self.rows[n], n + 1)


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
    factor = 1.0 if usable else 0.3
    for neg_health, artifact_id in group.healthiest(usable):
        score = factor * (0.5 + 0.5 * -neg_health) * (1 + 0.1 * exact)
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


def _relations(entry: CatalogEntry) -> list[tuple[str, str]]:
    """The ``(relation, target)`` pairs ``entry`` declares."""
    return [(r.type.value, r.target) for r in entry.relations]


def _canonical_or_none(text: str | None) -> str | None:
    if not text:
        return None
    try:
        return canonical(text)
    except TypeLatticeError:
        return text


def _lattice(types: Sequence[TypeDecl]) -> TypeLattice:
    """The lattice of the catalog's declarations (which the catalog keeps acyclic)."""
    lattice = TypeLattice()
    lattice.add_types((t.type, t.subtype_of, t.params, bool(t.primitive)) for t in types)
    return lattice


def explain_path(path: CompositionPath) -> dict[str, Any]:
    return {"ids": list(path.ids), "types": list(path.types), "health": path.health}


def _undeclared(artifact_id: str, side: str) -> str:
    """Why nothing composes with ``artifact_id`` on its ``side`` ("input", "output")."""
    return f"{artifact_id} declares no {side} type, so nothing composes with it there"


def _side_type(me: ArtifactInfo, direction: Direction) -> tuple[str, str | None]:
    """The side of ``me`` a composition in ``direction`` goes through, and its type there."""
    return ("output", me.output_type) if direction == "downstream" else ("input", me.input_type)
