"""Identifier-aware analysis: splitting, merged forms, stemming, stop words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.analysis.identifiers import (
    merged_forms,
    part_spans,
    part_spans_by_character,
    split_identifier,
)
from lgent.analysis.stemming import stem
from lgent.analysis.tokens import content_words, tokens
from lgent.brains.keyword.typefields import glob_to_regex
from tests.examples import examples


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("PDFParser_v2", ["PDF", "Parser", "v", "2"]),
        ("camelCaseWord", ["camel", "Case", "Word"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("kebab-case", ["kebab", "case"]),
        ("HTTPServer2Go", ["HTTP", "Server", "2", "Go"]),
        ("XMLToJSON", ["XML", "To", "JSON"]),
        ("PDFs", ["PDFs"]),
        ("URLsToFetch", ["URLs", "To", "Fetch"]),
        ("Straße_Ümlaut", ["Straße", "Ümlaut"]),
        ("日本語ツール", ["日本語ツール"]),
        ("plain", ["plain"]),
    ],
)
def test_split_identifier(word: str, parts: list[str]) -> None:
    assert split_identifier(word) == parts


def test_merged_forms_keep_whole_and_joined_runs() -> None:
    forms = merged_forms("PDFParser_v2")
    assert {"pdfparser_v2", "pdfparser", "pdfparserv2", "parserv2"} <= set(forms)
    assert "pdf" not in forms  # single parts live in the split field, not here


def test_tokens_positions_offsets_and_stems() -> None:
    text = "PDFParser_v2 extracts the summaries from PDFs"
    toks = tokens(text, stemmed=True, drop_stop_words=True)
    assert [t.text for t in toks] == ["pdf", "parser", "v", "2", "extract", "summari", "pdf"]
    assert [t.position for t in toks] == list(range(7))
    assert [text[t.start : t.end] for t in toks] == [
        "PDF",
        "Parser",
        "v",
        "2",
        "extracts",
        "summaries",
        "PDFs",
    ]


def test_stop_words_kept_when_asked() -> None:
    assert [t.text for t in tokens("the parser", stemmed=False, drop_stop_words=False)] == [
        "the",
        "parser",
    ]
    assert [t.text for t in tokens("the parser", stemmed=False, drop_stop_words=True)] == ["parser"]


def test_stemmer_is_english_snowball() -> None:
    assert stem("running") == "run" and stem("parsers") == "parser"


def test_glob_to_regex_escapes_everything_else() -> None:
    assert glob_to_regex("News*") == "news.*"
    assert glob_to_regex("v2.?") == r"v2\..".lower()
    assert glob_to_regex("a+b*") == r"a\+b.*"


def test_content_words_are_distinct_split_and_without_stop_words() -> None:
    assert {stem(w) for w in ("cleans", "cleaning", "cleaned", "clean")} == {"clean"}
    assert content_words("Something that cleans up the PDFParser text, the text") == [
        "cleans",
        "pdf",
        "parser",
        "text",
    ]


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(alphabet="aAbBsSzZ09_.-'/+ ", max_size=14))
def test_ascii_part_spans_agree_with_the_character_rules(word: str) -> None:
    """The regex that splits ASCII words gives the spans the character-by-character rules give."""
    assert part_spans(word) == part_spans_by_character(word)


@pytest.mark.parametrize("word", ["PDFsx", "ABs", "AB2s", "aPDFs_v2", "XMLs-ToJSONs", "Ss", "sS"])
def test_ascii_part_spans_on_acronym_edges(word: str) -> None:
    assert part_spans(word) == part_spans_by_character(word)
