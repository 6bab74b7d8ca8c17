"""QueryFusion: one query in, one explained response out, as an ordered list of named steps.

Each step is a function in its rule's module, reading and filling one ``QueryState``
(``fusion/state.py``); ``STEPS`` is the order. The brains come in by name with the registry that
declares them (``lgent/brains/registry.py``), through a ``BrainAccess`` (``fusion/access.py``)
that hands each one over when a step first asks for it, so a query opens only the brains it uses
(a name lookup never loads the embedding model); tests plug in fakes, and a new brain needs no
change here. Catalog entries come from a ``snapshot`` callable. Sync brain calls run through
``run`` (the facade passes a thread-pool runner; brains declared ``own_thread`` get their own
runner), all brains at once with ``asyncio.gather``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lgent.brains.base import Brain
from lgent.brains.registry import BrainRegistry
from lgent.catalog.records import Snapshot
from lgent.config import FusionSettings
from lgent.fusion.access import BrainAccess, FixedBrains
from lgent.fusion.ask import ask_brains
from lgent.fusion.candidates import admit_candidates, rank_candidates
from lgent.fusion.classify import classify_query
from lgent.fusion.companions import complete_toolsets
from lgent.fusion.constraints import read_constraints
from lgent.fusion.coverage import read_words, word_coverage
from lgent.fusion.direction import pair_direction
from lgent.fusion.feedback import word_feedback
from lgent.fusion.grammar import restrict_to_grammar
from lgent.fusion.interpret import respond
from lgent.fusion.language import unread_scripts
from lgent.fusion.length import long_requests
from lgent.fusion.lineage import lineage_order
from lgent.fusion.names import name_matches
from lgent.fusion.owners import parts_first
from lgent.fusion.plan import plan_brains
from lgent.fusion.results import make_results
from lgent.fusion.rrf import fuse_rankings
from lgent.fusion.runnable import runnable
from lgent.fusion.serendipity import suggestions
from lgent.fusion.state import FusionContext, QueryState, Runner, Step
from lgent.fusion.ties import leader_ties
from lgent.fusion.weak import weak_matches
from lgent.models import QueryResponse
from lgent.validation import QueryArguments

STEPS: tuple[Step, ...] = (
    read_constraints,  # the caller's constraints, and those at the end of the query text
    classify_query,  # exact name, keyword syntax, type, relationship or plain words
    plan_brains,  # each brain's weight, and who is left out and why
    read_words,  # a sentence's content words, analyzed once
    long_requests,  # LONG_REQUESTS: the words' share grows with a sentence's length
    ask_brains,  # every asked brain at once; the expensive one only if it can matter
    word_feedback,  # WORD_FEEDBACK: a sentence's meaning moved toward its words' best hits
    rank_candidates,  # every ranked id
    restrict_to_grammar,  # GRAMMAR_RESTRICTS: a grammar query is the user's exact request
    admit_candidates,  # read in one snapshot; constraints, candidate set, no subject
    word_coverage,  # WORD_COVERAGE (off by default)
    unread_scripts,  # UNREAD_SCRIPTS: a query the model cannot read leans on its words
    fuse_rankings,  # by score for sentences, by rank for the rest
    leader_ties,  # LEADER_TIES: the others order the leader's equal scores
    name_matches,  # NAME_MATCHES: what the words rank first by its name is not buried
    pair_direction,  # PAIR_DIRECTION: from A to B goes above from B to A
    runnable,  # RUNNABLE: a tool the request's own values can run is not buried
    weak_matches,  # WEAK_MATCHES: say when nothing is close
    lineage_order,  # superseded results noted and moved below their successor
    parts_first,  # PARTS_FIRST: tools above the servers and APIs they belong to
    complete_toolsets,  # COMPANIONS: the producer of a kind a best result needs, beside it
    make_results,  # the page shown, explained
    suggestions,  # serendipity
    respond,  # the response, its warnings and its interpretation
)


class QueryFusion:
    """One query in, one explained ``QueryResponse`` out."""

    def __init__(
        self,
        brains: Mapping[str, Brain] | BrainAccess,
        registry: BrainRegistry,
        snapshot: Callable[[Sequence[str]], Snapshot],
        settings: FusionSettings,
        run: Runner[Any],
        *,
        runners: Mapping[str, Runner[Any]] | None = None,
        unavailable: Mapping[str, str] | None = None,
        steps: Sequence[Step] = STEPS,
        within: frozenset[str] | None = None,
    ) -> None:
        """``brains``: how to reach the brains of this query (each registered in ``registry``),
        or the open brains by name, with those that could not be opened in ``unavailable`` and
        the reason. ``snapshot(ids)`` gives the catalog change number and those ids' latest
        entries, read together; results are only ever artifacts the catalog holds at that
        number. ``run`` runs a sync call off the event loop; ``runners`` may give a brain its
        own. ``steps``: the steps a query goes through (``STEPS``). ``within``: the only
        artifacts the query may see (a reader's scope, ``lgent.scopes``; None: all)."""
        access = brains if not isinstance(brains, Mapping) else FixedBrains(brains, unavailable)
        if within is not None:
            catalog, seen = snapshot, within
            snapshot = lambda ids: catalog([i for i in ids if i in seen])  # noqa: E731
        self.context = FusionContext(
            access,
            registry,
            snapshot,
            settings,
            run,
            dict(runners or {}),
            dict(unavailable or {}),
            within,
        )
        self.steps = tuple(steps)

    async def query(
        self, arguments: QueryArguments | str, *, shown: range | None = None, **values: Any
    ) -> QueryResponse:
        """The fused answer's first ``arguments.limit`` results (a text is shorthand for
        ``QueryArguments.check(query=text, **values)``); with ``shown`` (positions, step 1),
        only the results at those positions are made (entries read, explained) and returned:
        the ranking, the total and the suggestions are still those of the first ``limit``."""
        if isinstance(arguments, str):
            arguments = QueryArguments.check(query=arguments, **values)
        state = QueryState(arguments, shown, time.perf_counter())
        for step in self.steps:
            await step(state, self.context)
        assert state.response is not None, "the last step responds"
        return state.response
