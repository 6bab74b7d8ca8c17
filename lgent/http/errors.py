"""Errors of the HTTP API: one JSON shape for every one of them, and the body size limit.

Every error is ``{"error": {"type": ..., "message": ..., "details": ...}}`` (``details`` only
where there are some): malformed JSON is 400, a request that breaks its schema (unknown field,
``limit`` out of range, over-long query) 422, an unknown path 404, a wrong method 405, a body over
the limit 413, and each LGentError its own status (see ``STATUS``: a 4xx for what the caller can
fix, 503 for a shared catalog that cannot be reached, 507 for a full disk); only a fault of the
server itself is a 500.

A request body is bounded before any model validates it (``BodyLimit``): its bytes, and, for a
JSON body, how many values and keys it holds (``MAX_BODY_VALUES``) and how deeply they nest
(``MAX_BODY_DEPTH``); a large body is parsed for that on a worker thread, never on the event
loop. A 422 lists at most ``MAX_DETAILS`` problems and says how many more there were.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lgent.errors import (
    AccessDeniedError,
    CatalogError,
    CatalogUnreachableError,
    ConstraintError,
    DependencyError,
    DiskFullError,
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

log = logging.getLogger("lgent.http")

# Most specific first: the first class an error is an instance of gives its status.
STATUS: tuple[tuple[type[LGentError], int], ...] = (
    (NotFoundError, 404),
    (AccessDeniedError, 403),
    (CatalogUnreachableError, 503),
    (DiskFullError, 507),
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

KINDS = {404: "NotFound", 405: "MethodNotAllowed", 413: "TooLarge"}
MAX_BODY_VALUES = 5_000
"""Most values (and keys) one JSON request body may hold: a registration with every field at its
limit holds about 1,500."""
MAX_BODY_DEPTH = 32
"""Deepest nesting of a JSON request body (a registration nests 3 deep)."""
MAX_DETAILS = 20
"""Most problems a 422 lists (the message says how many there were)."""
OFF_LOOP_BYTES = 64 * 1024
"""A body at least this large is parsed on a worker thread to check its shape."""
"""The ``type`` of an error Starlette raises itself, by status."""


class ErrorBody(BaseModel):
    type: str
    message: str
    details: Any = None


class ErrorAnswer(BaseModel):
    """What every error answers."""

    error: ErrorBody


def error_response(status: int, kind: str, message: str, details: Any = None) -> JSONResponse:
    body: dict[str, Any] = {"type": kind, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)


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
        details: dict[str, Any] = {"id": err.artifact_id, "version": err.version}
        close = getattr(err, "close_ids", ())
        if close:
            details["did_you_mean"] = list(close)
        return details
    return None


def _why(cause: BaseException | None) -> str:
    """Why a body FastAPI could not read failed: not UTF-8, nested too deeply, or else."""
    if isinstance(cause, UnicodeDecodeError):
        return f"it is not UTF-8 (byte {cause.start}: {cause.reason})"
    if isinstance(cause, RecursionError):
        return "it is nested too deeply"
    return str(cause) if cause is not None else "it could not be read"


def install_error_handlers(app: FastAPI) -> None:
    async def lgent_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LGentError)
        kind = type(exc).__name__.rstrip("_")
        return error_response(status_of(exc), kind, str(exc), error_details(exc))

    async def invalid_request(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        problems = list(exc.errors())
        if any(p.get("type") == "json_invalid" for p in problems):
            reason = next(p.get("ctx", {}).get("error", "") for p in problems)
            return error_response(
                400, "MalformedJSON", f"the request body is not valid JSON: {reason}"
            )
        details = [
            {
                "field": ".".join(str(part) for part in p["loc"][1:] or p["loc"]),
                "message": "unknown field"
                if p["type"] == "extra_forbidden"
                else p["msg"].removeprefix("Value error, "),
            }
            for p in problems[:MAX_DETAILS]
        ]
        more = len(problems) - len(details)
        message = "invalid request: " + "; ".join(f"{d['field']}: {d['message']}" for d in details)
        if more:
            message += f" (and {more} more problem{'s' * (more > 1)})"
        return error_response(422, "InvalidRequest", message, details)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        allowed = (exc.headers or {}).get("Allow", "")
        if exc.status_code == 400 and message == "There was an error parsing the body":
            return error_response(
                400, "MalformedJSON", f"the request body is not valid JSON: {_why(exc.__cause__)}"
            )
        if exc.status_code == 404 and message == "Not Found":
            from lgent.http.html import not_found, wants_html

            if wants_html(request.headers.get("accept", "")):  # a browser: a page, not JSON
                return not_found(f"There is no page at {request.url.path}.")
            message = f"no such path: {request.url.path} (every path is listed at /docs)"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}" + (
                f"; allowed: {allowed}" if allowed else ""
            )
        response = error_response(exc.status_code, KINDS.get(exc.status_code, "HTTPError"), message)
        if allowed:
            response.headers["Allow"] = allowed
        return response

    async def crash(_request: Request, exc: Exception) -> Response:
        log.exception("unexpected error", exc_info=exc)
        return error_response(500, "InternalError", "internal error (logged by the server)")

    app.add_exception_handler(LGentError, lgent_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, crash)


def body_shape_problem(body: bytes) -> str | None:
    """Why a JSON request body is too big to validate (too many values, or nested too deeply),
    or None: also None for a body that is not JSON at all (the handler says so)."""
    try:
        data = json.loads(body)
    except RecursionError:
        return f"the request body is nested deeper than {MAX_BODY_DEPTH} levels"
    except ValueError:
        return None
    count = 0
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_BODY_DEPTH:
            return f"the request body is nested deeper than {MAX_BODY_DEPTH} levels"
        count += 1
        if isinstance(value, dict):
            count += len(value)
            pending.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            pending.extend((v, depth + 1) for v in value)
        if count > MAX_BODY_VALUES:
            return f"the request body holds more than {MAX_BODY_VALUES} values and keys"
    return None


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` gets a 413 JSON error before any
    handler runs (by Content-Length when given, else by counting what arrives); so does a JSON
    body with too many values or too deep a nesting (``body_shape_problem``, checked on a
    worker thread for a large body)."""

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
        if body:
            problem = (
                await asyncio.to_thread(body_shape_problem, body)
                if len(body) >= OFF_LOOP_BYTES
                else body_shape_problem(body)
            )
            if problem is not None:
                response = error_response(413, "TooLarge", problem)
                await response(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "TooLarge", f"the request body is larger than the limit of {self.max_bytes} bytes"
        )
        await response(scope, receive, send)
