"""The MCP server's stdio transport: one JSON-RPC message a line, every malformed one answered.

The SDK's own transport drops a line it cannot read without a word, so a client that sent it
waits forever. Here each line is checked before the SDK sees it, and what is not a request the
server can take gets the JSON-RPC 2.0 error it calls for, with the request's id when it has a
usable one (else null):

- not JSON at all: ``-32700`` (parse error);
- JSON that is no request object: a batch (an array; MCP has no batches), a bare value, a
  ``jsonrpc`` other than ``"2.0"``, an id that is neither a string nor an integer, a missing or
  non-string ``method``, nesting deeper than ``MAX_MESSAGE_DEPTH`` or an integer of more than Python's
  4,300 digits anywhere: ``-32600`` (invalid request);
- a request of an unknown method: ``-32601``, from the SDK;
- a request whose parameters the SDK's message types refuse: ``-32602`` (invalid params).

A notification (no id) that is structurally sound but refused is dropped, as JSON-RPC says
(nobody waits for it). While serving, the process's own stdin and stdout point at the null
device and at stderr, so nothing else the process prints can corrupt the protocol stream.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, contextmanager, suppress
from typing import Any

import anyio
import mcp_types as types
import pydantic
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage

MAX_MESSAGE_DEPTH = 128
"""Deepest nesting a message may have (L-gent's own JSON bound, ``limits.MAX_NESTING_DEPTH``)."""
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602

Write = Callable[[str], Awaitable[None]]
"""Writes one line (a serialised message and its newline) to the client."""


class Refused(Exception):
    """A line that gets an error instead of reaching the server."""

    def __init__(self, code: int, message: str, request_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.request_id = request_id

    def answer(self) -> str:
        error = {"code": self.code, "message": str(self)}
        return json.dumps({"jsonrpc": "2.0", "id": self.request_id, "error": error}) + "\n"


def checked_message(line: str) -> types.JSONRPCMessage | None:
    """The message on ``line`` (None for a blank line or a notification to drop), or ``Refused``
    with the error to answer (see the module docstring)."""
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except RecursionError:
        raise Refused(
            INVALID_REQUEST, f"the message is nested deeper than {MAX_MESSAGE_DEPTH}"
        ) from None
    except ValueError as err:
        if "digits" in str(err):  # valid JSON, but an integer past Python's limit
            raise Refused(INVALID_REQUEST, f"the message holds too large a number: {err}") from None
        raise Refused(PARSE_ERROR, f"parse error: not JSON ({err})") from None
    if isinstance(data, list):
        raise Refused(INVALID_REQUEST, "batches (JSON arrays) are not supported by MCP")
    if not isinstance(data, dict):
        raise Refused(
            INVALID_REQUEST, f"a message must be a JSON object, got {type(data).__name__}"
        )
    request_id = data.get("id")
    usable = request_id is None or (
        isinstance(request_id, str | int) and not isinstance(request_id, bool)
    )
    kept_id = request_id if usable else None
    if not usable:
        raise Refused(INVALID_REQUEST, "the id must be a string or an integer")
    if data.get("jsonrpc") != "2.0":
        raise Refused(INVALID_REQUEST, 'the message must say "jsonrpc": "2.0"', kept_id)
    if _depth(data) > MAX_MESSAGE_DEPTH:
        raise Refused(
            INVALID_REQUEST, f"the message is nested deeper than {MAX_MESSAGE_DEPTH}", kept_id
        )
    is_response = "method" not in data and ("result" in data or "error" in data)
    if not is_response and not isinstance(data.get("method"), str):
        raise Refused(INVALID_REQUEST, "a request needs a string 'method'", kept_id)
    try:
        return types.jsonrpc_message_adapter.validate_python(data, by_name=False)
    except pydantic.ValidationError as err:
        if "id" not in data:
            return None  # a notification nobody waits for
        problem = err.errors()[0]
        where = ".".join(str(p) for p in problem["loc"][1:]) or "message"
        raise Refused(INVALID_PARAMS, f"invalid {where}: {problem['msg']}", kept_id) from None


def _depth(value: Any) -> int:
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_MESSAGE_DEPTH:
            return deepest
        if isinstance(item, dict):
            pending.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            pending.extend((v, depth + 1) for v in item)
    return deepest


@asynccontextmanager
async def checked_stdio(
    lines: AsyncIterable[str] | None = None, write: Write | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    """The read and write streams of a server on the process's stdio (or, for tests, on
    ``lines`` and ``write``), every malformed line answered with its error (see the module
    docstring)."""
    if lines is not None and write is not None:
        async with _serving(lines, write) as streams:
            yield streams
        return
    with _wire() as (wire_in, wire_out):
        out = anyio.wrap_file(wire_out)

        async def emit(text: str) -> None:
            await out.write(text)
            await out.flush()

        async with _serving(anyio.wrap_file(wire_in), emit) as streams:
            yield streams


@asynccontextmanager
async def _serving(lines: AsyncIterable[str], write: Write) -> AsyncIterator[tuple[Any, Any]]:
    lock = anyio.Lock()
    written = anyio.Event()

    async def emit(text: str) -> None:
        async with lock:  # one whole line at a time, from the server and from the checks
            await write(text)

    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)

    async def reader() -> None:
        async with read_writer:
            async for line in lines:
                try:
                    message = checked_message(line)
                except Refused as refused:
                    await emit(refused.answer())
                    continue
                if message is not None:
                    await read_writer.send(SessionMessage(message))

    async def writer() -> None:
        try:
            async with write_reader:
                async for item in write_reader:
                    text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await emit(text + "\n")
        finally:
            written.set()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(reader)
        tasks.start_soon(writer)
        try:
            yield read_stream, write_stream
        finally:
            await write_stream.aclose()  # the writer sends what it was given, then ends
            with anyio.move_on_after(5):
                await written.wait()
            tasks.cancel_scope.cancel()  # the reader may still wait for a line


@contextmanager
def _wire() -> Any:
    """The protocol's ends (text files over duplicates of fd 0 and 1), with fd 0 pointed at the
    null device and fd 1 at stderr meanwhile; both restored on exit."""
    try:
        saved_in, saved_out = os.dup(0), os.dup(1)
    except OSError:  # no real descriptors (an embedded interpreter): the streams as they are
        yield sys.stdin, sys.stdout
        return
    sys.stdout.flush()
    null = os.open(os.devnull, os.O_RDONLY)
    wire_in = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace", closefd=True)
    wire_out = os.fdopen(os.dup(1), "w", encoding="utf-8", closefd=True)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    try:
        yield wire_in, wire_out
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
        for handle in (wire_in, wire_out):
            with suppress(OSError):
                handle.close()
