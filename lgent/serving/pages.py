"""The answers the surfaces serve, made from one open ``LGent``: pages of a query, an artifact
with its versions and health, listings, graph answers, the home's health and doctor.

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
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from lgent import limits
from lgent.errors import LGentError, NotFoundError, QueryError, TypeLatticeError
from lgent.health import Health
from lgent.ids import stable_id
from lgent.models import CatalogEntry, QueryResponse, Status
from lgent.serving.answers import (
    ArtifactAnswer,
    BrainHealth,
    Card,
    CompatibleAnswer,
    DoctorAnswer,
    DoctorCheck,
    HealthAnswer,
    HistoryAnswer,
    HistoryRow,
    LineageAnswer,
    LineageLink,
    ListPage,
    PathAnswer,
    PathsAnswer,
    QueryPage,
    RegisterAnswer,
    SearchPage,
)
from lgent.serving.cards import card, reading, result_card, suggestion
from lgent.serving.facet_counts import facets_of
from lgent.serving.kinds import shown_kinds
from lgent.validation import QueryArguments

if TYPE_CHECKING:
    from lgent.catalog.records import BatchResult, Change
    from lgent.graph.protocol import GraphReader
    from lgent.graph.signatures import CompositionPath
    from lgent.lgent import LGent

PAGE_DEPTH = 50
"""Every page of a query is cut from its first ``PAGE_DEPTH`` results."""


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


async def _page_of(lg: LGent, arguments: QueryArguments, offset: int) -> QueryResponse:
    """The fused query answered for its first ``PAGE_DEPTH`` results, with only those at
    ``offset`` to ``offset + arguments.limit`` made (the page is checked first)."""
    check_page(offset, arguments.limit)
    deep = arguments.model_copy(update={"limit": PAGE_DEPTH})
    return await lg.query(deep, shown=range(offset, min(offset + arguments.limit, PAGE_DEPTH)))


async def query_page(
    lg: LGent, arguments: QueryArguments, *, offset: int = 0, explain: bool = False
) -> QueryPage:
    """Results ``offset`` to ``offset + arguments.limit`` of the fused query (its arguments
    validated once, by the caller), with a stable total."""
    response = await _page_of(lg, arguments, offset)
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
    arguments: QueryArguments,
    *,
    offset: int = 0,
    facets: Sequence[str] = (),
    top: int = 10,
    filters: Mapping[str, str] | None = None,
) -> SearchPage:
    """The same page as ``query_page``, as cards (each result's reasons come from its
    explanation, which is then left out), with the counts of ``facets`` over every match of
    the query (``top`` values each); ``filters``: the facet values ``lg`` is filtered by, said
    in the page."""
    response = await _page_of(lg, arguments, offset)
    counted = await facets_of(lg, None, facets, top, among=response.matched)
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
        filters=dict(filters or {}),
        facets=counted,
    )


async def successors_of(lg: LGent, entries: Iterable[CatalogEntry]) -> dict[str, tuple[str, ...]]:
    """What replaced each deprecated or retired entry: the newest usable generation along its
    successor links (entries without one are left out)."""
    retired = [e.id for e in entries if e.status in (Status.DEPRECATED, Status.RETIRED)]
    if not retired:
        return {}

    def look_up(graph: GraphReader) -> dict[str, tuple[str, ...]]:
        found = {i: graph.successor_of(i) for i in retired if graph.knows(i)}
        return {i: (s,) for i, s in found.items() if s is not None}

    return await lg.with_graph(look_up)


async def type_sides(lg: LGent, text: str) -> tuple[str, list[str], list[str]]:
    """The type ``text`` names, the artifacts that produce it and those that consume it (as
    ``lg`` sees the catalog), healthiest first; ``TypeLatticeError`` for an unknown type."""

    def sides(graph: GraphReader) -> tuple[str, list[str], list[str]]:
        name = graph.type_name(text)
        if name is None:
            raise TypeLatticeError(graph.unknown_type_message(text))
        return name, [a.id for a in graph.producing(name)], [a.id for a in graph.accepting(name)]

    return await lg.with_graph(sides)


async def close_ids(lg: LGent, text: str, n: int = 3) -> list[str]:
    """Up to ``n`` artifacts whose id or name is closest to ``text``: suggestions."""
    return await lg.with_graph(lambda graph: graph.closest_names(text, n))


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
        flags=Health.of(entry).flags(successors),
        health=Health.of(entry).verdict(successors),
        successors=successors,
        callable=entry.callable_definition(),
        kinds=shown_kinds(entry),
    )


LIST_FILTERS = ("entity_type", "status", "author", "input_type", "output_type", "tag", "source")


async def list_page(
    lg: LGent,
    filters: Mapping[str, str | None],
    *,
    offset: int = 0,
    limit: int = 50,
    facets: Sequence[str] = (),
    top: int = 10,
) -> ListPage:
    """Artifacts (latest versions) whose fields equal every given filter, ``limit`` from
    ``offset``; ``total`` counts them all; ``facets``: the counts of those facets' values over
    all of them (each what ``total`` would be with that value added)."""
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
        facets=await facets_of(lg, chosen, facets, top),
    )


def history_answer(artifact_id: str, changes: Sequence[Change]) -> HistoryAnswer:
    return HistoryAnswer(
        artifact_id=artifact_id,
        changes=tuple(
            HistoryRow(
                seq=c.seq, at=c.at, op=c.op, version=c.version, status=c.status, writer=c.writer
            )
            for c in changes
        ),
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
