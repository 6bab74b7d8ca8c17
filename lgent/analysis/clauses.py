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
_BREAK = re.compile(rf"(?:[.;!?]+|,)\s+(?:{_JOINER})?|\s+{_JOINER}", re.IGNORECASE)


def clauses(text: str) -> list[str]:
    """The parts of ``text`` worth searching alone: two or more, or none."""
    parts = [p.strip(" ,.;!?") for p in _BREAK.split(text)]
    merged: list[str] = []
    for part in parts:
        if not part:
            continue
        if merged and len(part.split()) < MIN_WORDS:
            merged[-1] = f"{merged[-1]} {part}"  # too short alone: it belongs to the one before
        else:
            merged.append(part)
    if merged and len(merged[0].split()) < MIN_WORDS and len(merged) > 1:
        merged[1] = f"{merged[0]} {merged[1]}"
        merged = merged[1:]
    if len(merged) < 2:
        return []
    longest = sorted(range(len(merged)), key=lambda n: -len(merged[n].split()))[:MAX_CLAUSES]
    return [merged[n] for n in sorted(longest)]
