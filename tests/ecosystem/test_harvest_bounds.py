"""Every harvest is bounded (issue 35, items 4 and 9): the bytes a server sends over HTTP, the
pages and cursors of its tools/list, and the processes a stdio server leaves behind."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from benchmarks.harness.endless_http import EndlessServer, Mode
from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.harvest import MAX_PAGES, harvest_mcp
from lgent.catalog.readers.mcp import PARTIAL
from lgent.errors import LoadError

RAW = Path(__file__).resolve().parent / "raw_mcp_server.py"

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mode", ["json", "sse", "sse-one"])
async def test_an_endless_http_answer_stops_at_the_byte_limit(mode: Mode) -> None:
    with EndlessServer(mode) as server:
        started = time.monotonic()
        with pytest.raises(LoadError, match=r"MCP server at http://127\.0\.0\.1") as caught:
            await harvest_mcp(url=server.url, timeout=30, max_bytes=4 << 20)
        took = time.monotonic() - started
        sent = server.sent
    assert took < 30  # ended by the byte limit (or the SDK's own), not by the timeout
    assert sent < 64 << 20, f"{sent} bytes were sent"
    if mode == "json":
        assert "sent more than 4 MiB" in str(caught.value)


async def test_a_repeating_cursor_ends_the_listing_with_a_warning(tmp_path: Path) -> None:
    doc = await harvest_mcp(command=f"{sys.executable} {RAW} loop", timeout=30)
    assert [t["name"] for t in doc.data["tools"]] == ["tool0", "tool1", "tool2"]
    assert "gave the cursor 'c1' twice" in doc.data[PARTIAL]
    async with LGent.open(tmp_path / "H", embedder=HashingEmbedder()) as lg:
        once = await lg.import_mcp(command=f"{sys.executable} {RAW} once", name="pager")
        assert "pager/tool0" in once.result.added
        report = await lg.import_mcp(command=f"{sys.executable} {RAW} loop", name="pager")
        assert any("twice" in w and "not retired" in w for w in report.warnings)
        assert report.result.retired == []  # a cut listing retires nothing


async def test_a_listing_without_end_is_cut_at_the_page_limit_with_a_warning() -> None:
    doc = await harvest_mcp(command=f"{sys.executable} {RAW} endless", timeout=120)
    assert len(doc.data["tools"]) == MAX_PAGES
    assert f"more than {MAX_PAGES} pages" in doc.data[PARTIAL]


async def test_the_stdio_servers_grandchildren_are_ended(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    await harvest_mcp(command=f"{sys.executable} {RAW} once {pidfile}", timeout=30)
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(grandchild):
        time.sleep(0.05)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended (its parent is gone; init reaps it)
