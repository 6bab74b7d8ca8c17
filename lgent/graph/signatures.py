"""What composition is about: an artifact's ``Signature``, a ``CompositionPath``, the
``PathSearch`` asked for, and the ``Ranked`` groups type questions answer with.

An artifact is reduced to a ``Signature`` (id, input type, output type, usable, health). A path
from ``source`` to ``target`` is a sequence of distinct artifacts ``a1..aL`` with
``source <: a1.input``, ``ai.output <: a(i+1).input`` and ``aL.output <: target``.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from lgent.errors import FieldProblem, ValidationError
from lgent.limits import MAX_LIMIT

Direction = Literal["downstream", "upstream"]
MAX_PATH_LENGTH = 10
"""Longest pipeline ``find_paths`` will search for."""


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


def problem(name: str, message: str, value: object) -> ValidationError:
    return ValidationError([FieldProblem(name, message, value)])


def check_direction(direction: str) -> None:
    if direction not in ("downstream", "upstream"):
        raise problem("direction", "must be 'downstream' or 'upstream'", direction)


def check_search(max_length: int, k: int) -> None:
    for name, value, top in (("max_length", max_length, MAX_PATH_LENGTH), ("k", k, MAX_LIMIT)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            raise problem(name, f"must be an integer from 1 to {top}", value)


@dataclass(frozen=True, slots=True)
class PathSearch:
    """A composition search: the first ``k`` pipelines from the ``source`` type to the
    ``target`` type with at most ``max_length`` artifacts; deprecated and retired artifacts
    are steps only when ``include_unusable``; only artifacts ``allowed`` admits are steps
    (None: any; a reader's scope, ``lgent.scopes``)."""

    source: str
    target: str
    max_length: int = 5
    k: int = 5
    include_unusable: bool = False
    allowed: Callable[[str], bool] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_search(self.max_length, self.k)


def check_limit(limit: int | None) -> None:
    if limit is not None and (
        not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT
    ):
        raise problem("limit", f"must be None or an integer from 1 to {MAX_LIMIT}", limit)


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
