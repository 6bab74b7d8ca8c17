"""`lgent serve --mcp` as a subprocess, driven by the MCP SDK's own stdio client.

Every tool is listed and called with the example its description gives; each answer is compact
plain text, checked against what the library itself answers on the same home; errors come back as
tool errors with the message; the tool list and a 10-result search stay within their token budgets.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.session import IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, ListToolsResult

from benchmarks.mcp_tokens import QUERIES as TOKEN_QUERIES
from benchmarks.mcp_tokens import tokens, wire
from lgent import LGent
from lgent.serving import PAGE_DEPTH
from tests.conftest import OpenHome
from tests.serving_cases import (
    ARTIFACT,
    FILL,
    PATHS,
    QUERIES,
    RESOLVE,
    SIMILAR,
    Expected,
    library_answers,
    serve_command,
    server_env,
)

pytestmark = pytest.mark.real_model

READ_TOOLS = {
    "search",
    "get_artifact",
    "resolve",
    "fill_holes",
    "find_paths",
    "similar",
    "lineage",
    "compatible",
    "list_artifacts",
    "stats",
}
TOOL_LIST_BUDGET = 2_500
SEARCH_BUDGET = 1_500
RESULT_LINE = re.compile(r"^(\d+)\. (\S+?)(?: \(.*?\))?: ", re.MULTILINE)


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


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    """A tool's answer: plain text only (no structured copy, no markup)."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert result.structured_content is None
    answer = _text(result)
    assert "<mark>" not in answer and ":null" not in answer
    return answer


async def call_error(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    return _text(result)


def _text(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def result_ids(answer: str) -> list[str]:
    return [m.group(2) for m in RESULT_LINE.finditer(answer)]


def example_of(description: str) -> dict[str, Any]:
    """The JSON example a tool's description ends with."""
    example: dict[str, Any] = json.loads(description.split("Example: ", 1)[1])
    return example


def search_arguments(case: dict[str, Any]) -> dict[str, Any]:
    """A serving case as MCP ``search`` arguments (the context as history and pipeline)."""
    arguments = {k: case[k] for k in ("query", "constraints", "limit")}
    context = case.get("context", {})
    for key, name in (("user_history", "history"), ("current_pipeline", "pipeline")):
        if context.get(key):
            arguments[name] = context[key]
    return arguments


async def test_tools_answer_like_the_library_and_writes_show_up_at_once(
    example_home: Path, expected: Expected, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    async with mcp_session(home, tmp_path / "mcp.log", "--allow-writes") as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == READ_TOOLS | {"register", "remove"}
        for name, tool in tools.items():
            assert tool.description and "Example: " in tool.description, name
            assert "\n    " not in tool.description and "``" not in tool.description, name
            assert tool.output_schema is None and "title" not in json.dumps(tool.input_schema)
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint == (name in READ_TOOLS), name
        assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 50
        assert tools["remove"].annotations and tools["remove"].annotations.destructive_hint

        for name in sorted(READ_TOOLS):  # every example in a description works as written
            answer = await call(session, name, example_of(tools[name].description or ""))
            assert answer.strip(), name

        await reads_answer_like_the_library(session, expected, home)
        await pages_concatenate(session)
        await errors_come_back_as_tool_errors(session)
        await writes_show_up_at_once(session, example_of(tools["register"].description or ""))


async def reads_answer_like_the_library(
    session: ClientSession, expected: Expected, home: Path
) -> None:
    for case, want in zip(QUERIES, expected.queries, strict=True):
        answer = await call(session, "search", search_arguments(case))
        assert result_ids(answer) == [r["id"] for r in want["results"]], case["query"]
        assert answer.startswith(f"{want['total_matches']} matches, showing 1-")
        for result in want["results"]:
            entry = result["entry"]
            one_line = " ".join(entry["description"].split())[:60]
            assert one_line in " ".join(answer.split()), entry["id"]
    deprecated = await call(session, "search", {"query": "PDFParser", "limit": 3})
    assert re.search(
        r"^1\. PDFParser: .*\n   warning: deprecated, use PDFParser_v2$", deprecated, re.M
    )

    full = json.loads(
        await call(session, "search", {"query": "PDFParser", "limit": 5, "detail": "full"})
    )
    assert [r["id"] for r in full["results"]] == [r["id"] for r in expected.queries[1]["results"]]
    assert full["results"][0]["explanation"] == expected.queries[1]["results"][0]["explanation"]
    assert (
        full["results"][0]["entry"]["description"]
        == expected.queries[1]["results"][0]["entry"]["description"]
    )

    resolution = await call(session, "resolve", RESOLVE)
    best = expected.resolution["best"]["id"]
    assert resolution.startswith(f"Best for PDF -> SentimentScore: {best} (")
    runners = ", ".join(
        f"{c['entry']['id']} {c['score']['total']:.3f}" for c in expected.resolution["runners_up"]
    )
    assert f"Runners-up: {runners}" in resolution or not runners

    filled = await call(session, "fill_holes", FILL)
    shown = [
        s["given"] or "[" + " >> ".join(s["filled_with"]) + "]" for s in expected.filled["steps"]
    ]
    assert filled.splitlines()[0] == " -> ".join(shown)

    paths = await call(session, "find_paths", PATHS)
    assert [re.findall(r"-\[(\S+?)\]->", line) for line in paths.splitlines()] == expected.paths

    similar = await call(session, "similar", SIMILAR)
    assert result_ids(similar) == expected.similar

    artifact = await call(session, "get_artifact", {"id": ARTIFACT})
    entry = expected.entry
    for fact in (
        f"{entry['id']}: {entry['entity_type']} {entry['name']!r}, version {entry['version']}",
        f"signature: {entry['input_type']} -> {entry['output_type']}",
        f"description: {' '.join(entry['description'].split())}",
        "keywords: " + ", ".join(entry["keywords"]),
        "relations: " + "; ".join(f"{r['type']} {r['target']}" for r in entry["relations"]),
        "health: healthy",
    ):
        assert fact in artifact.splitlines(), fact

    async with LGent.open(home) as lg:
        groups = await lg.lineage("PDFParser_v2")
        downstream = await lg.compatible("PDFParser_v2", limit=10)
        every = await lg.compatible("PDFParser_v2", limit=1000)
        stats = await lg.stats()
    lineage = await call(session, "lineage", {"artifact_id": "PDFParser_v2"})
    assert f"depends on: {', '.join(h.id for h in groups['dependencies'])}" in lineage
    assert f"succeeds (older generations): {groups['ancestors'][0].id}" in lineage
    compatible = await call(session, "compatible", {"artifact_id": "PDFParser_v2"})
    assert result_ids(compatible) == [s.id for s in downstream]
    assert len(every) > 2  # the header tells the total, not the page
    two = await call(session, "compatible", {"artifact_id": "PDFParser_v2", "limit": 2})
    assert two.startswith(
        f"{len(every)} artifacts can take the output of PDFParser_v2, showing 1-2"
    )
    assert f"artifacts: {stats['artifacts']}" in await call(session, "stats", {})


async def pages_concatenate(session: ClientSession) -> None:
    """Three pages of 3, cursor by cursor, are the first 9 of one page of 9, with one total."""
    for query in ("extract tables from PDF files", "PDF -> SentimentScore"):
        whole = await call(session, "search", {"query": query, "limit": 9})
        ids, cursor, totals = [], None, set()
        for _ in range(3):
            arguments: dict[str, Any] = {"query": query, "limit": 3}
            if cursor is not None:
                arguments["cursor"] = cursor
            page = await call(session, "search", arguments)
            ids += result_ids(page)
            totals.add(page.split(" matches", 1)[0])
            cursor = re.search(r'More: cursor="(\d+)"', page).group(1)  # type: ignore[union-attr]
        assert ids == result_ids(whole) and len(ids) == 9
        as_number = await call(session, "search", {"query": query, "limit": 3, "cursor": 3})
        assert result_ids(as_number) == ids[3:6]  # some clients send the cursor as a number
        assert totals == {whole.split(" matches", 1)[0]}

    listed = await call(session, "list_artifacts", {"kind": "agent", "limit": 4})
    total = int(listed.split(" artifacts match", 1)[0])
    seen = result_ids(listed)
    while "More: cursor=" in listed:
        cursor = re.search(r'More: cursor="(\d+)"', listed).group(1)  # type: ignore[union-attr]
        listed = await call(
            session, "list_artifacts", {"kind": "agent", "limit": 4, "cursor": cursor}
        )
        seen += result_ids(listed)
    assert len(seen) == len(set(seen)) == total and seen == sorted(seen)


async def errors_come_back_as_tool_errors(session: ClientSession) -> None:
    """The library's message as a tool error; the server keeps serving."""
    message = await call_error(session, "resolve", {"input_type": "PDFF", "output_type": "Text"})
    assert "unknown type 'PDFF'" in message and "did you mean PDF" in message
    # every error names its kind, so an agent tells a bad call from a missing artifact
    assert "TypeLatticeError: " in message
    assert "NotFoundError: no artifact with id 'Nope'" in await call_error(
        session, "get_artifact", {"id": "Nope"}
    )
    assert "InvalidArguments: unknown argument(s): x (this tool takes: no arguments)" in (
        await call_error(session, "stats", {"x": 1})
    )
    assert "InvalidArguments: invalid argument(s): limit" in await call_error(
        session, "search", {"query": "x", "limit": "5"}
    )
    message = await call_error(session, "resolve", {"input_type": "PDF", "output_type": "Image"})
    assert "no artifact satisfies PDF -> Image" in message and "closest" in message
    message = await call_error(session, "search", {"query": "name:(pdf", "strict": True})
    assert "syntax error at position 9" in message
    message = await call_error(
        session, "search", {"query": "pdf", "constraints": ["latency < soon"]}
    )
    assert "bad constraint 'latency < soon'" in message
    assert "less than or equal to 50" in await call_error(
        session, "search", {"query": "x", "limit": 1000}
    )
    assert "at most 2000 characters" in await call_error(session, "search", {"query": "x" * 2001})
    assert "cursor 'abc' is not one this server gave" in await call_error(
        session, "search", {"query": "pdf", "cursor": "abc"}
    )
    for cursor in (str(2**63), "\u0663"):  # past any SQL integer; an Arabic-Indic digit
        assert "is not one this server gave" in await call_error(
            session, "list_artifacts", {"cursor": cursor}
        )
    assert f"pages reach the first {PAGE_DEPTH} results" in await call_error(
        session, "search", {"query": "pdf", "cursor": str(PAGE_DEPTH)}
    )
    assert "no artifact with id 'Nope'" in await call_error(session, "get_artifact", {"id": "Nope"})
    assert "no artifact with id 'Nope'" in await call_error(
        session, "similar", {"artifact_id": "Nope"}
    )
    assert "Nope" in await call_error(session, "lineage", {"artifact_id": "Nope"})
    assert "'robot'" in await call_error(session, "list_artifacts", {"kind": "robot"})
    message = await call_error(session, "register", {"entry": {"id": "!!!", "name": "x"}})
    assert "invalid id: '!!!' is not a valid id" in message
    assert (await call(session, "get_artifact", {"id": ARTIFACT})).startswith(ARTIFACT)


async def writes_show_up_at_once(session: ClientSession, example: dict[str, Any]) -> None:
    entry = {
        **example["entry"],
        "id": "QuasarTeleportWidget",
        "name": "QuasarTeleportWidget",
        "version": "1.0.0",
        "description": "Teleports quasar widgets between galaxies.",
        "keywords": ["quasar", "teleport"],
    }
    query = {"query": "quasar teleport widget"}
    before = await call(session, "search", query)
    assert entry["id"] not in result_ids(before)
    registered = await call(session, "register", {"entry": entry})
    assert registered.startswith("added QuasarTeleportWidget 1.0.0 (change number ")
    after = await call(session, "search", query)
    assert result_ids(after)[0] == entry["id"]

    removed = await call(session, "remove", {"id": entry["id"]})
    assert removed.startswith("removed 1 version(s) of QuasarTeleportWidget")
    assert "no artifact with id" in await call_error(session, "get_artifact", {"id": entry["id"]})
    assert entry["id"] not in result_ids(await call(session, "search", query))


async def test_the_tool_list_and_a_search_fit_their_token_budgets(open_example: OpenHome) -> None:
    from lgent.mcp.server import build_mcp_server

    async with open_example() as lg:
        for writes in (False, True):
            tools = await build_mcp_server(lg, allow_writes=writes).list_tools()
            assert tokens(wire(ListToolsResult(tools=tools))) <= TOOL_LIST_BUDGET, writes
        server = build_mcp_server(lg)
        for query in TOKEN_QUERIES:
            result = await server.call_tool("search", {"query": query, "limit": 10})
            assert isinstance(result, CallToolResult)
            assert len(result_ids(_text(result))) == min(
                10, int(_text(result).split(" matches")[0])
            )
            assert tokens(wire(result)) <= SEARCH_BUDGET, query


async def test_a_read_only_server_offers_no_writes_and_refuses_them_clearly() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

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


def test_compact_schema_keeps_what_a_caller_needs() -> None:
    from lgent.mcp.server import compact_schema

    schema = {
        "title": "Args",
        "type": "object",
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "depth": {
                "anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}],
                "default": None,
                "description": "d",
            },
            "either": {
                "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}],
                "default": None,
            },
        },
    }
    assert compact_schema(schema) == {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "depth": {"type": "integer", "minimum": 1, "description": "d"},
            "either": {
                "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}],
                "default": None,
            },
        },
    }
