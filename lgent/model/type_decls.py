"""Type declarations: a type of the lattice (``TypeDecl``) and, for a *kind*, the evidence
that finds it in JSON Schemas (``KindEvidence``). Imported through ``lgent.models``."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_serializer, field_validator

from lgent import limits
from lgent.model.strict import StrictModel
from lgent.typeexpr import validate_type

_Rule = Annotated[str, Field(min_length=1, max_length=limits.MAX_RULE_LENGTH)]
_Rules = Annotated[tuple[_Rule, ...], Field(max_length=limits.MAX_EVIDENCE_RULES)]


def _compiled(value: tuple[str, ...], flags: int = 0) -> tuple[str, ...]:
    for rule in value:
        try:
            re.compile(rule, flags)
        except re.error as err:
            raise ValueError(f"{rule!r} is not a regular expression: {err}") from None
    return value


class KindEvidence(StrictModel):
    """How a value of a *kind* (a real-world value type: a URL, a PDF path, a currency code)
    shows in a JSON Schema: the rules kind inference reads (``lgent.kinds``; the rules and their
    confidences are in docs/importing.md). Every list is optional; regular expressions are
    Python ``re`` syntax and must compile."""

    json_type: Literal["string", "number", "integer", "boolean", "object", "array"] | None = None
    """The JSON type a value of the kind has; a schema of another type never gets the kind."""
    formats: _Rules = ()
    """JSON Schema ``format`` values, compared without case (``uri``, ``date-time``)."""
    names: _Rules = ()
    """Property-name patterns, matched whole (case ignored) against the name in snake case:
    ``fileAbsolutePath`` is read as ``file_absolute_path``."""
    patterns: _Rules = ()
    """Patterns searched in a schema's own ``pattern`` (its text, as written)."""
    values: _Rules = ()
    """Patterns an example value must match whole (``example(s)``, ``default``, ``const``, the
    values an enum lists, and values quoted after "e.g." in a description)."""
    enums: _Rules = ()
    """Allowed values: a string ``enum`` of two or more values, at least 80% of them here
    (case kept), is evidence."""
    units: _Rules = ()
    """Patterns searched (case ignored) in a number's name and description: ``in pixels``."""
    phrases: _Rules = ()
    """Patterns searched (case ignored) in a value's own description, and in what a tool's
    description says it returns."""
    fields: tuple[tuple[str, str], ...] = Field(default=(), max_length=limits.MAX_EVIDENCE_RULES)
    """A record kind's fields: ``{latitude: Latitude, longitude: Longitude}``; a name ending in
    ``?`` is optional, the kind ``any`` takes any value. A record (or a tool's arguments) with
    these fields is evidence."""

    @field_validator("names", "phrases", "units")
    @classmethod
    def _case_free(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _compiled(value, re.IGNORECASE)

    @field_validator("patterns", "values")
    @classmethod
    def _exact(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _compiled(value)

    @field_validator("fields", mode="before")
    @classmethod
    def _field_pairs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return tuple(value.items())
        return value

    @field_validator("fields")
    @classmethod
    def _field_names(cls, value: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        for name, kind in value:
            if not name.rstrip("?"):
                raise ValueError("a field name is empty")
            if kind != "any":
                try:
                    validate_type(kind, plain=True)
                except ValueError:
                    raise ValueError(f"field {name!r}: {kind!r} is not a type name") from None
        return value

    @field_serializer("fields")
    def _fields_mapping(self, value: tuple[tuple[str, str], ...]) -> dict[str, str]:
        return dict(value)


class TypeDecl(StrictModel):
    """A type of the lattice: its direct supertypes, and its arity if it is a generic constructor.
    A type with ``evidence`` is a *kind*: inference finds it in schemas (``lgent.kinds``)."""

    type: str = Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)
    subtype_of: tuple[str, ...] = ()
    params: int = Field(default=0, ge=0, le=8)
    primitive: bool | None = None
    """True for a primitive (``json.string``...): composition never chains two artifacts
    through it, though an explicit requirement may name it."""
    description: str = Field(default="", max_length=limits.MAX_DESCRIPTION_LENGTH)
    evidence: KindEvidence | None = None
    """The rules that find this type in real schemas (see ``KindEvidence``)."""

    @field_validator("type")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        try:
            validate_type(value, plain=True)
        except ValueError:
            raise ValueError(f"{value!r} is not a type name (letters, digits, _ . -)") from None
        if value == "Any":
            raise ValueError("'Any' is the built-in top type and cannot be declared")
        return value

    @field_validator("subtype_of")
    @classmethod
    def _parents(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for parent in value:
            try:
                validate_type(parent, plain=True)
            except ValueError:
                raise ValueError(
                    f"{parent!r} is not a plain type name (parametric supertypes are not supported)"
                ) from None
        return tuple(dict.fromkeys(value))
