"""A real MCP server (official SDK, stdio) behind the router in tests: a clock whose one tool is
slow, and which can learn a tool at run time (it then sends ``notifications/tools/list_changed``).

    python clock_server.py               # over stdio
    python clock_server.py --http PORT   # over streamable HTTP at http://127.0.0.1:PORT/mcp

``key_length`` tells the length of the ``CLOCK_API_KEY`` in its environment (the router passes
the configuration's env) and ``token_length`` that of the ``X-Clock-Token`` header of a request
over HTTP (the configuration's headers), never the values.
"""

from __future__ import annotations

import asyncio
import os
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel

server = MCPServer("clock-server", version="2.1.0", instructions="Times and waiting.")


class Moment(BaseModel):
    """A time of day in a time zone."""

    zone: str
    hour: int
    minute: int


@server.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=True)
def time_in_zone(zone: str, twenty_four_hours: bool = True) -> Moment:
    """The current time of day in a time zone such as Europe/Paris (a fixed clock: 13:45)."""
    return Moment(zone=zone, hour=13 if twenty_four_hours else 1, minute=45)


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
async def wait_then_echo(text: str, seconds: float) -> str:
    """Wait the given number of seconds, then echo the text back (a slow tool)."""
    await asyncio.sleep(seconds)
    return f"after {seconds:g} s: {text}"


@server.tool()
def key_length() -> int:
    """How many characters the CLOCK_API_KEY this server was started with has."""
    return len(os.environ.get("CLOCK_API_KEY", ""))


@server.tool()
def token_length(ctx: Context) -> int:
    """How many characters the X-Clock-Token header of this request has (over HTTP)."""
    headers = ctx.headers or {}
    return len(next((v for k, v in headers.items() if k.lower() == "x-clock-token"), ""))


@server.tool()
async def learn_alarm(ctx: Context) -> str:
    """Teach the clock a new tool, set_alarm, and tell the client its tool list changed."""

    def set_alarm(hour: int, minute: int) -> str:
        """Set an alarm clock to ring at the given hour and minute."""
        return f"alarm set for {hour:02d}:{minute:02d}"

    server.add_tool(set_alarm)
    await ctx.session.send_tool_list_changed()
    return "learned set_alarm"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
