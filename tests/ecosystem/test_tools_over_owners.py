"""Tools over their owners (``PARTS_FIRST``) on the 70 real MCP servers of
../shared/ecosystem/mcp-tools-list loaded through the importer, with the real model: a tool
question's top 10 holds tools, each saying its server, never a server; a question asking for
a server gets servers; with the rule off, servers take tool places (so the test can fail)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgent import LGent

pytestmark = pytest.mark.real_model

TOOL_QUESTIONS = (
    "search the web for recent news",
    "read the text of a PDF file",
    "get the latest stock price of a company",
    "draw a bar chart from numbers",
    "take a screenshot of a web page",
    "list the files in a folder",
    "show the commit history of a repository",
    "find papers on arXiv about transformers",
    "what is the weather tomorrow",
    "create a PowerPoint slide with a title",
    "look up the documentation of a library",
    "convert an amount between currencies",
)
"""Everyday tool requests, written for this test."""
OWNER_QUESTIONS = (
    "an MCP server for searching papers",
    "which API gives stock market data",
)


async def servers_in_top_10(lg: LGent, question: str) -> tuple[list[str], list[str]]:
    """(servers, everything) in the top 10 of ``question``."""
    response = await lg.query(question, limit=10)
    ids = [r.id for r in response.results]
    owners = lg.catalog_graph().part_counts(ids)
    return [i for i in ids if i in owners], ids


async def test_tool_questions_get_tools_and_server_questions_servers(
    mcp_tools: Path, tmp_path: Path
) -> None:
    home = tmp_path / "H"
    async with LGent.open(home) as lg:
        report = await lg.load(mcp_tools)
        assert not report.rejected
        await lg.reindex()
        for question in TOOL_QUESTIONS:
            servers, ids = await servers_in_top_10(lg, question)
            assert not servers, (question, ids)
            response = await lg.query(question, limit=10)
            first = response.results[0]
            assert any(n.startswith("part of ") for n in first.notes), (question, first)
        asked = [await servers_in_top_10(lg, q) for q in OWNER_QUESTIONS]
    assert any(servers for servers, _ in asked), asked
    async with LGent.open(home, settings={"fusion": {"parts_first": False}}) as lg:
        unruled = [await servers_in_top_10(lg, q) for q in OWNER_QUESTIONS]
        crowded = [q for q in TOOL_QUESTIONS if (await servers_in_top_10(lg, q))[0]]
    assert unruled == asked  # a question asking for servers is left as it was
    assert len(crowded) >= len(TOOL_QUESTIONS) // 2, crowded  # what the rule prevents
