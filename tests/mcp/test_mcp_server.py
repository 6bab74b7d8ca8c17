"""`lgent serve --mcp` as a subprocess, driven by the MCP SDK's own stdio client.

Every tool is listed with its schemas and called, and each answer is checked against what the
library itself answers on the same home; errors come back as tool errors with the message.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.session import IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult

from tests.serving_cases import (
    ARTIFACT,
    FILL,
    PATHS,
    QUERIES,
    RESOLVE,
    SIMILAR,
    Expected,
    assert_same_query,
    assert_same_score,
    library_answers,
    serve_command,
    server_env,
)

pytestmark = pytest.mark.real_model

READ_TOOLS = {"search", "resolve", "fill_holes", "find_paths", "similar", "get_artifact"}


@pytest.fixture(scope="module")
def expected(example_home: Path) -> Expected:
    return library_answers(example_home)


@asynccontextmanager
async def mcp_session(home: Path, log: Path, *flags: str) -> AsyncIterator[ClientSession]:
    """A session with ``lgent serve --mcp`` on ``home``; fails if stdout carried anything but
    the protocol (the client reports such lines as transport errors)."""
    command, *args = serve_command(home, "--mcp", *flags)
    params = StdioServerParameters(command=command, args=args, env=server_env())
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


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert result.structured_content is not None
    # the text content mirrors the structured content for clients that read only text
    assert json.loads(_text(result)) == result.structured_content
    return result.structured_content


async def call_error(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    return _text(result)


def _text(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def test_tools_answer_like_the_library_and_writes_show_up_at_once(
    example_home: Path, expected: Expected, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    async with mcp_session(home, tmp_path / "mcp.log", "--allow-writes") as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == READ_TOOLS | {"register", "remove"}
        for name in READ_TOOLS:
            tool = tools[name]
            assert tool.description and tool.input_schema["type"] == "object"
            assert (
                tool.output_schema is not None
                and tool.annotations
                and tool.annotations.read_only_hint
            )
        assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 100
        assert "QueryContext" in tools["search"].input_schema["$defs"]
        assert "CatalogEntry" in tools["register"].input_schema["$defs"]
        assert tools["remove"].annotations and tools["remove"].annotations.destructive_hint

        await reads_answer_like_the_library(session, expected)
        await errors_come_back_as_tool_errors(session)
        await writes_show_up_at_once(session)


async def reads_answer_like_the_library(session: ClientSession, expected: Expected) -> None:
    for case, want in zip(QUERIES, expected.queries, strict=True):
        got = await call(session, "search", case)
        assert_same_query(got, want)
        assert all(r["explanation"] == {} for r in got["results"])
    explained = await call(session, "search", {**QUERIES[1], "explain": True})
    assert (
        explained["results"][0]["explanation"] == expected.queries[1]["results"][0]["explanation"]
    )

    resolution = await call(session, "resolve", RESOLVE)
    assert resolution["best"] == expected.resolution["best"]
    assert resolution["best"]["id"] == "FinancialPDFAnalyzer"
    assert_same_score(resolution["score"], expected.resolution["score"])
    assert [c["entry"]["id"] for c in resolution["runners_up"]] == [
        c["entry"]["id"] for c in expected.resolution["runners_up"]
    ]
    assert await call(session, "fill_holes", FILL) == expected.filled
    paths = await call(session, "find_paths", PATHS)
    assert [p["ids"] for p in paths["paths"]] == expected.paths
    similar = await call(session, "similar", SIMILAR)
    assert [h["id"] for h in similar["hits"]] == expected.similar
    artifact = await call(session, "get_artifact", {"id": ARTIFACT})
    assert artifact["entry"] == expected.entry and expected.entry["version"] in artifact["versions"]


async def errors_come_back_as_tool_errors(session: ClientSession) -> None:
    """The library's message as a tool error; the server keeps serving."""
    message = await call_error(session, "resolve", {"input_type": "PDFF", "output_type": "Text"})
    assert "unknown type 'PDFF'" in message and "did you mean PDF" in message
    message = await call_error(session, "resolve", {"input_type": "PDF", "output_type": "Image"})
    assert "no artifact satisfies PDF -> Image" in message and "closest" in message
    message = await call_error(session, "search", {"query": "name:(pdf", "strict": True})
    assert "syntax error at position 9" in message
    message = await call_error(
        session, "search", {"query": "pdf", "constraints": ["latency < soon"]}
    )
    assert "bad constraint 'latency < soon'" in message
    assert "less than or equal to 100" in await call_error(
        session, "search", {"query": "x", "limit": 1000}
    )
    assert "at most 2000 characters" in await call_error(session, "search", {"query": "x" * 2001})
    assert "no artifact with id 'Nope'" in await call_error(session, "get_artifact", {"id": "Nope"})
    assert "no artifact with id 'Nope'" in await call_error(
        session, "similar", {"artifact_id": "Nope"}
    )
    message = await call_error(session, "register", {"entry": {"id": "bad id!", "name": "x"}})
    assert "invalid id: 'bad id!' is not a valid id" in message
    message = await call_error(
        session,
        "resolve",
        {"input_type": "PDF", "output_type": "Text", "preferences": {"success_weight": 7}},
    )
    assert "success_weight" in message
    assert (await call(session, "get_artifact", {"id": ARTIFACT}))["entry"]["id"] == ARTIFACT


async def writes_show_up_at_once(session: ClientSession) -> None:
    entry = {
        "id": "QuasarTeleportWidget",
        "name": "QuasarTeleportWidget",
        "version": "1.0.0",
        "description": "Teleports quasar widgets between galaxies.",
        "keywords": ["quasar", "teleport"],
        "input_type": "Text",
        "output_type": "Summary",
    }
    query = {"query": "quasar teleport widget"}
    before = await call(session, "search", query)
    assert entry["id"] not in [r["id"] for r in before["results"]]
    registered = await call(session, "register", {"entry": entry})
    assert registered["action"] == "added" and registered["change_number"] > before["change_number"]
    after = await call(session, "search", query)
    assert after["results"][0]["id"] == entry["id"]
    assert after["change_number"] == registered["change_number"]

    removed = await call(session, "remove", {"id": entry["id"]})
    assert removed["removed"] == 1
    assert "no artifact with id" in await call_error(session, "get_artifact", {"id": entry["id"]})
    gone = await call(session, "search", query)
    assert entry["id"] not in [r["id"] for r in gone["results"]]


async def test_a_read_only_server_offers_no_writes_and_refuses_them_clearly() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from lgent import LGent
    from lgent.mcp.server import build_mcp_server

    async with LGent.open(None) as lg:
        server = build_mcp_server(lg, allow_writes=False)
        assert {t.name for t in await server.list_tools()} == READ_TOOLS
        for write, arguments in (
            ("register", {"entry": {"id": "x", "name": "x"}}),
            ("remove", {"id": "x"}),
        ):
            with pytest.raises(
                ToolError, match=r"read-only: .* `lgent serve --mcp --allow-writes`"
            ):
                await server.call_tool(write, arguments)
        assert await lg.change_number() == 0
