"""The arguments of a query, validated by one model on every surface: ``LGent.query`` (Python),
``POST /query`` (HTTP, which adds paging and ``explain``) and the MCP ``search`` tool.

No value is coerced: ``"limit": true`` and ``"limit": "5"`` are refused, as are ``"lenient":
"yes"`` and unknown arguments, each with a typed error naming the argument. (Text in a URL's
query string is parsed by its declared type; that is the wire format, not a coercion.)
"""

from __future__ import annotations

from typing import Annotated, Any

import pydantic
from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from lgent import limits
from lgent.errors import QueryError
from lgent.models import Container, QueryContext


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
    def check(cls, **values: Any) -> QueryArguments:
        """The arguments validated; a QueryError naming each bad one otherwise."""
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


__all__ = ["QueryArguments", "describe"]
