"""The clauses of a request that asks for several things at once.

"Get the latest news about Tesla and show how its stock moved" needs two tools; one embedding of
the whole sentence sits between them. Splitting at sentence ends, semicolons, commas and the word
"and" (where both sides keep ``MIN_WORDS`` words) gives the parts a meaning-based search can
match one by one. A request with one part gives no clauses.
"""

from __future__ import annotations

import re

MIN_WORDS = 3
"""Words a clause needs to be searched on its own."""
MAX_CLAUSES = 4
"""Clauses searched at most (the longest, in order of appearance)."""

_JOINER = r"(?:and|also|then|plus)\s+"
_STRIPPED = " ,.;!?"
_BREAK = re.compile(rf"(?:[.;!?]+|,)\s+(?:{_JOINER})?|\s+{_JOINER}", re.IGNORECASE)


def _clause_parts(text: str) -> list[list[tuple[int, int]]]:
    """The character spans of the parts each clause of ``text`` joins (see ``clauses``)."""
    parts: list[tuple[int, int]] = []
    start = 0
    for cut in [*_BREAK.finditer(text), None]:
        end = len(text) if cut is None else cut.start()
        piece = text[start:end]
        left = len(piece) - len(piece.lstrip(_STRIPPED))
        right = len(piece.rstrip(_STRIPPED))
        if right > left:
            parts.append((start + left, start + right))
        if cut is not None:
            start = cut.end()
    merged: list[list[tuple[int, int]]] = []
    for a, b in parts:
        if merged and len(text[a:b].split()) < MIN_WORDS:
            merged[-1].append((a, b))  # too short alone: it belongs to the one before
        else:
            merged.append([(a, b)])
    if merged and _words(text, merged[0]) < MIN_WORDS and len(merged) > 1:
        merged = [merged[0] + merged[1], *merged[2:]]
    if len(merged) < 2:
        return []
    longest = sorted(range(len(merged)), key=lambda n: -_words(text, merged[n]))[:MAX_CLAUSES]
    return [merged[n] for n in sorted(longest)]


def _words(text: str, spans: list[tuple[int, int]]) -> int:
    return sum(len(text[a:b].split()) for a, b in spans)


def clauses(text: str) -> list[str]:
    """The parts of ``text`` worth searching alone: two or more, or none."""
    return [" ".join(text[a:b] for a, b in spans) for spans in _clause_parts(text)]


def clause_spans(text: str) -> list[tuple[int, int]]:
    """Where each of ``clauses(text)`` lies in ``text``: from its first part's start to its last
    part's end (the words between, such as a joining "and", included)."""
    return [(spans[0][0], spans[-1][1]) for spans in _clause_parts(text)]
