"""What the graph brain remembers of each entry besides its edges, and which filters admit it.

``ArtifactTable`` maps ids to ``ArtifactInfo`` but keeps one plain tuple of atoms per artifact
(the status by its value) and makes the ``ArtifactInfo`` when asked for one: the garbage
collector stops tracking such tuples, so a 100k-entry catalog adds no objects to its full
collections. Ranking reads the few fields it needs (``types``, ``admits``) without making one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from lgent.graph.facts import ArtifactFacts
from lgent.graph.sides import Sides
from lgent.health import USABLE
from lgent.models import SearchFilters, Status


@dataclass(frozen=True, slots=True)
class ArtifactInfo:
    """What the graph brain remembers of an entry besides its edges."""

    id: str
    name: str
    status: Status
    entity_type: str
    author: str | None
    execution: str | None
    health: float
    input_type: str | None
    output_type: str | None
    # what the resolver ranks by, so it need not read every candidate back from the catalog
    success_rate: float | None = None
    usage_count: int = 0
    last_used: datetime | None = None
    version: str = "0.1.0"
    contracts: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    """Every type it must be given to run (``sides.Sides.needs``); its ``input_type`` is the
    first port composition links it by."""

    @property
    def usable(self) -> bool:
        return self.status in USABLE


class Fitness(NamedTuple):
    """What resolving reads of an artifact: its health, its contracts and what preferences rank
    (a plain tuple: cheap to make for the hundreds of candidates of a broad type)."""

    id: str
    status: Status
    success_rate: float | None
    usage_count: int
    last_used: datetime | None
    version: str
    contracts: tuple[str, ...]
    fit: float = 1.0
    """How well it fits the requirement it was found for, in (0, 1]: 1 for declared types,
    else the confidence and specificity of the inferred kinds it was matched by."""


_Packed = tuple[
    str,  # name
    str,  # status value
    str,  # entity type
    str | None,  # author
    str | None,  # execution
    float,  # health
    str | None,  # input type
    str | None,  # output type
    float | None,  # success rate
    int,  # usage count
    datetime | None,  # last used
    str,  # version
    tuple[str, ...],  # contracts
    tuple[str, ...],  # needs
]
_STATUS = {s.value: s for s in Status}


def _pack(info: ArtifactInfo) -> _Packed:
    return (
        info.name,
        info.status.value,
        info.entity_type,
        info.author,
        info.execution,
        info.health,
        info.input_type,
        info.output_type,
        info.success_rate,
        info.usage_count,
        info.last_used,
        info.version,
        tuple(info.contracts),
        tuple(info.needs),
    )


class ArtifactTable(Mapping[str, ArtifactInfo]):
    """``ArtifactInfo`` by id, stored packed (see the module docstring)."""

    def __init__(self) -> None:
        self._rows: dict[str, _Packed] = {}

    def __getitem__(self, artifact_id: str) -> ArtifactInfo:
        row = self._rows[artifact_id]
        return ArtifactInfo(artifact_id, row[0], _STATUS[row[1]], *row[2:])

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, artifact_id: object) -> bool:
        return artifact_id in self._rows

    def add(self, info: ArtifactInfo) -> None:
        """Remember ``info`` (replacing what was remembered of ``info.id``)."""
        self._rows[info.id] = _pack(info)

    def remove(self, artifact_id: str) -> ArtifactInfo | None:
        """Forget ``artifact_id``; what was remembered of it (None: nothing)."""
        found = self.get(artifact_id)
        if found is not None:
            del self._rows[artifact_id]
        return found

    def fitness(self, artifact_id: str) -> Fitness:
        """What resolving reads of ``artifact_id`` (which must be present)."""
        row = self._rows[artifact_id]
        return Fitness(artifact_id, _STATUS[row[1]], row[8], row[9], row[10], row[11], row[12])

    def names(self) -> Iterator[tuple[str, str]]:
        """Every ``(id, name)``."""
        return ((artifact_id, row[0]) for artifact_id, row in self._rows.items())

    def types(self, artifact_id: str) -> tuple[str | None, str | None]:
        """The input and output types of ``artifact_id`` (which must be present)."""
        row = self._rows[artifact_id]
        return row[6], row[7]

    def needs(self, artifact_id: str) -> tuple[str, ...] | None:
        """Every type ``artifact_id`` must be given to run (None: not present)."""
        row = self._rows.get(artifact_id)
        return None if row is None else row[13]

    def admits(self, artifact_id: str, filters: SearchFilters | None) -> bool:
        """True when ``artifact_id`` is present and passes ``filters``."""
        row = self._rows.get(artifact_id)
        if row is None:
            return False
        if filters is None or filters.empty:
            return True
        return filters.allows(artifact_id) and filters.matches(row[2], row[1], row[3], row[4])


def artifact_info(facts: ArtifactFacts, sides: Sides) -> ArtifactInfo:
    """What the graph remembers of the artifact ``facts`` describes: its first ports as its
    input and output types, and its needs (``sides``)."""
    return ArtifactInfo(
        facts.id,
        facts.name,
        Status(facts.status),
        facts.entity_type,
        facts.author,
        facts.execution,
        facts.health,
        None if sides.input is None else sides.input.type,
        None if sides.output is None else sides.output.type,
        facts.success_rate,
        facts.usage_count,
        facts.last_used_at,
        facts.version,
        facts.contracts,
        sides.needs,
    )


__all__ = [
    "ArtifactInfo",
    "ArtifactTable",
    "Fitness",
    "artifact_info",
]
