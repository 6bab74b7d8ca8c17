"""What the MCP server, the HTTP API and the CLI share: answer models, pages, health and reasons.

They are thin shells over one LGent; the models here keep their answers the same shape, and the
helpers say the same things the same way on every surface: a result's health flags (what the
resolver would hold against it), why it matched, one line of its description, its owner.

Paging: a page of a query is a slice of one answer, the query asked for its first
``PAGE_DEPTH`` results. Fusion asks each brain for a number of hits that grows with the results
wanted, so the artifacts it finds (``total_matches``) would change with the page size; asking
for a fixed depth keeps ``total`` and the order the same for every page size. Only the page's
own results are made (``LGent.query``'s ``shown``): reading, explaining and highlighting all
``PAGE_DEPTH`` results to return ten of them cost most of a query's time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from lgent import limits
from lgent.errors import LGentError, NotFoundError, QueryError
from lgent.ids import stable_id
from lgent.models import (
    BrainHit,
    CatalogEntry,
    QueryContext,
    QueryResponse,
    QueryResult,
    QueryType,
    ScoreBreakdown,
    SerendipityItem,
    Status,
)

if TYPE_CHECKING:
    from lgent.brains.graph.brain import GraphBrain
    from lgent.brains.graph.compose import CompositionPath
    from lgent.catalog.records import BatchResult
    from lgent.lgent import LGent

PAGE_DEPTH = 100
"""Every page of a query is cut from its first ``PAGE_DEPTH`` results."""

DESCRIPTION_CHARS = 160
"""A description shown on one line is cut after this many characters."""

LOW_SUCCESS = 0.5
"""A success rate at or under this is flagged (the resolver turns such artifacts down too)."""


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
    """One artifact at one version, every version the catalog holds, its health flags, the
    artifacts that succeed it, and how to call it (``lgent.callables``; None when its source
    did not say)."""

    entry: CatalogEntry
    versions: tuple[str, ...]
    flags: tuple[str, ...] = ()
    successors: tuple[str, ...] = ()
    callable: dict[str, Any] | None = None


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
    query_type: QueryType
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


class ListPage(_Answer):
    """A page of the catalog's artifacts (latest versions), filtered, in id order."""

    total: int
    offset: int
    next_offset: int | None
    results: tuple[Card, ...]


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


# -- what every surface says the same way --------------------------------------------------------


def owner(entry: CatalogEntry) -> str | None:
    """Who provides the artifact (its author: a team, a server, an API)."""
    return entry.author


def signature(entry: CatalogEntry) -> str:
    return f"{entry.input_type or '-'} -> {entry.output_type or '-'}"


def one_line(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """``text`` on one line: whitespace collapsed, cut at a word before ``limit`` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


def health_flags(entry: CatalogEntry, successors: Sequence[str] = ()) -> tuple[str, ...]:
    """Short warnings for what the resolver would hold against ``entry`` (none when healthy):
    a status other than active (naming what succeeds a deprecated or retired artifact), a low
    success rate. An artifact with no recorded success rate is not flagged: the resolver reads
    it as healthy (nothing imported from MCP, OpenAPI or A2A carries one, and a flag on every
    result would say nothing and cost every answer tokens)."""
    flags: list[str] = []
    if entry.status != Status.ACTIVE:
        flag = entry.status.value
        if successors and entry.status in (Status.DEPRECATED, Status.RETIRED):
            flag += f", use {' or '.join(successors)}"
        flags.append(flag)
    if entry.success_rate is not None and entry.success_rate <= LOW_SUCCESS:
        flags.append(f"low success rate {entry.success_rate:.0%}")
    return tuple(flags)


READINGS: Mapping[QueryType, str] = {
    QueryType.EXACT_NAME: "a name",
    QueryType.KEYWORD_SYNTAX: "a keyword query",
    QueryType.TYPE_QUERY: "a type question",
    QueryType.RELATIONSHIP: "a relationship question",
    QueryType.SEMANTIC_INTENT: "a description in plain words",
}
"""How each kind of query is named to a reader."""

FIELD_WORDS = {"input_type": "input type", "output_type": "output type"}


def why(result: QueryResult) -> str:
    """Why a fused result matched, in a few words: the fields its words were found in, the
    meaning it shares, the type or relation that put it there, its lineage notes."""
    parts: list[str] = []
    children = result.explanation.get("children", [])
    by_brain = {c.get("brain"): c for c in children if isinstance(c, dict)}
    for source in result.sources:
        child = by_brain.get(source.brain, {})
        if source.brain == "keyword":
            fields = child.get("matched_fields") or list(result.highlights)
            named = ", ".join(FIELD_WORDS.get(f, f) for f in fields)
            parts.append(f"words in {named}" if named else "words")
        elif source.brain == "semantic":
            parts.append("similar meaning")
        elif isinstance(child.get("reason"), str) and child["reason"]:
            parts.append(child["reason"])
        else:
            parts.append(f"found by {source.brain}")
    parts.extend(note for note in result.notes if not note.startswith("superseded by"))
    return "; ".join(dict.fromkeys(parts))


def card(
    entry: CatalogEntry,
    *,
    successors: Sequence[str] = (),
    why_text: str = "",
    score: float | None = None,
    highlights: Mapping[str, str] | None = None,
) -> Card:
    return Card(
        id=entry.id,
        name=entry.name,
        kind=entry.entity_type.value,
        signature=signature(entry),
        owner=owner(entry),
        status=entry.status.value,
        flags=health_flags(entry, successors),
        description=one_line(entry.description),
        why=why_text,
        score=score,
        highlights=dict(highlights or {}),
    )


def result_card(result: QueryResult) -> Card:
    successors = (result.superseded_by,) if result.superseded_by else ()
    return card(
        result.entry,
        successors=successors,
        why_text=why(result),
        score=result.score,
        highlights=result.highlights,
    )


def suggestion(item: SerendipityItem) -> str:
    return item.reason


def unmeasured(entry: CatalogEntry) -> dict[str, str]:
    """The parts of the resolver's score that counted 0 because the entry does not say them:
    part -> why (``success``: no success rate; ``recency``: never used)."""
    missing = {}
    if entry.success_rate is None:
        missing["success"] = "not measured"
    if entry.last_used is None:
        missing["recency"] = "never used"
    return missing


def score_part(score: ScoreBreakdown, part: str, missing: Mapping[str, str]) -> str:
    """One part of a resolver score as shown: ``0.87``, or ``0.00 (not measured)`` when the
    entry does not say it (``missing``: ``unmeasured(entry)``)."""
    shown = f"{getattr(score, part):.2f}"
    return f"{shown} ({missing[part]})" if part in missing else shown


def reading(response: QueryResponse) -> str:
    """One sentence on how the query was read: its kind, and the constraints applied."""
    text = f"read as {READINGS[response.query_type]}"
    if response.constraints:
        text += "; constraints: " + ", ".join(response.constraints)
    return text


# -- pages ---------------------------------------------------------------------------------------


def check_page(offset: int, limit: int) -> None:
    """Offsets and limits a page may have: the page must start within the first
    ``PAGE_DEPTH`` results (one that runs past them is cut there)."""
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise QueryError(f"offset must be an integer >= 0, got {offset!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise QueryError(f"limit must be an integer >= 1, got {limit!r}")
    if offset >= PAGE_DEPTH:
        raise QueryError(
            f"offset is {offset}; pages reach the first {PAGE_DEPTH} results of a query only "
            "(narrow the query or add constraints to see others)"
        )


def depth_warnings(response: QueryResponse, offset: int) -> tuple[str, ...]:
    """The response's warnings, and one more on the last page a query has when more matched
    than pages reach (a caller would otherwise take the page for the end)."""
    end = offset + len(response.results)
    total = response.total_matches
    if total <= PAGE_DEPTH or end < PAGE_DEPTH:
        return response.warnings
    cut = (
        f"pages reach the first {PAGE_DEPTH} of the {total} matches: narrow the query or add "
        "constraints to see the others"
    )
    return (*response.warnings, cut)


async def _page_of(
    lg: LGent,
    query: str,
    constraints: Sequence[str] | None,
    context: QueryContext | None,
    offset: int,
    limit: int,
    lenient: bool,
    strict: bool,
) -> QueryResponse:
    """The fused query answered for its first ``PAGE_DEPTH`` results, with only those at
    ``offset`` to ``offset + limit`` made (the page is checked first)."""
    check_page(offset, limit)
    return await lg.query(
        query,
        constraints,
        context,
        PAGE_DEPTH,
        lenient=lenient,
        strict=strict,
        shown=range(offset, min(offset + limit, PAGE_DEPTH)),
    )


async def query_page(
    lg: LGent,
    query: str,
    constraints: Sequence[str] | None = None,
    context: QueryContext | None = None,
    *,
    offset: int = 0,
    limit: int = 10,
    lenient: bool = False,
    strict: bool = False,
    explain: bool = False,
) -> QueryPage:
    """Results ``offset`` to ``offset + limit`` of the fused query, with a stable total."""
    response = await _page_of(lg, query, constraints, context, offset, limit, lenient, strict)
    page = response.results
    if not explain:
        page = tuple(r.model_copy(update={"explanation": {}}) for r in page)
    fields = {name: getattr(response, name) for name in QueryResponse.model_fields}
    return QueryPage.model_construct(
        **{**fields, "results": page, "warnings": depth_warnings(response, offset)},
        offset=offset,
        next_offset=_next_offset(response, offset),
    )


def _next_offset(response: QueryResponse, offset: int) -> int | None:
    """Where the page after this one starts, None when this one is the last: the query has
    ``min(total_matches, PAGE_DEPTH)`` results."""
    end = offset + len(response.results)
    return end if end < min(response.total_matches, PAGE_DEPTH) else None


async def search_page(
    lg: LGent,
    query: str,
    constraints: Sequence[str] | None = None,
    context: QueryContext | None = None,
    *,
    offset: int = 0,
    limit: int = 10,
    lenient: bool = False,
    strict: bool = False,
) -> SearchPage:
    """The same page as ``query_page``, as cards (each result's reasons come from its
    explanation, which is then left out)."""
    response = await _page_of(lg, query, constraints, context, offset, limit, lenient, strict)
    return SearchPage(
        query=response.query,
        query_type=response.query_type,
        interpretation=response.query_interpretation,
        reading=reading(response),
        total=response.total_matches,
        offset=offset,
        next_offset=_next_offset(response, offset),
        results=tuple(result_card(r) for r in response.results),
        suggestions=tuple(suggestion(s) for s in response.serendipity),
        constraints=response.constraints,
        warnings=depth_warnings(response, offset),
        search_time_ms=response.search_time_ms,
    )


async def successors_of(lg: LGent, entries: Iterable[CatalogEntry]) -> dict[str, tuple[str, ...]]:
    """What replaced each deprecated or retired entry: the newest usable generation along its
    successor links (entries without one are left out)."""
    retired = [e.id for e in entries if e.status in (Status.DEPRECATED, Status.RETIRED)]
    if not retired:
        return {}

    def look_up(graph: GraphBrain) -> dict[str, tuple[str, ...]]:
        found = {i: graph.successor_of(i) for i in retired if graph.knows(i)}
        return {i: (s,) for i, s in found.items() if s is not None}

    return await lg.with_graph(look_up)


async def close_ids(lg: LGent, text: str, n: int = 3) -> list[str]:
    """Up to ``n`` artifacts whose id or name is closest to ``text``: suggestions."""
    return await lg.with_graph(lambda graph: graph.names.closest(text, n))


async def get_entry(lg: LGent, artifact_id: str, version: str | None = None) -> CatalogEntry:
    """``lg.get``; an unknown id's error names the closest known ids."""
    try:
        return await lg.get(artifact_id, version)
    except NotFoundError as err:
        if version is not None or err.close_ids:
            raise
        raise NotFoundError(artifact_id, None, await close_ids(lg, artifact_id)) from None


async def artifact_answer(
    lg: LGent, artifact_id: str, version: str | None = None
) -> ArtifactAnswer:
    entry = await get_entry(lg, artifact_id, version)
    versions = await lg.versions(artifact_id)
    successors = (await successors_of(lg, [entry])).get(entry.id, ())
    return ArtifactAnswer(
        entry=entry,
        versions=tuple(versions),
        flags=health_flags(entry, successors),
        successors=successors,
        callable=entry.callable_definition(),
    )


LIST_FILTERS = ("entity_type", "status", "author", "input_type", "output_type")


async def list_page(
    lg: LGent, filters: Mapping[str, str | None], *, offset: int = 0, limit: int = 50
) -> ListPage:
    """Artifacts (latest versions) whose fields equal every given filter, ``limit`` from
    ``offset``; ``total`` counts them all."""
    from lgent.catalog.records import EntryFilter

    chosen = EntryFilter(**{k: v for k, v in filters.items() if k in LIST_FILTERS and v})
    entries = await lg.list_entries(chosen, limit=limit, offset=offset)
    total = await lg.count_entries(chosen)
    successors = await successors_of(lg, entries)
    end = offset + len(entries)
    return ListPage(
        total=total,
        offset=offset,
        next_offset=end if end < total else None,
        results=tuple(card(e, successors=successors.get(e.id, ())) for e in entries),
    )


def lineage_answer(artifact_id: str, groups: Mapping[str, Sequence[Any]]) -> LineageAnswer:
    return LineageAnswer(
        artifact_id=artifact_id,
        groups={
            name: tuple(LineageLink(**dataclasses.asdict(hit)) for hit in hits)
            for name, hits in groups.items()
        },
    )


async def compatible_answer(
    lg: LGent,
    artifact_id: str,
    direction: Literal["downstream", "upstream"],
    limit: int,
    include_unusable: bool = False,
) -> CompatibleAnswer:
    every = await lg.compatible(  # all of them (a type walk): the total is told
        artifact_id, direction=direction, limit=limits.MAX_LIMIT, include_unusable=include_unusable
    )
    note = None
    if not every:
        known = stable_id(artifact_id)  # as ``compatible`` looks it up
        note = await lg.with_graph(lambda graph: graph.undeclared_side(known, direction))
    return CompatibleAnswer(
        artifact_id=artifact_id,
        direction=direction,
        artifacts=tuple(await cards_of(lg, [s.id for s in every[:limit]])),
        total=len(every),
        note=note or "",
    )


async def cards_of(lg: LGent, artifact_ids: Sequence[str]) -> list[Card]:
    """Cards of the latest versions of ``artifact_ids``, in that order (unknown ids left out)."""
    found = await lg.get_many(artifact_ids)
    entries = [found[i] for i in artifact_ids if i in found]
    successors = await successors_of(lg, entries)
    return [card(e, successors=successors.get(e.id, ())) for e in entries]


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


async def warm_up(lg: LGent, *, freeze: bool = False) -> list[str]:
    """Bring every brain current (the one that loads a model last); returns what could not.
    Queries meanwhile are answered from what is ready (a server opens its home in snapshot
    mode), and say what is still building. ``freeze``: then ``freeze_heap`` (a server process)."""
    problems: list[str] = []
    order = sorted(lg.registry, key=lambda spec: spec.own_thread)
    for spec in order:
        try:
            await lg.ready(spec.name)
            if spec.reads_questions:  # the graph: its path tables, before a first question
                await lg.with_graph(lambda graph: graph.prepare())
        except LGentError as err:
            problems.append(f"{spec.name}: {err}")
    if freeze:
        freeze_heap()
    return problems


def freeze_heap() -> None:
    """For a server process, at start and once warm: move every object alive now (modules, the
    model, the open indexes) out of the garbage collector's sight (``gc.freeze``), so that a
    full collection walks only what was made since. Without it, under 8 HTTP clients on 2 busy
    cores, a full collection came every 1.5 s and stopped every thread for 60 to 250 ms (half
    of a query's p99); after it, about 1 ms. Frozen objects are still freed when no longer
    referenced (a replaced index is); only garbage cycles among them would stay, and replacing
    every brain leaves none."""
    gc.collect()
    gc.freeze()


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
    catalog = lg.catalog_note() or ""
    ok = not catalog and all(b.ready and b.change_number == change_number for b in brains)
    return HealthAnswer(
        status="ok" if ok else "degraded",
        version=__version__,
        change_number=change_number,
        brains=tuple(brains),
        catalog=catalog,
    )


class DoctorCheck(_Answer):
    name: str
    level: Literal["ok", "warn", "fail"]
    message: str
    fix: str = ""


class DoctorAnswer(_Answer):
    """``lgent doctor``'s findings for the served home; ``ok`` is False when any check failed."""

    ok: bool
    checks: tuple[DoctorCheck, ...]


async def doctor(lg: LGent) -> DoctorAnswer:
    """Check the served home as ``lgent doctor`` does (nothing is changed)."""
    root = lg.home.root
    checks: tuple[DoctorCheck, ...]
    if root is None:
        checks = (DoctorCheck(name="home", level="ok", message="in memory: nothing on disk"),)
    else:
        found = await asyncio.to_thread(lg.check_home, root, catalog=lg.catalog_url)
        checks = tuple(DoctorCheck(**dataclasses.asdict(c)) for c in found)
    return DoctorAnswer(ok=all(c.level != "fail" for c in checks), checks=checks)
