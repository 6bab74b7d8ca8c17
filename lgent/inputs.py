"""Checks at the public API's door: arguments of the wrong shape become a ValidationError that
names the argument, instead of an AttributeError (or worse) from deep inside."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from lgent.errors import FieldProblem, ValidationError
from lgent.models import CatalogEntry, _Model

M = TypeVar("M", bound=_Model)


def bad(argument: str, message: str, value: Any = None) -> ValidationError:
    return ValidationError([FieldProblem(argument, message, value)])


def as_model(value: Any, cls: type[M], argument: str) -> M:
    """``value`` as ``cls``: an instance passes, a mapping is validated, anything else is refused."""
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        return cls.parse(dict(value))
    raise bad(
        argument,
        f"expected a {cls.__name__} or a mapping of its fields, got {type(value).__name__}",
    )


def as_entries(values: Any, argument: str = "entries") -> list[CatalogEntry]:
    """A list of entries (instances or mappings) from any iterable of them."""
    if isinstance(values, str | bytes | Mapping):
        raise bad(argument, f"expected a list of entries, got a {type(values).__name__}")
    try:
        items = list(values)
    except TypeError:
        raise bad(argument, f"expected a list of entries, got {type(values).__name__}") from None
    return [as_model(v, CatalogEntry, f"{argument}[{i}]") for i, v in enumerate(items)]


def as_text(value: Any, argument: str, *, optional: bool = False) -> str:
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise bad(argument, f"expected a string, got {type(value).__name__}")
    return value


def as_texts(values: Any, argument: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    if not isinstance(values, Sequence):
        raise bad(argument, f"expected a list of strings, got {type(values).__name__}")
    return [as_text(v, f"{argument}[{i}]") for i, v in enumerate(values)]


def as_int(value: Any, argument: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(argument, f"must be an integer from {low} to {high}", value)
    return value


def as_path(value: Any, argument: str = "path") -> os.PathLike[str] | str:
    if not isinstance(value, str | os.PathLike):
        raise bad(argument, f"expected a file or folder path, got {type(value).__name__}")
    return value
