"""When the grammar is clearly meant, and how everything else is read as plain words."""

from __future__ import annotations

import pytest

from lgent.grammar import Or, Phrase, Term
from lgent.grammar.reading import grammar_meant, meaning_words, read_words


@pytest.mark.parametrize(
    "text",
    [
        "author:F-gent type:agent",
        '"exact phrase" AND pdf',
        "(pdf OR html) AND parser",
        "News* version:2.*",
        "parser~1",
        "parser -deprecated",
        '"executive summary"',
        "tag:privacy OR tag:pii",
        "Name:PDFParser",
    ],
)
def test_grammar_is_honoured_where_clearly_meant(text: str) -> None:
    assert grammar_meant(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        'my word is "kalem"',
        "-73.955968 longitude for the map",
        "Name: x - y",
        "NOT sure which tool converts PDFs",
        "tools like OR-tools for scheduling",
        "pdf parser AND",
        "what is 2*3",
        "is this sentence German, Portuguese or Turkish?",
        "https://example.com/a?b=c",
        "convert (pdf) files",
        "I need something AND fast for search of papers in big archives",
        "print('hello') in python",
        "pdf parser",
        '"Can you tell me the price of Apple stock and a good hotel in Paris?"',
    ],
)
def test_prose_is_plain_words(text: str) -> None:
    assert grammar_meant(text) is None
    assert read_words(text).tree is not None


def test_quoted_words_are_phrases_that_add_and_notes_say_how_parts_were_read() -> None:
    reading = read_words('my word is "kalem", Name: here -42 NOT')
    assert reading.tree is not None
    children = reading.tree.children  # type: ignore[attr-defined]
    assert Phrase("kalem") in [Phrase(c.text) for c in children if isinstance(c, Phrase)]
    assert {c.text for c in children if isinstance(c, Term)} >= {"my", "word", "Name", "42", "not"}
    assert reading.notes == (
        '`"kalem"` read as a phrase that adds to a match',
        "`Name:` read as a word, not a field",
        "`-42` read as a number",
        "`NOT` read as a word",
    )


def test_the_words_of_a_grammar_query_leave_out_filters_and_negations() -> None:
    tree = grammar_meant('author:F-gent "financial report" name:Parser* -draft type:agent')
    assert tree is not None
    assert meaning_words(tree) == "financial report Parser"
    only_filters = grammar_meant("author:F-gent type:agent status:active")
    assert only_filters is not None and meaning_words(only_filters) == ""


def test_a_quoted_sentence_is_read_as_its_words() -> None:
    text = '"Can you find me a quiet hotel near the station in Paris?"'
    reading = read_words(text)
    assert grammar_meant(text) is None
    assert isinstance(reading.tree, Or)
    leaves = [n for n in reading.tree.children if isinstance(n, Term | Phrase)]
    assert not any(isinstance(n, Phrase) for n in leaves)
    assert [n.text for n in leaves][:3] == ["Can", "you", "find"]
    assert all(text[n.start : n.end] == n.text for n in leaves)
    assert reading.notes == ("a quoted sentence read as its words",)
