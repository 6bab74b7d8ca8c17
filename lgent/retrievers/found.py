"""What both retrievers hand their framework: each result's text and metadata, from one query.

The text is what a model reads about the artifact (name, signature, description); the metadata
carries its id and the facts a program filters or routes on. Queries are read as free text (the
keyword grammar only where it is clearly meant; the wording never fails) and run through
``serving.query_page``, so the results are the first ``k`` of the same ranking the HTTP API and
MCP server page through.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from lgent.errors import QueryError
from lgent.serving import PAGE_DEPTH, query_page, result_card, signature
from lgent.validation import QueryArguments

if TYPE_CHECKING:
    from lgent.lgent import LGent
    from lgent.models import QueryResult

T = TypeVar("T")


@dataclass(frozen=True)
class Found:
    """One result as a framework document: its id, text, score and metadata."""

    id: str
    text: str
    score: float
    metadata: dict[str, Any]


def found(result: QueryResult) -> Found:
    entry, card = result.entry, result_card(result)
    text = f"{entry.name} ({entry.entity_type.value}, {signature(entry)}): {entry.description}"
    metadata: dict[str, Any] = {
        "id": entry.id,
        "name": entry.name,
        "kind": entry.entity_type.value,
        "version": entry.version,
        "status": entry.status.value,
        "input_type": entry.input_type,
        "output_type": entry.output_type,
        "owner": card.owner,
        "flags": list(card.flags),
        "why": card.why,
        "score": result.score,
        "success_rate": entry.success_rate,
        "execution": entry.execution.value if entry.execution else None,
    }
    return Found(entry.id, text, result.score, metadata)


def check_k(k: int) -> None:
    """How many results a retriever may return: 1 to ``PAGE_DEPTH``."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= PAGE_DEPTH:
        raise QueryError(f"k must be an integer from 1 to {PAGE_DEPTH}, got {k!r}")


def checked_arguments(lgent: object, k: int, constraints: Sequence[str]) -> list[str]:
    """A retriever's arguments checked where it is built (not at its first query): an open
    ``LGent``, ``k`` in range, constraints a list of strings; the constraints as a list."""
    from lgent.lgent import LGent

    if not isinstance(lgent, LGent):
        raise QueryError(f"lgent: expected an open LGent, got {type(lgent).__name__}")
    check_k(k)
    if isinstance(constraints, str):
        raise QueryError(
            f"constraints: expected a list of strings, got the string {constraints!r} "
            f"(write [{constraints!r}])"
        )
    chosen = list(constraints)
    for n, constraint in enumerate(chosen):
        if not isinstance(constraint, str):
            raise QueryError(
                f"constraints[{n}]: expected a string, got {type(constraint).__name__}"
            )
    return chosen


async def find(lg: LGent, query: str, k: int, constraints: Sequence[str]) -> list[Found]:
    asked = QueryArguments.check(query=query, constraints=tuple(constraints), limit=k)
    page = await query_page(lg, asked)
    return [found(r) for r in page.results]


def run_sync(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from synchronous code: on this thread when no event loop runs here, else
    on a helper thread (a sync call from inside a running loop must not nest loops)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, work).result()
