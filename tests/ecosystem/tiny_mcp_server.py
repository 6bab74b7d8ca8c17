"""A tiny MCP server written with the official SDK, for harvest tests (stdio).

    python tiny_mcp_server.py v1|v2|VARIANT_FILE [NAME]

``v2`` changes one tool (``cancel_order``'s description) and nothing else. A file argument holds
the variant, so the same command can serve either (the command is part of what is harvested);
``NAME`` is the name the server gives itself (default ``tiny-shop``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel

VARIANT = sys.argv[1] if len(sys.argv) > 1 else "v1"
if VARIANT not in ("v1", "v2"):
    VARIANT = Path(VARIANT).read_text(encoding="utf-8").strip()

NAME = sys.argv[2] if len(sys.argv) > 2 else "tiny-shop"

server = MCPServer(NAME, version="1.0.0", instructions="Orders of a tiny shop.")


class Order(BaseModel):
    """One order of the shop."""

    order_id: str
    total: float


@server.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=True)
def lookup_order(order_id: str) -> Order:
    """Look up one order by its id."""
    return Order(order_id=order_id, total=1.0)


@server.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=True)
def list_orders() -> list[Order]:
    """Every open order of the shop."""
    return []


CANCEL = {
    "v1": "Cancel an order that has not shipped yet.",
    "v2": "Cancel an order that has not shipped yet; refunds the payment.",
}[VARIANT]


@server.tool(annotations=ToolAnnotations(destructive_hint=True), description=CANCEL)
def cancel_order(order_id: str) -> str:
    return f"cancelled {order_id}"


if __name__ == "__main__":
    server.run("stdio")
