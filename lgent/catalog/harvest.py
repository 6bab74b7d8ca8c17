"""Harvest a live MCP server: its ``serverInfo`` and every page of ``tools/list``, through the
official ``mcp`` SDK client, over stdio (a command L-gent starts and stops) or streamable HTTP.

The result is a document the MCP reader reads exactly like a ``tools/list`` file, with a
``launch`` beside the tools saying how the server was started or reached. Every failure
(the command does not start, the server answers no protocol, no answer in time) is one
``LoadError`` naming the server and why, with the end of what the server wrote to stderr.

Every harvest is bounded:

- **time**: ``timeout`` seconds for the whole harvest;
- **bytes**: over HTTP, everything the server sends counts against ``max_bytes`` (64 MiB by
  default); past it the harvest stops at once, nothing imported (a server streaming an endless
  body or event stream would otherwise fill memory);
- **pages**: at most ``MAX_PAGES`` pages of ``tools/list``, and a cursor the server gives twice
  (a loop) ends the listing. Either way the tools read so far are imported with a warning, and
  the server's tools that were not listed are left alone, not retired (``readers.mcp.PARTIAL``);
- **processes**: a stdio server is started in a session of its own; when the harvest ends, every
  process still in that session (children and grandchildren the server left) is killed.

``name`` makes the harvested server's id (and its owner, ``lgent.catalog.ownership``) a name
the caller chooses, instead of the name the server gives itself; without it the owner is the
configured command or URL, so a server can never claim an id another source owns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from lgent.catalog.readers.base import Document
from lgent.catalog.readers.mcp import PARTIAL
from lgent.errors import LoadError

if TYPE_CHECKING:
    import httpx2

MAX_PAGES = 1000
"""Most ``tools/list`` pages read from one server; past it the listing is cut, with a warning."""
MAX_HARVEST_BYTES = 64 << 20
"""Most bytes a server may send over HTTP during one harvest."""


class TooMuchData(Exception):
    """The server sent more than the harvest's byte budget."""


async def harvest_mcp(
    *,
    command: str | None = None,
    url: str | None = None,
    timeout: float = 60.0,
    name: str | None = None,
    max_bytes: int = MAX_HARVEST_BYTES,
) -> Document:
    """The ``tools/list`` of the server started by ``command`` or reached at ``url``; ``name``:
    the server's name here (see the module docstring)."""
    if (command is None) == (url is None):
        raise LoadError("give the MCP server as a command (stdio) or a URL (streamable HTTP)")
    if name is not None and not name.strip():
        raise LoadError("the server's name (--name) is empty")
    where = f"MCP server {command!r}" if command is not None else f"MCP server at {url}"
    noise = _SdkLog()
    sdk_log = logging.getLogger("mcp")
    propagate = sdk_log.propagate
    sdk_log.addHandler(noise)
    sdk_log.propagate = False  # the SDK logs bad lines with tracebacks: they become our reason
    budget = _Budget(max_bytes)
    sessions = _Sessions()
    try:
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
            try:
                async with asyncio.timeout(timeout):
                    data = await _until_over(budget, _list(command, url, errlog, budget, sessions))
            except TimeoutError:
                raise LoadError(
                    f"{where}: no complete answer within {timeout:g} s{noise.summary()}"
                ) from None
            except TooMuchData:
                raise LoadError(
                    f"{where}: sent more than {max_bytes >> 20} MiB; the harvest was stopped "
                    "and nothing imported"
                ) from None
            except LoadError:
                raise
            except Exception as err:  # the SDK's and the transport's errors, in task groups too
                raise LoadError(
                    f"{where}: {_reason(err)}{noise.summary()}{_stderr_tail(errlog)}"
                ) from None
    finally:
        sessions.end()
        sdk_log.removeHandler(noise)
        sdk_log.propagate = propagate
    data["launch"] = launch_of(command, url)
    if name is not None:
        data["serverInfo"] = {**data.get("serverInfo", {}), "name": name.strip()}
        source = f"mcp+name:{name.strip()}"
    elif command is not None:
        source = f"mcp+stdio:{command}"
    else:
        source = f"mcp+http:{url}"
    return Document.of_data(source, data)


def launch_of(command: str | None, url: str | None) -> dict[str, Any]:
    """The ``launch`` of a server started by ``command`` or reached at ``url``."""
    if command is not None:
        program, *args = shlex.split(command)
        return {"transport": "stdio", "command": program, "args": args}
    return {"transport": "streamable-http", "url": url}


async def _until_over(budget: _Budget, work: Any) -> dict[str, Any]:
    """``work``'s result, or ``TooMuchData`` as soon as the byte budget is spent (the SDK may
    swallow the error in one of its tasks and wait on: the harvest does not)."""
    task = asyncio.ensure_future(work)
    over = asyncio.ensure_future(budget.spent.wait())
    try:
        await asyncio.wait({task, over}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            result: dict[str, Any] = task.result()
            return result
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise TooMuchData
    finally:
        over.cancel()
        if not task.done():
            task.cancel()


def _transport(
    command: str | None, url: str | None, errlog: Any, budget: _Budget
) -> AbstractAsyncContextManager[Any]:
    if command is not None:
        from mcp.client.stdio import StdioServerParameters, stdio_client

        try:
            program, *args = shlex.split(command)
        except ValueError as err:
            raise LoadError(f"cannot read the command {command!r}: {err}") from None
        return stdio_client(StdioServerParameters(command=program, args=args), errlog=errlog)
    assert url is not None
    return _http_transport(url, budget)


@contextlib.asynccontextmanager
async def _http_transport(url: str, budget: _Budget) -> AsyncIterator[Any]:
    """The SDK's streamable HTTP transport over a client whose every response counts its bytes
    against ``budget``."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

    client = httpx2.AsyncClient(
        timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
        transport=_counted(httpx2.AsyncHTTPTransport(), budget),
    )
    async with client, streamable_http_client(url, http_client=client) as streams:
        yield streams


async def _list(
    command: str | None, url: str | None, errlog: Any, budget: _Budget, sessions: _Sessions
) -> dict[str, Any]:
    from mcp import ClientSession

    transport = _transport(command, url, errlog, budget)
    async with transport as (read, write), ClientSession(read, write) as session:
        if command is not None:
            sessions.note_new()
        init = await session.initialize()
        if command is not None:
            sessions.note_new()
        return await listed_tools(session, init)


async def listed_tools(session: Any, init: Any) -> dict[str, Any]:
    """``{"serverInfo", "tools", "instructions"}`` of an initialized ``ClientSession``: every
    page of its ``tools/list`` (``init`` is the answer to its ``initialize``), at most
    ``MAX_PAGES`` of them, stopping at a cursor given twice (the listing loops): then what was
    read is marked partial (``readers.mcp.PARTIAL``)."""
    from mcp_types import PaginatedRequestParams

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    cut = ""
    for page_number in range(1, MAX_PAGES + 2):
        if page_number > MAX_PAGES:
            cut = (
                f"the server lists more than {MAX_PAGES} pages of tools: the first "
                f"{MAX_PAGES} pages ({len(tools)} tools) were read"
            )
            break
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(
            t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page.tools
        )
        cursor = page.next_cursor
        if not cursor:
            break
        if cursor in seen:
            cut = (
                f"the server gave the cursor {cursor[:40]!r} twice (its listing loops): "
                f"stopped after {page_number} pages ({len(tools)} tools)"
            )
            break
        seen.add(cursor)
    info = init.server_info.model_dump(by_alias=True, exclude_none=True, mode="json")
    data: dict[str, Any] = {"serverInfo": info, "tools": tools}
    if init.instructions:
        data["instructions"] = init.instructions
    if cut:
        data[PARTIAL] = cut + "; its tools not listed were left as they are, not retired"
    return data


class _Budget:
    """The bytes a harvest may still receive; ``spent`` is set once they are exceeded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.received = 0
        self.spent = asyncio.Event()

    def take(self, size: int) -> None:
        self.received += size
        if self.received > self.limit:
            self.spent.set()
            raise TooMuchData(f"more than {self.limit} bytes")


def _counted(inner: httpx2.AsyncBaseTransport, budget: _Budget) -> httpx2.AsyncBaseTransport:
    """``inner``, its every response counting its bytes against ``budget`` as they arrive."""
    import httpx2

    class CountedStream(httpx2.AsyncByteStream):
        def __init__(self, stream: httpx2.AsyncByteStream) -> None:
            self.stream = stream

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in self.stream:
                budget.take(len(chunk))
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    class Counted(httpx2.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            response = await inner.handle_async_request(request)
            assert isinstance(response.stream, httpx2.AsyncByteStream)
            response.stream = CountedStream(response.stream)
            return response

        async def aclose(self) -> None:
            await inner.aclose()

    return Counted()


class _Sessions:
    """The sessions of the stdio servers this process started for a harvest (a server is
    started as a session leader), so that ``end`` kills whatever is left in them."""

    def __init__(self) -> None:
        self.before = set(_children())
        self.ids: set[int] = set()

    def note_new(self) -> None:
        """Remember the sessions of this process's children started since (the server)."""
        for pid in _children():
            if pid not in self.before and _session_of(pid) == pid:
                self.ids.add(pid)

    def end(self) -> None:
        """SIGKILL every process still in a noted session (the server's children and
        grandchildren; the server itself was stopped by the SDK)."""
        for sid in self.ids:
            with contextlib.suppress(OSError):
                os.killpg(sid, signal.SIGKILL)
            for pid in _processes():
                if _session_of(pid) == sid:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)


def _processes() -> Iterator[int]:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                yield int(name)


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state is the first)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def _children() -> Iterator[int]:
    me = str(os.getpid())
    for pid in _processes():
        fields = _stat(pid)
        if fields is not None and len(fields) > 1 and fields[1] == me:
            yield pid


def _session_of(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[3]) if fields is not None and len(fields) > 3 else None


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
