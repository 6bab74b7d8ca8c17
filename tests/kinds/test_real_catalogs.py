"""Inference on the real MCP servers of ../shared/ecosystem (read in place): coverage stays
where benchmarks/kind_coverage.py measured it, and sure-footed cases stay right."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgent.kinds import ToolKinds, Vocabulary, infer_tool_kinds
from tests.ecosystem.conftest import MCP_TOOLS, need


@pytest.fixture(scope="module")
def inferred(vocabulary: Vocabulary) -> dict[str, ToolKinds]:
    from benchmarks.ecosystem_tools import mcp_tools

    found: dict[str, ToolKinds] = {}
    for tool in mcp_tools(need(MCP_TOOLS)):
        found[tool.id] = infer_tool_kinds(
            vocabulary,
            name=tool.name,
            description=tool.description,
            input_schema=tool.input_schema,
            output_schema=tool.output_schema,
        )
    return found


def test_coverage_of_the_70_servers(inferred: dict[str, ToolKinds]) -> None:
    tools = list(inferred.values())
    assert len(tools) == 527
    with_input = sum(bool(t.accepts) for t in tools)
    with_output = sum(t.output is not None for t in tools)
    assert with_input / len(tools) >= 0.6
    assert with_output / len(tools) >= 0.4


@pytest.mark.parametrize(
    ("tool", "slot", "kind"),
    [
        ("fetch/fetch", "url", "URL"),
        ("exchange-rate-mcp/exchange_rate", "baseCurrency", "CurrencyCode"),
        ("whois/whois_as", "asn", "AutonomousSystemNumber"),
        ("time/get_current_time", "timezone", "TimeZone"),
        ("youtube-transcript/get_transcript", "url", "VideoURL"),
        ("excel/excel_read_sheet", "fileAbsolutePath", "SpreadsheetFilePath"),
        ("mcp-crypto-price/get-crypto-price", "symbol", "CryptoSymbol"),
        ("fetch/fetch", "output", "Markdown"),
        ("mermaid-validator/validateMermaid", "output", "SVG"),
        ("npx_fetch/fetch_html", "output", "HTML"),
        ("weather/get_weather", "group", "GeoPoint"),
        ("osm-mcp-server/geocode_address", "output", "List[GeoPoint]"),
    ],
)
def test_sure_cases(inferred: dict[str, ToolKinds], tool: str, slot: str, kind: str) -> None:
    found = inferred[tool]
    if slot == "output":
        assert found.output is not None and found.output.type_expr == kind
    elif slot == "group":
        assert kind in [g.kind for g in found.groups]
    else:
        (param,) = [p for p in found.inputs if p.name == slot]
        assert param.best is not None and param.best.kind == kind


def test_the_census_reads_the_real_data(tmp_path: Path) -> None:
    from benchmarks.ecosystem_tools import mcp_tools
    from benchmarks.kind_census import count, report

    census = count(mcp_tools(need(MCP_TOOLS)))
    assert census.tools["mcp"] == 527
    assert census.wrappers["mcp: lone 'result'"] == 104
    assert census.formats["uri"] == 2 and census.patterns["^AS\\d+$"] == 1
    assert "== JSON Schema formats" in report(census, 5)
