"""The literal test before a phrase is searched: exact (a text it rules out never matches)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.kinds import Vocabulary
from lgent.kinds.index import KindIndex
from lgent.kinds.literals import lacks_all, phrase_literals, required_literals


@pytest.mark.parametrize(
    ("pattern", "needed"),
    [
        (r"\bmarkdown\b", {"markdown"}),
        (r"\bfile ?paths?\b", {"file"}),
        (r"\b(?:source|program) code\b", {"source", "program"}),  # longer than " code"
        (r"\b(?:js|css) code\b", {" code"}),
        (r"\bsummar(?:y|ies)\b", {"summar"}),
        (r"\b(?:png|jpe?g|gif) files?\b", {" file"}),
        (r"(?<!ip )\b(?:street |postal )?address(?:es)?\b", {"address"}),
        (r"\b(?:latitude|lat)\b", {"latitude", "lat"}),
        (r"\.pptx?\b", {".ppt"}),
        (r"文件路径", {"文件路径"}),
        (r"\bISO 4217\b", {"iso 4217"}),
        (r"ab+c", {"ab"}),
        (r"x{2,}yz", {"yz"}),
    ],
)
def test_what_a_pattern_needs(pattern: str, needed: set[str]) -> None:
    assert required_literals(pattern) == frozenset(needed)


@pytest.mark.parametrize(
    "pattern",
    [
        r"\bq\b",  # too short to be worth a test
        r"a|\bb\w+",  # one alternative needs nothing
        r"(?i)markdown",  # inline flags
        r"(a)\1",  # backreference
        r"\d{3}-\d{4}",
        r"ſtring",  # a character that folds to ASCII (the engine matches "string")
    ],
)
def test_patterns_that_need_nothing_certain(pattern: str) -> None:
    assert required_literals(pattern) is None


def test_a_kind_with_one_pattern_without_literals_is_always_searched() -> None:
    assert phrase_literals([r"\bmarkdown\b", r"\d+ ?%"]) is None
    assert phrase_literals([r"\bmarkdown\b", r"\bmd\b"]) == ("markdown", "md")


def test_only_ascii_texts_are_ruled_out() -> None:
    literals = phrase_literals([r"\bstring\b"])
    assert lacks_all(literals, "A plain Text")
    assert not lacks_all(literals, "A STRING value")
    assert not lacks_all(literals, "ſtring, folded by the regex engine")  # not ASCII: searched
    assert re.search(r"\bstring\b", "ſtring", re.IGNORECASE)


WORDS = st.sampled_from(
    ["file", "path", "pdf", "markdown", "url", " ", "-", "_", "ID", "Date", "time", "价格", "s"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=12).map("".join))
def test_no_phrase_that_matches_is_ruled_out(vocabulary: Vocabulary, text: str) -> None:
    index = vocabulary.index
    candidates = {k.name for k in index.phrase_kinds(text)}
    for kind in vocabulary:
        if kind.rules.any_phrase is not None and kind.rules.any_phrase.search(text):
            assert not lacks_all(kind.rules.phrase_literals, text), kind.name
            assert kind.name in candidates, kind.name


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["he", "she", "his", "hers", "x", "s", "h"]), max_size=10))
def test_the_automaton_finds_what_a_substring_test_finds(parts: list[str]) -> None:
    from lgent.kinds.index import _Automaton

    texts = {"he": 0, "she": 1, "his": 2, "hers": 3, "s": 4}
    automaton = _Automaton({t: frozenset({n}) for t, n in texts.items()})
    text = "".join(parts)
    assert automaton.search(text) == frozenset(n for t, n in texts.items() if t in text)


def test_the_index_keeps_vocabulary_order(vocabulary: Vocabulary) -> None:
    index = KindIndex(vocabulary)
    found = [k.name for k in index.phrase_kinds("Path to the output Markdown file")]
    order = [k.name for k in vocabulary]
    assert found == sorted(found, key=order.index)
    assert "Markdown" in found and "FilePath" in found
    assert "CurrencyCode" not in found
