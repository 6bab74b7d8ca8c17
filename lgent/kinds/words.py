"""Words as the rules read them: names in snake case, texts within a length bound."""

from __future__ import annotations

from functools import lru_cache

from lgent.analysis.identifiers import split_identifier

MAX_TEXT = 4_000
"""Characters of a description the rules search (bounds the regex work on long texts)."""
MAX_NAME = 120
"""Characters of a property name the rules read."""


@lru_cache(maxsize=8192)
def normal_name(name: str) -> str:
    """``fileAbsolutePath`` -> ``file_absolute_path``: a name in snake case, lower case."""
    parts = split_identifier(name[:MAX_NAME], attach_digits=True)
    return "_".join(p.lower() for p in parts if p)


__all__ = ["MAX_NAME", "MAX_TEXT", "normal_name"]
