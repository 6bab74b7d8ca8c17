"""One MCP server behind the router: started (or connected to) on demand through the official
``mcp`` client, kept open while it answers, started again after it stopped.

The connection lives in a task of its own (the SDK's transports and sessions must be entered
and left in one task); calls from other tasks go through its ``ClientSession``. A
``notifications/tools/list_changed`` from the server calls ``on_tools_changed``. A server that
cannot start, or stops, is one ``UpstreamError`` saying which server, why, and the end of what it
wrote to stderr; the router goes on.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from lgent.errors import LGentError
from lgent.mcp.router_config import DEFAULT_TIMEOUT, ServerConfig

MAX_PAGES = 1000
"""Most ``tools/list`` pages read from one server."""
STDERR_LINES = 5

log = logging.getLogger("lgent.mcp.router")


class UpstreamError(LGentError):
    """An MCP server behind the router could not be started, reached, or answer in time."""


class Upstream:
    """One configured server and its live connection (None while stopped)."""

    def __init__(
        self,
        config: ServerConfig,
        on_tools_changed: Callable[[Upstream], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        self.config = config
        self.on_tools_changed = on_tools_changed
        self.session: Any = None
        self.init: Any = None
        self.problem = ""
        """Why the server is not running ("" while it runs or was never started)."""
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._lock = asyncio.Lock()
        self._errlog: Any = None
        self._notified: set[asyncio.Task[None]] = set()

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def start_timeout(self) -> float:
        """Seconds a start (and a tool list) may take: the server's timeout, but at least
        ``DEFAULT_TIMEOUT`` (a short call timeout must not fail a start on a busy machine)."""
        return max(self.config.timeout, DEFAULT_TIMEOUT)

    @property
    def running(self) -> bool:
        return self.session is not None and self._task is not None and not self._task.done()

    async def ensure_started(self) -> Any:
        """The open session, starting the server first if it is not running."""
        async with self._lock:
            if self.running:
                return self.session
            await self._close()
            self._stop = asyncio.Event()
            ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            if self._errlog is not None:
                self._errlog.close()
            # kept open across the connection's life (its tail goes into error messages)
            self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            self._task = asyncio.create_task(self._run(ready), name=f"mcp-upstream-{self.name}")
            try:
                async with asyncio.timeout(self.start_timeout):
                    self.session = await asyncio.shield(ready)
            except TimeoutError:
                await self._close()
                self.problem = f"did not start within {self.start_timeout:g} s"
                raise UpstreamError(self._say(self.problem)) from None
            except Exception as err:  # the transport's and the SDK's errors, in groups too
                await self._close()
                self.problem = _reason(err)
                raise UpstreamError(self._say(self.problem)) from None
            self.problem = ""
            return self.session

    async def list_tools(self) -> dict[str, Any]:
        """``{"serverInfo", "tools", "instructions"}``: every page of the server's tool list."""
        from mcp_types import PaginatedRequestParams

        session = await self.ensure_started()
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        try:
            async with asyncio.timeout(self.start_timeout):
                for _ in range(MAX_PAGES):
                    params = PaginatedRequestParams(cursor=cursor) if cursor else None
                    page = await session.list_tools(params=params)
                    tools.extend(
                        t.model_dump(by_alias=True, exclude_none=True, mode="json")
                        for t in page.tools
                    )
                    cursor = page.next_cursor
                    if not cursor:
                        break
        except TimeoutError:
            raise UpstreamError(
                self._say(f"no complete tool list within {self.start_timeout:g} s")
            ) from None
        except Exception as err:
            raise UpstreamError(self._say(await self._stopped(err))) from None
        info = self.init.server_info.model_dump(by_alias=True, exclude_none=True, mode="json")
        data: dict[str, Any] = {"serverInfo": info, "tools": tools}
        if self.init.instructions:
            data["instructions"] = self.init.instructions
        return data

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        """The server's ``CallToolResult`` for ``tool``; UpstreamError when it cannot start,
        stops while answering, or takes longer than its timeout."""
        session = await self.ensure_started()
        try:
            return await session.call_tool(
                tool, arguments, read_timeout_seconds=self.config.timeout
            )
        except Exception as err:
            message = str(err)
            if "timed out" in message:
                raise UpstreamError(
                    self._say(f"{tool} gave no answer within {self.config.timeout:g} s")
                ) from None
            raise UpstreamError(self._say(await self._stopped(err), tool)) from None

    async def stop(self) -> None:
        async with self._lock:
            await self._close()
            if self._errlog is not None:
                self._errlog.close()

    async def _stopped(self, err: BaseException) -> str:
        """Why a request failed: the server stopped (it is then closed, to start again on the
        next call) or it answered with an error."""
        reason = _reason(err)
        if "Connection closed" in reason or not self.running:
            await asyncio.sleep(0.05)  # let the process's exit and its last words arrive
            async with self._lock:
                await self._close()
            self.problem = "stopped while answering"
            return f"the server stopped while answering ({reason}); it is started again on the next call"
        return reason

    def _say(self, what: str, tool: str | None = None) -> str:
        called = f" ({tool})" if tool else ""
        return f"MCP server {self.name!r}{called}: {what}{self._stderr_tail()}"

    def _stderr_tail(self) -> str:
        if self._errlog is None or self._errlog.closed:
            return ""
        try:
            self._errlog.seek(0)
            lines = self._errlog.read().strip().splitlines()[-STDERR_LINES:]
        except (OSError, ValueError):
            return ""
        return ("\n  server stderr: " + "\n  ".join(lines)) if lines else ""

    async def _run(self, ready: asyncio.Future[Any]) -> None:
        from mcp import ClientSession

        try:
            async with (
                self._transport() as streams,
                ClientSession(streams[0], streams[1], message_handler=self._on_message) as session,
            ):
                self.init = await session.initialize()
                if not ready.done():
                    ready.set_result(session)
                await self._stop.wait()
        except BaseException as err:
            if not ready.done():  # the starter reports it
                ready.set_exception(err if isinstance(err, Exception) else RuntimeError(str(err)))
            elif isinstance(err, Exception):
                log.warning("MCP server %r stopped: %s", self.name, _reason(err))
            if not isinstance(err, Exception):
                raise
        finally:
            self.session = None

    def _transport(self) -> AbstractAsyncContextManager[Any]:
        config = self.config
        if config.transport == "stdio":
            from mcp.client.stdio import StdioServerParameters, stdio_client

            assert config.command is not None
            parameters = StdioServerParameters(
                command=config.command,
                args=list(config.args),
                env=dict(config.env) or None,
                cwd=config.cwd,
            )
            return stdio_client(parameters, errlog=self._errlog)
        assert config.url is not None
        if config.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(config.url, headers=dict(config.headers))
        return _streamable_http(config.url, dict(config.headers))

    async def _on_message(self, message: Any) -> None:
        from mcp_types import ToolListChangedNotification

        if isinstance(message, ToolListChangedNotification) and self.on_tools_changed:
            task: asyncio.Task[None] = asyncio.create_task(self.on_tools_changed(self))
            self._notified.add(task)
            task.add_done_callback(self._notified.discard)

    async def _close(self) -> None:
        task, self._task = self._task, None
        self._stop.set()
        if task is not None and not task.done():
            try:
                async with asyncio.timeout(5):
                    await asyncio.shield(task)
            except TimeoutError:
                task.cancel()
            except Exception:  # the connection's own failure was reported already
                pass
        self.session = None


@asynccontextmanager
async def _streamable_http(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    """The streamable HTTP transport with the configured headers, its client closed after."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
        streamable_http_client(url, http_client=client) as streams,
    ):
        yield streams


def _reason(err: BaseException) -> str:
    """The innermost message of ``err``, unwrapping exception groups."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__


__all__ = ["Upstream", "UpstreamError"]
