"""One health verdict on every surface: Python, the CLI, HTTP, MCP and the web page say the same
words (``lgent.health``) of a deprecated, an experimental, a low-success and an unmeasured
artifact, and the resolver turns down exactly the unhealthy ones."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import httpx
import pytest

from lgent import LGent, TypeRequirement
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.errors import DependencyError
from lgent.health import Health
from lgent.http.app import build_http_app
from lgent.mcp.server import build_mcp_server
from lgent.models import TypeDecl
from lgent.serving import artifact_answer
from tests.conftest import make_entry

ENTRIES = [
    make_entry("Old", input_type="Doc", output_type="Text", status="deprecated", success_rate=0.9),
    make_entry(
        "New",
        input_type="Doc",
        output_type="Text",
        success_rate=0.95,
        relations=[{"type": "successor_to", "target": "Old"}],
    ),
    make_entry("Trial", input_type="Doc", output_type="Text", status="experimental"),
    make_entry("Flaky", input_type="Doc", output_type="Text", success_rate=0.3),
    make_entry("Fresh", input_type="Doc", output_type="Text"),
]
EXPECTED = {
    "Old": "unhealthy: deprecated, use New",
    "Trial": "unhealthy: experimental (success not measured)",
    "Flaky": "unhealthy: low success rate 30%",
    "Fresh": "healthy (success not measured)",
    "New": "healthy",
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    async def build() -> None:
        async with LGent.open(tmp_path / "home", embedder=HashingEmbedder(32)) as lg:
            await lg.register_many(ENTRIES, [TypeDecl(type="Doc"), TypeDecl(type="Text")])

    import asyncio

    asyncio.run(build())
    return tmp_path / "home"


async def verdicts_of_the_library(home: Path) -> dict[str, str]:
    async with LGent.open(home, embedder=HashingEmbedder(32)) as lg:
        answers = {i: await artifact_answer(lg, i) for i in EXPECTED}
        direct = {i: Health.of(await lg.get(i)).verdict() for i in EXPECTED}
    assert {i: a.health for i, a in answers.items() if i != "Old"} == {
        i: v for i, v in direct.items() if i != "Old"
    }  # the successor is named only where it is known
    return {i: a.health for i, a in answers.items()}


def test_every_surface_says_the_same_verdict(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from lgent.cli.app import main

    assert asyncio.run(verdicts_of_the_library(home)) == EXPECTED
    for artifact_id, verdict in EXPECTED.items():
        monkeypatch.setattr(sys, "argv", ["lgent", "--home", str(home), "show", artifact_id])
        with pytest.raises(SystemExit) as done:
            main()
        assert done.value.code in (0, None)
        shown = capsys.readouterr().out
        assert re.search(rf"health\s+{re.escape(verdict)}", shown), shown
        monkeypatch.setattr(
            sys, "argv", ["lgent", "--home", str(home), "show", artifact_id, "--json"]
        )
        with pytest.raises(SystemExit):
            main()
        assert json.loads(capsys.readouterr().out)["health"] == verdict

    async def servers() -> None:
        async with LGent.open(home, embedder=HashingEmbedder(32)) as lg:
            transport = httpx.ASGITransport(app=build_http_app(lg))
            mcp = build_mcp_server(lg)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
                for artifact_id, verdict in EXPECTED.items():
                    api = await web.get(f"/artifacts/{artifact_id}")
                    assert api.json()["health"] == verdict
                    page = await web.get(f"/artifact/{artifact_id}")
                    found = re.search(r'<p id="health" class="health">(.*?)</p>', page.text)
                    assert found is not None
                    assert html.unescape(re.sub(r"<[^>]+>", "", found.group(1))) == verdict
                    said = await mcp.call_tool("get_artifact", {"id": artifact_id})
                    text = "".join(getattr(c, "text", "") for c in said.content)
                    assert f"health: {verdict}\n" in f"{text}\n", text
            try:
                best = await lg.resolve(TypeRequirement(input_type="Doc", output_type="Text"))
            except DependencyError as err:  # pragma: no cover - the healthy ones fit
                raise AssertionError(err) from err
            rejected = {r.id for r in best.rejected}
            assert {best.best.id, *(r.entry.id for r in best.runners_up)} <= {"New", "Fresh"}
            assert rejected == {i for i, v in EXPECTED.items() if v.startswith("unhealthy")}

    asyncio.run(servers())
