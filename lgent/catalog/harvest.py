"""Harvest a live MCP server: its ``serverInfo`` and every page of ``tools/list``, through the
official ``mcp`` SDK client, over stdio (a command L-gent starts and stops) or streamable HTTP.

The result is a document the MCP reader reads exactly like a ``tools/list`` file, with a
``launch`` beside the tools saying how the server was started or reached. Every failure
(the command does not start, the server answers no protocol, no answer in time) is one
``LoadError`` naming the server and why, with the end of what the server wrote to stderr.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import tempfile
from contextlib import AbstractAsyncContextManager
from typing import Any

from lgent.catalog.readers.base import Document
from lgent.errors import LoadError

MAX_PAGES = 1000
"""Most ``tools/list`` pages read from one server (a server whose cursor never ends is cut)."""


async def harvest_mcp(
    *, command: str | None = None, url: str | None = None, timeout: float = 60.0
) -> Document:
    """The ``tools/list`` of the server started by ``command`` or reached at ``url``."""
    if (command is None) == (url is None):
        raise LoadError("give the MCP server as a command (stdio) or a URL (streamable HTTP)")
    where = f"MCP server {command!r}" if command is not None else f"MCP server at {url}"
    noise = _SdkLog()
    sdk_log = logging.getLogger("mcp")
    propagate = sdk_log.propagate
    sdk_log.addHandler(noise)
    sdk_log.propagate = False  # the SDK logs bad lines with tracebacks: they become our reason
    try:
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
            try:
                transport = _transport(command, url, errlog)
                async with asyncio.timeout(timeout):
                    data = await _list(transport)
            except TimeoutError:
                raise LoadError(
                    f"{where}: no complete answer within {timeout:g} s{noise.summary()}"
                ) from None
            except LoadError:
                raise
            except Exception as err:  # the SDK's and the transport's errors, in task groups too
                raise LoadError(
                    f"{where}: {_reason(err)}{noise.summary()}{_stderr_tail(errlog)}"
                ) from None
    finally:
        sdk_log.removeHandler(noise)
        sdk_log.propagate = propagate
    data["launch"] = launch_of(command, url)
    source = f"mcp+stdio:{command}" if command is not None else f"mcp+http:{url}"
    return Document.of_data(source, data)


def launch_of(command: str | None, url: str | None) -> dict[str, Any]:
    """The ``launch`` of a server started by ``command`` or reached at ``url``."""
    if command is not None:
        program, *args = shlex.split(command)
        return {"transport": "stdio", "command": program, "args": args}
    return {"transport": "streamable-http", "url": url}


def _transport(
    command: str | None, url: str | None, errlog: Any
) -> AbstractAsyncContextManager[Any]:
    if command is not None:
        from mcp.client.stdio import StdioServerParameters, stdio_client

        try:
            program, *args = shlex.split(command)
        except ValueError as err:
            raise LoadError(f"cannot read the command {command!r}: {err}") from None
        return stdio_client(StdioServerParameters(command=program, args=args), errlog=errlog)
    from mcp.client.streamable_http import streamable_http_client

    assert url is not None
    return streamable_http_client(url)


async def _list(transport: AbstractAsyncContextManager[Any]) -> dict[str, Any]:
    from mcp import ClientSession

    async with transport as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        return await listed_tools(session, init)


async def listed_tools(session: Any, init: Any) -> dict[str, Any]:
    """``{"serverInfo", "tools", "instructions"}`` of an initialized ``ClientSession``: every
    page of its ``tools/list`` (``init`` is the answer to its ``initialize``)."""
    from mcp_types import PaginatedRequestParams

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(
            t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page.tools
        )
        cursor = page.next_cursor
        if not cursor:
            break
    info = init.server_info.model_dump(by_alias=True, exclude_none=True, mode="json")
    data: dict[str, Any] = {"serverInfo": info, "tools": tools}
    if init.instructions:
        data["instructions"] = init.instructions
    return data


class _SdkLog(logging.Handler):
    """Keeps the SDK's warnings and errors (one line each, no traceback) for the error message."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.lines) < 3:
            self.lines.append(record.getMessage().splitlines()[0][:200])

    def summary(self) -> str:
        return "".join(f"\n  {line}" for line in self.lines)


def _reason(err: BaseException) -> str:
    """The innermost message of ``err``, unwrapping exception groups."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__


def _stderr_tail(errlog: Any, lines: int = 5) -> str:
    errlog.seek(0)
    tail = errlog.read().strip().splitlines()[-lines:]
    return ("\n  server stderr: " + "\n  ".join(tail)) if tail else ""
