"""The keyword brain's settings: its section of ``lgent.toml``, ``[keyword]``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from lgent.errors import SettingsError

DEFAULT_FIELD_BOOSTS: Mapping[str, float] = MappingProxyType(
    {
        "name": 3.0,
        "name_exact": 4.0,
        "keywords": 2.0,
        "keywords_exact": 2.0,
        "description": 1.0,
        "all": 1.0,
        "author": 1.0,
        "author_text": 0.5,
        "input": 1.0,
        "input_text": 0.5,
        "output": 1.0,
        "output_text": 0.5,
        "input_names": 1.0,
        "output_names": 1.0,
    }
)


@dataclass(frozen=True, kw_only=True, slots=True)
class KeywordSettings:
    """The keyword brain: field boosts, field mode and the grammar's implicit operator."""

    boosts: Mapping[str, float] = field(default_factory=lambda: DEFAULT_FIELD_BOOSTS)
    field_mode: Literal["fields", "combined"] = "combined"
    default_operator: Literal["AND", "OR"] = "AND"
    free_text_boosts: Mapping[str, float] = field(
        default_factory=lambda: {"name_exact": 0.5, "keywords_exact": 0.5}
    )
    """Boosts merged over ``boosts`` when fusion asks for a plain-language query: in a sentence
    a name part or keyword is one word among many, not the artifact named (docs/quality.md)."""

    def __post_init__(self) -> None:
        for table, boosts in (("boosts", self.boosts), ("free_text_boosts", self.free_text_boosts)):
            unknown = set(boosts) - set(DEFAULT_FIELD_BOOSTS)
            if unknown:
                raise SettingsError(
                    f"keyword.{table}: unknown field(s) {', '.join(sorted(unknown))} "
                    f"(known: {', '.join(DEFAULT_FIELD_BOOSTS)})"
                )
            for name, value in boosts.items():
                if not isinstance(value, int | float) or value < 0:
                    raise SettingsError(
                        f"keyword.{table}.{name}: must be a number >= 0, got {value!r}"
                    )
        if self.field_mode not in ("fields", "combined"):
            raise SettingsError(
                f"keyword.field_mode: must be 'fields' or 'combined', got {self.field_mode!r}"
            )
        if self.default_operator not in ("AND", "OR"):
            raise SettingsError(
                f"keyword.default_operator: must be 'AND' or 'OR', got {self.default_operator!r}"
            )
