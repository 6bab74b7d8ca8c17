"""``GRAMMAR_RESTRICTS``: a query written in the keyword grammar is the user's exact request, so
every brain's candidates are cut to what it matches (the brains that read only its words cannot
apply its fields and negations themselves)."""

from __future__ import annotations

from lgent.fusion.access import grammar_filter
from lgent.fusion.state import FusionContext, QueryState
from lgent.models import QueryType


async def restrict_to_grammar(state: QueryState, context: FusionContext) -> None:
    """On a keyword-grammar query, keep only the candidates the grammar matches."""
    if state.c.query_type != QueryType.KEYWORD_SYNTAX:
        return
    grammar = await grammar_filter(context)
    if grammar is None:
        state.warnings.append("no brain applies the keyword grammar: its filters were not applied")
        return
    text, ids = state.text, state.ids
    allowed = await context.run(lambda: grammar.matching(text, ids))
    for brain, ranking in state.rankings.items():
        state.rankings[brain] = [(i, score) for i, score in ranking if i in allowed]
    state.ids = [i for i in ids if i in allowed]
