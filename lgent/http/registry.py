"""The MCP registry's read API (v0.1), served from the catalog, so clients that read a registry
(an MCP client's server gallery, an aggregator) can read L-gent.

- ``GET /v0.1/servers``: the catalog's MCP servers, ``limit`` a page after ``cursor``; with
  ``search``, ranked by L-gent's search instead of listed by name.
- ``GET /v0.1/servers/{serverName}/versions``: every version of one server, newest first.
- ``GET /v0.1/servers/{serverName}/versions/{version}``: one version (``latest`` for the latest).

Each server is answered as the registry answers (``{"server": <server.json>, "_meta": {...}}``):
a server imported from a ``server.json`` with that record as written; one harvested or read from
a ``tools/list`` with a record made from its entry (its remote URL when it is reached over HTTP,
and L-gent's own launch under ``_meta``). A server the catalog does not hold is a 404
``{"error": "Server not found"}``, the registry's shape.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse, Response

from lgent import limits
from lgent.errors import NotFoundError
from lgent.http.callers import Caller
from lgent.lgent import LGent
from lgent.models import CatalogEntry, EntityType, Status
from lgent.serving import PAGE_DEPTH

OFFICIAL = "io.modelcontextprotocol.registry/official"
CATALOG_META = "lgent/catalog"
"""The ``_meta`` key of what L-gent adds: the artifact id, its launch, a search's score."""
MAX_PAGE = 100
DESCRIPTION_CHARS = 100
"""A made record's description is cut to the registry's limit."""
_STATUS = {Status.DEPRECATED: "deprecated", Status.RETIRED: "deleted"}


def is_mcp_server(entry: CatalogEntry) -> bool:
    origin = entry.origin
    return origin is not None and origin.protocol == "mcp" and origin.role == "server"


def server_record(entry: CatalogEntry) -> dict[str, Any]:
    """The server.json of an MCP server entry: its own record, or one made from the entry."""
    origin = entry.origin
    if origin is not None and origin.record is not None:
        return origin.record
    record: dict[str, Any] = {
        "name": entry.id,
        "description": _cut(entry.description.split("\n\n", 1)[0] or entry.name),
        "version": entry.version,
    }
    if entry.name != entry.id:
        record["title"] = entry.name[:DESCRIPTION_CHARS]
    remotes = [
        {"type": launch.transport, "url": launch.url}
        for launch in (origin.launch if origin is not None else ())
        if launch.transport != "stdio" and launch.url
    ]
    if remotes:
        record["remotes"] = remotes
    return record


def _cut(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= DESCRIPTION_CHARS else flat[: DESCRIPTION_CHARS - 1] + "…"


def server_response(
    entry: CatalogEntry, *, latest: bool, score: float | None = None
) -> dict[str, Any]:
    """One server as the registry answers it."""
    ours: dict[str, Any] = {"id": entry.id}
    definition = entry.callable_definition()
    if definition is not None and definition.get("launch"):
        ours["launch"] = definition["launch"]
    if score is not None:
        ours["score"] = round(score, 6)
    return {
        "server": server_record(entry),
        "_meta": {
            OFFICIAL: {"status": _STATUS.get(entry.status, "active"), "isLatest": latest},
            CATALOG_META: ours,
        },
    }


def not_found() -> Response:
    return JSONResponse({"error": "Server not found"}, status_code=404)


def _offset(cursor: str | None) -> int | None:
    if cursor is None or cursor == "":
        return 0
    if cursor.isascii() and cursor.isdigit() and int(cursor) <= limits.MAX_OFFSET:
        return int(cursor)
    return None


def add_registry_routes(app: FastAPI, lg: LGent) -> None:
    """The registry's v0.1 read endpoints on ``app`` (see the module)."""

    @app.get("/v0.1/servers", tags=["mcp registry"])
    async def list_servers(
        me: Caller,
        cursor: Annotated[str | None, Query(max_length=20)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 30,
        search: Annotated[str | None, Query(max_length=limits.MAX_QUERY_LENGTH)] = None,
        version: Annotated[str | None, Query(max_length=limits.MAX_VERSION_LENGTH)] = None,
        updated_since: Annotated[str | None, Query(max_length=100)] = None,
        include_deleted: bool = False,
    ) -> Response:
        """The catalog's MCP servers (latest versions), or those L-gent's search finds for
        ``search``, best first; ``nextCursor`` continues."""
        offset = _offset(cursor)
        if offset is None:
            return JSONResponse({"error": f"invalid cursor {cursor!r}"}, status_code=400)
        if updated_since is not None:
            return JSONResponse(
                {"error": "updated_since is not supported: this registry keeps no update times"},
                status_code=400,
            )
        scored: list[tuple[CatalogEntry, float | None]]
        if search is not None and search.strip():
            response = await me.query(search, limit=PAGE_DEPTH)
            scored = [(r.entry, r.score) for r in response.results if is_mcp_server(r.entry)]
        else:
            others = await me.list_entries({"entity_type": EntityType.OTHER.value})
            scored = [(e, None) for e in others if is_mcp_server(e)]
        if not include_deleted:
            scored = [(e, s) for e, s in scored if e.status != Status.RETIRED]
        if version is not None and version != "latest":
            scored = [(e, s) for e, s in scored if e.version == version]
        page = scored[offset : offset + limit]
        metadata: dict[str, Any] = {"count": len(page)}
        if offset + limit < len(scored):
            metadata["nextCursor"] = str(offset + limit)
        servers = [server_response(e, latest=True, score=s) for e, s in page]
        return JSONResponse({"servers": servers, "metadata": metadata})

    @app.get("/v0.1/servers/{server_name:path}/versions/{version}", tags=["mcp registry"])
    async def get_server_version(
        me: Caller, server_name: str, version: str, include_deleted: bool = False
    ) -> Response:
        """One version of a server (``latest``: the latest)."""
        try:
            latest = await me.get(server_name)
            entry = latest if version == "latest" else await me.get(server_name, version)
        except NotFoundError:
            return not_found()
        if not is_mcp_server(entry) or (entry.status == Status.RETIRED and not include_deleted):
            return not_found()
        return JSONResponse(server_response(entry, latest=entry.version == latest.version))

    @app.get("/v0.1/servers/{server_name:path}/versions", tags=["mcp registry"])
    async def list_server_versions(
        me: Caller, server_name: str, include_deleted: bool = False
    ) -> Response:
        """Every version of a server, newest first."""
        try:
            latest = await me.get(server_name)
            versions = await me.versions(server_name)
        except NotFoundError:
            return not_found()
        if not is_mcp_server(latest):
            return not_found()
        entries = [await me.get(server_name, v) for v in reversed(versions)]
        shown = [e for e in entries if include_deleted or e.status != Status.RETIRED]
        servers = [server_response(e, latest=e.version == latest.version) for e in shown]
        return JSONResponse({"servers": servers, "metadata": {"count": len(servers)}})


__all__ = ["add_registry_routes", "server_record", "server_response"]
