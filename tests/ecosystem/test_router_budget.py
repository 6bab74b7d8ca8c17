"""The router's answers within their token budgets on real tools: the 70 servers of
../shared/ecosystem/mcp-tools-list loaded as the router's own harvest would load them, searched
through ``Router.search`` (a 10-result answer at most 1,000 tokens, characters / 4, as the client
receives it), and its tool list (at most 1,500)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_types import CallToolResult, ListToolsResult, TextContent

from benchmarks.mcp_tokens import tokens, wire
from lgent import LGent
from lgent.mcp.router import Router
from lgent.mcp.router_config import ServerConfig
from lgent.mcp.router_server import build_router_server

pytestmark = pytest.mark.real_model

SEARCH_BUDGET = 1_000
TOOL_LIST_BUDGET = 1_500
REQUESTS = (
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
)
"""Ten everyday tool requests, written for this test."""


async def test_ten_result_searches_and_the_tool_list_fit_their_budgets(
    mcp_tools: Path, tmp_path: Path
) -> None:
    async with LGent.open(tmp_path / "H") as lg:
        servers = []
        for file in sorted(mcp_tools.glob("*.json")):
            data = json.loads(file.read_text(encoding="utf-8"))
            config = ServerConfig(file.stem, "stdio", command="unused")
            data = {**data, "serverInfo": {"name": file.stem}, "launch": config.launch()}
            await lg.import_tools_list(data, source=str(file))
            servers.append(config)
        router = Router(lg, servers)  # never started: it answers from the catalog
        sizes = []
        for request in REQUESTS:
            found = await router.search(request, 10)
            assert found.count("\n   (") == 10, found
            sizes.append(tokens(wire(CallToolResult(content=[TextContent(text=found)]))))
        tools = await build_router_server(lg, router).list_tools()
    assert max(sizes) <= SEARCH_BUDGET, sizes
    assert tokens(wire(ListToolsResult(tools=tools))) <= TOOL_LIST_BUDGET
