"""The response cache of one open home: fused answers kept per normalized query, constraints,
context, limit, reading, page and catalog change number, so a write makes every cached answer
unreachable at once (size and lifetime in ``[cache]``)."""

from __future__ import annotations

from collections.abc import Hashable

from cachetools import TTLCache

from lgent.config import CacheSettings
from lgent.models import QueryResponse
from lgent.validation import QueryArguments


class ResponseCache:
    """Fused answers by their query; ``size`` or ``ttl_seconds`` 0 keeps none."""

    def __init__(self, settings: CacheSettings) -> None:
        self._cache: TTLCache[Hashable, QueryResponse] | None = (
            TTLCache(settings.size, settings.ttl_seconds)
            if settings.size and settings.ttl_seconds
            else None
        )

    @staticmethod
    def key(arguments: QueryArguments, shown: range | None, change_number: int) -> Hashable:
        context = arguments.context
        return (
            " ".join(arguments.query.split()),
            arguments.constraints,
            None if context is None else context.model_dump_json(),
            arguments.limit,
            change_number,
            arguments.lenient,
            arguments.strict,
            shown,
        )

    def get(self, key: Hashable) -> QueryResponse | None:
        return None if self._cache is None else self._cache.get(key)

    def keep(self, key: Hashable, response: QueryResponse) -> None:
        """Keep an answer unless it is degraded: a brain behind the catalog, not ready,
        unavailable or failed (the next query may do better)."""
        behind = any(
            r.change_number is not None and r.change_number < response.change_number
            for r in response.brains
        )
        degraded = behind or any(
            r.reason.startswith(("not ready", "unavailable", "failed")) for r in response.brains
        )
        if self._cache is not None and not degraded:
            self._cache[key] = response
