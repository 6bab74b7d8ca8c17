"""Queries in a script the embedding model does not read lean on the words.

A model trained on English text embeds a Chinese or Japanese request as a run of rare symbols:
its nearest artifacts are chance ("余票", remaining train tickets, found trending-news tools at
the semantic brain's weight of 0.8), while the keyword brain matches the characters the
artifacts' own descriptions hold. Fusion's ``UNREAD_SCRIPTS`` rule: when an answer says that
its model reads less than ``READ_SHARE`` of the query's letters (``Reads``: the semantic brain's,
from the scripts its embedder declares), that brain keeps ``UNREAD_KEEP`` of its weight and the
rest goes to the word-matching brains, in proportion to theirs. A multilingual embedder reads
every script, so the rule leaves its votes alone (docs/quality.md, "Other languages").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

READ_SHARE = 0.5
"""A model that reads less than this share of a query's letters does not read the query."""
UNREAD_KEEP = 0.25
"""The share of its weight a brain keeps for a query its model does not read."""


@runtime_checkable
class Reads(Protocol):
    """An answer that says which share of the query's letters its model reads (0 to 1)."""

    @property
    def reads(self) -> float: ...


def lean_on_words(
    weights: Mapping[str, float], unread: Collection[str], word_brains: Collection[str]
) -> dict[str, float]:
    """``weights`` with each ``unread`` brain keeping ``UNREAD_KEEP`` of its weight and the rest
    given to ``word_brains`` in proportion to theirs (unchanged when they have none)."""
    words = sum(w for b, w in weights.items() if b in word_brains and b not in unread)
    moved = sum(w * (1 - UNREAD_KEEP) for b, w in weights.items() if b in unread)
    if words <= 0 or moved <= 0:
        return dict(weights)
    return {
        b: w * UNREAD_KEEP if b in unread else w + moved * w / words if b in word_brains else w
        for b, w in weights.items()
    }


async def unread_scripts(state: QueryState, context: FusionContext) -> None:
    """``UNREAD_SCRIPTS``: on a plain-language query, a brain whose model does not read the
    query's script gives most of its weight to the word-matching brains."""
    if not state.plain:
        return
    unread = {
        b: answer.reads
        for b, answer in state.answers.items()
        if isinstance(answer, Reads) and answer.reads < READ_SHARE
    }
    if not unread:
        return
    plan = state.the_plan
    words = {s.name for s in context.registry if s.voting.matches_words and s.name in state.answers}
    before = dict(plan.weights)
    plan.weights = lean_on_words(plan.weights, unread, words)
    if plan.weights != before:
        read = ", ".join(f"{b} reads {share:.0%} of its letters" for b, share in unread.items())
        state.remarks.append(
            f"the query is mostly in a script the embedding model does not read ({read}): "
            "its weight went to the words"
        )
