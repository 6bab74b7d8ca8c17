"""The strict base of L-gent's models: unknown keys refused, text free of control characters,
and every broken rule raised as :class:`lgent.errors.ValidationError` naming the field (never a
pydantic error). ``lgent.models`` is the public door to the models built on it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Self

import pydantic
from pydantic import BaseModel, ConfigDict, model_validator

from lgent.errors import FieldProblem, ValidationError

# Unicode categories Cc (C0, DEL, C1) and Cs (lone surrogates); tab, LF and CR allowed in prose;
# one-line fields also refuse the bidirectional controls (U+202E shows "exe.txt" as "txt.exe").
_CONTROL_ANY = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_CONTROL_MULTILINE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_VALIDATING: ContextVar[bool] = ContextVar("lgent_validating", default=False)


def check_text(value: str, *, multiline: bool) -> str:
    """``value`` unchanged; ValueError naming the first control character (tab, LF and CR
    allowed when ``multiline``), as pydantic reports a validator's error."""
    bad = (_CONTROL_MULTILINE if multiline else _CONTROL_ANY).search(value)
    if bad is not None:
        char = bad.group()
        kind = (
            "control character"
            if ord(char) < 0x200 or 0xD800 <= ord(char) < 0xE000
            else (f"bidirectional control character U+{ord(char):04X}")
        )
        raise ValueError(f"contains the {kind} {char!r} at offset {bad.start()}")
    return value


def _wrap_pydantic(err: pydantic.ValidationError, record_id: str | None) -> ValidationError:
    problems = []
    for item in err.errors(include_url=False):
        loc = ".".join(str(part) for part in item["loc"]) or "(entry)"
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown field"
        elif item["type"] == "missing":
            message = "is required"
        problems.append(FieldProblem(loc, message, item.get("input")))
    return ValidationError(problems, record_id=record_id)


@contextmanager
def _validating() -> Iterator[None]:
    """Inside: nested L-gent models leave their errors to pydantic, which names the whole path."""
    token = _VALIDATING.set(True)
    try:
        yield
    finally:
        _VALIDATING.reset(token)


class Container(BaseModel):
    """A plain pydantic model that holds L-gent models (a request, a query's arguments): a bad
    nested value is reported by pydantic with its whole location (``context.current_pipeline.1``)
    rather than as the nested model's own ``ValidationError``."""

    @model_validator(mode="wrap")
    @classmethod
    def _nested_in_place(cls, data: Any, handler: pydantic.ModelWrapValidatorHandler[Any]) -> Any:
        with _validating():
            return handler(data)


class StrictModel(BaseModel):
    """Shared config: unknown keys rejected, values re-validated on assignment, frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    def __init__(self, **data: Any) -> None:
        if _VALIDATING.get():  # nested model: let pydantic report it with its full location
            super().__init__(**data)
            return
        with _validating():
            try:
                super().__init__(**data)
            except pydantic.ValidationError as err:
                raw_id = data.get("id") if isinstance(data.get("id"), str) else None
                raise _wrap_pydantic(err, raw_id) from None

    def to_record(self) -> dict[str, Any]:
        """JSON-ready dict, ``None`` fields left out (round-trips through ``parse``)."""
        return self.model_dump(mode="json", exclude_none=True)

    @classmethod
    def parse(cls, data: Any, *, source: str | None = None, line: int | None = None) -> Self:
        """Validate ``data`` (a mapping) into a model; errors name the field and, if given, where."""
        if not isinstance(data, dict):
            raise ValidationError(
                [FieldProblem("(entry)", f"expected an object, got {type(data).__name__}")],
                source=source,
                line=line,
            )
        odd = [k for k in data if not isinstance(k, str)]
        if odd:
            raise ValidationError(
                [
                    FieldProblem(
                        repr(odd[0]),
                        f"keys must be strings, got {type(odd[0]).__name__} {odd[0]!r}",
                        odd[0],
                    )
                ],
                source=source,
                line=line,
            )
        try:
            return cls(**data)
        except ValidationError as err:
            raise err.located(source=source, line=line) from None
