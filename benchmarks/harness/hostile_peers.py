"""Drills with hostile peers (issue 35): an MCP server whose HTTP answer never ends, HTTP clients
that send huge bodies, and an MCP client that sends malformed lines. Each is measured from the
outside, on real processes: ``lgent import mcp --url``, ``lgent serve --http``, ``lgent serve
--mcp``.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness.endless_http import EndlessServer, Mode
from benchmarks.harness.served import served_http


@dataclass(frozen=True)
class HarvestRun:
    mode: str
    exit_code: int
    seconds: float
    peak_rss_mib: float
    sent_mib: float
    message: str


def endless_harvest(mode: Mode, home: Path, timeout: float = 60.0) -> HarvestRun:
    """``lgent import mcp --url`` against an endless answer of ``mode``: its exit code, time,
    peak resident memory (the child's own, from ``wait4``) and what the server had sent."""
    with EndlessServer(mode) as server:
        command = [
            sys.executable,
            "-m",
            "lgent.cli",
            "--home",
            str(home),
            "import",
            "mcp",
            "--url",
            server.url,
            "--timeout",
            str(timeout),
        ]
        started = time.monotonic()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert child.stderr is not None
        stderr = child.stderr
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        message = stderr.read().decode(errors="replace").strip().splitlines()
        stderr.close()
        sent = server.sent
    return HarvestRun(
        mode,
        child.returncode,
        seconds,
        usage.ru_maxrss / 1024,
        sent / (1 << 20),
        (message[0] if message else "")[:160],
    )


@dataclass(frozen=True)
class RequestRun:
    body_keys: int
    body_bytes: int
    status: int
    answer_bytes: int
    seconds: float
    health_ms_alone: float
    health_ms_during: float


def hostile_bodies(home: Path, keys: int = 70_000, parallel: int = 6) -> RequestRun:
    """``lgent serve --http`` on ``home``: one ``POST /query`` of ``keys`` unknown keys (its
    status, answer size and time), and ``/health``'s latency alone and while ``parallel`` such
    bodies are sent at once."""
    import httpx

    body = json.dumps({"query": "pdf", **{f"k{i:05d}": 0 for i in range(keys)}}).encode()
    headers = {"Content-Type": "application/json"}
    with served_http(home) as (base, _):

        async def measure() -> RequestRun:
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                await http.get("/health")
                started = time.perf_counter()
                alone = await http.get("/health")
                health_alone = (time.perf_counter() - started) * 1000
                started = time.perf_counter()
                one = await http.post("/query", content=body, headers=headers)
                seconds = time.perf_counter() - started

                async def health() -> float:
                    await asyncio.sleep(0.05)  # the bodies are on their way
                    began = time.perf_counter()
                    await http.get("/health")
                    return (time.perf_counter() - began) * 1000

                sends = [
                    http.post("/query", content=body, headers=headers) for _ in range(parallel)
                ]
                timed = asyncio.ensure_future(health())
                await asyncio.gather(*sends)
                during = await timed
                assert alone.status_code == 200
                return RequestRun(
                    keys,
                    len(body),
                    one.status_code,
                    len(one.content),
                    seconds,
                    health_alone,
                    during,
                )

        return asyncio.run(measure())


MALFORMED: list[tuple[str, bytes]] = [
    ("not JSON", b"hello there"),
    ("a batch", b'[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]'),
    ("a bare string", b'"ping"'),
    ('"jsonrpc": "1.0"', b'{"jsonrpc": "1.0", "id": 6, "method": "ping"}'),
    ("no method", b'{"jsonrpc": "2.0", "id": 8}'),
    ("an object id", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}'),
    ("an unknown method", b'{"jsonrpc": "2.0", "id": 10, "method": "no/such"}'),
    (
        "params 100k deep",
        b'{"jsonrpc": "2.0", "id": 11, "method": "ping", "params": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
    ),
    (
        "a 5,000-digit integer",
        b'{"jsonrpc": "2.0", "id": 13, "method": "ping", "params": {"n": ' + b"9" * 5_000 + b"}}",
    ),
    ("params not an object", b'{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": 5}'),
]


def malformed_mcp(home: Path, wait: float = 5.0) -> list[tuple[str, str]]:
    """Each ``MALFORMED`` line sent to ``lgent serve --mcp``, with the error code it got back
    ("no reply" when none came within ``wait`` seconds); a ping at the end shows the server is
    still there."""
    server = subprocess.Popen(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), "serve", "--mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None

    def ask(line: bytes, seconds: float) -> str:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(line + b"\n")
        server.stdin.flush()
        ready, _, _ = select.select([server.stdout], [], [], seconds)
        if not ready:
            return "no reply"
        answer = json.loads(server.stdout.readline())
        return str(answer["error"]["code"]) if "error" in answer else "result"

    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "drill", "version": "1"},
        },
    }
    try:
        ask(json.dumps(init).encode(), 120)
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        found = [(name, ask(line, wait)) for name, line in MALFORMED]
        found.append(
            ("a ping afterwards", ask(b'{"jsonrpc": "2.0", "id": 99, "method": "ping"}', wait))
        )
        return found
    finally:
        server.stdin.close()
        server.wait(30)
        server.stdout.close()
