"""Identifier-aware analysis: splitting, merged forms, stemming, stop words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.analysis.identifiers import (
    merged_forms,
    part_spans,
    part_spans_by_character,
    spaced,
    split_identifier,
)
from lgent.analysis.stemming import stem
from lgent.analysis.tokens import content_words, token_texts, tokens, word_parts
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
        ("日本語ツール", ["日", "本", "語", "ツ", "ー", "ル"]),  # one part per ideograph or kana
        ("PDF数据abc", ["PDF", "数", "据", "abc"]),
        ("한국어", ["한국어"]),  # Hangul is written with spaces: its words stay whole
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


def test_chinese_and_japanese_text_is_one_token_per_character() -> None:
    """A word inside text written without spaces is found as its characters in a row: each
    ideograph or kana is a token at its own position, English in the same text is unchanged."""
    text = "获取火车站列表 for PDFParser, ひらがなとカタカナ"
    toks = tokens(text, stemmed=True, drop_stop_words=True)
    assert [t.text for t in toks] == [
        *"获取火车站列表",
        "pdf",
        "parser",
        *"ひらがなとカタカナ",
    ]
    assert [t.position for t in toks] == list(range(len(toks)))
    assert [text[t.start : t.end] for t in toks[:9]] == [*"获取火车站列表", "PDF", "Parser"]
    assert word_parts("火车站PDFs") == [("火", 0, 1), ("车", 1, 2), ("站", 2, 3), ("pdf", 3, 7)]
    assert word_parts("\u3400\U00020000\uf900") == [
        ("\u3400", 0, 1),
        ("\U00020000", 1, 2),
        ("\uf900", 2, 3),
    ]
    assert {"火车", "车站", "火车站"} <= set(merged_forms("火车站"))


def test_display_text_keeps_chinese_and_japanese_runs_whole() -> None:
    assert split_identifier("获取火车站", attach_digits=True) == ["获取火车站"]
    assert spaced("日本語ツール_PDFParser") == "日本語ツール PDF Parser"


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
@given(
    st.text(alphabet="aAbBsSzZ09_.-'/+ 中文éİ", max_size=40),
    st.booleans(),
    st.booleans(),
)
def test_token_texts_are_the_texts_of_the_tokens(text: str, stemmed: bool, drop: bool) -> None:
    texts = token_texts(text, stemmed=stemmed, drop_stop_words=drop)
    assert texts == [t.text for t in tokens(text, stemmed=stemmed, drop_stop_words=drop)]
    sentence = f"The PDFs of {text} are parsed"
    assert token_texts(sentence, stemmed=stemmed, drop_stop_words=drop) == [
        t.text for t in tokens(sentence, stemmed=stemmed, drop_stop_words=drop)
    ]


@given(st.text(alphabet="aAbBsSzZ09_.-'/+ ", max_size=14))
def test_ascii_part_spans_agree_with_the_character_rules(word: str) -> None:
    """The regex that splits ASCII words gives the spans the character-by-character rules give."""
    assert part_spans(word) == part_spans_by_character(word)


@pytest.mark.parametrize("word", ["PDFsx", "ABs", "AB2s", "aPDFs_v2", "XMLs-ToJSONs", "Ss", "sS"])
def test_ascii_part_spans_on_acronym_edges(word: str) -> None:
    assert part_spans(word) == part_spans_by_character(word)
