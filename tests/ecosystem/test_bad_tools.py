"""One bad MCP tool leaves only that tool out (issue 35, item 7), and the readers' silent cuts
are said (item 9): a description over the limit, a schema nested too deeply, bidirectional
controls in a name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgent.catalog.loaders import read_path
from lgent.errors import ValidationError
from lgent.limits import MAX_DESCRIPTION_LENGTH
from tests.conftest import make_entry

GOOD = {"name": "forecast", "inputSchema": {"type": "object"}}


def server(tools: list[Any], name: str = "weather") -> dict[str, Any]:
    return {"serverInfo": {"name": name, "version": "1.0.0"}, "tools": tools}


@pytest.mark.parametrize("bad", [" ", "\u200b", "", "  \t ", "\u202e", "/"])
def test_a_tool_without_a_usable_name_is_left_out_alone(tmp_path: Path, bad: str) -> None:
    folder = tmp_path / "servers"
    folder.mkdir()
    tools = [GOOD, {"name": bad, "inputSchema": {"type": "object"}}]
    (folder / "weather.json").write_text(json.dumps(server(tools)), encoding="utf-8")
    other = server([{"name": "convert", "inputSchema": {"type": "object"}}], "units")
    (folder / "units.json").write_text(json.dumps(other), encoding="utf-8")
    batch = read_path(folder)
    assert batch.rejected == []
    assert sorted(e.id for e in batch.entries) == [
        "units",
        "units/convert",
        "weather",
        "weather/forecast",
    ]
    assert any("gives no id of its own" in w and "left out" in w for w in batch.warnings)


def test_a_source_that_repeats_an_id_is_left_out_not_the_load(tmp_path: Path) -> None:
    folder = tmp_path / "servers"
    folder.mkdir()
    twice = server([GOOD, {"name": "Forecast!", "inputSchema": {"type": "object"}}])
    twice["tools"].append({"name": "forecast!", "inputSchema": {"type": "object"}})
    (folder / "weather.json").write_text(json.dumps(twice), encoding="utf-8")
    (folder / "units.json").write_text(
        json.dumps(server([{"name": "convert", "inputSchema": {}}], "units")), encoding="utf-8"
    )
    batch = read_path(folder)
    assert "units/convert" in [e.id for e in batch.entries]


def test_a_description_cut_at_the_limit_is_said(tmp_path: Path) -> None:
    long = {"name": "essay", "description": "word " * 5_000, "inputSchema": {"type": "object"}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(server([long])), encoding="utf-8")
    batch = read_path(path)
    [tool] = [e for e in batch.entries if e.id == "weather/essay"]
    assert len(tool.description) <= MAX_DESCRIPTION_LENGTH
    assert any(f"cut at {MAX_DESCRIPTION_LENGTH:,}" in w for w in batch.warnings)


def test_an_all_of_chain_past_the_depth_limit_is_said(tmp_path: Path) -> None:
    schema: dict[str, object] = {"type": "string"}
    for level in range(20):
        schema = {"allOf": [schema], "title": f"Level{level}"}
    tool = {"name": "deep", "inputSchema": {"type": "object"}, "outputSchema": schema}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(server([tool])), encoding="utf-8")
    batch = read_path(path)
    assert any("nested" in w and "deeper than 16" in w for w in batch.warnings)


def test_bidirectional_controls_never_stay_in_a_name(tmp_path: Path) -> None:
    tool = {"name": "invoice\u202egpj.exe", "title": "a\u202eb", "inputSchema": {}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(server([tool], name="evil\u202eserver")), encoding="utf-8")
    batch = read_path(path)
    assert all("\u202e" not in e.name for e in batch.entries)
    assert any("bidirectional control" in w for w in batch.warnings)
    with pytest.raises(ValidationError, match="bidirectional control character U\\+202E"):
        make_entry("Spoof", name="report\u202efdp.exe")
