"""Synchronous one-liners for scripts and agent tools, thin over the async API.

    import lgent
    response = lgent.search("pdf parser")                       # ./.lgent or $LGENT_HOME
    best = lgent.resolve("PDF", "SentimentScore", contracts=["deterministic"])

Each call opens the home (it must hold a catalog: a one-liner run in the wrong folder says so
rather than making an empty home), runs one async call and closes it again, so it pays for loading the
indexes (and the model, for semantic queries) every time: long-lived programs should keep an
``LGent`` open instead. Inside async code, use ``await lg.query(...)``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TypeVar

from lgent.errors import CatalogError, LGentError
from lgent.lgent import LGent
from lgent.models import FilledPipeline, QueryContext, QueryResponse, Resolution, TypeRequirement

T = TypeVar("T")


def default_home() -> Path:
    """``$LGENT_HOME``, else ``./.lgent`` (as the CLI)."""
    return Path(os.environ.get("LGENT_HOME", ".lgent"))


def _run(call: Callable[[LGent], Awaitable[T]], home: str | os.PathLike[str] | None) -> T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise LGentError(
            "lgent's one-liners are synchronous; inside async code use `await lg.query(...)`"
        )

    where = Path(home) if home is not None else default_home()
    if not LGent.has_catalog(where):
        raise CatalogError(
            f"no catalog at {where}: load one first (`lgent --home {where} load PATH`), or pass "
            "home= the folder that holds one (a one-liner never creates a home)"
        )

    async def runner() -> T:
        async with LGent.open(where) as lg:
            return await call(lg)

    return asyncio.run(runner())


def search(
    query: str,
    *,
    constraints: Sequence[str] | None = None,
    context: QueryContext | None = None,
    limit: int = 10,
    home: str | os.PathLike[str] | None = None,
) -> QueryResponse:
    """``LGent.query`` as one blocking call."""
    return _run(lambda lg: lg.query(query, constraints, context, limit), home)


def resolve(
    input_type: str,
    output_type: str,
    *,
    contracts: Sequence[str] = (),
    constraints: Sequence[str] = (),
    home: str | os.PathLike[str] | None = None,
) -> Resolution:
    """``LGent.resolve`` as one blocking call."""
    requirement = TypeRequirement(
        input_type=input_type,
        output_type=output_type,
        contracts=tuple(contracts),
        constraints=tuple(constraints),
    )
    return _run(lambda lg: lg.resolve(requirement), home)


def fill_holes(
    pipeline: Sequence[str], *, home: str | os.PathLike[str] | None = None
) -> FilledPipeline:
    """``LGent.fill_holes`` as one blocking call."""
    return _run(lambda lg: lg.fill_holes(pipeline), home)
