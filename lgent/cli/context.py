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
