"""``lgent serve``: one long-lived process serving the home over MCP (stdio) or HTTP.

The server modules (and the MCP SDK, FastAPI, uvicorn) load only when this command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

MIN_TOKEN_LENGTH = 16


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
    token: Annotated[
        str | None,
        typer.Option(
            envvar="LGENT_TOKEN",
            show_envvar=True,
            help="HTTP: a bearer token (16+ characters) every write must send "
            "(Authorization: Bearer TOKEN); reads too with http.token_for_reads. MCP: the "
            "secret of a named token of [access.tokens], whose scope every tool answers for. "
            "Prefer the environment variable: a command line is visible to other users.",
        ),
    ] = None,
    router: Annotated[
        str | None,
        typer.Option(
            "--router",
            metavar="MCP_JSON",
            help="MCP: route to the MCP servers of this mcpServers configuration (Claude "
            "Desktop, Cursor or VS Code shape): their tools are harvested into the home, and the "
            "agent gets search, describe and call.",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="HTTP: a host name clients may use in the Host header, besides the loopback "
            "names (repeatable; '*' allows any).",
        ),
    ] = None,
) -> None:
    """Serve the catalog to agents: --mcp (stdio) or --http, keeping the model and indexes warm.

    The home must hold a catalog, unless --allow-writes lets the server fill a new one."""
    from lgent.cli.context import global_options, require_catalog

    _check_options(mcp, http, token, allow_host, router)
    options = global_options(ctx)
    if not allow_writes and router is None:  # a router fills its home from its servers
        require_catalog(options.home, options.catalog)
    # a shared catalog's URL reaches the server only when given (else lgent.toml decides)
    shared: dict[str, Any] = {}
    if options.catalog is not None:
        shared["catalog"] = options.catalog
    if mcp:
        if token is not None and router is None:
            shared["token"] = token.strip()
        _serve_mcp(options.home, router, allow_writes, shared)
        return
    # the guard's options reach the server only when given (else lgent.toml decides)
    guard: dict[str, Any] = {}
    if token is not None:
        guard["token"] = token.strip()
    if allow_host:
        guard["allow_hosts"] = tuple(allow_host)
    _serve_http(options.home, host, port, allow_writes, {**shared, **guard})


def _check_options(
    mcp: bool, http: bool, token: str | None, allow_host: list[str] | None, router: str | None
) -> None:
    """A usage error (exit 2) for options that do not go together."""
    if mcp == http:
        raise typer.BadParameter("give exactly one of --mcp or --http", param_hint="--mcp/--http")
    if mcp and allow_host:
        raise typer.BadParameter(
            "--allow-host guards the HTTP server (MCP runs over stdio)",
            param_hint="--allow-host",
        )
    if token is not None and len(token.strip()) < MIN_TOKEN_LENGTH:
        raise typer.BadParameter(
            f"the token must be at least {MIN_TOKEN_LENGTH} characters", param_hint="--token"
        )
    if token is not None:
        from lgent.errors import SettingsError
        from lgent.http.guard import check_token

        try:
            check_token(token.strip())
        except SettingsError as err:
            raise typer.BadParameter(str(err), param_hint="--token") from None
    if router is not None and not mcp:
        raise typer.BadParameter("--router needs --mcp", param_hint="--router")


def _serve_mcp(home: Path, router: str | None, allow_writes: bool, shared: dict[str, Any]) -> None:
    from lgent.cli.progress import StderrBuildProgress

    if router is not None:
        from lgent.mcp.router_config import read_config
        from lgent.mcp.router_server import run_router

        read_config(router)  # a bad configuration is an error before anything starts
        run_router(home, router, progress=StderrBuildProgress(), **shared)
        return
    from lgent.mcp.server import run_stdio

    # stdout carries only the protocol; build progress goes to stderr
    run_stdio(home, allow_writes=allow_writes, progress=StderrBuildProgress(), **shared)


def _serve_http(
    home: Path, host: str, port: int, allow_writes: bool, options: dict[str, Any]
) -> None:
    from lgent.cli.progress import StderrBuildProgress
    from lgent.http.app import run_http

    run_http(
        home,
        host=host,
        port=port,
        allow_writes=allow_writes,
        progress=StderrBuildProgress(),
        **options,
    )
