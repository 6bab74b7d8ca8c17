"""The composition index's building blocks: dense type numbers (``TypeTable``), a cell's
artifacts as arrays (``Group``), the sparse tables its bounds are computed over (``Edges``,
``Sparse``, ``max_min``) and the markers of the bound tables (``NONE``, ``FREE``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

NONE = -1.0
""""No artifact / no completion" in the bound tables (healths are >= 0)."""
FREE = 2.0
""""No constraint" in the bound tables (healths are <= 1)."""

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]


class TypeTable:
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


@dataclass(frozen=True, slots=True)
class Group:
    """Artifacts with both types, as parallel arrays (in no particular order: the search
    compares ties in full, so order only affects speed)."""

    ids: list[str]
    health: FloatArray
    output: IntArray
    usable: BoolArray

    @classmethod
    def of(cls, rows: Sequence[tuple[str, float, int, bool]]) -> Group:
        return cls(
            ids=[r[0] for r in rows],
            health=np.array([r[1] for r in rows], dtype=np.float64),
            output=np.array([r[2] for r in rows], dtype=np.intp),
            usable=np.array([r[3] for r in rows], dtype=np.bool_),
        )

    @classmethod
    def join(cls, groups: Sequence[Group]) -> Group:
        if len(groups) == 1:
            return groups[0]
        return cls(
            ids=[i for g in groups for i in g.ids],
            health=np.concatenate([g.health for g in groups] or [np.zeros(0)]),
            output=np.concatenate([g.output for g in groups] or [np.zeros(0, dtype=np.intp)]),
            usable=np.concatenate([g.usable for g in groups] or [np.zeros(0, dtype=np.bool_)]),
        )


@dataclass(frozen=True, slots=True)
class Edges:
    """Pairs ``(key, other)`` sorted by key, as runs: ``keys[i]`` owns ``others[starts[i]:]``
    up to the next start, each with a health (or none)."""

    keys: IntArray
    starts: IntArray
    others: IntArray
    health: FloatArray | None

    @classmethod
    def of(cls, keys: IntArray, others: IntArray, health: FloatArray | None) -> Edges:
        """From pairs already sorted by key."""
        starts = np.flatnonzero(np.concatenate(([keys.size > 0], keys[1:] != keys[:-1])))
        return cls(keys[starts], starts, others, health)


@dataclass(frozen=True, slots=True)
class Sparse:
    """The non-empty (input, output) cells and the true entries of the accept matrix, each
    grouped both ways, for bounds computed over them rather than over the dense matrices."""

    cells_by_input: Edges  # health: the cell's best
    cells_by_output: Edges
    accept_by_output: Edges
    accept_by_input: Edges


def max_min(edges: Edges, values: FloatArray, size: int) -> FloatArray:
    """``out[k]``: the greatest ``min(health, values[other])`` over the pairs ``(k, other)``
    (``NONE`` for a key with none), the max-min product of a sparse matrix and a vector."""
    out = np.full(size, NONE)
    if edges.others.size:
        picked = values[edges.others]
        if edges.health is not None:
            picked = np.minimum(edges.health, picked)
        out[edges.keys] = np.maximum.reduceat(picked, edges.starts)
    return out


@dataclass(frozen=True, slots=True)
class Children:
    """The artifacts accepting one state type, and the input-type row it was built from."""

    accepts: BoolArray  # over input types, at build time
    group: Group
