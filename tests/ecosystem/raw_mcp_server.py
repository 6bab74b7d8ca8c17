"""A bare MCP server over stdio (JSON-RPC by hand, no SDK) whose ``tools/list`` pages misbehave,
for the harvest-bound tests.

    python raw_mcp_server.py loop|endless|once [PIDFILE]

``loop``: the cursor goes c1, c2, c1, ... (the listing never ends); ``endless``: c1, c2, c3, ...
without end; ``once``: one page. Each page lists one tool. With ``PIDFILE``, the server first
starts a grandchild (a ``sleep``, through a shell that forks it) and writes its pid there.
"""

from __future__ import annotations

import json
import subprocess
import sys

MODE = sys.argv[1]


def page(cursor: str | None) -> dict[str, object]:
    number = int(cursor[1:]) if cursor else 0
    tools = [{"name": f"tool{number}", "inputSchema": {"type": "object"}}]
    if MODE == "once":
        return {"tools": tools}
    following = (number % 2) + 1 if MODE == "loop" else number + 1
    return {"tools": tools, "nextCursor": f"c{following}"}


def main() -> None:
    if len(sys.argv) > 2:
        shell = subprocess.Popen(  # the shell forks the sleep and exits: a grandchild
            ["sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $!"],
            stdout=subprocess.PIPE,
            text=True,
        )
        grandchild = shell.communicate()[0].strip()
        with open(sys.argv[2], "w", encoding="utf-8") as handle:
            handle.write(grandchild)
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "initialize":
            result: dict[str, object] = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "pager", "version": "1.0.0"},
            }
        elif method == "tools/list":
            result = page((message.get("params") or {}).get("cursor"))
        else:
            result = {}
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
