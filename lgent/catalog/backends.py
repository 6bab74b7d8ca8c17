"""Which catalog backend a home uses, opened through the ``Catalog`` protocol."""

from __future__ import annotations

from collections.abc import Callable

from lgent.catalog.protocol import Catalog
from lgent.config import check_catalog_url
from lgent.errors import CatalogError, CatalogUnreachableError
from lgent.home import MIRROR_FILE, Home


def open_catalog(
    home: Home,
    *,
    read_only: bool = False,
    url: str | None = None,
    on_wait: Callable[[float], None] | None = None,
) -> Catalog:
    """The catalog of ``home``: its SQLite file (in memory for an in-memory home), or, given a
    PostgreSQL ``url``, that shared catalog seen through a replica whose copy lives in the home
    (brought current before this returns; left as it was, and said so in answers, when the
    database cannot be reached and the home already holds a copy).

    ``read_only`` opens an existing catalog without creating or changing anything; a missing
    one is a ``CatalogError``, an unreadable one a ``CatalogCorruptError``. ``on_wait(seconds)``
    hears that a write to a SQLite catalog is queued behind another process's."""
    if url is None:
        from lgent.catalog.store import CatalogStore

        return CatalogStore(home.catalog_db, read_only=read_only, on_wait=on_wait)
    check_catalog_url(url, "catalog")
    try:
        from lgent.catalog.postgres import PostgresCatalog
    except ImportError as err:
        raise CatalogError(
            "a PostgreSQL catalog needs psycopg: pip install 'lgent[postgres]'"
        ) from err
    if read_only:
        return PostgresCatalog(url, read_only=True)
    from lgent.catalog.replica import Mirror, ReplicaCatalog

    primary = PostgresCatalog(url, lazy=True)
    mirror = Mirror(None if home.root is None else home.root / MIRROR_FILE)
    replica = ReplicaCatalog(primary, mirror, on_replace=lambda: _forget_indexes(home))
    try:
        replica.pull()
    except CatalogUnreachableError as err:
        if mirror.source() is None:
            replica.close()
            raise CatalogUnreachableError(f"{err}; this home holds no copy of it yet") from err
    except BaseException:
        replica.close()
        raise
    return replica


def _forget_indexes(home: Home) -> None:
    """Drop the home's index manifests: they describe a copy of another catalog (or another
    history of it), so every brain is rebuilt; the embedding cache stays (content-addressed)."""
    if home.root is None:
        return
    for manifest in (home.root / "indexes").glob("*/manifest.json"):
        manifest.unlink(missing_ok=True)


def has_catalog(home: Home, url: str | None) -> bool:
    """Whether ``home`` holds a catalog (an unreadable one counts: opening it says why). With a
    shared catalog's ``url``: whether the home holds a copy of it or the database holds it (one
    that cannot be reached counts too). Nothing is created."""
    from lgent.errors import CatalogCorruptError

    if url is not None and home.root is not None and (home.root / MIRROR_FILE).exists():
        return True
    try:
        open_catalog(home, read_only=True, url=url).close()
    except (CatalogCorruptError, CatalogUnreachableError):
        return True
    except CatalogError:
        return False
    return True
