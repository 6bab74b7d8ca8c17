"""The options every ``lgent`` command shares, kept on the click context (no global state)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import typer


@dataclass(frozen=True, slots=True)
class GlobalOptions:
    """What the root callback parsed: the home folder, and a shared catalog's URL if given."""

    home: Path
    catalog: str | None = None


def global_options(ctx: typer.Context) -> GlobalOptions:
    """The options of the command being run (set by the root callback)."""
    obj = ctx.find_root().obj
    if not isinstance(obj, GlobalOptions):
        return GlobalOptions(home=Path(".lgent"))
    return obj


def require_catalog(home: Path, catalog: str | None = None) -> None:
    """A CatalogError unless ``home`` holds a catalog, or a copy of the shared ``catalog``
    (nothing is created): only ``init`` and ``load`` make a home, so a read command run in the
    wrong folder says so."""
    from lgent.config import redact
    from lgent.errors import CatalogError
    from lgent.lgent import LGent

    if not LGent.has_catalog(home, catalog=catalog):
        where = str(home) if catalog is None else redact(catalog)
        shared = "" if catalog is None else f" --catalog {where}"
        if catalog is None and LGent.is_replica(home):
            raise CatalogError(
                f"{home} is a replica of a shared catalog: name it with --catalog "
                "postgresql://... (or LGENT_CATALOG, or [catalog] url in its lgent.toml)"
            )
        raise CatalogError(
            f"no catalog at {where}; create one with `lgent --home {home}{shared} load PATH` "
            f"(or an empty one with `lgent --home {home}{shared} init`)"
        )
