"""What the CLI says of its answers: how many there are (the total, not the page ``--limit``
shows), and what a score counted as 0 because the catalog does not say it."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import Cli

RECORDS = (
    '{"id": "writer", "name": "writer", "output_type": "Doc", "description": "writes documents"}',
    '{"id": "reader", "name": "reader", "input_type": "Doc", "description": "reads documents"}',
    '{"id": "indexer", "name": "indexer", "input_type": "Doc", "description": "indexes documents"}',
    '{"id": "printer", "name": "printer", "input_type": "Doc", "description": "prints documents"}',
)


def test_compatible_tells_how_many_fit_beyond_the_limit(cli: Cli) -> None:
    home = cli.load(*RECORDS)
    assert cli.run("--home", home, "compatible", "writer", "--limit", "2") == 0
    said = cli.said().out
    assert "3 artifact(s) consume writer (the first 2; --limit shows more):" in said
    assert sum(name in said for name in ("reader", "indexer", "printer")) == 2
    assert cli.run("--home", home, "compatible", "writer") == 0
    assert "3 artifact(s) consume writer:" in cli.said().out
    assert cli.run("--home", home, "compatible", "writer", "--limit", "2", "--json") == 0
    assert len(json.loads(cli.said().out)) == 2  # JSON: the page, as before


@pytest.mark.real_model
def test_similar_says_what_it_shows_not_a_total(cli: Cli) -> None:
    home = cli.load(*RECORDS)
    assert cli.run("--home", home, "similar", "reader", "--limit", "2") == 0
    said = cli.said().out
    assert "the 2 closest in meaning to reader" in said
    assert "of 2 match" not in said


def test_resolve_says_what_its_score_did_not_measure(cli: Cli) -> None:
    home = cli.load(
        '{"type": "X"}',
        '{"type": "Y"}',
        '{"id": "a", "name": "a", "input_type": "X", "output_type": "Y"}',
        '{"id": "b", "name": "b", "input_type": "X", "output_type": "Y", "success_rate": 0.6, '
        '"last_used": "2026-11-20T00:00:00Z"}',
    )
    assert cli.run("--home", home, "resolve", "--input", "X", "--output", "Y") == 0
    said = " ".join(cli.said().out.split())  # the line wraps
    assert said.startswith("b (X -> Y, v0.1.0) score")
    assert "success 0.60×0.4" in said and "(never used)" not in said
    assert "runner-up a: 0.200" in said and "(success not measured, recency never used)" in said
