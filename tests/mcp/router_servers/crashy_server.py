"""A real MCP server (official SDK, stdio) behind the router in tests: a calculator that dies
(exit code 3, after a last word on stderr) when asked to divide by zero.

    python crashy_server.py
"""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

server = MCPServer("calculator", version="0.3.0")


@server.tool(annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True))
def add_numbers(a: float, b: float) -> float:
    """Add two numbers and return their sum."""
    return a + b


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def divide_numbers(dividend: float, divisor: float) -> float:
    """Divide one number by another. Dividing by zero makes this server crash."""
    if divisor == 0:
        print("calculator: division by zero, giving up", file=sys.stderr, flush=True)
        os._exit(3)
    return dividend / divisor


if __name__ == "__main__":
    server.run("stdio")
