"""Every malformed request to the stdio MCP server gets a JSON-RPC error (issue 35, item 8):
-32700 for what is not JSON, -32600 for what is no request, -32601 for an unknown method,
-32602 for parameters the protocol refuses; the server goes on answering."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lgent.mcp.stdio import MAX_MESSAGE_DEPTH, Refused, checked_message

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}
CASES: list[tuple[str, bytes, int, Any]] = [
    ("not JSON", b"hello there", -32700, None),
    ("half an object", b'{"jsonrpc": "2.0", "id": 3, "method":', -32700, None),
    ("a batch", b'[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]', -32600, None),
    ("an empty batch", b"[]", -32600, None),
    ("a bare string", b'"ping"', -32600, None),
    ("jsonrpc 1.0", b'{"jsonrpc": "1.0", "id": 6, "method": "ping"}', -32600, 6),
    ("no jsonrpc", b'{"id": "seven", "method": "ping"}', -32600, "seven"),
    ("no method", b'{"jsonrpc": "2.0", "id": 8}', -32600, 8),
    ("a numeric method", b'{"jsonrpc": "2.0", "id": 9, "method": 5}', -32600, 9),
    ("an object id", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', -32600, None),
    ("a boolean id", b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', -32600, None),
    ("an unknown method", b'{"jsonrpc": "2.0", "id": 10, "method": "no/such"}', -32601, 10),
    (
        "params 100k deep",
        b'{"jsonrpc": "2.0", "id": 11, "method": "ping", "params": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        -32600,
        None,
    ),
    (
        "params 200 deep",
        b'{"jsonrpc": "2.0", "id": 12, "method": "ping", "params": {"a": '
        + b"[" * 200
        + b"]" * 200
        + b"}}",
        -32600,
        12,
    ),
    (
        "a 5,000-digit integer",
        b'{"jsonrpc": "2.0", "id": 13, "method": "ping", "params": {"n": ' + b"9" * 5_000 + b"}}",
        -32600,
        None,
    ),
    (
        "params not an object",
        b'{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": 5}',
        -32602,
        14,
    ),
]


@pytest.mark.parametrize(
    ("name", "line", "code", "request_id"), [c for c in CASES if c[2] != -32601]
)
def test_each_malformed_line_is_refused_with_its_code(
    name: str, line: bytes, code: int, request_id: Any
) -> None:
    with pytest.raises(Refused) as refused:
        checked_message(line.decode())
    assert refused.value.code == code, name
    answer = json.loads(refused.value.answer())
    assert answer["jsonrpc"] == "2.0" and answer["id"] == request_id
    assert answer["error"]["code"] == code and answer["error"]["message"]


def test_sound_lines_pass_and_notifications_are_never_answered() -> None:
    assert checked_message("   ") is None
    assert checked_message(json.dumps(INIT)) is not None
    bad_notification = {"jsonrpc": "2.0", "method": "notifications/progress", "params": 5}
    assert checked_message(json.dumps(bad_notification)) is None
    assert MAX_MESSAGE_DEPTH == 128


@pytest.mark.slow
def test_the_running_server_answers_every_malformed_request(tmp_path: Path) -> None:
    home = tmp_path / "home"
    subprocess.run(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), "init"],
        check=True,
        capture_output=True,
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", "--mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None

    def ask(line: bytes, wait: float = 10.0) -> dict[str, Any]:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(line + b"\n")
        server.stdin.flush()
        ready, _, _ = select.select([server.stdout], [], [], wait)
        assert ready, f"no answer to {line[:60]!r}"
        answer: dict[str, Any] = json.loads(server.stdout.readline())
        return answer

    try:
        assert "result" in ask(json.dumps(INIT).encode(), 60)
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        for name, line, code, request_id in CASES:
            answer = ask(line)
            assert answer["error"]["code"] == code, (name, answer)
            assert answer["id"] == request_id, (name, answer)
        assert ask(b'{"jsonrpc": "2.0", "id": 99, "method": "ping"}') == {
            "jsonrpc": "2.0",
            "id": 99,
            "result": {},
        }
    finally:
        server.stdin.close()
        server.wait(30)
        server.stdout.close()
