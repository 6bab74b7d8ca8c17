"""Records described by their fields, and width subtyping between them.

A record (an object schema, or a tool's arguments) is a :class:`RecordShape`: field name ->
:class:`FieldShape` (the field's kind when one was inferred, its JSON types, whether it is a
list, whether it is required). A producer's record *fits* a consumer that requires a subset of
its fields with compatible kinds, whatever either record is called (width subtyping):
:func:`record_fit`. A consumer's field is matched

1. by name (names compared in snake case): the producer's field of that name fits when its
   kind is the consumer's kind or below it (or either has no kind and their JSON types agree);
2. else by kind: exactly one unused producer field whose kind is the consumer's kind or below it.

Lists fit lists only. The same matching finds a record *kind* (``GeoPoint``: ``latitude`` and
``longitude``) in a record or in a tool's arguments, where :func:`prefixed_groups` also reads
``from_latitude``/``from_longitude`` and ``to_latitude``/``to_longitude`` as two groups.
Pure functions over frozen values; the lattice is anything with an ``is_subkind(sub, sup)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

ANY = "any"


class Lattice(Protocol):
    def is_subkind(self, sub: str, sup: str) -> bool: ...


@dataclass(frozen=True)
class FieldShape:
    """One field: its kind (None when none was inferred), JSON types (empty: unknown), whether
    it holds a list, whether it is required."""

    kind: str | None = None
    types: frozenset[str] = frozenset()
    many: bool = False
    required: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "types": sorted(self.types),
            "many": self.many,
            "required": self.required,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FieldShape:
        """The field ``to_dict`` wrote (``ValueError``/``KeyError``/``TypeError`` if not)."""
        kind = data.get("kind")
        return cls(
            kind=None if kind is None else str(kind),
            types=frozenset(str(t) for t in data.get("types", ())),
            many=bool(data.get("many", False)),
            required=bool(data.get("required", True)),
        )


@dataclass(frozen=True)
class RecordShape:
    """A record's fields, in order."""

    fields: tuple[tuple[str, FieldShape], ...]

    @classmethod
    def of(cls, fields: Mapping[str, FieldShape] | Iterable[tuple[str, FieldShape]]) -> RecordShape:
        items = fields.items() if isinstance(fields, Mapping) else fields
        return cls(tuple(items))

    def field(self, name: str) -> FieldShape | None:
        for key, shape in self.fields:
            if key == name:
                return shape
        return None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.fields)

    def required(self) -> RecordShape:
        """The required fields only."""
        return RecordShape(tuple((n, f) for n, f in self.fields if f.required))

    def to_dict(self) -> dict[str, Any]:
        return {name: shape.to_dict() for name, shape in self.fields}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordShape:
        """The record ``to_dict`` wrote."""
        return cls(tuple((str(name), FieldShape.from_dict(shape)) for name, shape in data.items()))


@dataclass(frozen=True)
class RecordFit:
    """How a producer's record fits a consumer's: consumer field -> producer field, how many
    were matched by name and by kind, and a score in (0, 1] (by name counts 1, by kind 0.8)."""

    mapping: tuple[tuple[str, str], ...]
    by_name: int
    by_kind: int

    @property
    def score(self) -> float:
        total = self.by_name + self.by_kind
        return 0.0 if total == 0 else (self.by_name + 0.8 * self.by_kind) / total


def _types_agree(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return True
    widened_a = a | ({"number"} if "integer" in a else set())
    widened_b = b | ({"number"} if "integer" in b else set())
    return bool(widened_a & widened_b)


def field_fits(produced: FieldShape, wanted: FieldShape, lattice: Lattice) -> bool:
    """True when a value of ``produced`` can be given where ``wanted`` is asked for."""
    if produced.many != wanted.many:
        return False
    if wanted.kind is not None and wanted.kind != ANY:
        if produced.kind is not None:
            return lattice.is_subkind(produced.kind, wanted.kind)
        return _types_agree(produced.types, wanted.types)
    return _types_agree(produced.types, wanted.types)


def record_fit(producer: RecordShape, consumer: RecordShape, lattice: Lattice) -> RecordFit | None:
    """How ``producer`` fits ``consumer``'s required fields (rules in the module docstring), or
    None when one of them has no match; a consumer requiring no field is None too (nothing to
    match: every record would fit)."""
    wanted = [(name, shape) for name, shape in consumer.fields if shape.required]
    if not wanted:
        return None
    used: set[str] = set()
    mapping: dict[str, str] = {}
    by_name = by_kind = 0
    for name, shape in wanted:
        produced = producer.field(name)
        if produced is not None and field_fits(produced, shape, lattice):
            mapping[name] = name
            used.add(name)
            by_name += 1
    for name, shape in wanted:
        if name in mapping:
            continue
        if shape.kind is None or shape.kind == ANY:
            return None
        candidates = [
            other
            for other, produced in producer.fields
            if other not in used
            and other not in mapping.values()
            and produced.kind is not None
            and field_fits(produced, shape, lattice)
        ]
        if len(candidates) != 1:
            return None
        mapping[name] = candidates[0]
        used.add(candidates[0])
        by_kind += 1
    return RecordFit(tuple(mapping.items()), by_name, by_kind)


def prefixed_groups(
    shape: RecordShape, field_names: Iterable[str]
) -> list[tuple[str, RecordShape]]:
    """``shape`` read as groups of fields sharing a prefix: for the fields ``latitude`` and
    ``longitude``, the arguments ``from_latitude, from_longitude, to_latitude, to_longitude``
    are the groups ``from`` and ``to`` (each with the prefix taken off its names); the whole
    record is the group ``""``. Groups with fewer than two fields are left out."""
    wanted = list(field_names)
    prefixes: list[str] = [""]
    for name, _ in shape.fields:
        for field in wanted:
            if name.endswith("_" + field) and len(name) > len(field) + 1:
                prefix = name[: -len(field) - 1]
                if prefix not in prefixes:
                    prefixes.append(prefix)
    groups: list[tuple[str, RecordShape]] = []
    for prefix in prefixes:
        if not prefix:
            groups.append(("", shape))
            continue
        members = tuple(
            (name[len(prefix) + 1 :], field)
            for name, field in shape.fields
            if name.startswith(prefix + "_")
        )
        if len(members) >= 2:
            groups.append((prefix, RecordShape(members)))
    return groups


__all__ = [
    "ANY",
    "FieldShape",
    "Lattice",
    "RecordFit",
    "RecordShape",
    "field_fits",
    "prefixed_groups",
    "record_fit",
]
