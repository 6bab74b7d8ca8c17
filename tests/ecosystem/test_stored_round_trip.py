"""Handing a just-written entry to the index builds instead of decoding its row
(``lgent.catalog.fresh``) is exact because an imported entry round-trips through the JSON
stored for it: checked on real OpenAPI 3 examples and MCP servers, inferred kinds and all."""

from __future__ import annotations

import json
from pathlib import Path

from lgent.catalog.loaders import read_path
from lgent.catalog.records import decode_entry
from lgent.models import CatalogEntry


def test_imported_entries_round_trip_through_their_stored_json(
    openapi3_examples: Path, mcp_tools: Path
) -> None:
    for folder in (openapi3_examples, mcp_tools):
        entries = [
            item.record
            for item in read_path(folder).records
            if isinstance(item.record, CatalogEntry)
        ]
        assert len(entries) > 10 and sum(1 for e in entries if e.kinds) > 10
        for entry in entries:
            decoded = decode_entry(json.dumps(entry.to_record(), ensure_ascii=False))
            assert decoded == entry and repr(decoded) == repr(entry)
