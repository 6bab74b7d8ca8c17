"""The answer models every surface shares (MCP, HTTP, CLI): one shape for each answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lgent.facets import Facet
from lgent.models import BrainHit, CatalogEntry, QueryResponse, QueryType
from lgent.serving.kinds import ShownKind


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
    """One artifact at one version, every version the catalog holds, its health flags and
    verdict (``lgent.health``), the artifacts that succeed it, and how to call it
    (``lgent.callables``; None when its source did not say), and the value kinds inferred from
    its schemas, each with its evidence and confidence (``lgent.serving.kinds``)."""

    entry: CatalogEntry
    versions: tuple[str, ...]
    flags: tuple[str, ...] = ()
    health: str = ""
    successors: tuple[str, ...] = ()
    callable: dict[str, Any] | None = None
    kinds: tuple[ShownKind, ...] = ()


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
    """``ok`` when every brain is ready at the catalog's change number and the catalog is
    current, else ``degraded``. ``catalog``: why answers may not reflect the shared catalog's
    latest state (a replica that cannot reach its database, or is catching up); "" when they
    do."""

    status: Literal["ok", "degraded"]
    version: str
    change_number: int
    brains: tuple[BrainHealth, ...]
    catalog: str = ""


class Card(_Answer):
    """One artifact in a few fields: what a person or a model reads in a list of results."""

    id: str
    name: str
    kind: str
    signature: str
    owner: str | None
    status: str
    flags: tuple[str, ...]
    description: str
    why: str = ""
    score: float | None = None
    highlights: dict[str, str] = {}


class QueryPage(QueryResponse):
    """A page of a fused query: ``results[offset : offset + limit]`` of its first ``PAGE_DEPTH``;
    ``total_matches`` is the same for every page size. ``next_offset`` is None on the last page."""

    offset: int = 0
    next_offset: int | None = None


class SearchPage(_Answer):
    """A page of a query as cards, with how it was read (``GET /search``, the web page, MCP)."""

    query: str
    query_type: QueryType | None
    """None when browsing (no query): the page lists the catalog, in id order."""
    interpretation: str
    reading: str
    total: int
    offset: int
    next_offset: int | None
    results: tuple[Card, ...]
    suggestions: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    search_time_ms: float = 0.0
    filters: dict[str, str] = {}
    """The facet values the page is filtered by (``tag``: ``pdf``...)."""
    facets: dict[str, Facet] = {}
    """The counts asked for (``facets=``): over the query's matches, or what is browsed."""


class ListPage(_Answer):
    """A page of the catalog's artifacts (latest versions), filtered, in id order."""

    total: int
    offset: int
    next_offset: int | None
    results: tuple[Card, ...]
    facets: dict[str, Facet] = {}


class LineageLink(_Answer):
    id: str
    relation: str
    depth: int
    path: tuple[str, ...]


class LineageAnswer(_Answer):
    artifact_id: str
    groups: dict[str, tuple[LineageLink, ...]]


class CompatibleAnswer(_Answer):
    """The first ``limit`` artifacts that fit, of ``total``; ``note`` says why none can when the
    artifact declares no type on that side."""

    artifact_id: str
    direction: Literal["downstream", "upstream"]
    artifacts: tuple[Card, ...]
    total: int = 0
    note: str = ""


class DoctorCheck(_Answer):
    name: str
    level: Literal["ok", "warn", "fail"]
    message: str
    fix: str = ""


class DoctorAnswer(_Answer):
    """``lgent doctor``'s findings for the served home; ``ok`` is False when any check failed."""

    ok: bool
    checks: tuple[DoctorCheck, ...]


class HistoryRow(_Answer):
    """One change of an artifact: its number and time, what was done to which version, the
    status written, and the token that wrote it (None: the home's own user)."""

    seq: int
    at: str
    op: Literal["upsert", "remove"]
    version: str | None
    status: str | None
    writer: str | None


class HistoryAnswer(_Answer):
    artifact_id: str
    changes: tuple[HistoryRow, ...]


class WhoAmI(_Answer):
    """A caller's scope (``lgent.scopes``): its token's name ("" for the home's own user),
    the sources, namespaces, tags and statuses it reads, and the namespaces it writes."""

    name: str
    sources: tuple[str, ...]
    namespaces: tuple[str, ...]
    tags: tuple[str, ...]
    statuses: tuple[str, ...]
    write: tuple[str, ...]
