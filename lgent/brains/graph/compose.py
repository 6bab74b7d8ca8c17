"""Composition: which artifacts fit before or after one another, and pipelines between two types.

An artifact is reduced to a ``Signature`` (id, input type, output type, usable, health). A path
from ``source`` to ``target`` is a sequence of distinct artifacts ``a1..aL`` with
``source <: a1.input``, ``ai.output <: a(i+1).input`` and ``aL.output <: target``.

Paths are ranked by length (shorter first), then by health, the *weakest link*: the smallest
health along the path (min rather than product: exact, with no floating-point drift between
equal pipelines, and "a pipeline is as sound as its worst step"), higher first, then by the ids
lexicographically. ``find_paths`` returns exactly the first ``k`` paths of that order.

The search runs over types, not artifacts: for each state type (a type some artifact outputs,
plus the query's source) the index knows which input types accept it, and a per-length
bottleneck table (numpy, types x types) bounds the best health any completion can still reach.
A branch-and-bound depth-first search, one path length at a time, expands artifacts best bound
first and cuts every branch whose bound (health, then ids) cannot beat the k-th best path found.

Only structural types chain: two artifacts are never linked through a *primitive* type (see
``TypeLattice.is_primitive``: ``json.string``, ``List[json.integer]``...), since every tool taking a
string would otherwise follow every tool giving one. A primitive still matches where a caller names
it: a path's source and target, ``matching`` (the resolver's requirement) and the type queries
"what accepts / produces X"; ``find_compatible`` from an artifact and every link inside a path
do not use it.

Artifacts without an input (or output) type never appear in paths. Types that break the
lattice's arity rules match nothing; ``CompositionIndex.problems()`` lists them.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from lgent.brains.graph.types import TypeLattice, normalize
from lgent.errors import FieldProblem, NotFoundError, TypeLatticeError, ValidationError
from lgent.limits import MAX_LIMIT
from lgent.typeexpr import canonical

Direction = Literal["downstream", "upstream"]
MAX_PATH_LENGTH = 10
"""Longest pipeline ``find_paths`` will search for."""

_NONE = -1.0  # "no artifact / no completion" in the bound tables (healths are >= 0)
_FREE = 2.0  # "no constraint" (healths are <= 1)

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class Signature:
    """What composition needs to know about an artifact. ``usable`` is False for deprecated or
    retired artifacts; ``health`` is in 0..1."""

    id: str
    input_type: str | None
    output_type: str | None
    usable: bool = True
    health: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValidationError([FieldProblem("id", "must be a non-empty string", self.id)])
        if (
            not isinstance(self.health, int | float)
            or math.isnan(self.health)
            or not 0.0 <= self.health <= 1.0
        ):
            raise ValidationError(
                [FieldProblem("health", "must be a number between 0 and 1", self.health)],
                record_id=self.id,
            )


@dataclass(frozen=True, slots=True)
class CompositionPath:
    """A pipeline: artifact ids in order, the types flowing (the source, then each artifact's
    output type), and the health of its weakest artifact."""

    ids: tuple[str, ...]
    types: tuple[str, ...]
    health: float

    def __len__(self) -> int:
        return len(self.ids)


def _problem(name: str, message: str, value: object) -> ValidationError:
    return ValidationError([FieldProblem(name, message, value)])


def _check_direction(direction: str) -> None:
    if direction not in ("downstream", "upstream"):
        raise _problem("direction", "must be 'downstream' or 'upstream'", direction)


def _check_search(max_length: int, k: int) -> None:
    for name, value, top in (("max_length", max_length, MAX_PATH_LENGTH), ("k", k, MAX_LIMIT)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            raise _problem(name, f"must be an integer from 1 to {top}", value)


@dataclass(frozen=True, slots=True)
class PathSearch:
    """A composition search: the first ``k`` pipelines from the ``source`` type to the
    ``target`` type with at most ``max_length`` artifacts; deprecated and retired artifacts
    are steps only when ``include_unusable``."""

    source: str
    target: str
    max_length: int = 5
    k: int = 5
    include_unusable: bool = False

    def __post_init__(self) -> None:
        _check_search(self.max_length, self.k)


def _check_limit(limit: int | None) -> None:
    if limit is not None and (
        not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT
    ):
        raise _problem("limit", f"must be None or an integer from 1 to {MAX_LIMIT}", limit)


def find_compatible(
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


def find_paths(
    search: PathSearch, signatures: Iterable[Signature], lattice: TypeLattice
) -> list[CompositionPath]:
    """The pipelines ``search`` asks for (see the module docstring for the order). Builds a
    throwaway ``CompositionIndex``: keep one for repeated queries."""
    return CompositionIndex(lattice, signatures).find_paths(search)


class _TypeTable:
    """Canonical type strings <-> dense integer ids."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}

    def add(self, name: str) -> tuple[int, bool]:
        found = self.ids.get(name)
        if found is not None:
            return found, False
        self.ids[name] = len(self.names)
        self.names.append(name)
        return len(self.names) - 1, True

    def __len__(self) -> int:
        return len(self.names)


_NO_TYPE = -1
"""The input (output) number of an artifact without an input (output) type."""

_Packed = tuple[str | None, str | None, bool, float, int, int]
"""What the index keeps of an artifact: its input and output types as given, usable, health, and
the numbers of its input and output types (``_NO_TYPE`` if none). A plain tuple of atoms, which
the garbage collector stops tracking: no object per artifact for it to scan at catalog scale."""

_RankedIds = tuple[tuple[str, ...], tuple[float, ...], int]
"""Cached ``Ranked`` contents: ids, their healths, and how many of them are usable."""


@dataclass(frozen=True, slots=True)
class Ranked:
    """Artifacts sharing an input type, an output type, or both: usable first, then healthiest,
    then by id. ``ids[:usable]`` are the usable ones; ``health[i]`` is ``ids[i]``'s. A type that
    is None is not shared (any type, or none: see ``CompositionIndex.matching``)."""

    input_type: str | None
    output_type: str | None
    ids: tuple[str, ...]
    health: tuple[float, ...]
    usable: int

    def healthiest(self, usable: bool) -> Iterator[tuple[float, str]]:
        """``(-health, id)`` of the usable (or the unusable) ones, in order (lazily)."""
        start, stop = (0, self.usable) if usable else (self.usable, len(self.ids))
        return zip(
            map(operator.neg, itertools.islice(self.health, start, stop)),
            itertools.islice(self.ids, start, stop),
            strict=True,
        )


@dataclass(frozen=True, slots=True)
class _Group:
    """Artifacts with both types, as parallel arrays (in no particular order: the search
    compares ties in full, so order only affects speed)."""

    ids: list[str]
    health: FloatArray
    output: IntArray
    usable: BoolArray

    @classmethod
    def of(cls, rows: Sequence[tuple[str, float, int, bool]]) -> _Group:
        return cls(
            ids=[r[0] for r in rows],
            health=np.array([r[1] for r in rows], dtype=np.float64),
            output=np.array([r[2] for r in rows], dtype=np.intp),
            usable=np.array([r[3] for r in rows], dtype=np.bool_),
        )

    @classmethod
    def join(cls, groups: Sequence[_Group]) -> _Group:
        if len(groups) == 1:
            return groups[0]
        return cls(
            ids=[i for g in groups for i in g.ids],
            health=np.concatenate([g.health for g in groups] or [np.zeros(0)]),
            output=np.concatenate([g.output for g in groups] or [np.zeros(0, dtype=np.intp)]),
            usable=np.concatenate([g.usable for g in groups] or [np.zeros(0, dtype=np.bool_)]),
        )


@dataclass(frozen=True, slots=True)
class _Edges:
    """Pairs ``(key, other)`` sorted by key, as runs: ``keys[i]`` owns ``others[starts[i]:]``
    up to the next start, each with a health (or none)."""

    keys: IntArray
    starts: IntArray
    others: IntArray
    health: FloatArray | None

    @classmethod
    def of(cls, keys: IntArray, others: IntArray, health: FloatArray | None) -> _Edges:
        """From pairs already sorted by key."""
        starts = np.flatnonzero(np.concatenate(([keys.size > 0], keys[1:] != keys[:-1])))
        return cls(keys[starts], starts, others, health)


@dataclass(frozen=True, slots=True)
class _Sparse:
    """The non-empty (input, output) cells and the true entries of the accept matrix, each
    grouped both ways, for bounds computed over them rather than over the dense matrices."""

    cells_by_input: _Edges  # health: the cell's best
    cells_by_output: _Edges
    accept_by_output: _Edges
    accept_by_input: _Edges


def _max_min(edges: _Edges, values: FloatArray, size: int) -> FloatArray:
    """``out[k]``: the greatest ``min(health, values[other])`` over the pairs ``(k, other)``
    (``_NONE`` for a key with none), the max-min product of a sparse matrix and a vector."""
    out = np.full(size, _NONE)
    if edges.others.size:
        picked = values[edges.others]
        if edges.health is not None:
            picked = np.minimum(edges.health, picked)
        out[edges.keys] = np.maximum.reduceat(picked, edges.starts)
    return out


@dataclass(frozen=True, slots=True)
class _Children:
    """The artifacts accepting one state type, and the input-type row it was built from."""

    accepts: BoolArray  # over input types, at build time
    group: _Group


class CompositionIndex:
    """Signatures indexed by type for fast compatibility and path queries; updated one signature
    at a time. Watches ``lattice.version`` and rebuilds its type tables when the lattice changes.
    """

    def __init__(self, lattice: TypeLattice, signatures: Iterable[Signature] = ()) -> None:
        self._lattice = lattice
        self._lattice_version = lattice.version
        self._entries: dict[str, _Packed] = {}
        self._in = _TypeTable()
        self._out = _TypeTable()
        # id sets as dicts with None values: plain atoms, so the garbage collector skips them
        self._by_in: dict[int, dict[str, None]] = {}
        self._by_out: dict[int, dict[str, None]] = {}
        # (input, output) -> ids; either may be _NO_TYPE (an artifact with one type only)
        self._cells: dict[tuple[int, int], dict[str, None]] = {}
        # (input or None, output or None) -> ranked ids (None: any type on that side)
        self._ranked: dict[tuple[int | None, int | None], _RankedIds] = {}
        self._cells_of_in: dict[int, set[int]] = {}
        self._best_all: FloatArray = np.full((8, 8), _NONE)  # [input, output] max health
        self._best_usable: FloatArray = np.full((8, 8), _NONE)
        self._accept: BoolArray | None = None  # [output type, input type]: out <: in
        self._rows: dict[str, BoolArray] = {}  # any type -> accepted input types
        self._fits: dict[str, BoolArray] = {}  # any type -> output types that are subtypes
        self._groups: dict[int, _Group] = {}  # input type -> its artifacts with an output
        self._children: dict[str, _Children] = {}  # state type -> artifacts accepting it
        self._bounds: dict[tuple[str, bool, bool], list[FloatArray]] = {}
        self._reaches: dict[tuple[str, bool], list[FloatArray]] = {}
        self._sparse: dict[bool, _Sparse] = {}  # include_unusable -> the tables as index arrays
        self._chainable: BoolArray | None = None  # output types a link may carry (not primitive)
        self._with_any: tuple[int, list[int]] | None = None  # input types naming Any
        for sig in signatures:
            self.add(sig)

    # ----------------------------------------------------------------------------- state

    @property
    def lattice(self) -> TypeLattice:
        return self._lattice

    def set_lattice(self, lattice: TypeLattice) -> None:
        """Use another lattice (type declarations changed)."""
        self._lattice = lattice
        self._lattice_version = -1
        self._sync()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, artifact_id: object) -> bool:
        return artifact_id in self._entries

    def get(self, artifact_id: str) -> Signature | None:
        entry = self._entries.get(artifact_id)
        if entry is None:
            return None
        input_type, output_type, usable, health, _, _ = entry
        return Signature(artifact_id, input_type, output_type, usable, health)

    def signatures(self) -> list[Signature]:
        """Every signature, by id."""
        return [self._signature(i) for i in sorted(self._entries)]

    def _signature(self, artifact_id: str) -> Signature:
        found = self.get(artifact_id)
        assert found is not None
        return found

    def problems(self) -> list[str]:
        """What is wrong with indexed types under the current lattice (e.g. a declared
        constructor given the wrong number of arguments), one line per type. Such types match
        nothing, not even themselves, so their artifacts are left out of composition."""
        found: set[str] = set()
        for table, groups in ((self._in, self._by_in), (self._out, self._by_out)):
            for t, name in enumerate(table.names):
                if groups.get(t):
                    try:
                        self._lattice.check(name)
                    except TypeLatticeError as err:
                        found.add(str(err))
        return sorted(found)

    def warm(self) -> None:
        """Build the type tables and per-type artifact lists now, so that the first queries
        after a build or a batch of changes are as fast as later ones."""
        self._sync()
        self._accept_matrix()
        for name in self._out.names:
            self._children_of(name)
        self._rank_all()

    def _rank_all(self) -> None:
        """Rank every type's artifacts (what ``_ranked_group`` caches; cells, which are small,
        are ranked when first asked) from one sort of the whole index, rather than one sort per
        type when first asked."""
        self._ranked.clear()
        n = len(self._entries)
        if n == 0:
            return
        ids = np.array(list(self._entries), dtype=object)
        packed = self._entries.values()
        usable = np.fromiter((e[2] for e in packed), dtype=np.bool_, count=n)
        health = np.fromiter((e[3] for e in packed), dtype=np.float64, count=n)
        inputs = np.fromiter((e[4] for e in packed), dtype=np.intp, count=n)
        outputs = np.fromiter((e[5] for e in packed), dtype=np.intp, count=n)
        by_id = np.empty(n, dtype=np.intp)
        by_id[np.argsort(ids.astype(str), kind="stable")] = np.arange(n)
        order = np.lexsort((by_id, -health, ~usable))  # usable, healthiest, smallest id first
        for side, keys in (("in", inputs), ("out", outputs)):
            ranked = order[np.argsort(keys[order], kind="stable")]
            grouped = keys[ranked]
            cuts = np.flatnonzero(np.diff(grouped)) + 1
            starts = [0, *cuts.tolist()]
            stops = [*cuts.tolist(), n]
            ranked_ids = ids[ranked].tolist()
            ranked_health = health[ranked].tolist()
            usable_before = np.concatenate(([0], np.cumsum(usable[ranked]))).tolist()
            for start, stop, key in zip(starts, stops, grouped[starts].tolist(), strict=True):
                if key == _NO_TYPE:
                    continue
                group = (key, None) if side == "in" else (None, key)
                self._ranked[group] = (
                    tuple(ranked_ids[start:stop]),
                    tuple(ranked_health[start:stop]),
                    usable_before[stop] - usable_before[start],
                )

    def prepare(self) -> None:
        """Build now the tables every path question reads (the links between types and the
        cells with their best health, usable or not), which the first question would otherwise
        build: on a catalog of thousands of types, most of a second (a server warming up)."""
        self._sync()
        self._chain_mask()
        for include_unusable in (False, True):
            self._sparse_of(include_unusable)

    def _sync(self) -> None:
        if self._lattice.version != self._lattice_version:
            self._lattice_version = self._lattice.version
            self._accept = None
            self._chainable = None
            self._rows.clear()
            self._fits.clear()
            self._children.clear()
            self._bounds.clear()
            self._reaches.clear()
            self._sparse.clear()

    def _is_subtype(self, a: str, b: str) -> bool:
        try:
            return self._lattice.is_subtype(a, b)
        except TypeLatticeError:  # reported by problems()
            return False

    # ----------------------------------------------------------------------------- changes

    def add(self, sig: Signature) -> None:
        """Index ``sig``, replacing any signature with the same id. Raises ``TypeLatticeError``
        (naming the artifact) if one of its types is malformed."""
        self._sync()
        try:
            in_name = canonical(sig.input_type) if sig.input_type is not None else None
            out_name = canonical(sig.output_type) if sig.output_type is not None else None
        except TypeLatticeError as err:
            raise TypeLatticeError(f"artifact {sig.id!r}: {err}") from err
        self.remove(sig.id)
        s = self._register_input(in_name) if in_name is not None else _NO_TYPE
        u = self._register_output(out_name) if out_name is not None else _NO_TYPE
        self._entries[sig.id] = (sig.input_type, sig.output_type, sig.usable, sig.health, s, u)
        if s >= 0:
            self._by_in.setdefault(s, {})[sig.id] = None
        if u >= 0:
            self._by_out.setdefault(u, {})[sig.id] = None
        if s >= 0 or u >= 0:
            self._cells.setdefault((s, u), {})[sig.id] = None
        if s >= 0 and u >= 0:
            self._cells_of_in.setdefault(s, set()).add(u)
            self._refresh_cell(s, u)
        self._touched(s, u)

    def update(self, sig: Signature) -> None:
        """Same as ``add``: replace the signature with ``sig.id``."""
        self.add(sig)

    def remove(self, artifact_id: str) -> bool:
        """Drop the signature with ``artifact_id``; False if there was none."""
        entry = self._entries.pop(artifact_id, None)
        if entry is None:
            return False
        s, u = entry[4], entry[5]
        if s >= 0:
            del self._by_in[s][artifact_id]
        if u >= 0:
            del self._by_out[u][artifact_id]
        if s >= 0 or u >= 0:
            cell = self._cells[(s, u)]
            del cell[artifact_id]
            if not cell:
                del self._cells[(s, u)]
                if s >= 0 and u >= 0:
                    self._cells_of_in[s].discard(u)
        if s >= 0 and u >= 0:
            self._refresh_cell(s, u)
        self._touched(s, u)
        return True

    def _touched(self, s: int, u: int) -> None:
        self._bounds.clear()
        self._reaches.clear()
        self._sparse.clear()
        for key in ((s, u), (s, None), (None, u)):
            self._ranked.pop(key, None)
        if s >= 0:
            self._groups.pop(s, None)
            stale = [t for t, ch in self._children.items() if s >= len(ch.accepts) or ch.accepts[s]]
            for t in stale:
                del self._children[t]

    def _refresh_cell(self, s: int, u: int) -> None:
        entries = [self._entries[i] for i in self._cells.get((s, u), ())]
        self._best_all[s, u] = max((e[3] for e in entries), default=_NONE)
        self._best_usable[s, u] = max((e[3] for e in entries if e[2]), default=_NONE)

    def _grow(self) -> None:
        rows, cols = self._best_all.shape
        need_rows, need_cols = max(rows, len(self._in)), max(cols, len(self._out))
        if (need_rows, need_cols) != (rows, cols):
            new_rows, new_cols = max(rows, 2 * need_rows), max(cols, 2 * need_cols)
            for name in ("_best_all", "_best_usable"):
                old = getattr(self, name)
                grown = np.full((new_rows, new_cols), _NONE)
                grown[:rows, :cols] = old
                setattr(self, name, grown)

    def _register_input(self, name: str) -> int:
        s, new = self._in.add(name)
        if new:
            self._grow()
            self._rows.clear()
            self._children.clear()
            if self._accept is not None:
                column = np.array(
                    [self._is_subtype(t, name) for t in self._out.names], dtype=np.bool_
                )
                self._accept = np.concatenate([self._accept, column.reshape(-1, 1)], axis=1).astype(
                    np.bool_
                )
        return s

    def _register_output(self, name: str) -> int:
        u, new = self._out.add(name)
        if new:
            self._grow()
            self._fits.clear()
            self._chainable = None
            if self._accept is not None:
                row = self._row(name)
                self._accept = np.concatenate([self._accept, row.reshape(1, -1)], axis=0)
        return u

    # ----------------------------------------------------------------------------- type tables

    def _accept_matrix(self) -> BoolArray:
        if self._accept is None:
            matrix = np.zeros((len(self._out), len(self._in)), dtype=np.bool_)
            for u, name in enumerate(self._out.names):
                matrix[u] = self._row(name)
            self._accept = matrix
        return self._accept

    def _chain_mask(self) -> BoolArray:
        """Over output types: True where a link between two artifacts may carry the type."""
        if self._chainable is None or len(self._chainable) != len(self._out):
            self._chainable = np.array(
                [not self._is_primitive(name) for name in self._out.names], dtype=np.bool_
            )
        return self._chainable

    def _is_primitive(self, name: str) -> bool:
        try:
            return self._lattice.is_primitive(name)
        except TypeLatticeError:
            return False

    def _row(self, name: str) -> BoolArray:
        """Input types that accept ``name`` (``name <: input``)."""
        row = self._rows.get(name)
        if row is None:
            u = self._out.ids.get(name)
            if u is not None and self._accept is not None and u < len(self._accept):
                row = self._accept[u]  # a row of the accept matrix
            else:
                row = self._accepting(name)
            if len(self._rows) >= 4096:
                self._rows.clear()
            self._rows[name] = row
        return row

    def _accepting(self, name: str) -> BoolArray:
        """Input types that accept ``name``, read off its supertypes (which the lattice lists,
        covariant instantiations included) instead of one subtype check per input type: with
        thousands of types imported from schemas the checks were most of a build. Input types
        that mention ``Any`` (``List[Any]`` stands for every ``List``) are checked one by one."""
        row = np.zeros(len(self._in), dtype=np.bool_)
        try:
            itself = str(normalize(self._lattice.check(name)))  # List[Any] is List
            supers = {name, itself, *self._lattice.supertypes(name)}
        except TypeLatticeError:  # malformed: accepted by nothing (problems() reports it)
            return row
        ids = self._in.ids
        for sup in supers:
            found = ids.get(sup)
            if found is not None:
                row[found] = True
        for index in self._inputs_naming_any():
            row[index] = self._is_subtype(name, self._in.names[index])
        return row

    def _inputs_naming_any(self) -> list[int]:
        if self._with_any is None or self._with_any[0] != len(self._in):
            names = self._in.names
            self._with_any = (len(names), [i for i, n in enumerate(names) if "Any" in n])
        return self._with_any[1]

    def _fitting(self, name: str) -> BoolArray:
        """Output types that are subtypes of ``name``."""
        fits = self._fits.get(name)
        if fits is None:
            s = self._in.ids.get(name)
            if s is not None:  # a column of the accept matrix
                fits = np.ascontiguousarray(self._accept_matrix()[:, s])
            else:
                fits = np.array(
                    [self._is_subtype(u, name) for u in self._out.names], dtype=np.bool_
                )
            if len(self._fits) >= 4096:
                self._fits.clear()
            self._fits[name] = fits
        return fits

    def _group(self, s: int) -> _Group:
        found = self._groups.get(s)
        if found is None:
            found = self._groups[s] = _Group.of(
                [
                    (artifact, entry[3], u, entry[2])
                    for u in self._cells_of_in.get(s, ())
                    for artifact in self._cells[(s, u)]
                    for entry in (self._entries[artifact],)
                ]
            )
        return found

    def _children_of(self, name: str) -> _Children:
        found = self._children.get(name)
        if found is None:
            accepts = self._row(name)
            groups = [
                self._group(s) for s in np.flatnonzero(accepts).tolist() if self._cells_of_in.get(s)
            ]
            if len(self._children) >= 4096:
                self._children.clear()
            found = self._children[name] = _Children(accepts, _Group.join(groups))
        return found

    def _bounds_for(
        self, target: str, include_unusable: bool, steps: int, *, linked: bool = False
    ) -> list[FloatArray]:
        """``bounds[r][u]``: the best weakest-link health of ``r`` more artifacts leading from
        output type ``u`` to ``target`` (``_NONE`` if impossible, ``_FREE`` for r=0 when
        ``u <: target``), for r = 0..steps-1, ignoring the no-repeat rule (an upper bound).
        ``linked``: ``target`` is an artifact's input, so r=0 also needs ``u`` to chain."""
        key = (target, include_unusable, linked)
        bounds = self._bounds.get(key)
        if bounds is None:
            fits = self._fitting(target) & self._chain_mask() if linked else self._fitting(target)
            bounds = [np.where(fits, _FREE, _NONE)]
            if len(self._bounds) >= 1024:
                self._bounds.clear()
            self._bounds[key] = bounds
        if len(bounds) < steps:
            n_in, n_out = len(self._in), len(self._out)
            sparse = self._sparse_of(include_unusable)
            while len(bounds) < steps:
                by_input = _max_min(sparse.cells_by_input, bounds[-1], n_in)
                bounds.append(_max_min(sparse.accept_by_output, by_input, n_out))
        return bounds

    def _sparse_of(self, include_unusable: bool) -> _Sparse:
        """The non-empty cells (with their best health, usable artifacts only unless
        ``include_unusable``) and the accept matrix as index arrays (cached until a change)."""
        found = self._sparse.get(include_unusable)
        if found is None:
            n_in, n_out = len(self._in), len(self._out)
            best = (self._best_all if include_unusable else self._best_usable)[:n_in, :n_out]
            accept = self._accept_matrix() & self._chain_mask()[:, None]  # links only
            s, u = np.nonzero(best >= 0.0)  # by input, then output
            u_t, s_t = np.nonzero(best.T >= 0.0)  # by output, then input
            accepted_u, accepted_s = np.nonzero(accept)
            accepting_s, accepting_u = np.nonzero(accept.T)
            found = self._sparse[include_unusable] = _Sparse(
                cells_by_input=_Edges.of(s, u, best[s, u]),
                cells_by_output=_Edges.of(u_t, s_t, best[s_t, u_t]),
                accept_by_output=_Edges.of(accepted_u, accepted_s, None),
                accept_by_input=_Edges.of(accepting_s, accepting_u, None),
            )
        return found

    # ----------------------------------------------------------------------------- queries

    def find_compatible(
        self,
        target: Signature | str,
        direction: Direction = "downstream",
        *,
        include_unusable: bool = False,
        limit: int | None = None,
        chain: bool = True,
    ) -> list[Signature]:
        """Artifacts that can follow ``target`` (downstream) or precede it (upstream); see
        ``find_compatible``. ``target`` may be an indexed id (``NotFoundError`` if absent).
        ``limit`` keeps only the first that many. ``chain=False`` for a type a caller named
        (a pseudo-signature): a primitive then matches too."""
        _check_direction(direction)
        _check_limit(limit)
        self._sync()
        if isinstance(target, str):
            indexed = self.get(target)
            if indexed is None:
                raise NotFoundError(target)
            target = indexed
        groups = self.neighbours(target, direction, chain=chain)
        parts = [g.healthiest(True) for g in groups]
        if include_unusable:
            parts += [g.healthiest(False) for g in groups]
        # timsort merges the pre-sorted runs in linear time; merge lazily when a few will do
        keys = heapq.merge(*parts) if limit is not None else sorted(itertools.chain(*parts))
        matches: list[Signature] = []
        for _, artifact in keys:
            if artifact != target.id:
                matches.append(self._signature(artifact))
                if limit is not None and len(matches) >= limit:
                    break
        return matches

    def neighbours(
        self, target: Signature, direction: Direction, *, chain: bool = True
    ) -> list[Ranked]:
        """The artifacts (usable or not, ``target`` included if indexed) that can follow
        ``target`` (downstream: grouped by input type) or precede it (upstream: by output type).
        With ``chain`` (the default) nothing is linked through a primitive type.
        """
        _check_direction(direction)
        if chain:
            if direction == "downstream":
                if not target.output_type or self._is_primitive(target.output_type):
                    return []
                return self.matching(target.output_type, None)
            groups = self.matching(None, target.input_type) if target.input_type else []
            return [g for g in groups if g.output_type and not self._is_primitive(g.output_type)]
        if direction == "downstream":
            return self.matching(target.output_type, None) if target.output_type else []
        return self.matching(None, target.input_type) if target.input_type else []

    def matching(self, takes: str | None, gives: str | None, *, only: bool = False) -> list[Ranked]:
        """The artifacts (usable or not) whose input accepts ``takes`` (``takes`` is a subtype of
        it) and whose output fits ``gives`` (a subtype of ``gives``), checking only the sides
        given, at least one. Grouped by input type if only ``takes`` is given, by output type if
        only ``gives``, else by both; groups in no particular order. If ``only``, an artifact
        must also lack the type of the side not given. Raises ``TypeLatticeError`` if a given
        type is malformed."""
        self._sync()
        if takes is None and gives is None:
            raise _problem("takes", "takes or gives must be given", None)
        keys: list[tuple[int | None, int | None]]
        if takes is None:
            assert gives is not None
            keys = [(_NO_TYPE if only else None, u) for u in self._outputs_fitting(gives)]
        elif gives is None:
            keys = [(s, _NO_TYPE if only else None) for s in self._inputs_accepting(takes)]
        else:
            keys = list(self._cells_fitting(takes, gives))
        found: list[Ranked] = []
        for key in keys:
            ids, health, usable = self._ranked_group(key)
            if ids:
                s, u = key
                found.append(
                    Ranked(
                        self._in.names[s] if s is not None and s >= 0 else None,
                        self._out.names[u] if u is not None and u >= 0 else None,
                        ids,
                        health,
                        usable,
                    )
                )
        return found

    def fitting_ids(self, takes: str, gives: str) -> list[str]:
        """Every artifact (usable or not) whose input accepts ``takes`` and whose output fits
        ``gives``, in no particular order: ``matching`` without its ranking, for a caller that
        ranks by a score of its own. Raises ``TypeLatticeError`` if a type is malformed."""
        self._sync()
        return [
            artifact for cell in self._cells_fitting(takes, gives) for artifact in self._cells[cell]
        ]

    def _inputs_accepting(self, takes: str) -> list[int]:
        """The input types (indices) that accept ``takes``: itself and its supertypes."""
        return list(np.flatnonzero(self._row(canonical(takes))).tolist())

    def _outputs_fitting(self, gives: str) -> list[int]:
        """The output types (indices) that fit ``gives``: itself and its subtypes."""
        return list(np.flatnonzero(self._fitting(canonical(gives))).tolist())

    def _cells_fitting(self, takes: str, gives: str) -> list[tuple[int, int]]:
        """The non-empty cells whose input accepts ``takes`` and whose output fits ``gives``."""
        inputs = self._inputs_accepting(takes)
        fits = set(self._outputs_fitting(gives))
        return [(s, u) for s in inputs for u in self._cells_of_in.get(s, ()) if u in fits]

    def _ranked_group(self, key: tuple[int | None, int | None]) -> _RankedIds:
        """The ids of a cell (``(input, output)``, either possibly ``_NO_TYPE``) or of a type on
        one side (the other None), usable first, then healthiest, then by id (cached)."""
        found = self._ranked.get(key)
        if found is None:
            s, u = key
            if s is None:
                assert u is not None
                members = self._by_out.get(u, {})
            elif u is None:
                members = self._by_in.get(s, {})
            else:
                members = self._cells.get((s, u), {})
            found = _ranked_ids(
                sorted(
                    (not entry[2], -entry[3], artifact)
                    for artifact in members
                    for entry in (self._entries[artifact],)
                )
            )
            if len(self._ranked) >= 2 * len(self._cells) + 4096:
                self._ranked.clear()
            self._ranked[key] = found
        return found

    def find_paths(self, search: PathSearch) -> list[CompositionPath]:
        """The first ``search.k`` pipelines from its source to its target type with at most
        ``search.max_length`` artifacts, ordered by length, weakest-link health (desc), ids."""
        source_type, target_type, k = search.source, search.target, search.k
        max_length, include_unusable = search.max_length, search.include_unusable
        self._sync()
        source = str(self._lattice.check(source_type))
        target = str(self._lattice.check(target_type))
        found: list[CompositionPath] = []
        for length in range(1, max_length + 1):
            if len(found) >= k:
                break
            bounds = self._bounds_for(target, include_unusable, length)
            for neg_health, ids in self._search(
                source, length, bounds, k - len(found), include_unusable
            ):
                types = (source, *(self._output_name(i) for i in ids))
                found.append(CompositionPath(ids, types, -neg_health))
        return found

    def members(
        self,
        source_type: str,
        target_type: str,
        max_length: int = 5,
        *,
        include_unusable: bool = False,
        known: Sequence[CompositionPath] = (),
    ) -> Iterator[tuple[str, CompositionPath]]:
        """Every artifact that is a step of some pipeline from ``source_type`` to
        ``target_type`` with at most ``max_length`` artifacts, each with its best such pipeline
        (its *witness*: the first in ``find_paths`` order among those through it), lazily.
        ``known`` may hold what ``find_paths`` answered for the same arguments: the witness of
        an artifact on those paths is then read from them, not searched for.

        Order: by the length of the witness, then its weakest-link health (higher first), then
        by id. Unless ``include_unusable``, the other steps of a witness are usable, and the
        unusable artifacts come after all usable ones (so callers see what a step replaced).

        Best first over the per-type tables: a cell (input type, output type) is bounded by its
        healthiest artifact and the best routes from the source to its input and from its
        output to the target; an artifact's own bound is checked by a branch-and-bound search
        pinned to it, and it is let out once no cell or artifact left can rank above it.
        """
        _check_search(max_length, 1)
        self._sync()
        source = str(self._lattice.check(source_type))
        target = str(self._lattice.check(target_type))
        n_in, n_out = len(self._in), len(self._out)
        if n_in == 0 or n_out == 0:
            return
        before, before_health = _first_reached(
            self._reach_from(source, include_unusable, max_length)
        )
        after_bounds = self._bounds_for(target, include_unusable, max_length)
        after, after_health = _first_reached(after_bounds[:max_length])
        first_through: dict[str, CompositionPath] = {}
        for found in known:
            for artifact in found.ids:
                first_through.setdefault(artifact, found)
        # only the input types reached from the source and the output types that reach the
        # target within the length can hold a member: the tables are cut to those (a catalog
        # of thousands of types would otherwise make every (input, output) pair a cell)
        rows = np.flatnonzero(before[:n_in] < max_length)
        cols = np.flatnonzero(after[:n_out] < max_length)
        shortest = before[rows, None] + 1 + after[None, cols]
        routes = np.minimum(before_health[rows, None], after_health[None, cols])
        for usable in (None,) if include_unusable else (True, False):
            table = self._best_usable if usable else self._best_all
            best = table[np.ix_(rows, cols)]
            bound = np.minimum(routes, best)
            wanted = (shortest <= max_length) & (best >= 0.0)
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
                    for member in self._cells[(s, u)]:
                        _, _, member_usable, member_health, _, _ = self._entries[member]
                        if usable is None or member_usable == usable:
                            route = min(float(before_health[s]), float(after_health[u]))
                            weakest = min(route, member_health)
                            heapq.heappush(heap, (opened[0], -weakest, member, 0, s, u))
                    continue
                length, _, artifact, exact, s, u = heapq.heappop(heap)
                if exact:
                    yield artifact, witness.pop(artifact)
                    continue
                path = first_through.get(artifact) or self._through(
                    source,
                    target,
                    artifact,
                    length,
                    int(before[s]),
                    int(after[u]),
                    include_unusable,
                )
                if path is not None:
                    witness[artifact] = path
                    heapq.heappush(heap, (len(path), -path.health, artifact, 1, s, u))
                elif length < max_length:  # every route of this length repeats an artifact
                    health = self._entries[artifact][3]
                    heapq.heappush(heap, (length + 1, -health, artifact, 0, s, u))

    def _through(
        self,
        source: str,
        target: str,
        artifact: str,
        length: int,
        before: int,
        after: int,
        include_unusable: bool,
    ) -> CompositionPath | None:
        """The first pipeline in ``find_paths`` order of exactly ``length`` artifacts with
        ``artifact`` among them (at least ``before`` steps before it and ``after`` after it)."""
        found: list[tuple[float, tuple[str, ...]]] = []
        for position in range(before + 1, length - after + 1):
            found.extend(
                self._search_through(source, target, artifact, length, position, include_unusable)
            )
        if not found:
            return None
        neg_health, ids = min(found)
        return CompositionPath(ids, (source, *(self._output_name(i) for i in ids)), -neg_health)

    def _search_through(
        self,
        source: str,
        target: str,
        pinned: str,
        length: int,
        position: int,
        include_unusable: bool,
    ) -> list[tuple[float, tuple[str, ...]]]:
        """The best path of exactly ``length`` artifacts with ``pinned`` at ``position``
        (1-based), as a one-element list of its ``(-health, ids)`` key (empty: none): the
        branch and bound of ``_search``, bounded before the pin by the routes to its input."""
        _, _, _, health, s, u = self._entries[pinned]
        assert s >= 0 and u >= 0
        after = self._bounds_for(target, include_unusable, length)
        before = self._bounds_for(self._in.names[s], include_unusable, position, linked=True)
        chainable = self._chain_mask()
        rest = min(health, float(after[length - position][u]))  # the pin and what follows it
        if rest < 0.0:
            return []
        best: list[tuple[float, tuple[str, ...]]] = []
        out_names = self._out.names

        def expand(state: str, prefix: tuple[str, ...], weakest: float) -> None:
            step = len(prefix) + 1
            if step == position:
                bound = min(weakest, rest)
                linked = step == 1 or bool(chainable[self._out.ids[state]])
                if (
                    not linked
                    or not self._row(state)[s]
                    or (best and (-bound, (*prefix, pinned)) > best[0])
                ):
                    return
                if step == length:
                    best[:] = [(-bound, (*prefix, pinned))]
                else:
                    expand(out_names[u], (*prefix, pinned), min(weakest, health))
                return
            children = self._children_of(state).group
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
                ids = (*prefix, artifact)
                if best:
                    if bound < -best[0][0]:
                        break
                    if (-bound, ids) > best[0]:
                        continue
                if step == length:
                    best[:] = [(-bound, ids)]
                else:
                    expand(
                        out_names[children.output[i]], ids, min(weakest, float(children.health[i]))
                    )

        expand(source, (), _FREE)
        return best

    def _reach_from(self, source: str, include_unusable: bool, steps: int) -> list[FloatArray]:
        """``reach[r][s]``: the best weakest-link health of ``r`` artifacts leading from
        ``source`` to a type that input type ``s`` accepts (``_FREE`` for r=0 when
        ``source <: s``, ``_NONE`` if impossible), for r = 0..steps-1, ignoring the no-repeat
        rule (the mirror of ``_bounds_for``)."""
        key = (source, include_unusable)
        reach = self._reaches.get(key)
        if reach is None:
            reach = [np.where(self._row(source), _FREE, _NONE)]
            if len(self._reaches) >= 1024:
                self._reaches.clear()
            self._reaches[key] = reach
        if len(reach) < steps:
            n_in, n_out = len(self._in), len(self._out)
            sparse = self._sparse_of(include_unusable)
            while len(reach) < steps:
                by_output = _max_min(sparse.cells_by_output, reach[-1], n_out)
                reach.append(_max_min(sparse.accept_by_input, by_output, n_in))
        return reach[:steps]

    def _output_name(self, artifact_id: str) -> str:
        output = self._entries[artifact_id][5]
        assert output >= 0  # only artifacts with both types are in paths
        return self._out.names[output]

    def _search(
        self,
        source: str,
        length: int,
        bounds: Sequence[FloatArray],
        need: int,
        include_unusable: bool,
    ) -> list[tuple[float, tuple[str, ...]]]:
        """The ``need`` best paths of exactly ``length`` artifacts, as sorted
        ``(-health, ids)`` keys: branch and bound, children in (bound, id) order."""
        best: list[tuple[float, tuple[str, ...]]] = []
        out_names = self._out.names

        def expand(state: str, prefix: tuple[str, ...], weakest: float, left: int) -> None:
            children = self._children_of(state).group
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
                if artifact in prefix:
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

        expand(source, (), _FREE, length)
        return best


_UNREACHED = 1 << 30


def _ranked_ids(rows: Sequence[tuple[bool, float, str]]) -> _RankedIds:
    """``(not usable, -health, id)`` rows, sorted, as ``_RankedIds``."""
    return (
        tuple(r[2] for r in rows),
        tuple(-r[1] for r in rows),
        sum(1 for r in rows if not r[0]),
    )


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


__all__ = [
    "MAX_PATH_LENGTH",
    "CompositionIndex",
    "CompositionPath",
    "Direction",
    "Ranked",
    "Signature",
    "find_compatible",
    "find_paths",
]
