"""Suggestions (serendipity) keep to the query's constraints and are not the same generic few
under unrelated queries (issue 19: three text tools were suggested under most queries, often
"outside your constraints")."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import OpenHome

pytestmark = pytest.mark.real_model

UNRELATED = (
    "extract tables from PDF files",
    "clean up messy text",
    "PDFParser",
    "translate documents to German",
    "detect the language of a text",
    "summarise news articles",
    "scrape a web page",
    "find personal data in text",
    "score the sentiment of reviews",
    "OCR scanned pages",
    "check the readability of a text",
    "convert CSV to JSON",
    "send a message to the team chat",
    "schedule a meeting",
    "detect anomalies in logs",
)


async def test_suggestions_do_not_repeat_across_unrelated_queries(open_example: OpenHome) -> None:
    seen: Counter[str] = Counter()
    async with open_example() as lg:
        for query in UNRELATED:
            response = await lg.query(query, limit=10)
            seen.update({item.artifact_id for item in response.serendipity})
    assert seen, "no suggestions at all"
    assert max(seen.values()) <= 2, seen.most_common(5)


async def test_suggestions_keep_to_the_constraints(open_example: OpenHome) -> None:
    suggested = 0
    async with open_example() as lg:
        for query in UNRELATED:
            response = await lg.query(query, ["local execution"], limit=10)
            entries = await lg.get_many([item.artifact_id for item in response.serendipity])
            for item in response.serendipity:
                suggested += 1
                assert "outside your constraints" not in item.reason, item.reason
                execution = entries[item.artifact_id].execution
                assert execution is not None and execution.value == "local", item
    assert suggested
