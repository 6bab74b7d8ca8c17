"""Prototype (issue 15): grammar characters inside a long sentence are read as words."""

from __future__ import annotations

import pytest

from lgent.fusion.classify import as_words, classify, reads_as_sentence
from lgent.models import QueryType

SENTENCES = [
    'I want to make this statement sound more inspiring: "every day is a chance"',
    "plan a trip to the coordinates 40.7128, -74.0060 and tell me the local weather",
    '"Can you recommend a good book to read and a quiet cafe nearby?"',
    "NOT sure which of the OR-tools solvers handle scheduling problems with many shifts AND",
]
GRAMMAR = [
    "author:ToolForge type:agent",
    "(slack OR teams OR sms) AND notif*",
    "translat* -type:dataset -status:retired",
    '"reading order"',
    "find every parser written by author:ToolForge that reads scanned pages and tables",
]


@pytest.mark.parametrize("text", SENTENCES)
def test_a_long_sentence_with_grammar_characters_is_plain_words(text: str) -> None:
    assert reads_as_sentence(text, 7)
    assert classify(text, None, sentence_words=7).query_type == QueryType.SEMANTIC_INTENT


@pytest.mark.parametrize("text", GRAMMAR)
def test_short_grammar_and_clear_fields_stay_keyword_syntax(text: str) -> None:
    assert not reads_as_sentence(text, 7)
    assert classify(text, None, sentence_words=7).query_type == QueryType.KEYWORD_SYNTAX


def test_as_words_takes_the_grammar_out() -> None:
    assert as_words('my word is "kalem" at -73.95, Name: x') == "my word is kalem at 73.95, Name x"
    assert as_words("(pdf OR html) AND NOT draft*") == "pdf or html and not draft"
    assert as_words("OR-tools and well-known e-mail") == "OR-tools and well-known e-mail"
