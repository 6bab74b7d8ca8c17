"""docs/limits.md states the limits the code enforces (no drift between the two)."""

from __future__ import annotations

import re
from pathlib import Path

from lgent import limits
from lgent.catalog.harvest import MAX_HARVEST_BYTES, MAX_PAGES
from lgent.catalog.loaders import MAX_PROBLEMS
from lgent.catalog.readers.parsing import MAX_YAML_NODES
from lgent.config import DEFAULT_MAX_FILE_MIB
from lgent.grammar import MAX_DEPTH
from lgent.grammar.parser import MAX_WILDCARD_LENGTH, MAX_WILDCARDS
from lgent.graph.signatures import MAX_PATH_LENGTH
from lgent.http.app import DEFAULT_MAX_BODY_BYTES
from lgent.http.errors import MAX_BODY_DEPTH, MAX_BODY_VALUES, MAX_DETAILS
from lgent.mcp.stdio import MAX_MESSAGE_DEPTH
from lgent.serving import PAGE_DEPTH

DOC = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")


def row_of(constant: str) -> str:
    rows = [line for line in DOC.splitlines() if f"`{constant}`" in line]
    assert rows, f"{constant} is not in docs/limits.md"
    return rows[0]


def numbers(row: str) -> set[int]:
    return {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", row)}


def test_every_catalog_and_query_limit_is_documented_with_its_value() -> None:
    for name in dir(limits):
        if name.startswith("MAX_"):
            assert getattr(limits, name) in numbers(row_of(name)), name


def test_limits_kept_beside_their_code() -> None:
    for name, value in [
        ("MAX_DEPTH", MAX_DEPTH),
        ("MAX_WILDCARD_LENGTH", MAX_WILDCARD_LENGTH),
        ("MAX_WILDCARDS", MAX_WILDCARDS),
        ("MAX_PATH_LENGTH", MAX_PATH_LENGTH),
        ("MAX_PROBLEMS", MAX_PROBLEMS),
        ("MAX_YAML_NODES", MAX_YAML_NODES),
        ("max_file_mib", DEFAULT_MAX_FILE_MIB),
        ("DEFAULT_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES),
        ("PAGE_DEPTH", PAGE_DEPTH),
        ("MAX_BODY_VALUES", MAX_BODY_VALUES),
        ("MAX_BODY_DEPTH", MAX_BODY_DEPTH),
        ("MAX_DETAILS", MAX_DETAILS),
        ("MAX_MESSAGE_DEPTH", MAX_MESSAGE_DEPTH),
        ("MAX_PAGES", MAX_PAGES),
        ("MAX_HARVEST_BYTES", MAX_HARVEST_BYTES >> 20),
    ]:
        assert value in numbers(row_of(name)), name
