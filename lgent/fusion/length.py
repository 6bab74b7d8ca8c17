"""Long requests: on a plain-language query, the words' share of the vote grows with its length.

A short request ("clean up messy text") is carried by its meaning: it often shares no word with
the artifact it wants, and whatever a word-matching brain finds for it is an incidental match.
A long request ("at longitude -106.48 and latitude 31.76, which airports are near El Paso")
carries specifics (names, values, parameters) that words match exactly and that one sentence
embedding, an average over every word, dilutes. Fusion's ``LONG_REQUESTS`` rule therefore moves
the vote of the word-matching brains (``Voting.matches_words``) from their class weight at
``short`` content words to ``share`` of the whole vote at ``long`` content words or more,
linearly in between; the other brains keep their proportions among themselves and the total
weight is unchanged. Measured on the development sets and the labeled queries
(docs/quality.md, "How the defaults were chosen").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState


def length_position(words: int, short: int, long: int) -> float:
    """0 at ``short`` content words or fewer, 1 at ``long`` or more, linear in between."""
    if words <= short:
        return 0.0
    if words >= long:
        return 1.0
    return (words - short) / (long - short)


def long_request_weights(
    weights: Mapping[str, float],
    word_brains: Collection[str],
    words: int,
    *,
    short: int,
    long: int,
    share: float,
) -> dict[str, float]:
    """``weights`` with the word-matching brains' share of their total moved towards ``share``
    by ``length_position(words, short, long)``; unchanged when either group has no weight."""
    total = sum(weights.values())
    matched = sum(w for b, w in weights.items() if b in word_brains)
    rest = total - matched
    position = length_position(words, short, long)
    if total <= 0 or matched <= 0 or rest <= 0 or position == 0:
        return dict(weights)
    now = matched / total
    wanted = now + position * (share - now)
    return {
        b: w * (wanted / now if b in word_brains else (1 - wanted) / (1 - now))
        for b, w in weights.items()
    }


async def long_requests(state: QueryState, context: FusionContext) -> None:
    """``LONG_REQUESTS``: on a plain-language query the word-matching brains' share of the
    vote grows with the number of its content words."""
    s = context.settings
    if not s.long_requests or not state.plain:
        return
    plan = state.the_plan
    plan.weights = long_request_weights(
        plan.weights,
        {spec.name for spec in context.registry if spec.voting.matches_words},
        len(state.words),
        short=s.short_request_words,
        long=s.long_request_words,
        share=s.long_request_share,
    )
