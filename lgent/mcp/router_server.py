"""``lgent serve --mcp --router mcp.json``: L-gent as one MCP server in front of many.

The agent sees three tools: ``search`` (the servers' tools found by L-gent's search, a few lines
each with their argument types), ``describe`` (a tool's callable definition: the MCP Tool as its
server lists it, and the server) and ``call`` (passed to the owning server; its result, or its
error, comes back as the server gave it). ``lgent.mcp.router`` does the work.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult, Tool, ToolAnnotations
from pydantic import Field

from lgent import __version__, limits
from lgent.errors import LGentError
from lgent.lgent import BuildProgress, LGent
from lgent.mcp.router import Router
from lgent.mcp.router_config import read_config
from lgent.mcp.server import compact_schema, strict_arguments
from lgent.serving import freeze_heap, warm_up

MAX_ROUTER_LIMIT = 20
"""Most tools one search returns."""

INSTRUCTIONS = (
    "This server routes to the tools of several MCP servers. Find a tool with search, read its "
    "definition with describe when its arguments need it, then call it with call."
)

SEARCH = """Find tools among the MCP servers behind this router by what they should do (or by \
name). Each result: id, description, (arguments: types, ? = optional) -> result type.
Example: {"query": "fetch a web page as markdown", "limit": 5}"""

DESCRIBE = """A tool's full definition as its server lists it (input and output JSON Schemas, \
annotations), and its server. Use it when search's one line of arguments is not enough.
Example: {"id": "fetch/fetch"}"""

CALL = """Call a tool found by search with arguments its input schema allows. The tool's own \
result (or error) comes back; a server that is down or too slow is an error saying so.
Example: {"id": "fetch/fetch", "arguments": {"url": "https://example.com"}}"""

ToolId = Annotated[
    str,
    Field(min_length=1, max_length=limits.MAX_ID_LENGTH, description="A tool id from search."),
]

log = logging.getLogger("lgent.mcp.router")


class _RouterServer(MCPServer[Any]):
    """Compact input schemas and strict arguments, as L-gent's own MCP server has them."""

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(update={"input_schema": compact_schema(tool.input_schema)})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            strict_arguments(tool.fn_metadata.arg_model, arguments)
        return await super().call_tool(name, arguments, context)


def _tool_error(err: LGentError) -> ToolError:
    return ToolError(f"{type(err).__name__.rstrip('_')}: {err}")


def build_router_server(lg: LGent, router: Router, *, warm: bool = False) -> MCPServer[Any]:
    """The router's MCP server over the open ``lg``; the servers are harvested at start."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        router.start()
        task = asyncio.create_task(warm_up(lg)) if warm else None
        try:
            yield {}
        finally:
            await router.close()
            if task is not None:
                for problem in await task:
                    log.warning("warm-up: %s", problem)

    server = _RouterServer(
        "lgent-router",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        lifespan=lifespan,
    )
    read = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(description=SEARCH, annotations=read, structured_output=False)
    async def search(
        query: Annotated[
            str,
            Field(min_length=1, max_length=limits.MAX_QUERY_LENGTH, description="What you need."),
        ],
        limit: Annotated[
            int, Field(ge=1, le=MAX_ROUTER_LIMIT, description="At most this many tools.")
        ] = 10,
    ) -> str:
        try:
            return await router.search(query, limit)
        except LGentError as err:
            raise _tool_error(err) from err

    @server.tool(description=DESCRIBE, annotations=read, structured_output=False)
    async def describe(id: ToolId) -> str:
        try:
            return await router.describe(id)
        except LGentError as err:
            raise _tool_error(err) from err

    @server.tool(
        description=CALL,
        annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True),
    )
    async def call(
        id: ToolId,
        arguments: Annotated[
            dict[str, Any], Field(description="The tool's arguments (its input schema).")
        ] = {},  # noqa: B006 - never mutated: handed on as a copy
    ) -> CallToolResult:
        try:
            result: CallToolResult = await router.call(id, arguments)
        except LGentError as err:
            raise _tool_error(err) from err
        return result

    return server


async def serve_router(
    home: str | os.PathLike[str] | None,
    config: str | os.PathLike[str],
    *,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
) -> None:
    """Serve the router over stdin/stdout until the client hangs up."""
    servers = read_config(config)
    async with LGent.open(home, catalog=catalog, progress=progress, freshness="snapshot") as lg:
        router = Router(lg, servers)
        server = build_router_server(lg, router, warm=True)
        freeze_heap()
        await server.run_stdio_async()


def run_router(
    home: str | os.PathLike[str] | None,
    config: str | os.PathLike[str],
    *,
    progress: BuildProgress | None = None,
    catalog: str | None = None,
) -> None:
    """Blocking entry point of ``lgent serve --mcp --router``. Logs go to stderr."""
    logging.basicConfig(
        level=logging.WARNING, stream=sys.stderr, format="lgent-router: %(message)s"
    )
    asyncio.run(serve_router(home, config, progress=progress, catalog=catalog))


__all__ = ["build_router_server", "run_router", "serve_router"]
