"""L-gent's JSON HTTP API (FastAPI) over one open LGent: every query the CLI can ask, and the
web page at ``/`` (see ``lgent.http.web``).

Every error is one JSON shape (``lgent.http.errors``). Pages of a query (``GET /search``,
``POST /query``) and of the catalog (``GET /artifacts``) take ``offset`` and ``limit`` and report
a ``total`` that does not depend on the page size. The interactive documentation at ``/docs``
loads its scripts from this server (the ``fastapi-offline`` package), never from a CDN.
Writes (``POST /artifacts``, ``DELETE /artifacts/{id}``) exist only with ``allow_writes``.

Only ``lgent serve --http`` imports this module, so ``import lgent`` never loads FastAPI.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
from typing import Annotated, Any, Literal, get_args, get_origin

from fastapi import Depends, FastAPI, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from lgent import limits
from lgent.errors import QueryError
from lgent.facets import check_facet_names
from lgent.http.callers import Caller
from lgent.http.errors import BodyLimit, ErrorAnswer, error_response, install_error_handlers
from lgent.http.graph import NeighbourhoodAnswer, neighbourhood
from lgent.http.guard import HttpSecurity, RequestGuard, guarded_protocol, is_loopback
from lgent.lgent import BuildProgress, LGent
from lgent.models import (
    CatalogEntry,
    Container,
    EntityType,
    Execution,
    FilledPipeline,
    Resolution,
    ResolutionPreferences,
    SearchFilters,
    SearchResult,
    Status,
    TypeRequirement,
)
from lgent.serving import (
    MAX_TYPES_PAGE,
    PAGE_DEPTH,
    ArtifactAnswer,
    CompatibleAnswer,
    DoctorAnswer,
    HealthAnswer,
    HistoryAnswer,
    LineageAnswer,
    ListPage,
    PathsAnswer,
    QueryPage,
    RegisterAnswer,
    RemoveAnswer,
    SearchPage,
    SimilarAnswer,
    TypesAnswer,
    WhoAmI,
    artifact_answer,
    browse_page,
    compatible_answer,
    doctor,
    facet_filter,
    freeze_heap,
    get_entry,
    health,
    history_answer,
    lineage_answer,
    list_page,
    paths_answer,
    query_page,
    register_answer,
    search_page,
    types_answer,
    warm_up,
)
from lgent.validation import QueryArguments

DEFAULT_MAX_BODY_BYTES = 1_000_000

log = logging.getLogger("lgent.http")

TypeName = Annotated[str, Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)]
Words = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=limits.MAX_CONSTRAINT_LENGTH)]],
    Field(max_length=limits.MAX_CONTRACTS),
]
Offset = Annotated[int, Query(ge=0, le=limits.MAX_OFFSET, description="Results to skip.")]
PageLimit = Annotated[int, Query(ge=1, le=PAGE_DEPTH, description="Results on this page.")]
VersionParam = Annotated[str | None, Query(max_length=100, description="Default: the latest.")]
QueryText = Annotated[
    str,
    Query(
        min_length=1,
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, a description, a type question or a keyword query.",
    ),
]
OptionalQueryText = Annotated[
    str | None,
    Query(
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, a description, a type question or a keyword query; leave it "
        "out to browse.",
    ),
]
FacetParam = Annotated[
    str | None,
    Query(max_length=limits.MAX_ID_LENGTH + 16, description="Only artifacts with this value."),
]
FacetNames = Annotated[
    str | None,
    Query(
        max_length=200,
        description="Facets to count, comma-separated: kind, source, owner, status, tag, "
        "input, output.",
    ),
]
ConstraintParams = Annotated[
    list[str] | None,
    Query(max_length=limits.MAX_CONTRACTS, description="A hard filter (repeatable)."),
]


class _Request(Container):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class QueryRequest(QueryArguments):
    """``QueryArguments`` (the model every surface validates a query with), paged."""

    offset: StrictInt = Field(default=0, ge=0, description="Results to skip.")
    limit: StrictInt = Field(default=10, ge=1, le=PAGE_DEPTH)
    explain: StrictBool = Field(
        default=False, description="Include each result's explanation tree."
    )


class ResolveRequest(_Request):
    input_type: TypeName
    output_type: TypeName
    contracts: Words = Field(default_factory=list)
    constraints: Words = Field(default_factory=list)
    preferences: ResolutionPreferences | None = None


class FillHolesRequest(_Request):
    pipeline: list[TypeName] = Field(
        min_length=2, max_length=20, description="Types or ids with ??? for each hole."
    )
    contracts: Words = Field(default_factory=list)


class PathsRequest(_Request):
    source_type: TypeName
    target_type: TypeName
    max_length: int = Field(default=5, ge=1, le=10)
    k: int = Field(default=5, ge=1, le=limits.MAX_LIMIT)
    include_unusable: bool = Field(default=False, description="Also deprecated/retired ones.")


class SimilarRequest(_Request):
    artifact_id: str = Field(min_length=1, max_length=limits.MAX_ID_LENGTH)
    limit: int = Field(default=10, ge=1, le=limits.MAX_LIMIT)


def filter_constraints(
    kind: EntityType | None, status: Status | None, execution: Execution | None
) -> list[str]:
    """The web page's filters as constraints of the fused query."""
    chosen = []
    if kind is not None:
        chosen.append(f"kind:{kind.value}")
    if status is not None:
        chosen.append(f"status:{status.value}")
    if execution is not None:
        chosen.append(f"execution:{execution.value}")
    return chosen


def _facet_names(text: str | None) -> tuple[str, ...]:
    """The facets ``facets=kind,tag`` asks for (a 400 names one that is not a facet)."""
    if text is None:
        return ()
    return check_facet_names(n.strip() for n in text.split(",") if n.strip())


def _known_parameters(request: Request) -> None:
    """Refuse a query-string parameter the endpoint does not take (as request bodies refuse
    unknown fields): ``offset`` on a brain's search would otherwise be ignored in silence."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema:
        return  # the web page and the API docs read their query strings themselves
    known = _query_names(route.dependant)
    unknown = sorted(set(request.query_params) - set(known))
    if unknown:
        takes = ", ".join(sorted(known)) or "none"
        raise QueryError(
            f"unknown query parameter(s) {', '.join(unknown)}: {route.path} takes {takes}"
        )
    for name, many in known.items():
        given = len(request.query_params.getlist(name))
        if given > 1 and not many:
            raise QueryError(f"query parameter {name} given {given} times; it takes one value")


def _whole_id(request: Request, artifact_id: str, call: str) -> str | None:
    """The id ``<artifact_id>/<call>`` when the request encoded the slash before ``call``
    (``/artifacts/srv%2Fsimilar``: the artifact ``srv/similar``, not ``srv``'s similar ones; the
    router decodes the slash, so the path alone cannot tell), else None."""
    raw = request.scope.get("raw_path") or b""
    if raw.lower().endswith(f"%2f{call}".encode()):
        return f"{artifact_id}/{call}"
    return None


def _query_names(dependant: Dependant) -> dict[str, bool]:
    """The query-string parameters an endpoint and its dependencies take, each with whether
    it may be repeated (a list)."""
    names = {p.alias: _is_list(p.field_info.annotation) for p in dependant.query_params}
    for sub in dependant.dependencies:
        names.update(_query_names(sub))
    return names


def _is_list(annotation: Any) -> bool:
    """True for ``list[X]``, ``list[X] | None`` and the like."""
    origin = get_origin(annotation)
    if origin in (list, tuple, set):
        return True
    return any(_is_list(arg) for arg in get_args(annotation)) if origin is not None else False


def build_http_app(
    lg: LGent,
    *,
    allow_writes: bool = False,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    web: bool = True,
    security: HttpSecurity | None = None,
) -> FastAPI:
    """The API over the open ``lg``, and the web page at ``/`` unless ``web`` is False;
    requests larger than ``max_body_bytes`` get a 413. ``security`` (default: loopback Host
    names only, no token) guards every request (``lgent.http.guard``)."""
    from fastapi_offline import FastAPIOffline

    from lgent import __version__

    errors: dict[int | str, dict[str, type[ErrorAnswer]]] = {
        code: {"model": ErrorAnswer} for code in (400, 401, 403, 404, 405, 413, 422)
    }
    app = FastAPIOffline(
        title="L-gent",
        version=__version__,
        responses=errors,
        description="Find AI-agent artifacts by name, by intent, or by the types they connect.",
        redoc_url=None,
        dependencies=[Depends(_known_parameters)],
    )
    app.state.lgent = lg
    guard = security or HttpSecurity()
    if guard.tokens is None:  # the served home's named tokens
        guard = dataclasses.replace(guard, tokens=lg.settings.access.parsed())
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.add_middleware(RequestGuard, security=guard)  # outermost
    install_error_handlers(app)

    # -- search -----------------------------------------------------------------------------

    @app.get("/search", response_model=SearchPage, tags=["search"])
    async def search(
        me: Caller,
        q: OptionalQueryText = None,
        constraint: ConstraintParams = None,
        kind: EntityType | None = None,
        status: Status | None = None,
        execution: Execution | None = None,
        tag: FacetParam = None,
        source: FacetParam = None,
        owner: FacetParam = None,
        input_kind: Annotated[
            str | None, Query(alias="input", max_length=limits.MAX_TYPE_NAME_LENGTH)
        ] = None,
        output_kind: Annotated[
            str | None, Query(alias="output", max_length=limits.MAX_TYPE_NAME_LENGTH)
        ] = None,
        facets: FacetNames = None,
        top: Annotated[int, Query(ge=1, le=100, description="Values per facet.")] = 10,
        offset: Offset = 0,
        limit: PageLimit = 10,
        lenient: Annotated[bool, Query(description="Never read the keyword grammar.")] = False,
        strict: Annotated[
            bool, Query(description="Read any grammar operator as grammar; malformed is a 400.")
        ] = False,
    ) -> Response:
        """A page of the fused query as short cards: how it was read, the total, each result's
        signature, owner, health flags, one line of description and why it matched.
        ``kind``, ``status`` and ``execution`` are added to the constraints; ``tag``,
        ``source``, ``owner``, ``input`` and ``output`` keep the query to artifacts with that
        value. ``facets`` (comma-separated: kind,source,owner,status,tag,input,output) counts
        each facet's values over every match. Without ``q``: browse the catalog (id order),
        filtered by the facet values given, with the facet counts over all of it."""
        names = _facet_names(facets)
        values = {
            "tag": tag,
            "source": source,
            "owner": owner,
            "input": input_kind,
            "output": output_kind,
        }
        if q is None or not q.strip():
            if execution is not None or constraint:
                raise QueryError("execution and constraint filter a query: give q too")
            values = {"kind": kind.value if kind else None, **values}
            values["status"] = status.value if status else None
            chosen = {n: v for n, v in values.items() if v is not None}
            page = await browse_page(me, chosen, offset=offset, limit=limit, facets=names, top=top)
            return _json(page)
        constraints = [*(constraint or []), *filter_constraints(kind, status, execution)]
        asked = QueryArguments.check(
            query=q, constraints=tuple(constraints), limit=limit, lenient=lenient, strict=strict
        )
        chosen = {n: v for n, v in values.items() if v is not None}
        view = me.filtered(facet_filter(chosen))
        page = await search_page(view, asked, offset=offset, facets=names, top=top, filters=chosen)
        return _json(page)

    @app.post("/query", response_model=QueryPage, tags=["search"])
    async def query(me: Caller, body: QueryRequest) -> Response:
        """The fused query with whole results: every brain that can help, fused, explained,
        with suggestions; a page of its first 50 results."""
        page = await query_page(me, body, offset=body.offset, explain=body.explain)
        return _json(page)

    @app.get("/brains/{brain}/search", response_model=SearchResult, tags=["search"])
    async def brain_search(
        me: Caller,
        brain: Literal["keyword", "semantic", "graph"],
        q: QueryText,
        kind: Annotated[list[EntityType] | None, Query()] = None,
        status: Annotated[list[Status] | None, Query()] = None,
        author: Annotated[list[str] | None, Query()] = None,
        execution: Annotated[list[Execution] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=limits.MAX_LIMIT)] = 10,
        lenient: bool = False,
    ) -> Response:
        """One brain's own answer, with its scores, matched fields and highlights."""
        filters = SearchFilters(
            entity_type=tuple(kind or ()),
            status=tuple(status or ()),
            author=tuple(author or ()),
            execution=tuple(execution or ()),
        )
        found = await me.search(q, brain=brain, filters=filters, limit=limit, lenient=lenient)
        return _json(found)

    @app.post("/similar", response_model=SimilarAnswer, tags=["search"])
    async def similar(me: Caller, body: SimilarRequest) -> Response:
        """Artifacts closest in meaning to one artifact."""
        return _json(await _similar(me, body.artifact_id, body.limit))

    async def _similar(me: LGent, artifact_id: str, limit: int) -> SimilarAnswer:
        await get_entry(me, artifact_id)
        hits = await me.similar(artifact_id, limit=limit)
        return SimilarAnswer(artifact_id=artifact_id, hits=tuple(hits))

    # -- the catalog ------------------------------------------------------------------------

    @app.get("/artifacts", response_model=ListPage, tags=["catalog"])
    async def list_artifacts(
        me: Caller,
        kind: EntityType | None = None,
        status: Status | None = None,
        author: Annotated[str | None, Query(max_length=limits.MAX_NAME_LENGTH)] = None,
        input_type: Annotated[str | None, Query(max_length=limits.MAX_TYPE_NAME_LENGTH)] = None,
        output_type: Annotated[str | None, Query(max_length=limits.MAX_TYPE_NAME_LENGTH)] = None,
        tag: FacetParam = None,
        source: FacetParam = None,
        facets: FacetNames = None,
        top: Annotated[int, Query(ge=1, le=100, description="Values per facet.")] = 10,
        offset: Offset = 0,
        limit: Annotated[int, Query(ge=1, le=limits.MAX_LIMIT)] = 50,
    ) -> Response:
        """Artifacts (latest versions) whose fields equal every filter given (``tag``: one of
        its keywords; ``source``: what wrote it, ``kind:name``), in id order; ``facets``
        counts those facets' values over all of them."""
        filters = {
            "entity_type": kind.value if kind else None,
            "status": status.value if status else None,
            "author": author,
            "input_type": input_type,
            "output_type": output_type,
            "tag": tag,
            "source": source,
        }
        page = await list_page(
            me, filters, offset=offset, limit=limit, facets=_facet_names(facets), top=top
        )
        return _json(page)

    @app.get("/stats", tags=["catalog"])
    async def stats(
        me: Caller,
    ) -> JSONResponse:
        """Counts: artifacts, versions, types, relations, by entity type and status."""
        return JSONResponse(await me.stats())

    @app.get("/artifacts/{artifact_id:path}/lineage", response_model=LineageAnswer, tags=["graph"])
    async def lineage(
        me: Caller,
        request: Request,
        artifact_id: str,
        depth: Annotated[int | None, Query(ge=1, le=100)] = None,
    ) -> Response:
        """Ancestors, descendants, dependencies, dependents, forging and interfaces."""
        if whole := _whole_id(request, artifact_id, "lineage"):
            return _json(await artifact_answer(me, whole, None))
        await get_entry(me, artifact_id)
        groups = await me.lineage(artifact_id, depth=depth)
        return _json(lineage_answer(artifact_id, groups))

    @app.get(
        "/artifacts/{artifact_id:path}/compatible",
        response_model=CompatibleAnswer,
        tags=["graph"],
    )
    async def compatible(
        me: Caller,
        request: Request,
        artifact_id: str,
        direction: Literal["downstream", "upstream"] = "downstream",
        limit: Annotated[int, Query(ge=1, le=limits.MAX_LIMIT)] = 20,
        include_unusable: bool = False,
    ) -> Response:
        """Artifacts whose types fit after this one (downstream) or before it (upstream)."""
        if whole := _whole_id(request, artifact_id, "compatible"):
            return _json(await artifact_answer(me, whole, None))
        await get_entry(me, artifact_id)
        answer = await compatible_answer(me, artifact_id, direction, limit, include_unusable)
        return _json(answer)

    @app.get("/artifacts/{artifact_id:path}/similar", response_model=SimilarAnswer, tags=["search"])
    async def similar_to(
        me: Caller,
        request: Request,
        artifact_id: str,
        limit: Annotated[int, Query(ge=1, le=limits.MAX_LIMIT)] = 10,
    ) -> Response:
        """Artifacts closest in meaning to this one (``POST /similar`` with a query string)."""
        if whole := _whole_id(request, artifact_id, "similar"):
            return _json(await artifact_answer(me, whole, None))
        return _json(await _similar(me, artifact_id, limit))

    @app.get(
        "/artifacts/{artifact_id:path}/neighbourhood",
        response_model=NeighbourhoodAnswer,
        tags=["graph"],
    )
    async def graph_neighbourhood(me: Caller, request: Request, artifact_id: str) -> Response:
        """The artifact's lineage and composition neighbourhood as boxes and arrows (what its
        web page lays out and draws)."""
        if whole := _whole_id(request, artifact_id, "neighbourhood"):
            return _json(await artifact_answer(me, whole, None))
        await get_entry(me, artifact_id)
        return _json(await neighbourhood(me, artifact_id))

    @app.get(
        "/artifacts/{artifact_id:path}/history", response_model=HistoryAnswer, tags=["catalog"]
    )
    async def history(me: Caller, request: Request, artifact_id: str) -> Response:
        """Every change the log holds of the artifact, oldest first: each version written with
        its status and the token that wrote it, and each removal (a draft's promotion shows)."""
        if whole := _whole_id(request, artifact_id, "history"):
            return _json(await artifact_answer(me, whole, None))
        await get_entry(me, artifact_id)
        return _json(history_answer(artifact_id, await me.history(artifact_id)))

    @app.get("/whoami", response_model=WhoAmI, tags=["service"])
    async def whoami(me: Caller) -> Response:
        """The caller's scope: the token's name, what it reads and what it may write."""
        return _json(WhoAmI(**me.scope.describe()))

    @app.get("/artifacts/{artifact_id:path}", response_model=ArtifactAnswer, tags=["catalog"])
    async def get_artifact(me: Caller, artifact_id: str, version: VersionParam = None) -> Response:
        """One artifact (the latest version unless ``version``), every version held, its health
        flags and its successors; an unknown id's error names the closest ids."""
        return _json(await artifact_answer(me, artifact_id, version))

    # -- types and pipelines ------------------------------------------------------------------

    @app.get("/types", response_model=TypesAnswer, tags=["graph"])
    async def list_types(
        me: Caller,
        q: Annotated[str | None, Query(max_length=limits.MAX_QUERY_LENGTH)] = None,
        kinds_only: bool = False,
        offset: Offset = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_TYPES_PAGE)] = 50,
    ) -> Response:
        """The catalog's types, most used first: parents, producers and consumers, whether a
        value kind (and the rules that infer it), where each comes from. ``q``: words the name
        or description holds; ``kinds_only``: value kinds only."""
        return _json(await types_answer(me, q, kinds_only=kinds_only, offset=offset, limit=limit))

    @app.post("/resolve", response_model=Resolution, tags=["resolve"])
    async def resolve(me: Caller, body: ResolveRequest) -> Response:
        """The best healthy artifact for a type requirement, with its score breakdown."""
        requirement = TypeRequirement(
            input_type=body.input_type,
            output_type=body.output_type,
            contracts=tuple(body.contracts),
            constraints=tuple(body.constraints),
        )
        return _json(await me.resolve(requirement, body.preferences))

    @app.post("/fill-holes", response_model=FilledPipeline, tags=["resolve"])
    async def fill_holes(me: Caller, body: FillHolesRequest) -> Response:
        """Fill each ??? of a pipeline with an artifact or a short chain of artifacts."""
        return _json(await me.fill_holes(body.pipeline, body.contracts))

    @app.post("/paths", response_model=PathsAnswer, tags=["resolve"])
    async def paths(me: Caller, body: PathsRequest) -> Response:
        """Composition paths from one type to another, shortest first."""
        found = await me.find_paths(
            body.source_type,
            body.target_type,
            max_length=body.max_length,
            k=body.k,
            include_unusable=body.include_unusable,
        )
        return _json(paths_answer(body.source_type, body.target_type, found))

    # -- the service --------------------------------------------------------------------------

    @app.get("/health", response_model=HealthAnswer, tags=["service"])
    async def get_health(
        me: Caller,
    ) -> Response:
        """Each brain's status and the catalog change number."""
        return _json(await health(me))

    @app.get("/doctor", response_model=DoctorAnswer, tags=["service"])
    async def get_doctor(
        me: Caller,
    ) -> Response:
        """``lgent doctor`` on the served home: catalog integrity and each index's state."""
        return _json(await doctor(me))

    from lgent.http.registry import add_registry_routes

    add_registry_routes(app, lg)  # the MCP registry's v0.1 read API

    if web:
        from lgent.http.web import add_web_page

        add_web_page(app, lg)

    if not allow_writes:
        _refuse_writes(app)
        return app

    @app.post("/artifacts", response_model=RegisterAnswer, status_code=201, tags=["catalog"])
    async def register(me: Caller, entry: CatalogEntry) -> Response:
        """Add an artifact or a new version of one; the next query sees it."""
        result = await me.register(entry)
        return _json(register_answer(entry, result), status=201)

    @app.post(
        "/artifacts/{artifact_id:path}/promote", response_model=RegisterAnswer, tags=["catalog"]
    )
    async def promote(
        me: Caller,
        artifact_id: str,
        status: Annotated[Status, Query(description="The status it is published with.")] = (
            Status.ACTIVE
        ),
    ) -> Response:
        """Publish a draft: its latest version written again with ``status``, by the caller's
        token (the change log names it: ``GET /artifacts/{id}/history``)."""
        result = await me.promote(artifact_id, status)
        entry = await me.get(artifact_id)
        return _json(register_answer(entry, result))

    @app.delete("/artifacts/{artifact_id:path}", response_model=RemoveAnswer, tags=["catalog"])
    async def remove(me: Caller, artifact_id: str, version: VersionParam = None) -> Response:
        """Remove an artifact: every version, or only ``version``."""
        removed = await me.remove(artifact_id, version)
        return _json(
            RemoveAnswer(
                id=artifact_id,
                version=version,
                removed=removed,
                change_number=await me.change_number(),
            )
        )

    return app


GRACEFUL_SHUTDOWN = 10
"""Seconds a stopping server (SIGTERM, Ctrl-C) gives requests in flight before it closes their
connections: a client that never reads its answer cannot keep it running."""


def _json(model: BaseModel, status: int = 200) -> Response:
    """Serialize once with pydantic (no re-validation on the way out)."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _refuse_writes(app: FastAPI) -> None:
    async def refused(artifact_id: str = "") -> JSONResponse:
        return error_response(
            403,
            "WritesDisabled",
            "this server is read-only; start it with `lgent serve --http --allow-writes`",
        )

    app.add_api_route("/artifacts", refused, methods=["POST"], include_in_schema=False)
    app.add_api_route(
        "/artifacts/{artifact_id:path}/promote", refused, methods=["POST"], include_in_schema=False
    )
    app.add_api_route(
        "/artifacts/{artifact_id:path}", refused, methods=["DELETE"], include_in_schema=False
    )


async def serve_http(
    home: str | os.PathLike[str] | None,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
    token: str | None = None,
    allow_hosts: tuple[str, ...] = (),
) -> None:
    """Serve until interrupted, with one LGent open throughout; brains warm in the background.
    ``token`` guards writes (and reads, with ``http.token_for_reads``); ``allow_hosts`` adds to
    the Host names of ``http.allowed_hosts``."""
    import uvicorn

    async with LGent.open(home, catalog=catalog, progress=progress, freshness="snapshot") as lg:
        security = HttpSecurity.from_settings(
            lg.settings.http, token=token, bind=host, extra_hosts=allow_hosts
        )
        if not is_loopback(host) and token is None:
            log.warning(
                "serving on %s without a token: anyone who can reach port %s can query%s; "
                "set --token or LGENT_TOKEN",
                host,
                port,
                " and write (--allow-writes)" if allow_writes else "",
            )
        if host in ("0.0.0.0", "::") and "*" not in security.allowed_hosts:
            log.warning(
                "bound to every address, but only requests naming %s in their Host header are "
                "answered; add the names clients use with --allow-host",
                ", ".join(security.allowed_hosts),
            )
        app = build_http_app(lg, allow_writes=allow_writes, security=security)
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            access_log=False,
            log_level="info",
            lifespan="off",
            http=guarded_protocol(security.header_timeout, security.body_timeout),
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        )
        freeze_heap()
        warming = asyncio.create_task(warm_up(lg, freeze=True))
        try:
            await uvicorn.Server(config).serve()
        finally:
            for problem in await warming:
                log.warning("warm-up: %s", problem)


def run_http(
    home: str | os.PathLike[str] | None,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
    token: str | None = None,
    allow_hosts: tuple[str, ...] = (),
) -> None:
    """Blocking entry point of ``lgent serve --http``."""
    logging.basicConfig(level=logging.WARNING, format="lgent-http: %(message)s")
    asyncio.run(
        serve_http(
            home,
            host=host,
            port=port,
            allow_writes=allow_writes,
            progress=progress,
            catalog=catalog,
            token=token,
            allow_hosts=allow_hosts,
        )
    )
