"""The options every ``lgent`` command shares, kept on the click context (no global state)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import typer


@dataclass(frozen=True, slots=True)
class GlobalOptions:
    """What the root callback parsed: the home folder."""

    home: Path


def global_options(ctx: typer.Context) -> GlobalOptions:
    """The options of the command being run (set by the root callback)."""
    obj = ctx.find_root().obj
    if not isinstance(obj, GlobalOptions):
        return GlobalOptions(home=Path(".lgent"))
    return obj


def require_catalog(home: Path) -> None:
    """A CatalogError unless ``home`` holds a catalog (nothing is created): only ``init`` and
    ``load`` make a home, so a read command run in the wrong folder says so."""
    from lgent.errors import CatalogError
    from lgent.lgent import LGent

    if not LGent.has_catalog(home):
        raise CatalogError(
            f"no catalog at {home}; create one with `lgent --home {home} load PATH` "
            f"(or an empty one with `lgent --home {home} init`)"
        )
