"""Every check at the public API's door, in one place: arguments of the wrong shape become a
typed error that names the argument (a ``ValidationError``, or a ``QueryError`` for a query's
arguments), instead of an AttributeError (or worse) from deep inside.

A query's arguments are validated by one model on every surface (``QueryArguments``:
``LGent.query``, ``POST /query``, which adds paging and ``explain``, and the MCP ``search``
tool). No value is coerced: ``"limit": true`` and ``"limit": "5"`` are refused, as are
``"lenient": "yes"`` and unknown arguments, each with a typed error naming the argument. (Text
in a URL's query string is parsed by its declared type; that is the wire format, not a
coercion.)
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import pydantic
from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from lgent import limits
from lgent.errors import FieldProblem, QueryError, ValidationError
from lgent.models import CatalogEntry, Container, QueryContext, StrictModel

M = TypeVar("M", bound=StrictModel)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


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


def as_paths(value: Any, argument: str = "path") -> list[Path]:
    """One path, or a non-empty list of them, as a list of ``Path``."""
    if isinstance(value, str | os.PathLike):
        return [Path(value)]
    if not isinstance(value, Sequence) or isinstance(value, bytes):
        raise bad(
            argument,
            f"expected a file or folder path or a list of them, got {type(value).__name__}",
        )
    if not value:
        raise bad(argument, "expected at least one file or folder path, got an empty list")
    return [Path(as_path(v, f"{argument}[{i}]")) for i, v in enumerate(value)]


class QueryArguments(Container):
    """What a query takes; each scalar strict (no bool for an int, no text for a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: StrictStr = Field(
        min_length=1,
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, a description, a type question or a keyword query.",
    )
    constraints: tuple[
        Annotated[StrictStr, Field(min_length=1, max_length=limits.MAX_CONSTRAINT_LENGTH)], ...
    ] = Field(
        default=(),
        max_length=limits.MAX_CONTRACTS,
        description="Hard filters, e.g. 'latency < 2s'.",
    )
    context: QueryContext | None = None
    limit: StrictInt = Field(default=10, ge=1, le=limits.MAX_LIMIT)
    lenient: StrictBool = Field(default=False, description="Never read the keyword grammar.")
    strict: StrictBool = Field(
        default=False, description="Read any grammar operator as grammar; malformed is an error."
    )

    @model_validator(mode="after")
    def _one_reading(self) -> QueryArguments:
        if self.lenient and self.strict:
            raise ValueError("lenient and strict ask for opposite readings: give one of them")
        return self

    @classmethod
    def of(
        cls,
        query: str,
        constraints: Sequence[str] | None,
        context: QueryContext | Mapping[str, Any] | None,
        limit: int,
        lenient: bool,
        strict: bool,
    ) -> QueryArguments:
        """The arguments as ``LGent.query`` takes them (a constraint may be one string, the
        context a mapping of its fields), validated."""
        return cls.check(
            query=query,
            constraints=tuple(as_texts(constraints, "constraints")),
            context=None if context is None else as_model(context, QueryContext, "context"),
            limit=limit,
            lenient=lenient,
            strict=strict,
        )

    @classmethod
    def check(cls, **values: Any) -> QueryArguments:
        """The arguments validated; a QueryError naming each bad one otherwise (the query's
        text and the limit first, with the words ``check_query`` uses)."""
        check_query(values.get("query"), values.get("limit", 10))
        if isinstance(values["query"], str) and not values["query"].strip():
            raise QueryError("the query is empty")
        try:
            return cls(**values)
        except pydantic.ValidationError as err:
            raise QueryError(describe(err)) from None


def describe(err: pydantic.ValidationError) -> str:
    """Pydantic's problems as one line: ``invalid argument(s): limit: ...; zzz: unknown``."""
    parts = []
    for problem in err.errors():
        what = "unknown argument" if problem["type"] == "extra_forbidden" else problem["msg"]
        what = what.removeprefix("Value error, ")
        if not problem["loc"]:  # a rule between arguments: its message says it all
            parts.append(what)
            continue
        where = ".".join(str(p) for p in problem["loc"])
        parts.append(f"{where}: {what} (got {problem.get('input')!r:.60})")
    return "invalid argument(s): " + "; ".join(parts)


def check_shown(shown: range | None) -> None:
    """``shown`` is None or a range of positions (step 1) from 0 to ``limits.MAX_LIMIT``."""
    if shown is None:
        return
    if not isinstance(shown, range) or shown.step != 1 or not 0 <= shown.start < shown.stop:
        raise QueryError(
            f"shown must be a range of result positions such as range(0, 10), got {shown!r}"
        )
    if shown.stop > limits.MAX_LIMIT:
        raise QueryError(f"shown reaches position {shown.stop}; the limit is {limits.MAX_LIMIT}")


def check_version(version: str | None) -> None:
    """None (the latest) or a version's text; a blank one is an error, not "no such artifact"."""
    if version is not None and not as_text(version, "version").strip():
        raise bad("version", "must not be empty (leave it out for the latest)", version)


def check_offset(value: int, argument: str = "offset") -> None:
    """Reject a row count (an offset, or a listing's limit) that is not an integer from 0 to
    ``MAX_OFFSET`` with a QueryError naming ``argument``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limits.MAX_OFFSET:
        raise QueryError(
            f"{argument} must be an integer from 0 to {limits.MAX_OFFSET}, got {value!r}"
        )


def check_query(query: Any, limit: Any) -> None:
    """Reject over-long queries and out-of-range limits with a clear QueryError."""
    if not isinstance(query, str):
        raise QueryError(f"query must be a string, got {type(query).__name__}")
    if len(query) > limits.MAX_QUERY_LENGTH:
        raise QueryError(
            f"query is {len(query)} characters long; the limit is {limits.MAX_QUERY_LENGTH}"
        )
    control = _CONTROL.search(query)
    if control is not None:
        raise QueryError(
            f"query contains the control character {control.group()!r} at position {control.start()}"
        )
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= limits.MAX_LIMIT:
        raise QueryError(f"limit must be an integer from 1 to {limits.MAX_LIMIT}, got {limit!r}")
