"""What the MCP server costs a model's context: the tool list and search answers, in tokens.

    python -m benchmarks.mcp_tokens [--home PATH]

Tokens are estimated as characters / 4 of what travels on the wire: the ``tools/list`` result and
each ``tools/call`` result serialized as the protocol sends them (JSON, aliases, no nulls). The
server is built in this process over a home holding the example catalog (``.bench/serve-example``,
built once, or ``--home``); the searches ask for 10 results. Prints one line per measure.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

QUERIES = (
    "extract tables from PDF files",
    "PDF -> SentimentScore",
    "PDFParser",
    "what depends on PDFParser_v2",
    "send an alert to the on-call engineer, runs locally",
)
"""One query of each kind a model sends: intent, type question, name, relationship, constraint."""


def tokens(text: str) -> int:
    """The usual estimate: four characters a token."""
    return round(len(text) / 4)


def wire(model: Any) -> str:
    """A protocol result as the server writes it."""
    text: str = model.model_dump_json(by_alias=True, exclude_none=True)
    return text


async def measure(home: Path) -> dict[str, int]:
    from mcp_types import ListToolsResult

    from lgent import LGent
    from lgent.mcp.server import build_mcp_server

    figures: dict[str, int] = {}
    async with LGent.open(home) as lg:
        server = build_mcp_server(lg)
        tools = await server.list_tools()
        figures["tool list"] = tokens(wire(ListToolsResult(tools=tools)))
        for tool in tools:
            figures[f"  tool {tool.name}"] = tokens(wire(tool))
        for query in QUERIES:
            result = await server.call_tool("search", {"query": query, "limit": 10})
            figures[f"search {query!r}"] = tokens(wire(result))
    return figures


def main(argv: list[str] | None = None) -> None:
    from benchmarks.serve_bench import build_home

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="a home holding the example catalog")
    args = parser.parse_args(argv)
    home = args.home or build_home()
    for name, count in asyncio.run(measure(home)).items():
        print(f"{name}: {count:,} tokens")


if __name__ == "__main__":
    main()
