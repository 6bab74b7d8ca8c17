"""Browsing without a query: a page of the catalog as a view sees it (filtered by facet values,
in id order), with facet counts; and the facets of a query's matches. What ``GET /search``
without ``q``, the web page before anything is typed, ``lgent list --facets`` and MCP's
``list`` answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from lgent.catalog.records import EntryFilter
from lgent.facets import DEFAULT_TOP, FACET_FIELDS, check_facet_names
from lgent.serving.answers import SearchPage
from lgent.serving.cards import card
from lgent.serving.facet_counts import facets_of
from lgent.serving.pages import successors_of

if TYPE_CHECKING:
    from lgent.lgent import LGent


def facet_filter(values: Mapping[str, str | None]) -> EntryFilter | None:
    """The listing filter of facet values by facet name (``{"tag": "pdf"}``)."""
    given = {FACET_FIELDS[n]: v for n, v in values.items() if v is not None}
    return EntryFilter(**given) if given else None


def browsing(values: Mapping[str, str]) -> str:
    """How a browse page reads: ``the whole catalog``, or ``artifacts with tag pdf, ...``."""
    if not values:
        return "browsing the whole catalog"
    return "browsing artifacts with " + ", ".join(f"{n} {v}" for n, v in values.items())


async def browse_page(
    lg: LGent,
    values: Mapping[str, str],
    *,
    offset: int = 0,
    limit: int = 20,
    facets: Sequence[str] = (),
    top: int = DEFAULT_TOP,
) -> SearchPage:
    """A page of what ``lg`` lists with the facet ``values`` (id order), with the counts of
    ``facets`` over all of it: each count is what the page's ``total`` would be with that value
    added to ``values``."""
    check_facet_names(values)
    chosen = facet_filter(values)
    entries = await lg.list_entries(chosen, limit=limit, offset=offset)
    total = await lg.count_entries(chosen)
    counted = await facets_of(lg, chosen, facets, top)
    successors = await successors_of(lg, entries)
    end = offset + len(entries)
    reading = browsing(values)
    return SearchPage(
        query="",
        query_type=None,
        interpretation=f"No query: {reading}, in id order ({total} artifacts).",
        reading=reading,
        total=total,
        offset=offset,
        next_offset=end if end < total else None,
        results=tuple(card(e, successors=successors.get(e.id, ())) for e in entries),
        filters=dict(values),
        facets=counted,
    )
