"""The HTTP server's guard (issue 18, point 4): a token for writes (and reads when set so), the
Host and Origin allow-list, slow clients dropped; and one strict validation of query arguments on
every surface, with warnings capped."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from lgent import LGent
from lgent.config import HttpSettings, settings_from_mapping
from lgent.errors import QueryError, SettingsError
from lgent.http.app import build_http_app
from lgent.http.guard import HttpSecurity, host_of, is_loopback

TOKEN = "s3cret-token-0123456789"
ENTRY = {"id": "NewTool", "name": "NewTool", "description": "a new tool"}


@asynccontextmanager
async def client(
    security: HttpSecurity | None = None, base: str = "http://127.0.0.1:8765"
) -> AsyncIterator[tuple[httpx.AsyncClient, LGent]]:
    async with LGent.open(None) as lg:
        app = build_http_app(lg, allow_writes=True, security=security)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=base) as http:
            yield http, lg


async def test_with_a_token_writes_without_it_get_401() -> None:
    async with client(HttpSecurity(token=TOKEN)) as (http, lg):
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        for headers in (
            {},
            {"Authorization": "Bearer wrong-token-0123456789"},
            {"Authorization": TOKEN},
        ):
            refused = await http.post("/artifacts", json=ENTRY, headers=headers)
            assert refused.status_code == 401, refused.text
            assert refused.json()["error"]["type"] == "Unauthorized"
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert (await http.delete("/artifacts/NewTool", headers=headers)).status_code == 401
        assert await lg.change_number() == 0
        assert (await http.get("/stats")).status_code == 200  # reads stay open
        assert (await http.post("/artifacts", json=ENTRY, headers=bearer)).status_code == 201
        assert (await http.delete("/artifacts/NewTool", headers=bearer)).status_code == 200


async def test_reads_need_the_token_when_the_setting_says_so() -> None:
    async with client(HttpSecurity(token=TOKEN, token_for_reads=True)) as (http, _lg):
        assert (await http.get("/stats")).status_code == 401
        assert (await http.post("/query", json={"query": "x"})).status_code == 401
        ok = await http.get("/stats", headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200


async def test_by_default_a_foreign_host_or_origin_is_refused() -> None:
    async with client() as (http, lg):
        evil = await http.get("/stats", headers={"Host": "evil.example.com"})
        assert evil.status_code == 400 and evil.json()["error"]["type"] == "HostNotAllowed"
        evil_write = await http.post(
            "/artifacts", json=ENTRY, headers={"Host": "evil.example.com:8765"}
        )
        assert evil_write.status_code == 400
        page = await http.post(
            "/artifacts", json=ENTRY, headers={"Origin": "http://evil.example.com"}
        )
        assert page.status_code == 403 and page.json()["error"]["type"] == "OriginNotAllowed"
        assert (await http.get("/stats", headers={"Origin": "null"})).status_code == 403
        assert await lg.change_number() == 0
        for host in ("localhost:8765", "127.0.0.1", "[::1]:8765"):
            assert (await http.get("/stats", headers={"Host": host})).status_code == 200, host
        same_origin = await http.post(
            "/artifacts", json=ENTRY, headers={"Origin": "http://127.0.0.1:8765"}
        )
        assert same_origin.status_code == 201


async def test_allowed_hosts_are_configurable() -> None:
    settings = HttpSettings(allowed_hosts=("catalog.internal",))
    security = HttpSecurity.from_settings(settings, bind="10.1.2.3", extra_hosts=("Other.Host",))
    assert security.allowed_hosts == ("catalog.internal", "other.host", "10.1.2.3")
    async with client(security, base="http://catalog.internal") as (http, _lg):
        assert (await http.get("/stats")).status_code == 200
        assert (await http.get("/stats", headers={"Host": "10.1.2.3:80"})).status_code == 200
        assert (await http.get("/stats", headers={"Host": "localhost"})).status_code == 400
    async with client(HttpSecurity(allowed_hosts=("*",)), base="http://anything") as (http, _lg):
        assert (await http.get("/stats")).status_code == 200


def test_host_parsing_and_loopback() -> None:
    assert host_of("Example.COM:80") == "example.com"
    assert host_of("[::1]:8765") == "::1"
    assert host_of("::1") == "::1"
    assert [is_loopback(h) for h in ("localhost", "127.0.0.2", "::1", "0.0.0.0", "10.0.0.1")] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_http_settings_are_validated() -> None:
    built = settings_from_mapping(
        {"http": {"allowed_hosts": ["A.example"], "token_for_reads": True}}
    )
    assert built.http.allowed_hosts == ("a.example",) and built.http.token_for_reads
    for bad in (
        {"allowed_hosts": "localhost"},
        {"allowed_hosts": []},
        {"token_for_reads": "yes"},
        {"body_timeout_seconds": 0},
    ):
        with pytest.raises(SettingsError, match=r"http\."):
            settings_from_mapping({"http": bad})


# -- one strict validation on every surface ------------------------------------------------------

BAD_ARGUMENTS: list[dict[str, Any]] = [
    {"limit": True},
    {"limit": "5"},
    {"limit": 5.0},
    {"strict": "yes"},
]


async def test_no_surface_coerces_query_arguments() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from lgent.mcp.server import build_mcp_server

    async with client() as (http, lg):
        server = build_mcp_server(lg)
        for bad in BAD_ARGUMENTS:
            name = next(iter(bad))
            with pytest.raises(QueryError, match=name):
                await lg.query("pdf", **bad)
            answer = await http.post("/query", json={"query": "pdf", **bad})
            assert answer.status_code == 422, (bad, answer.text)
            assert answer.json()["error"]["details"][0]["field"] == name
            with pytest.raises(ToolError, match=name):
                await server.call_tool("search", {"query": "pdf", **bad})
        with pytest.raises(QueryError, match="lenient"):
            await lg.query("pdf", lenient="yes")  # type: ignore[arg-type]
        unknown = await http.post("/query", json={"query": "pdf", "zzz": 1})
        assert unknown.status_code == 422 and "unknown field" in unknown.text
        with pytest.raises(ToolError, match=r"unknown argument\(s\): zzz"):
            await server.call_tool("search", {"query": "pdf", "zzz": 1})
        with pytest.raises(ToolError, match="unknown argument"):
            await server.call_tool("stats", {"verbose": True})
        with pytest.raises(ToolError, match="max_length"):
            await server.call_tool(
                "find_paths", {"source_type": "A", "target_type": "B", "max_length": "3"}
            )


async def test_warnings_are_capped_with_a_summary() -> None:
    async with client() as (http, lg):
        await lg.register(ENTRY)
        found = await lg.search('"' * 1999, brain="keyword", lenient=True)
        assert len(found.warnings) == 11
        assert found.warnings[-1].startswith("... and ") and "more warnings" in found.warnings[-1]
        answer = await http.get(
            "/brains/keyword/search", params={"q": '"' * 1999, "lenient": "true"}
        )
        assert answer.status_code == 200 and len(answer.json()["warnings"]) == 11
        assert len(answer.content) < 5_000


# -- a real server: slow clients are dropped -----------------------------------------------------


@pytest.fixture
def live_server() -> Iterator[int]:
    """The API on a loopback port, with 1-second head and body deadlines."""
    import uvicorn

    from lgent.http.guard import guarded_protocol

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    state: dict[str, Any] = {}

    async def serve() -> None:
        async with LGent.open(None) as lg:
            config = uvicorn.Config(
                build_http_app(lg, allow_writes=True),
                host="127.0.0.1",
                port=port,
                log_level="error",
                lifespan="off",
                http=guarded_protocol(1.0, 1.0),
            )
            state["server"] = uvicorn.Server(config)
            await state["server"].serve()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not (state.get("server") is not None and state["server"].started):
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield port
    state["server"].should_exit = True
    thread.join(timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def test_slow_clients_are_dropped_and_a_foreign_host_refused(live_server: int) -> None:
    address = ("127.0.0.1", live_server)
    slow: list[socket.socket] = []
    for n in range(40):
        sock = socket.create_connection(address, timeout=5)
        if n % 2:
            sock.sendall(b"GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head never ends
        else:
            sock.sendall(
                b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100\r\n\r\n{"query"'  # the body never ends
            )
        slow.append(sock)
    started = time.monotonic()
    try:
        assert all(_closed_within(s, 10) for s in slow)
        assert time.monotonic() - started < 10
    finally:
        for s in slow:
            s.close()
    with httpx.Client(base_url=f"http://127.0.0.1:{live_server}", timeout=10) as http:
        assert http.get("/stats").status_code == 200  # the server still answers
        evil = http.get("/stats", headers={"Host": "evil.example.com"})
        assert evil.status_code == 400


@pytest.mark.real_model  # the server warms its brains (the model) in the background
def test_lgent_serve_takes_its_token_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.serving_cases import http_server

    monkeypatch.setenv("LGENT_TOKEN", TOKEN)
    with (
        http_server(tmp_path / "home", tmp_path / "server.log", "--allow-writes") as url,
        httpx.Client(base_url=url, timeout=60) as http,
    ):
        assert http.post("/artifacts", json=ENTRY).status_code == 401
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert http.post("/artifacts", json=ENTRY, headers=bearer).status_code == 201
        assert http.get("/stats", headers={"Host": "evil.example.com"}).status_code == 400
        assert http.get("/stats").json()["artifacts"] == 1


def test_binding_beyond_loopback_without_a_token_warns(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import uvicorn

    import lgent.http.app as http_app

    served: list[Any] = []

    async def serve(self: Any, sockets: Any = None) -> None:  # binds nothing
        served.append(self.config)

    async def no_warm_up(_lg: LGent, **_: object) -> list[str]:
        return []

    monkeypatch.setattr(uvicorn.Server, "serve", serve)
    monkeypatch.setattr(http_app, "warm_up", no_warm_up)
    monkeypatch.setattr(http_app, "freeze_heap", lambda: None)  # not this test process's heap
    for host, token, warned in (
        ("10.1.2.3", None, True),
        ("10.1.2.3", TOKEN, False),
        ("127.0.0.1", None, False),
    ):
        caplog.clear()
        asyncio.run(http_app.serve_http(None, host=host, port=0, token=token))
        assert any("without a token" in r.message for r in caplog.records) == warned, host
    assert len(served) == 3
