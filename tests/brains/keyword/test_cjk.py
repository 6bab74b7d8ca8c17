"""Chinese and Japanese text, written without spaces: a word inside it is found as its
characters in a row (one token per ideograph or kana, the query's characters a phrase)."""

from __future__ import annotations

import re

import pytest

from lgent.brains.keyword.brain import KeywordBrain
from lgent.brains.keyword.highlight import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, snippet
from tests.conftest import entry_lookup, make_entry

ENTRIES = [
    make_entry(
        "get-stations",
        description="通过中文城市名查询该城市所有火车站的名称，结果是一个包含多个车站信息的列表。",
    ),
    make_entry("ride", description="乘客站在车上等待出发。"),  # 站 and 车, never 车站
    make_entry("timetable", description="東京駅の時刻表を検索するツールです。"),
    make_entry("PDFParser", description="Extracts text from PDF files."),
]


@pytest.fixture(scope="module")
def brain() -> KeywordBrain:
    b = KeywordBrain(None, entries=entry_lookup(ENTRIES))
    b.build(ENTRIES, [], change_number=len(ENTRIES))
    return b


def ids(brain: KeywordBrain, query: str) -> set[str]:
    return {h.id for h in brain.search(query, limit=20).hits}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("车站", {"get-stations"}),  # inside 多个车站信息
        ("火车站", {"get-stations"}),
        ("城市", {"get-stations"}),
        ("description:车站", {"get-stations"}),
        ('"车站信息"', {"get-stations"}),
        ("时刻表", set()),  # simplified characters do not match the traditional 時刻表
        ("時刻表", {"timetable"}),
        ("検索", {"timetable"}),
        ("ツール", {"timetable"}),
        ("站车", set()),  # the characters out of order
        ("火站", set()),  # not adjacent (火车站)
        ("车 站", {"get-stations", "ride"}),  # two words: each anywhere
        ("pdf", {"PDFParser"}),
    ],
)
def test_a_word_is_found_inside_cjk_text_as_its_characters_in_a_row(
    brain: KeywordBrain, query: str, expected: set[str]
) -> None:
    assert ids(brain, query) == expected


def test_the_matched_characters_are_highlighted(brain: KeywordBrain) -> None:
    (hit,) = brain.search("火车站").hits
    assert hit.matched_fields == ("description",)
    marked = hit.highlights["description"]
    assert "所有<mark>火</mark><mark>车</mark><mark>站</mark>的名称" in marked
    assert re.sub("</?mark>", "", marked) == ENTRIES[0].description


def test_a_snippet_is_never_cut_inside_a_tag() -> None:
    """Dense highlights (one per character) put a tag wherever the window happens to end."""
    marked = "".join(f"{HIGHLIGHT_OPEN}日{HIGHLIGHT_CLOSE}期" for _ in range(40))
    for width in range(20, 60):
        cut = snippet(marked, width)
        assert cut.endswith("…")
        shown = re.sub("</?mark>", "", cut)
        assert "<" not in shown and ">" not in shown, (width, cut)
        assert cut.count(HIGHLIGHT_OPEN) == cut.count(HIGHLIGHT_CLOSE)
