"""The composition index: artifacts' signatures kept in tables by type, so that compatibility,
type questions and path search (``lgent.graph.paths``) read them fast; updated one signature at a
time.

The tables are over types, not artifacts: input and output types get dense numbers, each
(input, output) *cell* holds the artifacts with those types, the accept matrix says which output
types each input type accepts, and per-length bottleneck tables (numpy) bound the best health a
pipeline can still reach from a type (``bounds_for``) or to it (``reach_from``).

Only structural types chain: two artifacts are never linked through a *primitive* type (see
``TypeLattice.is_primitive``: ``json.string``, ``List[json.integer]``...), since every tool taking a
string would otherwise follow every tool giving one. A primitive still matches where a caller names
it: a path's source and target, ``matching`` (the resolver's requirement) and the type queries
"what accepts / produces X"; ``find_compatible`` from an artifact and every link inside a path
do not use it.

Artifacts without an input (or output) type never appear in paths. Types that break the
lattice's arity rules match nothing; ``CompositionIndex.problems()`` lists them. Declared links
(``feeds``) compose beside the types: ``lgent.graph.links``.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import cast

import numpy as np

from lgent.errors import NotFoundError, TypeLatticeError
from lgent.graph.composition_tables import (
    FREE,
    NONE,
    BoolArray,
    Children,
    Edges,
    FloatArray,
    Group,
    IntArray,
    Sparse,
    TypeTable,
    max_min,
)
from lgent.graph.signatures import (
    Direction,
    Ranked,
    Signature,
    check_direction,
    check_limit,
    problem,
)
from lgent.graph.types import TypeLattice, normalize
from lgent.typeexpr import canonical

_NO_TYPE = -1
"""The input (output) number of an artifact without an input (output) type."""

_Packed = tuple[str | None, str | None, bool, float, int, int]
"""What the index keeps of an artifact: its input and output types as given, usable, health, and
the numbers of its input and output types (``_NO_TYPE`` if none). A plain tuple of atoms, which
the garbage collector stops tracking: no object per artifact for it to scan at catalog scale."""

_RankedIds = tuple[tuple[str, ...], tuple[float, ...], int]
"""Cached ``Ranked`` contents: ids, their healths, and how many of them are usable."""


_TABLE_CACHES = (
    "_ranked",
    "_rows",
    "_fits",
    "_groups",
    "_children",
    "_bounds",
    "_reaches",
    "_sparse",
    "_best_arrays",
)
"""The mappings derived from the tables, filled when first needed."""
_ARRAY_CACHES = ("_accept", "_accept_pairs", "_chainable", "_with_any")
"""The derived arrays (None until first needed)."""
_IMAGE_TABLES = "_image_tables"
"""Where an image keeps the accept matrix (as its true cells) and the chain mask: derived from
the type tables, but a second and more to derive again on a catalog of thousands of types,
which every cold path, resolve or compatible question would pay."""


class CompositionIndex:
    """Signatures indexed by type for fast compatibility and path queries; updated one signature
    at a time. Watches ``lattice.version`` and rebuilds its type tables when the lattice changes.
    """

    def __init__(self, lattice: TypeLattice, signatures: Iterable[Signature] = ()) -> None:
        self._lattice = lattice
        self._lattice_version = lattice.version
        self._entries: dict[str, _Packed] = {}
        self._in = TypeTable()
        self._out = TypeTable()
        # id sets as dicts with None values: plain atoms, so the garbage collector skips them
        self._by_in: dict[int, dict[str, None]] = {}
        self._by_out: dict[int, dict[str, None]] = {}
        # (input, output) -> ids; either may be _NO_TYPE (an artifact with one type only)
        self._cells: dict[tuple[int, int], dict[str, None]] = {}
        # (input or None, output or None) -> ranked ids (None: any type on that side)
        self._ranked: dict[tuple[int | None, int | None], _RankedIds] = {}
        self._cells_of_in: dict[int, set[int]] = {}
        # (input, output) -> the best health in the cell, and of a usable artifact (NONE: none);
        # a mapping, not a matrix: imported catalogs bring thousands of types on each side
        self._best: dict[tuple[int, int], tuple[float, float]] = {}
        self._accept: BoolArray | None = None  # [output type, input type]: out <: in
        # the accept matrix's true cells (output, input types, row-major), and the matrix they
        # were read from (None: from an image, for the tables as saved)
        self._accept_pairs: tuple[BoolArray | None, IntArray, IntArray] | None = None
        self._rows: dict[str, BoolArray] = {}  # any type -> accepted input types
        self._fits: dict[str, BoolArray] = {}  # any type -> output types that are subtypes
        self._groups: dict[int, Group] = {}  # input type -> its artifacts with an output
        self._children: dict[str, Children] = {}  # state type -> artifacts accepting it
        self._bounds: dict[tuple[str, bool, bool], list[FloatArray]] = {}
        self._reaches: dict[tuple[str, bool], list[FloatArray]] = {}
        self._sparse: dict[bool, Sparse] = {}  # include_unusable -> the tables as index arrays
        self._best_arrays: dict[bool, tuple[IntArray, IntArray, FloatArray]] = {}  # by usable
        self._chainable: BoolArray | None = None  # output types a link may carry (not primitive)
        self._with_any: tuple[int, list[int]] | None = None  # input types naming Any
        for sig in signatures:
            self.add(sig)

    def __getstate__(self) -> dict[str, object]:
        """The tables (what ``_TABLE_CACHES`` and ``_ARRAY_CACHES`` name is rebuilt when first
        needed, and left out of an image), with the accept matrix as its true cells and the
        chain mask (``_IMAGE_TABLES``), derived now if they were not yet."""
        dropped = {*_TABLE_CACHES, *_ARRAY_CACHES}
        state = {k: v for k, v in self.__dict__.items() if k not in dropped}
        self.sync()
        outputs, inputs = self._accept_cells()
        state[_IMAGE_TABLES] = (
            outputs.astype(np.int64).tobytes(),
            inputs.astype(np.int64).tobytes(),
            self.chain_mask().tobytes(),
        )  # bytes: the image's reader builds no array from a pickle
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        tables = state.pop(_IMAGE_TABLES, None)
        self.__dict__.update(state)
        for name in _TABLE_CACHES:
            setattr(self, name, {})
        for name in _ARRAY_CACHES:
            setattr(self, name, None)
        if isinstance(tables, tuple):
            output_bytes, input_bytes, chain_bytes = cast(tuple[bytes, bytes, bytes], tables)
            outputs = np.frombuffer(output_bytes, dtype=np.int64).astype(np.intp)
            inputs = np.frombuffer(input_bytes, dtype=np.int64).astype(np.intp)
            self._accept_pairs = (None, outputs, inputs)  # the dense matrix made when needed
            self._chainable = np.frombuffer(chain_bytes, dtype=np.bool_).copy()

    # ----------------------------------------------------------------------------- state

    @property
    def lattice(self) -> TypeLattice:
        return self._lattice

    # the tables, read by path search (``lgent.graph.paths``); never changed through these

    @property
    def entries(self) -> dict[str, _Packed]:
        """Each artifact's packed signature (see ``_Packed``)."""
        return self._entries

    @property
    def cells(self) -> dict[tuple[int, int], dict[str, None]]:
        """(input number, output number) -> the ids of the artifacts with those types."""
        return self._cells

    def best_among(self, rows: IntArray, cols: IntArray, *, usable: bool) -> FloatArray:
        """``[i, j]``: the best health in cell (``rows[i]``, ``cols[j]``), of a usable artifact
        only when ``usable`` (``NONE``: empty); costs the cells of those rows, not their area."""
        table = np.full((len(rows), len(cols)), NONE)
        s, u, health = self._best_cells(usable)
        if not table.size or not health.size:
            return table
        # each cell's row and column in the table (-1: not asked for); ``rows`` and ``cols``
        # are distinct type numbers, as ``np.flatnonzero`` gives them
        at_row = np.full(len(self._in), -1, dtype=np.intp)
        at_row[rows] = np.arange(len(rows))
        at_col = np.full(len(self._out), -1, dtype=np.intp)
        at_col[cols] = np.arange(len(cols))
        i, j = at_row[s], at_col[u]
        asked = (i >= 0) & (j >= 0)
        table[i[asked], j[asked]] = health[asked]
        return table

    def _best_cells(self, usable: bool) -> tuple[IntArray, IntArray, FloatArray]:
        """Every non-empty cell's (input, output) and best health (of a usable artifact if
        ``usable``; ``NONE``: none) as arrays (cached until a change)."""
        found = self._best_arrays.get(usable)
        if found is None:
            side = 1 if usable else 0
            count = len(self._best)
            s = np.fromiter((k[0] for k in self._best), dtype=np.intp, count=count)
            u = np.fromiter((k[1] for k in self._best), dtype=np.intp, count=count)
            health = np.fromiter((b[side] for b in self._best.values()), np.float64, count)
            found = self._best_arrays[usable] = (s, u, health)
        return found

    @property
    def input_names(self) -> list[str]:
        return self._in.names

    @property
    def output_names(self) -> list[str]:
        return self._out.names

    @property
    def output_ids(self) -> dict[str, int]:
        return self._out.ids

    def set_lattice(self, lattice: TypeLattice) -> None:
        """Use another lattice (type declarations changed)."""
        self._lattice = lattice
        self._lattice_version = -1
        self.sync()

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
        self.sync()
        self._accept_matrix()
        for name in self._out.names:
            self.children_of(name)
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
        """Build now every table a first question would otherwise build (a server warming up):
        ``warm``'s per-type tables, which a graph opened from its image lacks (at 100k entries
        and 200 types, first questions took up to 160 ms instead of 10), and the tables every
        path question reads (the links between types and the cells with their best health,
        usable or not): on a catalog of thousands of types, most of a second."""
        self.warm()
        self.chain_mask()
        for include_unusable in (False, True):
            self.sparse_of(include_unusable)

    def sync(self) -> None:
        if self._lattice.version != self._lattice_version:
            self._lattice_version = self._lattice.version
            self._accept = None
            self._accept_pairs = None
            self._chainable = None
            self._rows.clear()
            self._fits.clear()
            self._children.clear()
            self._bounds.clear()
            self._reaches.clear()
            self._sparse.clear()
            self._best_arrays.clear()

    def _is_subtype(self, a: str, b: str) -> bool:
        try:
            return self._lattice.is_subtype(a, b)
        except TypeLatticeError:  # reported by problems()
            return False

    # ----------------------------------------------------------------------------- changes

    def add(self, sig: Signature) -> None:
        """Index ``sig``, replacing any signature with the same id. Raises ``TypeLatticeError``
        (naming the artifact) if one of its types is malformed."""
        self.sync()
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
        self._best_arrays.clear()
        for key in ((s, u), (s, None), (None, u)):
            self._ranked.pop(key, None)
        if s >= 0:
            self._groups.pop(s, None)
            stale = [t for t, ch in self._children.items() if s >= len(ch.accepts) or ch.accepts[s]]
            for t in stale:
                del self._children[t]

    def _refresh_cell(self, s: int, u: int) -> None:
        entries = [self._entries[i] for i in self._cells.get((s, u), ())]
        if not entries:
            self._best.pop((s, u), None)
            return
        self._best[(s, u)] = (
            max(e[3] for e in entries),
            max((e[3] for e in entries if e[2]), default=NONE),
        )

    def _register_input(self, name: str) -> int:
        s, new = self._in.add(name)
        if new:
            self._rows.clear()
            self._children.clear()
            self._accept_pairs = None
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
            self._fits.clear()
            self._chainable = None
            self._accept_pairs = None
            if self._accept is not None:
                row = self.accepted_inputs(name)
                self._accept = np.concatenate([self._accept, row.reshape(1, -1)], axis=0)
        return u

    # ----------------------------------------------------------------------------- type tables

    def _accept_matrix(self) -> BoolArray:
        if self._accept is None:
            matrix = np.zeros((len(self._out), len(self._in)), dtype=np.bool_)
            pairs = self._accept_pairs
            if pairs is not None and pairs[0] is None:  # the true cells an image kept
                matrix[pairs[1], pairs[2]] = True
                self._accept_pairs = (matrix, pairs[1], pairs[2])
            else:
                for u, name in enumerate(self._out.names):
                    matrix[u] = self.accepted_inputs(name)
            self._accept = matrix
        return self._accept

    def _accept_cells(self) -> tuple[IntArray, IntArray]:
        """The accept matrix's true cells: (output types, input types), row-major; read off
        the matrix once per state of the tables, or kept from an image (no matrix needed)."""
        pairs = self._accept_pairs
        if pairs is None or (pairs[0] is not None and pairs[0] is not self._accept):
            accept = self._accept_matrix()  # built, or replaced since (a new type)
            outputs, inputs = np.nonzero(accept)
            pairs = self._accept_pairs = (accept, outputs, inputs)
        return pairs[1], pairs[2]

    def chain_mask(self) -> BoolArray:
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

    def accepted_inputs(self, name: str) -> BoolArray:
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
            if s is not None:  # a column of the accept matrix, read off its true cells
                outputs, inputs = self._accept_cells()
                fits = np.zeros(len(self._out), dtype=np.bool_)
                fits[outputs[inputs == s]] = True
            else:
                fits = np.array(
                    [self._is_subtype(u, name) for u in self._out.names], dtype=np.bool_
                )
            if len(self._fits) >= 4096:
                self._fits.clear()
            self._fits[name] = fits
        return fits

    def _group(self, s: int) -> Group:
        found = self._groups.get(s)
        if found is None:
            found = self._groups[s] = Group.of(
                [
                    (artifact, entry[3], u, entry[2])
                    for u in self._cells_of_in.get(s, ())
                    for artifact in self._cells[(s, u)]
                    for entry in (self._entries[artifact],)
                ]
            )
        return found

    def children_of(self, name: str) -> Children:
        found = self._children.get(name)
        if found is None:
            accepts = self.accepted_inputs(name)
            groups = [
                self._group(s) for s in np.flatnonzero(accepts).tolist() if self._cells_of_in.get(s)
            ]
            if len(self._children) >= 4096:
                self._children.clear()
            found = self._children[name] = Children(accepts, Group.join(groups))
        return found

    def bounds_for(
        self, target: str, include_unusable: bool, steps: int, *, linked: bool = False
    ) -> list[FloatArray]:
        """``bounds[r][u]``: the best weakest-link health of ``r`` more artifacts leading from
        output type ``u`` to ``target`` (``NONE`` if impossible, ``FREE`` for r=0 when
        ``u <: target``), for r = 0..steps-1, ignoring the no-repeat rule (an upper bound).
        ``linked``: ``target`` is an artifact's input, so r=0 also needs ``u`` to chain."""
        key = (target, include_unusable, linked)
        bounds = self._bounds.get(key)
        if bounds is None:
            fits = self._fitting(target) & self.chain_mask() if linked else self._fitting(target)
            bounds = [np.where(fits, FREE, NONE)]
            if len(self._bounds) >= 1024:
                self._bounds.clear()
            self._bounds[key] = bounds
        if len(bounds) < steps:
            n_in, n_out = len(self._in), len(self._out)
            sparse = self.sparse_of(include_unusable)
            while len(bounds) < steps:
                by_input = max_min(sparse.cells_by_input, bounds[-1], n_in)
                bounds.append(max_min(sparse.accept_by_output, by_input, n_out))
        return bounds

    def sparse_of(self, include_unusable: bool) -> Sparse:
        """The non-empty cells (with their best health, usable artifacts only unless
        ``include_unusable``) and the accept matrix as index arrays (cached until a change)."""
        found = self._sparse.get(include_unusable)
        if found is None:
            side = 0 if include_unusable else 1
            cells = [(s, u, best[side]) for (s, u), best in self._best.items() if best[side] >= 0]
            s = np.fromiter((c[0] for c in cells), dtype=np.intp, count=len(cells))
            u = np.fromiter((c[1] for c in cells), dtype=np.intp, count=len(cells))
            health = np.fromiter((c[2] for c in cells), dtype=np.float64, count=len(cells))
            by_input = np.lexsort((u, s))
            by_output = np.lexsort((s, u))
            outputs, inputs = self._accept_cells()
            links = self.chain_mask()[outputs]  # links only
            accepted_u, accepted_s = outputs[links], inputs[links]
            by_input_type = np.lexsort((accepted_u, accepted_s))
            accepting_s, accepting_u = accepted_s[by_input_type], accepted_u[by_input_type]
            found = self._sparse[include_unusable] = Sparse(
                cells_by_input=Edges.of(s[by_input], u[by_input], health[by_input]),
                cells_by_output=Edges.of(u[by_output], s[by_output], health[by_output]),
                accept_by_output=Edges.of(accepted_u, accepted_s, None),
                accept_by_input=Edges.of(accepting_s, accepting_u, None),
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
        check_limit(limit)
        return list(
            itertools.islice(
                self.compatible_stream(
                    target,
                    direction,
                    include_unusable=include_unusable,
                    chain=chain,
                    every=limit is None,
                ),
                limit,
            )
        )

    def compatible_stream(
        self,
        target: Signature | str,
        direction: Direction = "downstream",
        *,
        include_unusable: bool = False,
        chain: bool = True,
        every: bool = False,
    ) -> Iterator[Signature]:
        """``find_compatible``'s answer without a limit, healthiest first then by id, made as
        it is read (checked and ``target`` looked up at the call); ``every`` when all of it
        will be read (it is then sorted at once: cheaper than merging)."""
        check_direction(direction)
        self.sync()
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
        keys = sorted(itertools.chain(*parts)) if every else heapq.merge(*parts)
        return (self._signature(a) for _, a in keys if a != target.id)

    def neighbours(
        self, target: Signature, direction: Direction, *, chain: bool = True
    ) -> list[Ranked]:
        """The artifacts (usable or not, ``target`` included if indexed) that can follow
        ``target`` (downstream: grouped by input type) or precede it (upstream: by output type).
        With ``chain`` (the default) nothing is linked through a primitive type.
        """
        check_direction(direction)
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
        self.sync()
        if takes is None and gives is None:
            raise problem("takes", "takes or gives must be given", None)
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
        self.sync()
        return [
            artifact for cell in self._cells_fitting(takes, gives) for artifact in self._cells[cell]
        ]

    def _inputs_accepting(self, takes: str) -> list[int]:
        """The input types (indices) that accept ``takes``: itself and its supertypes."""
        return list(np.flatnonzero(self.accepted_inputs(canonical(takes))).tolist())

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

    def reach_from(self, source: str, include_unusable: bool, steps: int) -> list[FloatArray]:
        """``reach[r][s]``: the best weakest-link health of ``r`` artifacts leading from
        ``source`` to a type that input type ``s`` accepts (``FREE`` for r=0 when
        ``source <: s``, ``NONE`` if impossible), for r = 0..steps-1, ignoring the no-repeat
        rule (the mirror of ``_bounds_for``)."""
        key = (source, include_unusable)
        reach = self._reaches.get(key)
        if reach is None:
            reach = [np.where(self.accepted_inputs(source), FREE, NONE)]
            if len(self._reaches) >= 1024:
                self._reaches.clear()
            self._reaches[key] = reach
        if len(reach) < steps:
            n_in, n_out = len(self._in), len(self._out)
            sparse = self.sparse_of(include_unusable)
            while len(reach) < steps:
                by_output = max_min(sparse.cells_by_output, reach[-1], n_out)
                reach.append(max_min(sparse.accept_by_input, by_output, n_in))
        return reach[:steps]

    def output_name(self, artifact_id: str) -> str:
        output = self._entries[artifact_id][5]
        assert output >= 0  # only artifacts with both types are in paths
        return self._out.names[output]


def _ranked_ids(rows: Sequence[tuple[bool, float, str]]) -> _RankedIds:
    """``(not usable, -health, id)`` rows, sorted, as ``_RankedIds``."""
    return (
        tuple(r[2] for r in rows),
        tuple(-r[1] for r in rows),
        sum(1 for r in rows if not r[0]),
    )
