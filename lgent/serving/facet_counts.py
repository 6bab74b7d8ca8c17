"""A view's facet counts, as the surfaces ask them (``LGent.facets``): over what it lists with a
filter, or over a query's matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lgent.catalog.records import EntryFilter
from lgent.facets import DEFAULT_TOP, Facet

if TYPE_CHECKING:
    from lgent.lgent import LGent


async def facets_of(
    lg: LGent,
    filters: EntryFilter | None,
    names: Sequence[str],
    top: int = DEFAULT_TOP,
    among: Sequence[str] | None = None,
) -> dict[str, Facet]:
    """``lg.facets`` of ``names`` ({} when none are asked for)."""
    if not names:
        return {}
    return await lg.facets(filters, names=names, top=top, among=among)
