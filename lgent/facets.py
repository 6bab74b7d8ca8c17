"""Facets with counts, and the table of facts they and scopes are counted from.

``FactTable`` holds every artifact's ``ArtifactFacts`` (its kind, status, author, types, tags
and source) at one catalog change number; ``Facts`` keeps one current for an open home,
catching up from the change log (reading only what changed) or reading it whole. From a table:
the artifacts a scope reads (``visible``), the artifacts a filter admits, and per facet the
number of artifacts holding each value (``count_facets``).

The facets and the listing filter each names: ``kind`` (``entity_type``), ``source`` (the file,
API spec, server or writer that wrote it: ``Owner.key``), ``owner`` (its ``author``, the owner a
card shows), ``status``, ``tag`` (a keyword), ``input`` and ``output`` (its input and output
kinds). A facet's count for a value is the number of artifacts the same listing filter with
that value added would list (``tests/ecosystem/test_facets_shared.py`` checks it against the stores' SQL
on the whole shared ecosystem).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from lgent.catalog.protocol import Catalog
from lgent.catalog.records import ArtifactFacts, EntryFilter, Owner
from lgent.errors import QueryError
from lgent.models import CatalogEntry
from lgent.scopes import Scope

FACET_FIELDS: Mapping[str, str] = {
    "kind": "entity_type",
    "source": "source",
    "owner": "author",
    "status": "status",
    "tag": "tag",
    "input": "input_type",
    "output": "output_type",
}
"""Each facet's name -> the ``EntryFilter`` field that filters by it."""
FACET_NAMES = tuple(FACET_FIELDS)
DEFAULT_TOP = 10
MAX_TOP = 1000
REBUILD_AFTER = 2000
"""A table more than this many changes behind is read whole again rather than caught up."""


class FacetValue(BaseModel):
    """One value of a facet and how many artifacts hold it."""

    model_config = ConfigDict(frozen=True)

    value: str
    count: int


class Facet(BaseModel):
    """One facet's counts: its most frequent values (count first, then value), how many
    artifacts hold none (``missing``), and how many other values were not shown (``others``,
    holding ``others_count`` artifacts)."""

    model_config = ConfigDict(frozen=True)

    name: str
    values: tuple[FacetValue, ...]
    missing: int = 0
    others: int = 0
    others_count: int = 0


def facts_of(entry: CatalogEntry, owner: Owner) -> ArtifactFacts:
    """The facts of an entry written by ``owner`` (as ``Catalog.facts`` reads them)."""
    return ArtifactFacts(
        entry.id,
        entry.entity_type.value,
        entry.status.value,
        entry.author,
        entry.input_type,
        entry.output_type,
        entry.keywords,
        owner.key,
    )


def facet_values(facts: ArtifactFacts, name: str) -> tuple[str, ...]:
    """The values ``facts`` holds for facet ``name`` (none, one, or a tag per keyword)."""
    field_name = FACET_FIELDS[name]
    if field_name == "tag":
        return tuple(dict.fromkeys(facts.tags))
    value = getattr(facts, field_name)
    return () if value is None else (str(value),)


def check_facet_names(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` if each is a facet (``QueryError`` naming the first that is not)."""
    chosen = tuple(dict.fromkeys(names))
    for name in chosen:
        if name not in FACET_FIELDS:
            raise QueryError(f"unknown facet {name!r} (known: {', '.join(FACET_NAMES)})")
    return chosen


def filter_of(values: Mapping[str, str | None]) -> EntryFilter | None:
    """The listing filter of facet values (``{"tag": "pdf", "kind": "tool"}``); None when no
    value is given."""
    given = {}
    for name, value in values.items():
        check_facet_names([name])
        if value is not None:
            given[FACET_FIELDS[name]] = value
    return EntryFilter(**given) if given else None


def count_facets(
    facts: Iterable[ArtifactFacts], names: Sequence[str] = FACET_NAMES, top: int = DEFAULT_TOP
) -> dict[str, Facet]:
    """For each facet of ``names``, the ``top`` values held by most of ``facts``."""
    names = check_facet_names(names)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise QueryError(f"top must be an integer from 1 to {MAX_TOP}, got {top!r}")
    counters = {name: Counter[str]() for name in names}
    missing = dict.fromkeys(names, 0)
    for fact in facts:
        for name in names:
            values = facet_values(fact, name)
            if values:
                counters[name].update(values)
            else:
                missing[name] += 1
    found = {}
    for name in names:
        ranked = sorted(counters[name].items(), key=lambda vc: (-vc[1], vc[0]))
        rest = ranked[top:]
        found[name] = Facet(
            name=name,
            values=tuple(FacetValue(value=v, count=c) for v, c in ranked[:top]),
            missing=missing[name],
            others=len(rest),
            others_count=sum(c for _, c in rest),
        )
    return found


@dataclass(slots=True)
class FactTable:
    """Every artifact's facts at ``change_number``, with the sets scopes read (kept per
    scope until the table moves on)."""

    change_number: int
    facts: dict[str, ArtifactFacts]
    _visible: dict[Scope, frozenset[str]] = field(default_factory=dict)

    def visible(self, scope: Scope) -> frozenset[str]:
        """The ids ``scope`` reads (``Scope.reads``, the one rule)."""
        found = self._visible.get(scope)
        if found is None:
            found = frozenset(i for i, f in self.facts.items() if scope.reads(f))
            self._visible[scope] = found
        return found

    def within(self, scope: Scope, filters: EntryFilter | None) -> frozenset[str] | None:
        """The ids a reader of ``scope`` sees through ``filters``; None when that is every
        artifact (nothing to restrict)."""
        if scope.everything and (filters is None or not filters.given()):
            return None
        ids = self.facts.keys() if scope.everything else self.visible(scope)
        if filters is None or not filters.given():
            return frozenset(ids)
        return frozenset(i for i in ids if filters.admits(self.facts[i]))

    def of(self, ids: Iterable[str]) -> Iterable[ArtifactFacts]:
        return (self.facts[i] for i in ids if i in self.facts)


class Facts:
    """An open home's ``FactTable``, kept current with its catalog (thread-safe)."""

    def __init__(self, store: Catalog) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._table: FactTable | None = None

    def table(self) -> FactTable:
        """The table at the catalog's change number now (sync: call it on a worker thread)."""
        number = self.store.change_number()
        with self._lock:
            table = self._table
            if table is not None and table.change_number == number:
                return table
            if table is None or not 0 <= number - table.change_number <= REBUILD_AFTER:
                table = self._read_whole()
            else:
                table = self._caught_up(table)
            self._table = table
            return table

    def _read_whole(self) -> FactTable:
        number = self.store.change_number()
        facts = {f.id: f for f in self.store.facts()}
        after = self.store.change_number()
        return FactTable(min(number, after), facts)

    def _caught_up(self, table: FactTable) -> FactTable:
        """A new table from ``table`` and the changes logged since (the entries they touch
        read again, with their owners)."""
        changes = self.store.changes_since(table.change_number)
        if not changes:
            return table
        touched = sorted({c.key for c in changes if c.kind == "entry"})
        entries = self.store.get_many(touched, skip_damaged=True)
        owners = self.store.owners(list(entries))
        facts = dict(table.facts)
        for artifact_id in touched:
            entry = entries.get(artifact_id)
            if entry is None:
                facts.pop(artifact_id, None)
            else:
                facts[artifact_id] = facts_of(entry, owners.get(artifact_id, Owner("unknown")))
        return FactTable(changes[-1].seq, dict(sorted(facts.items())))


__all__ = [
    "DEFAULT_TOP",
    "FACET_FIELDS",
    "FACET_NAMES",
    "Facet",
    "FacetValue",
    "FactTable",
    "Facts",
    "check_facet_names",
    "count_facets",
    "facet_values",
    "facts_of",
    "filter_of",
]
