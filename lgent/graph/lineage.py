"""The lineage graph: typed relations between artifacts, and traversals over them.

A relation ``(source, relation, target)`` is declared by ``source``:

* ``X successor_to Y``: X replaced Y (edges point from new to old).
* ``X depends_on Y``: X needs Y.
* ``X forged_by Y``: Y created X.
* ``X implements Y``: X is an implementation of Y.
* ``X similar_to Y``: symmetric; traversed both ways.
* ``X part_of Y``: X is one of the parts of Y (a tool of an MCP server, an operation of an API).

Traversals are free functions over a ``neighbors`` callable (breadth-first, each node once,
neighbours visited in sorted ``(id, relation)`` order), so results are deterministic and cycles
in the data are harmless. Every hit carries the path of ids from the start that justifies it.
Unknown ids have no relations: traversals from them are empty.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lgent.errors import FieldProblem, ValidationError

SUCCESSOR_TO = "successor_to"
DEPENDS_ON = "depends_on"
FORGED_BY = "forged_by"
IMPLEMENTS = "implements"
SIMILAR_TO = "similar_to"
PART_OF = "part_of"
FEEDS = "feeds"
RELATION_TYPES = frozenset(
    {SUCCESSOR_TO, DEPENDS_ON, FORGED_BY, IMPLEMENTS, SIMILAR_TO, PART_OF, FEEDS}
)
SELF = "self"
"""The relation of the hit ``latest`` returns when the artifact has no successor."""

Neighbors = Callable[[str], Iterable[tuple[str, str]]]
"""``neighbors(node)`` yields ``(relation, neighbour_id)`` pairs."""


@dataclass(frozen=True, slots=True)
class LineageHit:
    """An artifact reached by a traversal: how (the last relation), how far, and by which path
    (ids from the start to this one, both included)."""

    id: str
    relation: str
    depth: int
    path: tuple[str, ...]


def _check_depth(depth: int | None) -> None:
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise ValidationError([FieldProblem("depth", "must be an integer >= 1 or None", depth)])


def bfs(start: str, neighbors: Neighbors, depth: int | None = None) -> Iterator[LineageHit]:
    """Breadth-first from ``start`` (excluded), nearest first, at most ``depth`` steps
    (``None``: unlimited). Each node is reached once, by its first shortest path in sorted
    neighbour order."""
    _check_depth(depth)
    seen = {start}
    queue: deque[tuple[str, tuple[str, ...]]] = deque([(start, (start,))])
    while queue:
        node, path = queue.popleft()
        if depth is not None and len(path) > depth:
            continue
        for relation, nxt in sorted(neighbors(node), key=lambda p: (p[1], p[0])):
            if nxt in seen:
                continue
            seen.add(nxt)
            hit_path = (*path, nxt)
            yield LineageHit(nxt, relation, len(hit_path) - 1, hit_path)
            queue.append((nxt, hit_path))


def tips(start: str, successors: Neighbors) -> Iterator[LineageHit]:
    """The ends of the chains reachable from ``start`` by ``successors``: nodes none of whose
    successors lies off their own path. ``start`` itself (relation ``SELF``, depth 0) when it
    has no successor."""
    first = LineageHit(start, SELF, 0, (start,))
    for hit in [first, *bfs(start, successors)]:
        on_path = set(hit.path)
        if all(nxt in on_path for _, nxt in successors(hit.id)):
            yield hit


def _check_relation(source_id: object, relation: object, target_id: object) -> None:
    if not isinstance(relation, str) or relation not in RELATION_TYPES:
        allowed = ", ".join(sorted(RELATION_TYPES))
        raise ValidationError(
            [FieldProblem("relation", f"{relation!r} is not one of {allowed}", relation)]
        )
    for field, value in (("source_id", source_id), ("target_id", target_id)):
        if not isinstance(value, str) or not value:
            raise ValidationError([FieldProblem(field, "must be a non-empty string", value)])


Adjacency = tuple[tuple[str, str], ...]
"""``(relation, other id)`` pairs, sorted and distinct: a tuple of atoms, which the garbage
collector stops tracking (no container per artifact for it to scan at catalog scale)."""


class LineageGraph:
    """Relations between artifact ids: for each id, the ``(relation, target)`` pairs it declares
    and the ``(relation, source)`` pairs pointing at it. An id is in the graph while some
    relation names it."""

    def __init__(self) -> None:
        self._out: dict[str, Adjacency] = {}
        self._in: dict[str, Adjacency] = {}
        self._count = 0
        self._of_relation: dict[str, tuple[tuple[str, str], ...]] = {}
        """``pairs_of``'s answers, dropped at every change."""

    @classmethod
    def of(cls, relations: Iterable[tuple[str, str, str]]) -> LineageGraph:
        """A graph of ``(source, relation, target)`` triples (checked; repeats count once), built
        in bulk: one sort, where adding them one by one would copy a popular target's pairs
        for each new one."""
        triples = sorted(set(relations))
        for source, relation, target in triples:
            _check_relation(source, relation, target)
        graph = cls()
        out: dict[str, list[tuple[str, str]]] = {}
        back: dict[str, list[tuple[str, str]]] = {}
        for source, relation, target in triples:
            out.setdefault(source, []).append((relation, target))
            back.setdefault(target, []).append((relation, source))
        graph._out = {node: tuple(sorted(pairs)) for node, pairs in out.items()}
        graph._in = {node: tuple(sorted(pairs)) for node, pairs in back.items()}
        graph._count = len(triples)
        return graph

    def _changed(self) -> None:
        self._of_relation = {}

    # ----------------------------------------------------------------------------- changes

    def add_relation(self, source_id: str, relation: str, target_id: str) -> None:
        """Record ``source_id relation target_id`` (idempotent)."""
        _check_relation(source_id, relation, target_id)
        self._add(source_id, relation, target_id)

    def set_relations(self, source_id: str, relations: Iterable[tuple[str, str]]) -> None:
        """Replace every relation declared by ``source_id`` with ``(relation, target)`` pairs
        (all checked before anything changes)."""
        pairs = list(relations)
        for relation, target in pairs:
            _check_relation(source_id, relation, target)
        self.remove_relations_of(source_id)
        for relation, target in pairs:
            self._add(source_id, relation, target)

    def remove_relations_of(self, source_id: str) -> None:
        """Forget every relation ``source_id`` declared (relations pointing at it stay)."""
        for relation, target in self._out.pop(source_id, ()):
            _discard(self._in, target, (relation, source_id))
            self._count -= 1
        self._changed()

    def remove_node(self, node_id: str) -> None:
        """Forget ``node_id`` and every relation from or to it."""
        self.remove_relations_of(node_id)
        for relation, source in self._in.pop(node_id, ()):
            _discard(self._out, source, (relation, node_id))
            self._count -= 1
        self._changed()

    def _add(self, source: str, relation: str, target: str) -> None:
        if _insert(self._out, source, (relation, target)):
            _insert(self._in, target, (relation, source))
            self._count += 1
            self._changed()

    # ----------------------------------------------------------------------------- reading

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._out or node_id in self._in

    def __len__(self) -> int:
        """Number of relations."""
        return self._count

    def relations(self) -> list[tuple[str, str, str]]:
        """Every ``(source, relation, target)``, sorted."""
        return sorted((s, r, t) for s, pairs in self._out.items() for r, t in pairs)

    def pairs_of(self, relation: str) -> tuple[tuple[str, str], ...]:
        """Every ``(source, target)`` of ``relation``, sorted; read once per state of the graph
        (a question about links asks it on every query, the catalog changes far less often)."""
        found = self._of_relation.get(relation)
        if found is None:
            found = tuple(
                sorted((s, t) for s, pairs in self._out.items() for r, t in pairs if r == relation)
            )
            self._of_relation[relation] = found
        return found

    def outgoing(self, *relations: str) -> Neighbors:
        """A ``neighbors`` function following ``relations`` from source to target."""
        return _following(self._out, frozenset(relations))

    def incoming(self, *relations: str) -> Neighbors:
        """A ``neighbors`` function following ``relations`` backwards, from target to source."""
        return _following(self._in, frozenset(relations))

    def either(self, *relations: str) -> Neighbors:
        """A ``neighbors`` function following ``relations`` in both directions."""
        out, back = self.outgoing(*relations), self.incoming(*relations)

        def neighbors(node: str) -> Iterator[tuple[str, str]]:
            yield from out(node)
            yield from back(node)

        return neighbors

    def dependencies(self, node_id: str, depth: int | None = 1) -> list[LineageHit]:
        """What ``node_id`` depends on, transitively up to ``depth`` steps."""
        return list(bfs(node_id, self.outgoing(DEPENDS_ON), depth))

    def dependents(self, node_id: str, depth: int | None = 1) -> list[LineageHit]:
        """What depends on ``node_id``, transitively up to ``depth`` steps."""
        return list(bfs(node_id, self.incoming(DEPENDS_ON), depth))

    def ancestors(self, node_id: str, depth: int | None = None) -> list[LineageHit]:
        """Older generations ``node_id`` replaced (via ``successor_to``), nearest first."""
        return list(bfs(node_id, self.outgoing(SUCCESSOR_TO), depth))

    def descendants(
        self, node_id: str, depth: int | None = None, *, include_implementers: bool = True
    ) -> list[LineageHit]:
        """What evolved from ``node_id``: its successors and, unless ``include_implementers`` is
        False, the artifacts implementing it (and what evolved from those), nearest first."""
        relations = (SUCCESSOR_TO, IMPLEMENTS) if include_implementers else (SUCCESSOR_TO,)
        return list(bfs(node_id, self.incoming(*relations), depth))

    def latest(self, node_id: str, key: Callable[[str], Any] | None = None) -> LineageHit:
        """The newest artifact reached by following successors from ``node_id``.

        Among the chain ends (artifacts with no successor of their own; a cycle's last node
        counts as one), the one with the greatest ``key(id)`` wins; without ``key``, the one
        furthest down the chain. Ties go to the smallest id. ``node_id`` itself (relation
        ``"self"``, depth 0) when nothing succeeds it.
        """
        ends = sorted(tips(node_id, self.incoming(SUCCESSOR_TO)), key=lambda h: h.id)
        if key is None:
            return max(ends, key=lambda h: h.depth)
        return max(ends, key=lambda h: key(h.id))

    def forged(self, node_id: str) -> list[LineageHit]:
        """What ``node_id`` forged (artifacts ``forged_by`` it)."""
        return list(bfs(node_id, self.incoming(FORGED_BY), 1))

    def forger(self, node_id: str) -> list[LineageHit]:
        """What forged ``node_id``."""
        return list(bfs(node_id, self.outgoing(FORGED_BY), 1))

    def implementers(self, node_id: str) -> list[LineageHit]:
        """Artifacts that implement ``node_id``."""
        return list(bfs(node_id, self.incoming(IMPLEMENTS), 1))

    def similar(self, node_id: str) -> list[LineageHit]:
        """Artifacts declared similar to ``node_id``, in either direction."""
        return list(bfs(node_id, self.either(SIMILAR_TO), 1))


def _following(adjacency: dict[str, Adjacency], wanted: frozenset[str]) -> Neighbors:
    def neighbors(node: str) -> Iterator[tuple[str, str]]:
        for relation, other in adjacency.get(node, ()):
            if relation in wanted:
                yield relation, other

    return neighbors


def _insert(adjacency: dict[str, Adjacency], node: str, pair: tuple[str, str]) -> bool:
    """Add ``pair`` to ``node``'s pairs; False if it was there."""
    pairs = adjacency.get(node, ())
    at = bisect.bisect_left(pairs, pair)
    if at < len(pairs) and pairs[at] == pair:
        return False
    adjacency[node] = (*pairs[:at], pair, *pairs[at:])
    return True


def _discard(adjacency: dict[str, Adjacency], node: str, pair: tuple[str, str]) -> None:
    """Remove ``pair`` from ``node``'s pairs (and ``node`` once it has none)."""
    pairs = adjacency.get(node, ())
    at = bisect.bisect_left(pairs, pair)
    if at < len(pairs) and pairs[at] == pair:
        rest = (*pairs[:at], *pairs[at + 1 :])
        if rest:
            adjacency[node] = rest
        else:
            del adjacency[node]


__all__ = [
    "DEPENDS_ON",
    "FEEDS",
    "FORGED_BY",
    "IMPLEMENTS",
    "RELATION_TYPES",
    "SELF",
    "SIMILAR_TO",
    "SUCCESSOR_TO",
    "Adjacency",
    "LineageGraph",
    "LineageHit",
    "Neighbors",
    "bfs",
    "tips",
]
