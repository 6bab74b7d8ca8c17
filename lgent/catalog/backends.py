"""Which catalog backend a home uses, opened through the ``Catalog`` protocol."""

from __future__ import annotations

from collections.abc import Callable

from lgent.catalog.protocol import Catalog
from lgent.home import Home


def open_catalog(
    home: Home, *, read_only: bool = False, on_wait: Callable[[float], None] | None = None
) -> Catalog:
    """The catalog of ``home``: its SQLite file (in memory for an in-memory home).

    ``read_only`` opens an existing catalog without creating or changing anything; a missing
    one is a ``CatalogError``, an unreadable one a ``CatalogCorruptError``. ``on_wait(seconds)``
    hears that a write is queued behind another process's."""
    from lgent.catalog.store import CatalogStore

    return CatalogStore(home.catalog_db, read_only=read_only, on_wait=on_wait)
