"""What the MCP server and the HTTP API share: answer models, warm-up and health.

Both are thin shells over one long-lived LGent; the models here keep their answers the same
shape, and ``warm_up`` loads the indexes and the embedding model before the first call needs them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from lgent.errors import LGentError
from lgent.models import BrainHit, CatalogEntry, QueryResponse

if TYPE_CHECKING:
    from lgent.brains.graph.compose import CompositionPath
    from lgent.catalog.records import BatchResult
    from lgent.lgent import LGent


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True)


class PathAnswer(_Answer):
    """One pipeline: artifact ids in order, the types flowing, the weakest artifact's health."""

    ids: tuple[str, ...]
    types: tuple[str, ...]
    health: float


class PathsAnswer(_Answer):
    source_type: str
    target_type: str
    paths: tuple[PathAnswer, ...]


class SimilarAnswer(_Answer):
    artifact_id: str
    hits: tuple[BrainHit, ...]


class ArtifactAnswer(_Answer):
    """One artifact at one version, and every version the catalog holds."""

    entry: CatalogEntry
    versions: tuple[str, ...]


class RegisterAnswer(_Answer):
    id: str
    version: str
    action: Literal["added", "updated", "unchanged"]
    change_number: int


class RemoveAnswer(_Answer):
    id: str
    version: str | None
    removed: int
    change_number: int


class BrainHealth(_Answer):
    name: str
    ready: bool
    documents: int = 0
    change_number: int = -1
    detail: str = ""
    extra: dict[str, Any] = {}


class HealthAnswer(_Answer):
    """``ok`` when every brain is ready at the catalog's change number, else ``degraded``."""

    status: Literal["ok", "degraded"]
    version: str
    change_number: int
    brains: tuple[BrainHealth, ...]


def lean(response: QueryResponse, *, explain: bool) -> QueryResponse:
    """The response, without each result's explanation tree unless ``explain``."""
    if explain:
        return response
    results = tuple(r.model_copy(update={"explanation": {}}) for r in response.results)
    return response.model_copy(update={"results": results})


def paths_answer(source: str, target: str, paths: Sequence[CompositionPath]) -> PathsAnswer:
    return PathsAnswer(
        source_type=source,
        target_type=target,
        paths=tuple(PathAnswer(ids=p.ids, types=p.types, health=p.health) for p in paths),
    )


def register_answer(entry: CatalogEntry, result: BatchResult) -> RegisterAnswer:
    action: Literal["added", "updated", "unchanged"] = "unchanged"
    if entry.id in result.added:
        action = "added"
    elif entry.id in result.updated:
        action = "updated"
    return RegisterAnswer(
        id=entry.id, version=entry.version, action=action, change_number=result.change_number
    )


async def warm_up(lg: LGent) -> list[str]:
    """Bring every brain current (the one that loads a model last); returns what could not.
    Queries meanwhile are answered from what is ready (a server opens its home in snapshot
    mode), and say what is still building."""
    problems: list[str] = []
    order = sorted(lg.registry, key=lambda spec: spec.own_thread)
    for spec in order:
        try:
            await lg.ready(spec.name)
        except LGentError as err:
            problems.append(f"{spec.name}: {err}")
    return problems


async def health(lg: LGent) -> HealthAnswer:
    """Each brain's status (a brain that cannot load says why) and the catalog change number."""
    from lgent import __version__

    def status(name: str) -> BrainHealth:
        try:
            s = lg.brain_status(name)
        except LGentError as err:
            return BrainHealth(name=name, ready=False, detail=str(err))
        return BrainHealth(
            name=s.name,
            ready=s.ready,
            documents=s.documents,
            change_number=s.change_number,
            detail=s.detail,
            extra=s.extra,
        )

    brains = await asyncio.gather(*(asyncio.to_thread(status, name) for name in lg.registry.names))
    change_number = await lg.change_number()
    ok = all(b.ready and b.change_number == change_number for b in brains)
    return HealthAnswer(
        status="ok" if ok else "degraded",
        version=__version__,
        change_number=change_number,
        brains=tuple(brains),
    )
