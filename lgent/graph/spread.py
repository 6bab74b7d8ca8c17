"""The order ``compatible`` answers in, among artifacts types connect equally well.

Two rules, both general:

- **fewest unmet needs**: downstream of a producer, a consumer whose every need the producer's
  output satisfies (it can run on that output alone) comes before one that still needs other
  values (a search radius, a date), at equal health;
- **sources take turns**: the best of each source (the server or API an artifact is part of,
  else the artifact itself) comes before any source's second, so one server with many tools
  that take a point does not fill the first page. Within a turn the order is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lgent.graph.signatures import Signature

WIDTH = 3
"""``compatible`` with a limit orders this many times the limit of the healthiest matches."""


def unmet(needs: Sequence[str], given: Sequence[str], fits: Callable[[str, str], bool]) -> int:
    """How many of ``needs`` none of the ``given`` types satisfies."""
    return sum(1 for need in needs if not any(fits(g, need) for g in given))


def taking_turns(found: Sequence[Signature], source: Callable[[str], str]) -> list[Signature]:
    """``found`` with each source's first artifact before any source's second, and so on;
    the order kept within each turn."""
    turn: dict[str, int] = {}
    keyed: list[tuple[int, int, Signature]] = []
    for position, sig in enumerate(found):
        owner = source(sig.id)
        turn[owner] = turn.get(owner, -1) + 1
        keyed.append((turn[owner], position, sig))
    return [sig for _, _, sig in sorted(keyed, key=lambda k: (k[0], k[1]))]


__all__ = ["taking_turns", "unmet"]
