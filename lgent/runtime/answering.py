"""A fused query of one open home: from the response cache, else asked of fusion through a view
of the brain pool pinned at the catalog's change number, and timed. A view of the home
(``LGent.scoped``, ``filtered``) asks it within what it sees, and caches it apart."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from lgent.fusion.fusion import QueryFusion
from lgent.models import QueryResponse
from lgent.unanswered import require_an_answer
from lgent.validation import QueryArguments

if TYPE_CHECKING:
    from lgent.lgent import LGent


async def answer_query(
    lg: LGent, arguments: QueryArguments, shown: range | None, started: float
) -> QueryResponse:
    """The response to ``arguments`` (the page ``shown`` of it), ``started`` at that time."""
    change_number = await lg.change_number()
    within = await lg.visible()
    key = (lg.responses.key(arguments, shown, change_number), lg.scope, lg.view_filters)
    cached = lg.responses.get(key)
    if cached is not None:
        return cached.model_copy(update={"cached": True, "search_time_ms": _since(started)})
    view = lg.brains.view(change_number)
    try:
        fusion = QueryFusion(
            view,
            lg.registry,
            lg.store.snapshot,
            lg.settings.fusion,
            lg.doors.read,
            runners=lg.doors.runners(),
            within=within,
        )
        response = await fusion.query(arguments, shown=shown)
    finally:
        view.release()
    response = response.model_copy(update={"search_time_ms": _since(started)})
    require_an_answer(response)
    if not response.results and not arguments.constraints and not await lg.count_entries():
        where = "in memory" if lg.home.root is None else f"at {lg.home.root}"
        empty = (
            f"the catalog {where} is empty: load artifacts into it first (LGent.load, lgent load)"
        )
        response = response.model_copy(update={"warnings": (*response.warnings, empty)})
    lg.responses.keep(key, response)
    return response


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
