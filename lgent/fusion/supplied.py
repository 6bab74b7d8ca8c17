"""The value kinds a plain-language request supplies (a date, a URL, a ticker...), read once per
query from the shipped vocabulary: ``RUNNABLE`` and ``COMPANIONS`` both ask for them."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lgent.fusion.state import QueryState
    from lgent.kinds.vocabulary import Vocabulary


@cache
def shipped_vocabulary() -> Vocabulary:
    """The shipped vocabulary, read once: it is data that never changes while L-gent runs."""
    from lgent.kinds import default_vocabulary

    return default_vocabulary()


def request_kinds(state: QueryState) -> frozenset[str]:
    """The kinds ``state.text`` gives a value of (and their ancestors), computed on the first
    ask and kept in the state."""
    if state.supplied is None:
        from lgent.kinds.supplied import supplied_kinds

        state.supplied = supplied_kinds(shipped_vocabulary(), state.text)
    return state.supplied
