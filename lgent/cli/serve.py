"""``lgent serve``: one long-lived process serving the home over MCP (stdio) or HTTP.

The server modules (and the MCP SDK, FastAPI, uvicorn) load only when this command runs.
"""

from __future__ import annotations

from typing import Annotated

import typer


def serve(
    ctx: typer.Context,
    mcp: Annotated[
        bool, typer.Option("--mcp", help="Serve the Model Context Protocol over stdio.")
    ] = False,
    http: Annotated[
        bool, typer.Option("--http", help="Serve the JSON HTTP API (OpenAPI at /openapi.json).")
    ] = False,
    host: Annotated[
        str, typer.Option(help="HTTP: the address to bind (loopback unless told otherwise).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="HTTP: the port (0 picks a free one).")
    ] = 8765,
    allow_writes: Annotated[
        bool, typer.Option("--allow-writes", help="Allow registering and removing artifacts.")
    ] = False,
) -> None:
    """Serve the catalog to agents: --mcp (stdio) or --http, keeping the model and indexes warm.

    The home must hold a catalog, unless --allow-writes lets the server fill a new one."""
    from lgent.cli.context import global_options, require_catalog
    from lgent.cli.progress import StderrBuildProgress

    if mcp == http:
        raise typer.BadParameter("give exactly one of --mcp or --http", param_hint="--mcp/--http")
    options = global_options(ctx)
    if not allow_writes:
        require_catalog(options.home, options.catalog)
    # a shared catalog's URL reaches the server only when given (else lgent.toml decides)
    shared = {"catalog": options.catalog} if options.catalog is not None else {}
    if mcp:
        from lgent.mcp.server import run_stdio

        # stdout carries only the protocol; build progress goes to stderr
        run_stdio(options.home, allow_writes=allow_writes, progress=StderrBuildProgress(), **shared)
    else:
        from lgent.http.app import run_http

        run_http(
            options.home,
            host=host,
            port=port,
            allow_writes=allow_writes,
            progress=StderrBuildProgress(),
            **shared,
        )
