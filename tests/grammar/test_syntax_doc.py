"""Every ``lgent-query`` example in docs/query-syntax.md is a valid query under both operators."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lgent.grammar import FIELD_ALIASES, FIELDS, parse

DOC = Path(__file__).resolve().parents[2] / "docs" / "query-syntax.md"
BLOCK = re.compile(r"^```lgent-query\n(.*?)^```", re.DOTALL | re.MULTILINE)


def doc_queries() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return [line for block in BLOCK.findall(text) for line in block.splitlines() if line.strip()]


def test_doc_has_examples() -> None:
    assert len(doc_queries()) >= 30


@pytest.mark.parametrize("query", doc_queries())
def test_doc_example_parses(query: str) -> None:
    parse(query, default_operator="AND")
    parse(query, default_operator="OR")


def test_doc_lists_every_field() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in [*FIELDS, *FIELD_ALIASES]:
        assert f"`{name}`" in text
