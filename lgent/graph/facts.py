"""What the catalog graph keeps of one entry, as plain values: enough to rebuild the graph's
structures without reading (and validating) the catalog's entries again.

An entry is reduced to ``ArtifactFacts`` once, when the graph takes it in; the graph brain
persists the facts (``lgent/brains/graph/store.py``) so that a new process opens the graph from
them in a fraction of the time decoding every entry takes. The facts keep the *inputs* of the
ports (declared types, inferred kinds with their confidences), not the ports themselves: which
declared type is a primitive depends on the type lattice, which may change.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from lgent.errors import TypeLatticeError
from lgent.graph.sides import NOT_INPUTS
from lgent.health import Health
from lgent.models import CatalogEntry, Status
from lgent.typeexpr import canonical

FORMAT = 1
"""The version of the facts' layout (a persisted graph of another format is rebuilt)."""

Kinds = tuple[tuple[str, float], ...]


class ArtifactFacts(NamedTuple):
    """What the graph keeps of an entry (a plain tuple: cheap to hold and to write)."""

    id: str
    name: str
    status: str
    entity_type: str
    author: str | None
    execution: str | None
    success_rate: float | None
    usage_count: int
    last_used: str | None
    version: str
    contracts: tuple[str, ...]
    input_type: str | None
    """The declared input type, canonical when well formed."""
    output_type: str | None
    inferred_needs: Kinds
    """(type, confidence) of each kind inferred for what it needs, best first."""
    inferred_outputs: Kinds
    relations: tuple[tuple[str, str], ...]

    @property
    def health(self) -> float:
        return Health(Status(self.status), self.success_rate).score

    @property
    def last_used_at(self) -> datetime | None:
        return None if self.last_used is None else datetime.fromisoformat(self.last_used)

    def to_json(self) -> list[Any]:
        """The facts as a JSON array (tuples as arrays)."""
        return [list(v) if isinstance(v, tuple) else v for v in self]

    @classmethod
    def from_json(cls, data: list[Any]) -> ArtifactFacts:
        """The facts ``to_json`` wrote (``ValueError`` / ``TypeError`` when they are not)."""
        if not isinstance(data, list) or len(data) != len(cls._fields):
            raise ValueError(f"expected {len(cls._fields)} values, got {data!r:.80}")
        (aid, name, status, kind, author, execution, success, usage, used, version,
         contracts, takes, gives, needs, outputs, relations) = data  # fmt: skip
        return cls(
            str(aid),
            str(name),
            Status(status).value,
            str(kind),
            None if author is None else str(author),
            None if execution is None else str(execution),
            None if success is None else float(success),
            int(usage),
            None if used is None else str(used),
            str(version),
            tuple(str(c) for c in contracts),
            None if takes is None else str(takes),
            None if gives is None else str(gives),
            tuple((str(t), float(c)) for t, c in needs),
            tuple((str(t), float(c)) for t, c in outputs),
            tuple((str(r), str(x)) for r, x in relations),
        )


def facts_of(entry: CatalogEntry) -> ArtifactFacts:
    """What the graph keeps of ``entry``."""
    kinds = entry.tool_kinds() if entry.kinds is not None else None
    needs: Kinds = ()
    outputs: Kinds = ()
    if kinds is not None:
        needs = tuple((k.type_expr, k.confidence) for k in kinds.needs if k.kind not in NOT_INPUTS)
        outputs = tuple((k.type_expr, k.confidence) for k in kinds.outputs)
    return ArtifactFacts(
        entry.id,
        entry.name,
        entry.status.value,
        entry.entity_type.value,
        entry.author,
        entry.execution.value if entry.execution else None,
        entry.success_rate,
        entry.usage_count,
        None if entry.last_used is None else entry.last_used.isoformat(),
        entry.version,
        tuple(entry.contracts),
        canonical_or_none(entry.input_type),
        canonical_or_none(entry.output_type),
        needs,
        outputs,
        tuple((r.type.value, r.target) for r in entry.relations),
    )


def canonical_or_none(text: str | None) -> str | None:
    """``text`` as a canonical type expression (as written when malformed), None when empty."""
    if not text:
        return None
    try:
        return canonical(text)
    except TypeLatticeError:
        return text
