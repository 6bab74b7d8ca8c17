"""L-gent's JSON HTTP API (FastAPI): the same operations as the MCP tools, over one open LGent.

Every error is a JSON body ``{"error": {"type": ..., "message": ...}}``: malformed JSON is 400,
a request that breaks its schema (unknown field, ``limit`` out of range, over-long query) 422, a
body over ``max_body_bytes`` 413, and each LGentError its own 4xx (see ``STATUS``). Writes
(``POST /artifacts``, ``DELETE /artifacts/{id}``) exist only with ``allow_writes``.

Only ``lgent serve --http`` imports this module, so ``import lgent`` never loads FastAPI.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lgent import limits
from lgent.errors import (
    CatalogError,
    ConstraintError,
    DependencyError,
    IndexError_,
    LGentError,
    LoadError,
    ModelUnavailableError,
    NotFoundError,
    QueryError,
    QuerySyntaxError,
    SettingsError,
    TypeLatticeError,
    ValidationError,
)
from lgent.lgent import BuildProgress, LGent
from lgent.models import (
    CatalogEntry,
    FilledPipeline,
    QueryContext,
    QueryResponse,
    Resolution,
    ResolutionPreferences,
    TypeRequirement,
)
from lgent.serving import (
    ArtifactAnswer,
    HealthAnswer,
    PathsAnswer,
    RegisterAnswer,
    RemoveAnswer,
    SimilarAnswer,
    health,
    lean,
    paths_answer,
    register_answer,
    warm_up,
)

DEFAULT_MAX_BODY_BYTES = 1_000_000

log = logging.getLogger("lgent.http")

# Most specific first: the first class an error is an instance of gives its status.
STATUS: tuple[tuple[type[LGentError], int], ...] = (
    (NotFoundError, 404),
    (QueryError, 400),  # QuerySyntaxError, ConstraintError and plain QueryError
    (LoadError, 400),
    (ValidationError, 422),
    (TypeLatticeError, 422),
    (DependencyError, 422),
    (CatalogError, 409),
    (ModelUnavailableError, 503),
    (IndexError_, 503),
    (SettingsError, 503),
)

TypeName = Annotated[str, Field(min_length=1, max_length=limits.MAX_TYPE_NAME_LENGTH)]
Words = Annotated[
    list[Annotated[str, Field(max_length=200)]], Field(max_length=limits.MAX_CONTRACTS)
]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class QueryRequest(_Request):
    query: str = Field(
        min_length=1,
        max_length=limits.MAX_QUERY_LENGTH,
        description="A name, a description, a type question or a keyword query.",
    )
    constraints: Words = Field(
        default_factory=list, description="Hard filters, e.g. 'latency < 2s'."
    )
    context: QueryContext | None = None
    limit: int = Field(default=10, ge=1, le=limits.MAX_LIMIT)
    lenient: bool = Field(default=False, description="Never read the keyword grammar.")
    strict: bool = Field(
        default=False, description="Read any grammar operator as grammar; malformed is a 400."
    )
    explain: bool = Field(default=False, description="Include each result's explanation tree.")


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


class SimilarRequest(_Request):
    artifact_id: str = Field(min_length=1, max_length=limits.MAX_ID_LENGTH)
    limit: int = Field(default=10, ge=1, le=limits.MAX_LIMIT)


class ErrorBody(BaseModel):
    type: str
    message: str
    details: Any = None


class ErrorAnswer(BaseModel):
    error: ErrorBody


def build_http_app(
    lg: LGent,
    *,
    allow_writes: bool = False,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> FastAPI:
    """The API over the open ``lg``; requests larger than ``max_body_bytes`` get a 413."""
    from lgent import __version__

    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorAnswer} for code in (400, 404, 413, 422)
    }
    app = FastAPI(
        title="L-gent",
        version=__version__,
        responses=errors,
        description="Find AI-agent artifacts by name, by intent, or by the types they connect.",
    )
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    _install_error_handlers(app)

    @app.post("/query", response_model=QueryResponse, tags=["search"])
    async def query(body: QueryRequest) -> Response:
        """The fused query: every brain that can help, fused, explained, with suggestions."""
        response = await lg.query(
            body.query,
            body.constraints,
            body.context,
            body.limit,
            lenient=body.lenient,
            strict=body.strict,
        )
        return _json(lean(response, explain=body.explain))

    @app.post("/resolve", response_model=Resolution, tags=["resolve"])
    async def resolve(body: ResolveRequest) -> Response:
        """The best healthy artifact for a type requirement, with its score breakdown."""
        requirement = TypeRequirement(
            input_type=body.input_type,
            output_type=body.output_type,
            contracts=tuple(body.contracts),
            constraints=tuple(body.constraints),
        )
        return _json(await lg.resolve(requirement, body.preferences))

    @app.post("/fill-holes", response_model=FilledPipeline, tags=["resolve"])
    async def fill_holes(body: FillHolesRequest) -> Response:
        """Fill each ??? of a pipeline with an artifact or a short chain of artifacts."""
        return _json(await lg.fill_holes(body.pipeline, body.contracts))

    @app.post("/paths", response_model=PathsAnswer, tags=["resolve"])
    async def paths(body: PathsRequest) -> Response:
        """Composition paths from one type to another, shortest first."""
        found = await lg.find_paths(
            body.source_type, body.target_type, max_length=body.max_length, k=body.k
        )
        return _json(paths_answer(body.source_type, body.target_type, found))

    @app.post("/similar", response_model=SimilarAnswer, tags=["search"])
    async def similar(body: SimilarRequest) -> Response:
        """Artifacts closest in meaning to one artifact."""
        hits = await lg.similar(body.artifact_id, limit=body.limit)
        return _json(SimilarAnswer(artifact_id=body.artifact_id, hits=tuple(hits)))

    @app.get("/artifacts/{artifact_id:path}", response_model=ArtifactAnswer, tags=["catalog"])
    async def get_artifact(
        artifact_id: str,
        version: Annotated[str | None, Query(max_length=100)] = None,
    ) -> Response:
        """One artifact (the latest version unless ``version``) and every version held."""
        entry = await lg.get(artifact_id, version)
        return _json(ArtifactAnswer(entry=entry, versions=tuple(await lg.versions(artifact_id))))

    @app.get("/health", response_model=HealthAnswer, tags=["service"])
    async def get_health() -> Response:
        """Each brain's status and the catalog change number."""
        return _json(await health(lg))

    if not allow_writes:
        _refuse_writes(app)
        return app

    @app.post("/artifacts", response_model=RegisterAnswer, status_code=201, tags=["catalog"])
    async def register(entry: CatalogEntry) -> Response:
        """Add an artifact or a new version of one; the next query sees it."""
        result = await lg.register(entry)
        return _json(register_answer(entry, result), status=201)

    @app.delete("/artifacts/{artifact_id:path}", response_model=RemoveAnswer, tags=["catalog"])
    async def remove(
        artifact_id: str,
        version: Annotated[str | None, Query(max_length=100)] = None,
    ) -> Response:
        """Remove an artifact: every version, or only ``version``."""
        removed = await lg.remove(artifact_id, version)
        return _json(
            RemoveAnswer(
                id=artifact_id,
                version=version,
                removed=removed,
                change_number=await lg.change_number(),
            )
        )

    return app


def _json(model: BaseModel, status: int = 200) -> Response:
    """Serialize once with pydantic (no re-validation on the way out)."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _error(status: int, kind: str, message: str, details: Any = None) -> JSONResponse:
    body: dict[str, Any] = {"type": kind, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)


def _refuse_writes(app: FastAPI) -> None:
    async def refused(artifact_id: str = "") -> JSONResponse:
        return _error(
            403,
            "WritesDisabled",
            "this server is read-only; start it with `lgent serve --http --allow-writes`",
        )

    app.add_api_route("/artifacts", refused, methods=["POST"], include_in_schema=False)
    app.add_api_route(
        "/artifacts/{artifact_id:path}", refused, methods=["DELETE"], include_in_schema=False
    )


def status_of(err: LGentError) -> int:
    """The HTTP status of an LGentError (400 for any kind not listed in ``STATUS``)."""
    return next((code for kind, code in STATUS if isinstance(err, kind)), 400)


def error_details(err: LGentError) -> Any:
    """The machine-readable part of an error: problems, position, closest candidates."""
    if isinstance(err, ValidationError):
        return [{"field": p.field, "message": p.message} for p in err.problems]
    if isinstance(err, QuerySyntaxError):
        return {"position": err.position, "expected": err.expected, "found": err.found}
    if isinstance(err, ConstraintError):
        return {"constraint": err.constraint}
    if isinstance(err, DependencyError):
        return {
            "candidates": [
                c.model_dump(mode="json") if isinstance(c, BaseModel) else str(c)
                for c in err.candidates
            ]
        }
    if isinstance(err, NotFoundError):
        return {"id": err.artifact_id, "version": err.version}
    return None


def _install_error_handlers(app: FastAPI) -> None:
    async def lgent_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LGentError)
        return _error(status_of(exc), type(exc).__name__.rstrip("_"), str(exc), error_details(exc))

    async def invalid_request(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        problems = list(exc.errors())
        if any(p.get("type") == "json_invalid" for p in problems):
            reason = next(p.get("ctx", {}).get("error", "") for p in problems)
            return _error(400, "MalformedJSON", f"the request body is not valid JSON: {reason}")
        details = [
            {
                "field": ".".join(str(part) for part in p["loc"][1:] or p["loc"]),
                "message": "unknown field" if p["type"] == "extra_forbidden" else p["msg"],
            }
            for p in problems
        ]
        message = "invalid request: " + "; ".join(f"{d['field']}: {d['message']}" for d in details)
        return _error(422, "InvalidRequest", message, details)

    async def http_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        kinds = {404: "NotFound", 405: "MethodNotAllowed", 413: "TooLarge"}
        kind = kinds.get(exc.status_code, "HTTPError")
        return _error(exc.status_code, kind, message)

    async def crash(_request: Request, exc: Exception) -> Response:
        log.exception("unexpected error", exc_info=exc)
        return _error(500, "InternalError", "internal error (logged by the server)")

    app.add_exception_handler(LGentError, lgent_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, crash)


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` gets a 413 JSON error before any
    handler runs (by Content-Length when given, else by counting what arrives)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = _error(
            413, "TooLarge", f"the request body is larger than the limit of {self.max_bytes} bytes"
        )
        await response(scope, receive, send)


async def serve_http(
    home: str | os.PathLike[str] | None,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_writes: bool = False,
    progress: BuildProgress | None = None,
) -> None:
    """Serve until interrupted, with one LGent open throughout; brains warm in the background."""
    import uvicorn

    async with LGent.open(home, progress=progress, freshness="snapshot") as lg:
        app = build_http_app(lg, allow_writes=allow_writes)
        config = uvicorn.Config(
            app, host=host, port=port, access_log=False, log_level="info", lifespan="off"
        )
        warming = asyncio.create_task(warm_up(lg))
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
) -> None:
    """Blocking entry point of ``lgent serve --http``."""
    logging.basicConfig(level=logging.WARNING, format="lgent-http: %(message)s")
    asyncio.run(
        serve_http(home, host=host, port=port, allow_writes=allow_writes, progress=progress)
    )
