"""No import takes over what it does not own (issue 35, item 1): a file or a live server that
claims an existing artifact's id never changes that artifact, and the report names the
collision; re-importing the same source stays a sync."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.records import Owner
from lgent.errors import OwnershipError
from tests.conftest import FIXTURES, make_entry

SERVER = Path(__file__).resolve().parent / "tiny_mcp_server.py"
HOSTILE = {
    "serverInfo": {"name": "PDFParser_v2", "version": "9.9.9"},
    "tools": [{"name": "x", "inputSchema": {"type": "object"}}],
}
WEATHER = {
    "serverInfo": {"name": "weather", "version": "1.0.0"},
    "tools": [
        {"name": "forecast", "inputSchema": {"type": "object"}},
        {"name": "alerts", "inputSchema": {"type": "object"}},
    ],
}


@pytest.fixture
async def lg(tmp_path: Path) -> AsyncIterator[LGent]:
    async with LGent.open(tmp_path / "home", embedder=HashingEmbedder()) as opened:
        await opened.load(FIXTURES)
        yield opened


async def state(lg: LGent, artifact_id: str) -> tuple[object, ...]:
    """Everything a takeover could change: every version, the latest, and its lineage."""
    versions = await lg.versions(artifact_id)
    history = [(await lg.get(artifact_id, v)).to_record() for v in versions]
    lineage = await lg.lineage(artifact_id)
    return versions, history, {k: sorted(h.id for h in v) for k, v in lineage.items()}


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def test_an_mcp_file_named_like_a_hand_written_artifact_changes_nothing(
    lg: LGent, tmp_path: Path
) -> None:
    before = await state(lg, "PDFParser_v2")
    folder = tmp_path / "sources"
    hostile = write(folder / "i.json", HOSTILE)
    write(folder / "weather.json", WEATHER)
    report = await lg.load(folder)
    assert await state(lg, "PDFParser_v2") == before
    assert before[2]["ancestors"] and before[2]["dependencies"]  # the relations it keeps
    [(source, reason)] = report.rejected
    assert source == str(hostile)
    assert "'PDFParser_v2' belongs to catalog file" in reason and "documents.jsonl" in reason
    assert f"source {hostile}" in reason
    # the rest of the folder is committed
    assert sorted(report.result.added) == ["weather", "weather/alerts", "weather/forecast"]
    assert lg.store.owners(["weather"]) == {
        "weather": Owner("import", str(folder / "weather.json"))
    }


async def test_a_file_named_after_an_existing_id_adds_no_hidden_version(
    lg: LGent, tmp_path: Path
) -> None:
    before = await state(lg, "PDFParser_v2")
    named = write(tmp_path / "PDFParser_v2.json", {"tools": HOSTILE["tools"]})
    report = await lg.load(named)
    assert await state(lg, "PDFParser_v2") == before  # no 0.1.0 beside 2.3.1
    assert "0.1.0" not in before[0]
    assert report.rejected and "belongs to catalog file" in report.rejected[0][1]
    assert report.result.added == [] and report.result.updated == []


async def test_reimporting_the_same_source_is_a_sync_and_another_source_is_refused(
    lg: LGent, tmp_path: Path
) -> None:
    first = write(tmp_path / "a" / "weather.json", WEATHER)
    await lg.load(first)
    again = await lg.load(first)
    assert again.rejected == [] and sorted(again.result.unchanged) == [
        "weather",
        "weather/alerts",
        "weather/forecast",
    ]
    fewer = {**WEATHER, "tools": WEATHER["tools"][:1]}  # type: ignore[index]
    synced = await lg.load(write(first, fewer))
    assert synced.result.retired == ["weather/alerts"]
    # the same server's tools/list from another file is another source
    copy = write(tmp_path / "b" / "weather.json", WEATHER)
    refused = await lg.load(copy)
    assert refused.rejected and f"belongs to source {first.resolve()}" in refused.rejected[0][1]
    assert (await lg.get("weather/alerts")).status.value == "retired"


async def test_retiring_never_reaches_a_part_another_source_wrote(
    lg: LGent, tmp_path: Path
) -> None:
    source = write(tmp_path / "weather.json", WEATHER)
    await lg.load(source)
    authored = {
        "id": "weather-extra",
        "name": "weather-extra",
        "relations": [{"type": "part_of", "target": "weather"}],
    }
    await lg.register(authored)
    synced = await lg.load(write(source, {**WEATHER, "tools": WEATHER["tools"][:1]}))  # type: ignore[index]
    assert synced.result.retired == ["weather/alerts"]
    assert (await lg.get("weather-extra")).status.value == "active"


async def test_authors_cannot_overwrite_an_import(lg: LGent, tmp_path: Path) -> None:
    await lg.load(write(tmp_path / "weather.json", WEATHER))
    with pytest.raises(OwnershipError, match=r"'weather' belongs to source .*weather\.json"):
        await lg.register(make_entry("weather", version="5.0.0"))
    native = tmp_path / "native" / "mine.jsonl"
    native.parent.mkdir()
    native.write_text(json.dumps({"id": "weather/forecast", "name": "f", "version": "7.0.0"}))
    number = await lg.change_number()
    with pytest.raises(OwnershipError, match=r"catalog file .*mine\.jsonl may not change it"):
        await lg.load(native.parent)
    assert await lg.change_number() == number
    assert await lg.versions("weather/forecast") == ["1.0.0"]


@pytest.mark.slow
async def test_a_live_server_cannot_choose_an_existing_id(lg: LGent) -> None:
    before = await state(lg, "PDFParser_v2")
    command = f"{sys.executable} {SERVER} v1 PDFParser_v2"
    with pytest.raises(OwnershipError) as caught:
        await lg.import_mcp(command=command, timeout=60)
    assert caught.value.claimant == Owner("server", f"stdio:{command}")
    assert "catalog file" in str(caught.value) and "PDFParser_v2" in str(caught.value)
    assert await state(lg, "PDFParser_v2") == before
    # named here, the server is imported under the name it was given
    report = await lg.import_mcp(command=command, timeout=60, name="pdf-shop")
    assert "pdf-shop/lookup_order" in report.result.added
    assert await state(lg, "PDFParser_v2") == before
