"""LONG_REQUESTS: on a sentence, the word-matching brains' share of the vote grows with length."""

from __future__ import annotations

import pytest

from lgent.brains.registry import BrainRegistry
from lgent.config import FusionSettings, settings_from_mapping
from lgent.errors import SettingsError
from lgent.fusion.fusion import QueryFusion
from lgent.fusion.length import length_position, long_request_weights
from lgent.models import QueryType
from tests.conftest import make_entry
from tests.fusion.fakes import FakeBrain, run, snapshot_of, spec

ENTRIES = [make_entry("PageCounter"), make_entry("TextCleaner")]
SHORT = "clean up messy text"
LONG = (
    "I scraped forty product pages from three online shops last night and need the visible "
    "text of every page cleaned, deduplicated and saved as plain UTF-8 files for my archive"
)


def test_position_is_zero_below_short_one_above_long_and_linear_between() -> None:
    assert length_position(3, 8, 20) == 0.0
    assert length_position(8, 8, 20) == 0.0
    assert length_position(14, 8, 20) == pytest.approx(0.5)
    assert length_position(20, 8, 20) == 1.0
    assert length_position(45, 8, 20) == 1.0


def test_the_word_brains_share_moves_towards_the_long_share() -> None:
    weights = {"kw": 0.2, "sem": 0.8}
    halfway = long_request_weights(weights, {"kw"}, 14, short=8, long=20, share=0.6)
    # share 0.2 -> 0.2 + 0.5 * (0.6 - 0.2) = 0.4 of a total of 1.0
    assert halfway == pytest.approx({"kw": 0.4, "sem": 0.6})
    full = long_request_weights(weights, {"kw"}, 30, short=8, long=20, share=0.6)
    assert full == pytest.approx({"kw": 0.6, "sem": 0.4})
    assert long_request_weights(weights, {"kw"}, 5, short=8, long=20, share=0.6) == weights


def test_the_other_brains_keep_their_proportions_and_the_total_is_unchanged() -> None:
    weights = {"kw": 0.5, "sem": 1.0, "toy": 0.5}
    moved = long_request_weights(weights, {"kw"}, 40, short=8, long=20, share=0.75)
    assert sum(moved.values()) == pytest.approx(2.0)
    assert moved["kw"] == pytest.approx(1.5)
    assert moved["sem"] / moved["toy"] == pytest.approx(2.0)


def test_nothing_moves_when_a_group_has_no_weight() -> None:
    only_words = {"kw": 0.5, "sem": 0.0}
    assert long_request_weights(only_words, {"kw"}, 40, short=8, long=20, share=0.6) == only_words
    no_words = {"kw": 0.0, "sem": 0.7}
    assert long_request_weights(no_words, {"kw"}, 40, short=8, long=20, share=0.6) == no_words


def fusion(settings: FusionSettings) -> QueryFusion:
    ids = ("PageCounter", "TextCleaner")
    words = FakeBrain("words", lambda text: list(zip(ids, (9.0, 5.0), strict=True)))
    meaning = FakeBrain("meaning", lambda text: list(zip(ids[::-1], (0.5, 0.4), strict=True)))
    specs = [
        spec(words, {QueryType.SEMANTIC_INTENT: 0.2}, matches_words=True),
        spec(meaning, {QueryType.SEMANTIC_INTENT: 0.8}),
    ]
    registry = BrainRegistry(specs)
    brains = {s.name: s.factory(None) for s in specs}  # type: ignore[arg-type]
    return QueryFusion(brains, registry, snapshot_of(ENTRIES), settings, run)


async def test_a_long_request_gives_the_words_more_of_the_vote() -> None:
    f = fusion(FusionSettings(method="score"))
    short = await f.query(SHORT)
    long = await f.query(LONG)
    assert short.query_type == long.query_type == QueryType.SEMANTIC_INTENT
    weight = {r.brain: r.weight for r in short.brains}
    assert weight == pytest.approx({"words": 0.2, "meaning": 0.8})
    assert short.results[0].id == "TextCleaner"  # the meaning leads a short request
    weight = {r.brain: r.weight for r in long.brains}
    assert weight == pytest.approx({"words": 0.6, "meaning": 0.4})
    assert long.results[0].id == "PageCounter"  # the words lead a long one
    assert "words (weight 0.6" in long.query_interpretation


async def test_the_rule_can_be_switched_off() -> None:
    long = await fusion(FusionSettings(method="score", long_requests=False)).query(LONG)
    assert {r.brain: r.weight for r in long.brains} == pytest.approx({"words": 0.2, "meaning": 0.8})


def test_bad_settings_name_the_key() -> None:
    with pytest.raises(SettingsError, match="short_request_words"):
        FusionSettings(short_request_words=20, long_request_words=8)
    with pytest.raises(SettingsError, match="long_request_share"):
        FusionSettings(long_request_share=1.5)
    with pytest.raises(SettingsError, match="long_requests"):
        settings_from_mapping({"fusion": {"long_requests": "yes"}})
