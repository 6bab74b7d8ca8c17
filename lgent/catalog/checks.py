"""Cross-record checks a batch must pass before it is committed, and the warnings it earns.

Errors (the batch is refused): a subtype cycle among the type declarations, or a declaration
whose supertype is declared nowhere. Warnings (the batch is committed, the report lists them):
an entry whose input/output type is not declared (it is then a root type under ``Any``), and a
relation whose target is not in the catalog (kept as a dangling edge; it resolves once the
target is registered).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lgent.catalog.protocol import Catalog
from lgent.catalog.records import BatchResult
from lgent.errors import LoadError, TypeCycleError
from lgent.models import CatalogEntry, TypeDecl
from lgent.typeexpr import type_names

if TYPE_CHECKING:
    from lgent.catalog.readers.base import Located


@dataclass(slots=True)
class BatchReport:
    """The outcome of a load: store counts, files read, skipped and rejected, warnings."""

    result: BatchResult = field(default_factory=BatchResult)
    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    """Sources left out whole for a problem (ecosystem formats), each with the problem."""
    warnings: list[str] = field(default_factory=list)
    dry_run: bool = False
    """True when nothing was written: the counts say what the load would do."""
    indexes: dict[str, str] = field(default_factory=dict)
    """Each brain's index after the load, when they were brought current (``LGent.build``):
    ``current``, ``rebuilt to change N``, or how far a long build is and how to finish it."""

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.result.to_dict(),
            "dry_run": self.dry_run,
            "changed": {
                "added": self.result.added,
                "updated": self.result.updated,
                "retired": self.result.retired,
            },
            "files": self.files,
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "rejected": [{"path": p, "reason": r} for p, r in self.rejected],
            "warnings": self.warnings,
            **({"indexes": self.indexes} if self.indexes else {}),
        }


def check_batch(
    store: Catalog,
    entries: Sequence[CatalogEntry],
    types: Sequence[TypeDecl],
    located: Sequence[Located] | None = None,
) -> BatchReport:
    """Validate a batch against itself and the store. Raises LoadError; returns warnings."""
    where = _locations(located)
    declared: dict[str, TypeDecl] = {t.type: t for t in store.types()}
    for decl in types:
        declared[decl.type] = decl
    _check_type_graph(declared, types, where)

    report = BatchReport()
    undeclared: dict[str, list[str]] = {}
    for entry in entries:
        for expr in (entry.input_type, entry.output_type):
            for name in type_names(expr or ""):
                if name != "Any" and name not in declared:
                    undeclared.setdefault(name, []).append(entry.id)
    for name, ids in sorted(undeclared.items()):
        report.warnings.append(
            f"type {name!r} is not declared (used by {_some(ids)}); treated as a root type under Any"
        )

    batch_ids = {e.id for e in entries}
    missing: dict[str, list[str]] = {}
    for entry in entries:
        for relation in entry.relations:
            if relation.target not in batch_ids and not store.exists(relation.target):
                missing.setdefault(relation.target, []).append(f"{entry.id} {relation.type.value}")
    for target, sources in sorted(missing.items()):
        report.warnings.append(
            f"relation target {target!r} is not in the catalog ({_some(sources)}); kept as dangling"
        )
    return report


def _check_type_graph(
    declared: dict[str, TypeDecl], new: Sequence[TypeDecl], where: dict[str, str]
) -> None:
    for decl in new:
        for parent in decl.subtype_of:
            head = type_names(parent)[0]
            if head != "Any" and head not in declared:
                place = f"{where[decl.type]}: " if decl.type in where else ""
                raise LoadError(f"{place}type {decl.type!r} declares unknown supertype {parent!r}")
    import networkx as nx  # deferred: only loads pay for it

    graph: nx.DiGraph[str] = nx.DiGraph()
    for decl in declared.values():
        for parent in decl.subtype_of:
            graph.add_edge(decl.type, type_names(parent)[0])
    try:
        cycle_edges = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    cycle = [edge[0] for edge in cycle_edges]
    err = TypeCycleError(cycle)
    located = next((where[name] for name in cycle if name in where), None)
    raise LoadError(f"{located}: {err}" if located else str(err)) from err


def _locations(located: Sequence[Located] | None) -> dict[str, str]:
    places: dict[str, str] = {}
    for item in located or ():
        if isinstance(item.record, TypeDecl):
            places.setdefault(item.record.type, item.place)
    return places


def _some(items: list[str], shown: int = 3) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more
