"""A memo of inference over many tools: identical values are judged once.

An import infers the kinds of thousands of operations whose parameters and records recur (the
same ``api-version`` query parameter, the same ``Pet`` definition reached by twenty operations),
so :class:`InferenceCache` keeps what was found for each value, keyed by what the rules read of
it (its name, types, format, pattern, enum, examples, description, and its fields), and each
schema read as a value. Evidence is found relative to the value (``where`` empty) and located
by the caller that shows it (:func:`located`), so a cached answer is exactly the answer
inference gives without one.

Records and schemas are known by identity (a record by its ``properties`` object), which is
reliable within one document only: :meth:`InferenceCache.bind` starts a document, forgetting
those of the last one (scalar values are kept across documents). One cache serves one
vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from lgent.kinds.records import RecordShape
from lgent.kinds.results import Evidence, InferredKind
from lgent.kinds.schemas import Value, value_of


class Findings(NamedTuple):
    """What the rules found on a value: every kind's evidence (located relative to the value),
    its fields when it is a record, and the kinds that evidence supports, best first."""

    evidence: tuple[Evidence, ...]
    record: RecordShape | None
    kinds: tuple[InferredKind, ...]


def _key(value: Value, depth: int) -> Hashable:
    """What the rules read of ``value`` (never its location); a record's fields by identity."""
    shape = None if value.properties is None else (id(value.properties), depth)
    return (
        value.name,
        value.types,
        value.many,
        value.format,
        value.pattern,
        value.enum,
        value.examples,
        value.description,
        value.required,
        shape,
    )


def located(kinds: tuple[InferredKind, ...], where: str) -> tuple[InferredKind, ...]:
    """``kinds`` with the location of their evidence found on a value moved under ``where``."""
    if not where:
        return kinds
    return tuple(
        replace(k, evidence=tuple(replace(e, where=where + e.where) for e in k.evidence))
        for k in kinds
    )


@dataclass
class InferenceCache:
    """Findings per distinct value, and values per schema (see the module); ``hits`` and
    ``misses`` count the findings looked up, for whoever measures it."""

    hits: int = 0
    misses: int = 0
    _scalars: dict[Hashable, Findings] = field(default_factory=dict, repr=False)
    _records: dict[Hashable, Findings] = field(default_factory=dict, repr=False)
    _values: dict[tuple[int, str], Value] = field(default_factory=dict, repr=False)
    _held: list[Any] = field(default_factory=list, repr=False)
    _document: Any = field(default=None, repr=False)

    def bind(self, document: Any) -> None:
        """Start inferring over ``document``: the records and schemas of another document are
        forgotten."""
        if document is not self._document:
            self._document = document
            self._records.clear()
            self._values.clear()
            self._held.clear()

    def value(self, name: str, schema: Any, document: Any) -> Value:
        """``schema`` (of the value called ``name``) read as a value located at ``""``."""
        key = (id(schema), name)
        found = self._values.get(key)
        if found is None:
            found = value_of(name, schema, document, "")
            self._values[key] = found
            self._held.append(schema)  # its id stays its own while remembered
        return found

    def findings(self, value: Value, depth: int, compute: Callable[[Value], Findings]) -> Findings:
        """The findings on ``value`` (located at ``""``): remembered, or computed and
        remembered."""
        memo = self._scalars if value.properties is None else self._records
        key = _key(value, depth)
        found = memo.get(key)
        if found is None:
            self.misses += 1
            found = compute(value)
            memo[key] = found
            if value.properties is not None:
                self._held.append(value.properties)
        else:
            self.hits += 1
        return found

    @property
    def size(self) -> int:
        """Values remembered."""
        return len(self._scalars) + len(self._records)


__all__ = ["Findings", "InferenceCache", "located"]
