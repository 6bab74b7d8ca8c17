"""What only the keyword index needs beyond the shared text analysis: type-name tokens and
wildcard patterns as tantivy regexes."""

from __future__ import annotations

import re

from lgent.analysis.tokens import Token
from lgent.typeexpr import NAME_RE


def type_tokens(expr: str) -> list[Token]:
    """The type names inside a type expression, lowercased and whole: ``List[PDF]`` gives
    ``list``, ``pdf`` (no identifier splitting: ``SentimentScore`` is one type, not two words)."""
    return [
        Token(m.group().lower(), i, m.start(), m.end())
        for i, m in enumerate(NAME_RE.finditer(expr))
    ]


def glob_to_regex(pattern: str) -> str:
    """A lowercase tantivy regex for a ``*``/``?`` glob; everything else matched literally."""
    out = []
    for ch in pattern.lower():
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        else:
            out.append(re.escape(ch))
    return "".join(out)
