"""A request for several things splits into its clauses; one request stays whole."""

from __future__ import annotations

import pytest

from lgent.analysis.clauses import MAX_CLAUSES, clauses


def test_two_requests_in_one_sentence() -> None:
    assert clauses("get the latest news about a company and show how its stock price moved") == [
        "get the latest news about a company",
        "show how its stock price moved",
    ]


def test_sentence_ends_semicolons_and_commas_split() -> None:
    text = "Transcribe the voice memo; then translate the transcript, summarize it in French."
    assert clauses(text) == [
        "Transcribe the voice memo",
        "translate the transcript",
        "summarize it in French",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "find me a tool that summarizes text",
        "bread and butter",
        "cats and dogs and birds",
        "a meal using the ingredient beef and grocery",  # one word alone is no clause
        "",
    ],
)
def test_one_request_gives_no_clauses(text: str) -> None:
    assert clauses(text) == []


def test_at_most_the_longest_clauses_in_order() -> None:
    parts = [f"do task number {n} for me now" + " please" * n for n in range(6)]
    found = clauses("; ".join(parts))
    assert len(found) == MAX_CLAUSES
    assert found == parts[-MAX_CLAUSES:]
