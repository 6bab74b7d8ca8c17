"""Path search over a composition index, as free functions: the first ``k`` pipelines between
two types (``find_paths``) and every artifact that is a step of one (``members``).

Paths are ranked by length (shorter first), then by health, the *weakest link*: the smallest
health along the path (min rather than product: exact, with no floating-point drift between
equal pipelines, and "a pipeline is as sound as its worst step"), higher first, then by the ids
lexicographically. ``find_paths`` returns exactly the first ``k`` paths of that order.

The search runs over types, not artifacts: for each state type (a type some artifact outputs,
plus the query's source) the index knows which input types accept it, and a per-length
bottleneck table bounds the best health any completion can still reach. A branch-and-bound
depth-first search, one path length at a time, expands artifacts best bound first and cuts every
branch whose bound (health, then ids) cannot beat the k-th best path found. Children are visited
in (bound, id) order, so answers are deterministic.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from lgent.graph.composition import CompositionIndex
from lgent.graph.composition_tables import FREE, BoolArray, FloatArray, IntArray
from lgent.graph.signatures import (
    CompositionPath,
    Direction,
    PathSearch,
    Signature,
    check_search,
)
from lgent.graph.types import TypeLattice


def find_paths(index: CompositionIndex, search: PathSearch) -> list[CompositionPath]:
    """The first ``search.k`` pipelines from its source to its target type with at most
    ``search.max_length`` artifacts, ordered by length, weakest-link health (desc), ids."""
    source_type, target_type, k = search.source, search.target, search.k
    max_length, include_unusable = search.max_length, search.include_unusable
    allowed = search.allowed
    index.sync()
    source = str(index.lattice.check(source_type))
    target = str(index.lattice.check(target_type))
    found: list[CompositionPath] = []
    for length in range(1, max_length + 1):
        if len(found) >= k:
            break
        bounds = index.bounds_for(target, include_unusable, length)
        for neg_health, ids in _search(
            index, source, length, bounds, k - len(found), include_unusable, allowed
        ):
            types = (source, *(index.output_name(i) for i in ids))
            found.append(CompositionPath(ids, types, -neg_health))
    return found


def members(
    index: CompositionIndex,
    source_type: str,
    target_type: str,
    max_length: int = 5,
    *,
    include_unusable: bool = False,
    known: Sequence[CompositionPath] = (),
    allowed: Callable[[str], bool] | None = None,
) -> Iterator[tuple[str, CompositionPath]]:
    """Every artifact that is a step of some pipeline from ``source_type`` to
    ``target_type`` with at most ``max_length`` artifacts, each with its best such pipeline
    (its *witness*: the first in ``find_paths`` order among those through it), lazily.
    ``known`` may hold what ``find_paths`` answered for the same arguments: the witness of
    an artifact on those paths is then read from them, not searched for.

    Order: by the length of the witness, then its weakest-link health (higher first), then
    by id. Unless ``include_unusable``, the other steps of a witness are usable, and the
    unusable artifacts come after all usable ones (so callers see what a step replaced).
    Only artifacts ``allowed`` admits are members or steps (None: any): the tables bound the
    best over every artifact, so they stay upper bounds and the search stays exact.

    Best first over the per-type tables: a cell (input type, output type) is bounded by its
    healthiest artifact and the best routes from the source to its input and from its
    output to the target; an artifact's own bound is checked by a branch-and-bound search
    pinned to it, and it is let out once no cell or artifact left can rank above it.
    """
    check_search(max_length, 1)
    index.sync()
    source = str(index.lattice.check(source_type))
    target = str(index.lattice.check(target_type))
    n_in, n_out = len(index.input_names), len(index.output_names)
    if n_in == 0 or n_out == 0:
        return
    before, before_health = _first_reached(index.reach_from(source, include_unusable, max_length))
    after_bounds = index.bounds_for(target, include_unusable, max_length)
    after, after_health = _first_reached(after_bounds[:max_length])
    first_through: dict[str, CompositionPath] = {}
    for found in known:
        for artifact in found.ids:
            first_through.setdefault(artifact, found)
    routes = _Routes(
        source,
        target,
        max_length,
        include_unusable,
        before,
        before_health,
        after,
        after_health,
        allowed,
    )
    # only the input types reached from the source and the output types that reach the
    # target within the length can hold a member: the tables are cut to those (a catalog
    # of thousands of types would otherwise make every (input, output) pair a cell)
    rows = np.flatnonzero(before[:n_in] < max_length)
    cols = np.flatnonzero(after[:n_out] < max_length)
    for usable in (None,) if include_unusable else (True, False):
        yield from _members_among(index, routes, rows, cols, usable, first_through)


@dataclass(frozen=True, slots=True)
class _Routes:
    """A members search: its types and length, and per type the first level at which the
    source reaches it (``before``) or it reaches the target (``after``), with the health."""

    source: str
    target: str
    max_length: int
    include_unusable: bool
    before: IntArray
    before_health: FloatArray
    after: IntArray
    after_health: FloatArray
    allowed: Callable[[str], bool] | None = None


def _members_among(
    index: CompositionIndex,
    routes: _Routes,
    rows: IntArray,
    cols: IntArray,
    usable: bool | None,
    first_through: dict[str, CompositionPath],
) -> Iterator[tuple[str, CompositionPath]]:
    """``members`` of the usable artifacts (``usable``), the unusable ones, or all (None)."""
    r = routes
    shortest = r.before[rows, None] + 1 + r.after[None, cols]
    bounds = np.minimum(r.before_health[rows, None], r.after_health[None, cols])
    best = index.best_among(rows, cols, usable=bool(usable))
    bound = np.minimum(bounds, best)
    wanted = (shortest <= r.max_length) & (best >= 0.0)
    cells = (
        (level, key, name, exact, int(rows[i]), int(cols[j]))
        for level, key, name, exact, i, j in _cells_in_order(shortest, bound, wanted)
    )
    # (length, -health bound, id, exact, input, output); a cell has the id "" so it
    # opens before any artifact ranked at or below its bound is let out
    heap: list[tuple[int, float, str, int, int, int]] = []
    witness: dict[str, CompositionPath] = {}
    cell = next(cells, None)
    while heap or cell is not None:
        if cell is not None and (not heap or cell < heap[0]):
            s, u = cell[4], cell[5]
            opened, cell = cell, next(cells, None)
            route = min(float(r.before_health[s]), float(r.after_health[u]))
            for member in index.cells[(s, u)]:
                _, _, member_usable, member_health, _, _ = index.entries[member]
                if r.allowed is not None and not r.allowed(member):
                    continue
                if usable is None or member_usable == usable:
                    heapq.heappush(heap, (opened[0], -min(route, member_health), member, 0, s, u))
            continue
        length, _, artifact, exact, s, u = heapq.heappop(heap)
        if exact:
            yield artifact, witness.pop(artifact)
            continue
        path = first_through.get(artifact) or _through(
            index,
            r.source,
            r.target,
            artifact,
            length,
            int(r.before[s]),
            int(r.after[u]),
            r.include_unusable,
            r.allowed,
        )
        if path is not None:
            witness[artifact] = path
            heapq.heappush(heap, (len(path), -path.health, artifact, 1, s, u))
        elif length < r.max_length:  # every route of this length repeats an artifact
            health = index.entries[artifact][3]
            heapq.heappush(heap, (length + 1, -health, artifact, 0, s, u))


def _through(
    index: CompositionIndex,
    source: str,
    target: str,
    artifact: str,
    length: int,
    before: int,
    after: int,
    include_unusable: bool,
    allowed: Callable[[str], bool] | None = None,
) -> CompositionPath | None:
    """The first pipeline in ``find_paths`` order of exactly ``length`` artifacts with
    ``artifact`` among them (at least ``before`` steps before it and ``after`` after it)."""
    found: list[tuple[float, tuple[str, ...]]] = []
    for position in range(before + 1, length - after + 1):
        found.extend(
            _search_through(
                index, source, target, artifact, length, position, include_unusable, allowed
            )
        )
    if not found:
        return None
    neg_health, ids = min(found)
    return CompositionPath(ids, (source, *(index.output_name(i) for i in ids)), -neg_health)


def _search_through(
    index: CompositionIndex,
    source: str,
    target: str,
    pinned: str,
    length: int,
    position: int,
    include_unusable: bool,
    allowed: Callable[[str], bool] | None = None,
) -> list[tuple[float, tuple[str, ...]]]:
    """The best path of exactly ``length`` artifacts with ``pinned`` at ``position``
    (1-based), as a one-element list of its ``(-health, ids)`` key (empty: none): the
    branch and bound of ``_search``, bounded before the pin by the routes to its input."""
    _, _, _, health, s, u = index.entries[pinned]
    assert s >= 0 and u >= 0
    after = index.bounds_for(target, include_unusable, length)
    before = index.bounds_for(index.input_names[s], include_unusable, position, linked=True)
    chainable = index.chain_mask()
    rest = min(health, float(after[length - position][u]))  # the pin and what follows it
    if rest < 0.0:
        return []
    best: list[tuple[float, tuple[str, ...]]] = []
    out_names = index.output_names

    def expand(state: str, prefix: tuple[str, ...], weakest: float) -> None:
        step = len(prefix) + 1
        if step == position:
            bound = min(weakest, rest)
            linked = step == 1 or bool(chainable[index.output_ids[state]])
            if (
                not linked
                or not index.accepted_inputs(state)[s]
                or (best and (-bound, (*prefix, pinned)) > best[0])
            ):
                return
            if step == length:
                best[:] = [(-bound, (*prefix, pinned))]
            else:
                expand(out_names[u], (*prefix, pinned), min(weakest, health))
            return
        children = index.children_of(state).group
        if not children.ids:
            return
        if step < position:
            reach = np.minimum(children.health, before[position - 1 - step][children.output])
            reach = np.minimum(reach, min(weakest, rest))
        else:
            reach = np.minimum(children.health, after[length - step][children.output])
            reach = np.minimum(reach, weakest)
        mask = reach >= 0.0
        if not include_unusable:
            mask &= children.usable
        if best:
            mask &= reach >= -best[0][0]
        picked = np.flatnonzero(mask)
        order = picked[np.argsort(-reach[picked], kind="stable")]
        for i, bound in zip(order.tolist(), reach[order].tolist(), strict=True):
            artifact = children.ids[i]
            if artifact in prefix or artifact == pinned:
                continue
            if allowed is not None and not allowed(artifact):
                continue
            ids = (*prefix, artifact)
            if best:
                if bound < -best[0][0]:
                    break
                if (-bound, ids) > best[0]:
                    continue
            if step == length:
                best[:] = [(-bound, ids)]
            else:
                expand(out_names[children.output[i]], ids, min(weakest, float(children.health[i])))

    expand(source, (), FREE)
    return best


def _search(
    index: CompositionIndex,
    source: str,
    length: int,
    bounds: Sequence[FloatArray],
    need: int,
    include_unusable: bool,
    allowed: Callable[[str], bool] | None = None,
) -> list[tuple[float, tuple[str, ...]]]:
    """The ``need`` best paths of exactly ``length`` artifacts, as sorted
    ``(-health, ids)`` keys: branch and bound, children in (bound, id) order; an artifact
    ``allowed`` refuses is passed over (the bounds, over every artifact, still bound)."""
    best: list[tuple[float, tuple[str, ...]]] = []
    out_names = index.output_names

    def expand(state: str, prefix: tuple[str, ...], weakest: float, left: int) -> None:
        children = index.children_of(state).group
        if not children.ids:
            return
        reach = np.minimum(children.health, bounds[left - 1][children.output])
        reach = np.minimum(reach, weakest)
        mask = reach >= 0.0
        if not include_unusable:
            mask &= children.usable
        if len(best) >= need:
            mask &= reach >= -best[-1][0]
        picked = np.flatnonzero(mask)
        if picked.size == 0:
            return
        # Highest bound first; within equal bounds the order is arbitrary, so a tie with
        # the k-th best is compared in full rather than ending the loop.
        order = picked[np.argsort(-reach[picked], kind="stable")]
        for i, bound in zip(order.tolist(), reach[order].tolist(), strict=True):
            artifact = children.ids[i]
            if artifact in prefix or (allowed is not None and not allowed(artifact)):
                continue
            ids = (*prefix, artifact)
            if len(best) >= need:
                if bound < -best[-1][0]:
                    break
                if (-bound, ids) > best[-1]:
                    continue
            health = min(weakest, float(children.health[i]))
            if left == 1:
                bisect.insort(best, (-health, ids))
                if len(best) > need:
                    best.pop()
            else:
                expand(out_names[children.output[i]], ids, health, left - 1)

    expand(source, (), FREE, length)
    return best


_UNREACHED = 1 << 30


def _cells_in_order(
    length: IntArray, bound: FloatArray, wanted: BoolArray
) -> Iterator[tuple[int, float, str, int, int, int]]:
    """The ``wanted`` cells of the (input, output) matrices as ``members`` heap keys
    ``(length, -bound, "", 0, input, output)``, in order, lazily: one length at a time, and
    within it a few of the best bounds at a time (a query rarely needs more than the first
    cells, and sorting tens of thousands of them would cost more than the rest of it)."""
    width = wanted.shape[1]
    flat = np.flatnonzero(wanted)
    lengths = length.ravel()[flat]
    keys = -bound.ravel()[flat]
    for level in np.flatnonzero(np.bincount(lengths)).tolist():
        at = lengths == level
        level_flat, level_keys = flat[at], keys[at]
        for n in _ascending(level_keys):
            cell = int(level_flat[n])
            yield level, float(level_keys[n]), "", 0, cell // width, cell % width


def _ascending(keys: FloatArray, chunk: int = 32) -> Iterator[int]:
    """Positions in ``keys`` from the smallest key up, equal keys by position, lazily: each
    step sorts only the smallest keys left (about ``chunk`` of them, doubling)."""
    left = np.arange(len(keys))
    while left.size:
        part = keys[left]
        if left.size > chunk:
            taken = part <= np.partition(part, chunk)[chunk]  # ties with the last one too
        else:
            taken = np.ones(left.size, dtype=np.bool_)
        picked = left[taken]
        yield from picked[np.lexsort((picked, part[taken]))].tolist()
        left = left[~taken]
        chunk *= 2


def _first_reached(levels: Sequence[FloatArray]) -> tuple[IntArray, FloatArray]:
    """For each type, the first level ``r`` at which ``levels[r]`` reaches it (``_UNREACHED``
    if none does) and the health it is reached with there."""
    stacked = np.stack(list(levels))
    reached = stacked >= 0.0
    first = reached.argmax(axis=0)
    health = np.take_along_axis(stacked, first[None, :], axis=0)[0]
    return np.where(reached.any(axis=0), first, _UNREACHED), health


def compatible_among(
    target: Signature,
    candidates: Iterable[Signature],
    lattice: TypeLattice,
    direction: Direction = "downstream",
    *,
    include_unusable: bool = False,
    limit: int | None = None,
) -> list[Signature]:
    """Artifacts that can follow ``target`` (downstream: their input accepts its output) or
    precede it (upstream: their output fits its input), healthiest first, then by id.
    ``target`` itself is never included; unusable artifacts only if asked."""
    return CompositionIndex(lattice, candidates).find_compatible(
        target, direction, include_unusable=include_unusable, limit=limit
    )


def paths_among(
    search: PathSearch, signatures: Iterable[Signature], lattice: TypeLattice
) -> list[CompositionPath]:
    """The pipelines ``search`` asks for (see the module docstring for the order). Builds a
    throwaway ``CompositionIndex``: keep one for repeated queries."""
    return find_paths(CompositionIndex(lattice, signatures), search)
