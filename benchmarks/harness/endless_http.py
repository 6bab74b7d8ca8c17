"""A hostile "MCP server" over HTTP that never stops sending: every POST is answered 200 with a
body that never ends: one JSON document (``json``), or an event stream of 256 KiB events that
are not JSON-RPC (``sse``), of valid JSON-RPC notifications of about 1 KiB each
(``sse-notes``), or of a single event that never ends (``sse-one``). For the harvest drills
(``tests/ecosystem/test_harvest_bounds.py`` and ``python -m benchmarks.reliability``).

    with EndlessServer("json") as server:
        ... harvest server.url ...
        server.sent  # bytes written so far

It runs on a thread of its own (its own event loop) and closes every connection on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Literal

Mode = Literal["json", "sse", "sse-notes", "sse-one"]
CHUNK = 64 * 1024


class EndlessServer:
    """The server, listening on 127.0.0.1 at a free port while inside ``with``."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.sent = 0
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="endless-http", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def __enter__(self) -> EndlessServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())
        self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.decode("latin-1").split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            await reader.readexactly(length)
            kind = "application/json" if self.mode == "json" else "text/event-stream"
            writer.write(
                f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\n"
                "Transfer-Encoding: chunked\r\n\r\n".encode()
            )
            for piece in self._body():
                assert self._stop is not None
                if self._stop.is_set():
                    break
                writer.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                self.sent += len(piece)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    def _body(self) -> Iterator[bytes]:
        filler = b"a" * CHUNK
        if self.mode == "json":
            yield b'{"jsonrpc": "2.0", "id": 0, "result": {"x": "'
            while True:
                yield filler
        elif self.mode == "sse-one":
            yield b"data: "
            while True:
                yield filler
        elif self.mode == "sse-notes":
            note = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "a" * 1000},
                }
            ).encode()
            batch = b"".join(b"data: " + note + b"\n\n" for _ in range(64))
            while True:
                yield batch
        else:
            event = b"data: " + b"a" * (256 * 1024) + b"\n\n"
            while True:
                yield event
